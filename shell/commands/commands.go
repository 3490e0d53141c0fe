// Package commands is the one list of the sandbox shell's commands: All
// merges the registries of every command package (coreutils, textutils,
// awk, jq, diffutil, archive, textproc, sysutils, fileutils, hexfmt and
// netutils). The guest's shell runtime runs a script with All plus its own
// commands (tool, node, js, and curl and wget bound to the host's fetch
// tool), and the tests that need "every command" use All, so that a new
// command package is added here once.
package commands

import (
	"github.com/cordonhq/cordon/shell/archive"
	"github.com/cordonhq/cordon/shell/awk"
	"github.com/cordonhq/cordon/shell/command"
	"github.com/cordonhq/cordon/shell/coreutils"
	"github.com/cordonhq/cordon/shell/diffutil"
	"github.com/cordonhq/cordon/shell/fileutils"
	"github.com/cordonhq/cordon/shell/hexfmt"
	"github.com/cordonhq/cordon/shell/jq"
	"github.com/cordonhq/cordon/shell/netutils"
	"github.com/cordonhq/cordon/shell/sysutils"
	"github.com/cordonhq/cordon/shell/textproc"
	"github.com/cordonhq/cordon/shell/textutils"
)

// Families returns the registry of every command package, keyed by the
// package's name ("coreutils", "jq", ...). No two of them hold the same
// command name.
func Families() map[string]command.Registry {
	return map[string]command.Registry{
		"coreutils": coreutils.Commands(),
		"textutils": textutils.Commands(),
		"awk":       awk.Commands(),
		"jq":        jq.Commands(),
		"diffutil":  diffutil.Commands(),
		"archive":   archive.Commands(),
		"textproc":  textproc.Commands(),
		"sysutils":  sysutils.Commands(),
		"fileutils": fileutils.Commands(),
		"hexfmt":    hexfmt.Commands(),
		"netutils":  netutils.Commands(),
	}
}

// All returns a new registry holding every command of every command
// package (see Families). The caller may add to it or change it.
func All() command.Registry { return merge(Families()) }

// merge joins the families into one registry, each command wrapped with
// [command.Recover]: a panic in any command, whether its family wraps its
// commands or not, is that command's internal error, never the shell's.
func merge(families map[string]command.Registry) command.Registry {
	reg := command.Registry{}
	for _, fam := range families {
		reg.Merge(fam)
	}
	return command.RecoverAll(reg)
}
