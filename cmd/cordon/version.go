package main

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"
	"time"
	"unicode"

	"github.com/cordonhq/cordon/engine"
)

// execute runs the script; tests replace it to time the execution itself,
// apart from the start of the engine.
var execute = func(ctx context.Context, sb *engine.Sandbox, lang engine.Language, code string, opts ...engine.ExecuteOption) (*engine.Result, error) {
	return sb.Execute(ctx, lang, code, opts...)
}

// scriptName is the name a script file has in its errors: the path as
// given, with any control character (which the engine refuses in a name)
// shown as '?'.
func scriptName(path string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsControl(r) || r == unicode.ReplacementChar {
			return '?'
		}
		return r
	}, strings.ToValidUTF8(filepath.ToSlash(path), "?"))
}

// helpRequest is -h or --help given to a command: its help goes to stdout,
// and cordon exits 0.
type helpRequest struct{ cmd string }

func (h *helpRequest) Error() string { return "help requested" }

// text is the command's help: for run and mcp, its usage line and flags;
// for the others, the usage of every command.
func (h *helpRequest) text() string {
	run, mcp, _ := strings.Cut(usage, "\nmcp flags")
	switch h.cmd {
	case "run":
		if i := strings.Index(run, "run flags:"); i >= 0 {
			return "usage: cordon run [flags] [FILE | -]   (-e CODE for inline code, - for stdin)\n\n" + run[i:]
		}
	case "mcp":
		return "usage: cordon mcp [flags]   (stdio, or streamable HTTP with --http ADDR)\n\nmcp flags" + mcp
	}
	return usage
}

// Modules whose versions `cordon version` prints, besides cordon's own:
// goja is in the guest, the others in cordon itself.
var versionModules = []struct {
	name, path string
	guest      bool
}{
	{"goja", "github.com/dop251/goja", true},
	{"wazero", "github.com/tetratelabs/wazero", false},
	{"opa", "github.com/open-policy-agent/opa", false},
}

// cmdVersion prints cordon's version (mainVersion), the SHA-256 of the guest
// module it embeds (what `go generate ./engine` reports), and the versions
// of goja, wazero and OPA it was built with.
func cmdVersion(args []string, stdout io.Writer) error {
	fs := newFlagSet("version")
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return flagError("version", err)
	}
	if len(pos) > 0 {
		return usagef("version: unexpected argument %q", pos[0])
	}
	guest, err := engine.Guest()
	if err != nil {
		return err
	}
	bi, _ := debug.ReadBuildInfo()
	_, err = io.WriteString(stdout, versionText(bi, guest))
	return err
}

// versionText is what `cordon version` prints for the build info bi (nil
// when the binary has none) and the guest.
func versionText(bi *debug.BuildInfo, guest engine.GuestInfo) string {
	version, deps, guestDeps := mainVersion(bi), map[string]string{}, map[string]string{}
	if guest.Build != nil {
		for _, d := range guest.Build.Deps {
			guestDeps[d.Path] = d.Version
		}
	}
	if bi != nil {
		for _, d := range bi.Deps {
			v := d.Version
			if d.Replace != nil {
				v += " => " + d.Replace.Path + " " + d.Replace.Version
			}
			deps[d.Path] = v
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "cordon  %s\n", version)
	fmt.Fprintf(&b, "guest   sha256 %s\n", guest.SHA256)
	for _, m := range versionModules {
		v := deps[m.path]
		if m.guest {
			v = guestDeps[m.path]
		}
		if v == "" {
			v = "unknown (no module information in this binary)"
		}
		fmt.Fprintf(&b, "%-7s %s\n", m.name, v)
	}
	fmt.Fprintf(&b, "go      %s %s/%s\n", runtime.Version(), runtime.GOOS, runtime.GOARCH)
	return b.String()
}

// mainVersion is cordon's version as the build info bi records it: the
// module version that `go install github.com/cordonhq/cordon/cmd/cordon@v1.2.3`
// (or @latest, or a pseudo-version) stamps, and that `go build` in a git
// checkout stamps too (v0.0.0-20261206205216-86e8f3e78e36, with +dirty
// when the tree has changes). A build that has none ("(devel)": go run,
// -buildvcs=false, a git worktree) falls back on the VCS settings, when
// the build recorded them, as "devel+REVISION (DATE[, modified])", and
// else is "devel". A binary without build info is "unknown".
func mainVersion(bi *debug.BuildInfo) string {
	if bi == nil {
		return "unknown"
	}
	if v := bi.Main.Version; v != "" && v != "(devel)" {
		return v
	}
	var rev, date string
	modified := false
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.time":
			date = s.Value
			if t, err := time.Parse(time.RFC3339, s.Value); err == nil {
				date = t.UTC().Format(time.DateOnly)
			}
		case "vcs.modified":
			modified = s.Value == "true"
		}
	}
	if rev == "" {
		return "devel"
	}
	if len(rev) > 12 {
		rev = rev[:12] // as a pseudo-version abbreviates it
	}
	var notes []string
	if date != "" {
		notes = append(notes, date)
	}
	if modified {
		notes = append(notes, "modified")
	}
	if len(notes) == 0 {
		return "devel+" + rev
	}
	return "devel+" + rev + " (" + strings.Join(notes, ", ") + ")"
}
