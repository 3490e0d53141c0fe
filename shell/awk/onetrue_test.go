package awk

// The One True AWK's test suite (github.com/onetrueawk/awk: testdir and
// bugs-fixed), run against this awk when ONETRUEAWK_DIR names a checkout of
// it. Nothing of that suite is kept in this repository.
//
// The awk under test is this test binary itself: run with CORDON_AWK_HOST
// set, TestMain runs the awk command over a VFS that holds the files of
// the working directory, then writes the files the program created or
// changed back to the host. The suite's shell scripts call it as ../a.out,
// as in the suite's own REGRESS.
//
//	ONETRUEAWK_DIR=/path/to/awk go test ./shell/awk -run OneTrue -v
//
// The t.* and p.* programs are compared with the output of the reference
// awk (original-awk, else gawk); the T.* scripts report their own failures
// ("BAD:", "fails"); bugs-fixed compares with its .ok files.

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/cordonhq/cordon/shell/command"
	"github.com/cordonhq/cordon/vfs"
)

func TestMain(m *testing.M) {
	if os.Getenv("CORDON_AWK_HOST") != "" {
		os.Exit(hostAwk(os.Args[1:]))
	}
	os.Exit(m.Run())
}

// hostFS mirrors host files into a VFS and back.
type hostFS struct {
	fs   *vfs.FS
	orig map[string]string // VFS path -> content loaded
}

func (h *hostFS) load(p string) {
	data, err := os.ReadFile(p)
	if err != nil {
		return
	}
	if err := h.fs.Privileged().MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return
	}
	if err := h.fs.Privileged().WriteFile(p, data, 0o644); err == nil {
		h.orig[p] = string(data)
	}
}

// loadDir loads the small regular files of dir.
func (h *hostFS) loadDir(dir string) {
	ents, _ := os.ReadDir(dir)
	for _, e := range ents {
		if !e.Type().IsRegular() {
			continue
		}
		if fi, err := e.Info(); err != nil || fi.Size() > 300<<10 {
			continue
		}
		if _, ok := h.orig[filepath.Join(dir, e.Name())]; !ok {
			h.load(filepath.Join(dir, e.Name()))
		}
	}
}

// sync writes the files of the VFS that are new or changed to the host.
func (h *hostFS) sync() {
	fs.WalkDir(h.fs, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return nil
		}
		abs := "/" + p
		data, err := h.fs.ReadFile(abs)
		if err != nil {
			return nil
		}
		if old, ok := h.orig[abs]; ok && old == string(data) {
			return nil
		}
		if !strings.HasPrefix(abs, "/tmp/") {
			return nil
		}
		os.MkdirAll(filepath.Dir(abs), 0o755)
		os.WriteFile(abs, data, 0o644)
		h.orig[abs] = string(data)
		return nil
	})
}

// reload reads back the files of the working directory, which a command
// may have changed.
func (h *hostFS) reload(dir string) {
	for p, old := range h.orig {
		data, err := os.ReadFile(p)
		if err == nil && string(data) != old {
			h.fs.Privileged().WriteFile(p, data, 0o644)
			h.orig[p] = string(data)
		}
	}
	h.loadDir(dir)
}

func hostAwk(args []string) int {
	// The sandbox has no signals: a write to a closed pipe is an error,
	// which this awk reports with status 2, as a C awk does with SIGPIPE
	// ignored. Without this, the Go host process would die of SIGPIPE.
	// The signal is caught rather than ignored, so that the commands
	// the awk runs get the default action, as they would from a C awk.
	signal.Notify(make(chan os.Signal, 1), syscall.SIGPIPE)
	if a0 := os.Getenv("CORDON_AWK_ARGV0"); a0 != "" {
		// The name the suite ran the awk by, as a C awk's argv[0].
		argv0 = a0
	}
	dir, _ := os.Getwd()
	h := &hostFS{fs: vfs.New(vfs.Limits{}), orig: map[string]string{}}
	h.loadDir(dir)
	h.load("/etc/passwd")
	for _, a := range args {
		if fi, err := os.Stat(a); err == nil && fi.Mode().IsRegular() {
			p, _ := filepath.Abs(a)
			if _, ok := h.orig[p]; !ok {
				h.load(p)
			}
		}
		// Files the program names, such as a getline source in /tmp.
		for _, p := range tmpPath.FindAllString(a, -1) {
			if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() {
				h.loadDir(filepath.Dir(p))
			}
		}
	}
	// awk buffers its output itself, and flushes it before it writes an
	// error.
	stdout := os.Stdout
	env := &command.Env{
		Ctx:     context.Background(),
		Args:    append([]string{argv0}, args...),
		Stdin:   os.Stdin,
		Stdout:  stdout,
		Stderr:  os.Stderr,
		Dir:     dir,
		FS:      h.fs,
		Environ: os.Environ(),
		Now:     time.Now,
	}
	env.Exec = func(ctx context.Context, argv, environ []string, stdin io.Reader, out, errw io.Writer) int {
		h.sync()
		cmd := exec.Command(argv[0], argv[1:]...)
		cmd.Dir = dir
		cmd.Stdin, cmd.Stdout, cmd.Stderr = stdin, out, errw
		err := cmd.Run()
		h.reload(dir)
		if ee, ok := err.(*exec.ExitError); ok {
			return ee.ExitCode()
		}
		if err != nil {
			fmt.Fprintf(errw, "%s: command not found\n", argv[0])
			return 127
		}
		return 0
	}
	status := Commands()["awk"](env)
	h.sync()
	return status
}

var (
	failsLine = regexp.MustCompile(`^\d+ fails `)
	slashRE   = regexp.MustCompile(`/[^ /]+/`)
)

// argv0 is the awk's argv[0] in hostAwk.
var argv0 = "awk"

var tmpPath = regexp.MustCompile(`/tmp/[A-Za-z0-9._/-]+`)

// refAwk returns the reference awk for the t.* and p.* programs.
func refAwk() string {
	for _, name := range []string{"original-awk", "gawk"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

// onetrueSkip lists the tests left out, with the reason: they depend on
// rand()'s sequence, or on killing a process with a signal, which the
// sandbox does not have. T.* checks named "(rand)" are left out too.
var onetrueSkip = map[string]string{
	"t.randk": "rand()",
	"p.48b":   "rand()",
	// Kills the shell that system() runs with a signal: the sandbox has
	// no processes and no kill.
	"bugs-fixed/system-status": "signals",
	// The same program, run by T.arnold from arnold-fixes.tar.
	"T.arnold: BAD: T.arnold (system-status)": "signals",
}

func TestOneTrueAWK(t *testing.T) {
	src := os.Getenv("ONETRUEAWK_DIR")
	if src == "" {
		t.Skip("SKIPPED, not passed: ONETRUEAWK_DIR is not set (a onetrue-awk checkout holding testdir)")
	}
	if _, err := os.Stat(filepath.Join(src, "testdir", "T.misc")); err != nil {
		t.Skipf("SKIPPED, not passed: no testdir/T.misc in ONETRUEAWK_DIR=%s", src)
	}
	ref := refAwk()
	if ref == "" {
		t.Skip("SKIPPED, not passed: no reference awk (original-awk or gawk) on PATH")
	}
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	ours, refOut := runOneTrue(t, src, "CORDON_AWK_HOST=1 exec "+self, ref)
	// Checks of onetrueawk's own wording and choices: a check that gawk
	// fails in the same way counts as passed when this awk behaves as gawk.
	var gawk map[string]string
	if g, err := exec.LookPath("gawk"); err == nil {
		res, _ := runOneTrue(t, src, "exec "+g, ref)
		gawk = map[string]string{}
		for k, v := range res {
			gawk[normKey(k)] = normKey(v)
		}
	}
	total := len(ours)
	names := make([]string, 0, len(ours))
	for k := range ours {
		names = append(names, k)
	}
	sort.Strings(names)
	pass, asGawk := 0, 0
	var failed []string
	for _, k := range names {
		switch {
		case ours[k] == "":
			pass++
		case strings.Contains(k, "(rand)") || onetrueSkip[k] != "":
			// A check of rand()'s sequence, excluded like t.randk.
			total--
		case gawk != nil && gawk[normKey(k)] != "" && sameFailure(ours[k], gawk[normKey(k)]):
			asGawk++
			t.Logf("as gawk %s", k)
		default:
			failed = append(failed, k)
			detail := ours[k]
			if !strings.Contains(k, ": ") {
				detail = diffText(refOut[k], ours[k])
			}
			t.Logf("FAIL %s\n%s", k, detail)
		}
	}
	t.Logf("onetrueawk: %d of %d pass (%.2f%%), %d more fail as in gawk (%.2f%% in all); failing: %s",
		pass, total, 100*float64(pass)/float64(total), asGawk, 100*float64(pass+asGawk)/float64(total), strings.Join(failed, " "))
	if float64(pass+asGawk) < 0.995*float64(total) {
		t.Errorf("pass rate %.2f%% is under 99.5%%", 100*float64(pass+asGawk)/float64(total))
	}
}

// sameFailure reports whether two failure reports are the same check
// failing: the same BAD line of a T.* script, or the same output, where
// error messages count as equal whatever their words.
func sameFailure(a, b string) bool {
	return normFailure(a) == normFailure(b)
}

var errLine = regexp.MustCompile(`^(\S*a\.out|awk|gawk|\S*/gawk|\S*/awk\.test):`)

// normKey removes an awk's error prefix from a T.* script's failure line,
// so that the same check failing with an error in two awks is recognized.
func normKey(s string) string {
	return errPrefix.ReplaceAllString(s, "${1}awk: ")
}

var errPrefix = regexp.MustCompile(`(?m)(^|: )(\S*a\.out|awk|gawk|\S*/gawk):( cmd\. line:\d+:| line \d+:)* ?`)

func normFailure(s string) string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if errLine.MatchString(l) || strings.HasPrefix(l, " source line number") {
			l = "awk: error"
			if len(out) > 0 && out[len(out)-1] == l {
				continue
			}
		}
		out = append(out, l)
	}
	return strings.Join(out, "\n")
}

// runOneTrue runs the suite with the awk that the shell command line
// prefix awkCmd runs, and returns a failure report for every test ("" when
// it passed: the output, or the BAD line) and the expected outputs.
func runOneTrue(t *testing.T, src, awkCmd, ref string) (res, wants map[string]string) {
	root := t.TempDir()
	for _, d := range []string{"testdir", "bugs-fixed"} {
		if out, err := exec.Command("cp", "-r", filepath.Join(src, d), root).CombinedOutput(); err != nil {
			t.Fatalf("cp: %v %s", err, out)
		}
	}
	wrapper := filepath.Join(root, "a.out")
	os.WriteFile(wrapper, []byte("#!/bin/sh\nCORDON_AWK_ARGV0=\"$0\" "+awkCmd+" \"$@\"\n"), 0o755)
	td := filepath.Join(root, "testdir")
	os.WriteFile(filepath.Join(td, "echo"), []byte("#!/bin/sh\nn=\nif [ \"$1\" = -n ]; then n=1; shift; fi\nprintf '%s' \"$*\"\n[ -z \"$n\" ] && printf '\\n'\nexit 0\n"), 0o755)

	res, wants = map[string]string{}, map[string]string{}
	run := func(dir, name string, args ...string) (string, error) {
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		defer cancel()
		cmd := exec.CommandContext(ctx, name, args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "PATH="+td+":"+os.Getenv("PATH"), "LC_ALL=C.UTF-8")
		out, err := cmd.CombinedOutput()
		return string(out), err
	}

	// t.* and p.*: compare with the reference awk.
	progs, _ := filepath.Glob(filepath.Join(td, "[tp].*"))
	sort.Strings(progs)
	for _, p := range progs {
		name := filepath.Base(p)
		if onetrueSkip[name] != "" || name == "p.table" {
			continue
		}
		data := []string{"test.data"}
		if name[0] == 'p' {
			data = []string{"test.countries", "test.countries"}
		}
		args := append([]string{"-f", name}, data...)
		want, _ := run(td, ref, args...)
		got, _ := run(td, wrapper, args...)
		res[name] = ""
		wants[name] = want
		if got != want && !(forIn.MatchString(readText(p)) && sortedText(got) == sortedText(want)) {
			// The order of "for (k in a)" is unspecified: this awk's
			// is the order of insertion, so only the lines are compared.
			res[name] = got
		}
	}

	// T.*: scripts that check themselves.
	scripts, _ := filepath.Glob(filepath.Join(td, "T.*"))
	sort.Strings(scripts)
	awkLine := regexp.MustCompile(`\$awk\b`)
	for _, p := range scripts {
		name := filepath.Base(p)
		src, _ := os.ReadFile(p)
		n := len(awkLine.FindAll(src, -1))
		out, _ := run(td, "sh", name)
		var bad []string
		seen := map[string]bool{}
		for _, l := range strings.Split(out, "\n") {
			switch {
			case strings.Contains(l, "BAD") || failsLine.MatchString(l):
				bad = append(bad, l)
			case errPrefix.MatchString(l) && slashRE.MatchString(l):
				// A regex the awk refused, in T.re's generated programs:
				// one failure, whatever the awk's words.
				k := "error " + slashRE.FindString(l)
				if !seen[k] {
					seen[k] = true
					bad = append(bad, k)
				}
			}
		}
		// Table-driven scripts run many cases through one command.
		if m := regexp.MustCompile(`(?m)^\s*(\d+) tests`).FindStringSubmatch(out); m != nil {
			var k int
			fmt.Sscan(m[1], &k)
			n = max(n, k)
		}
		n = max(n, len(bad), 1)
		for i := 0; i < n; i++ {
			key := fmt.Sprintf("%s#%d", name, i+1)
			res[key] = ""
		}
		for i, l := range bad {
			// Failures are keyed by their text, so that the same check
			// failing with another awk is recognized.
			res[fmt.Sprintf("%s#%d", name, n-i)] = "x"
			res[name+": "+l] = l
			delete(res, fmt.Sprintf("%s#%d", name, n-i))
		}
	}

	// bugs-fixed: programs with expected output.
	bf := filepath.Join(root, "bugs-fixed")
	progs, _ = filepath.Glob(filepath.Join(bf, "*.awk"))
	sort.Strings(progs)
	for _, p := range progs {
		base := strings.TrimSuffix(filepath.Base(p), ".awk")
		args := []string{"-f", base + ".awk"}
		if _, err := os.Stat(filepath.Join(bf, base+".in")); err == nil {
			args = append(args, base+".in")
		}
		// As the suite's REGRESS runs it, so that an error names the
		// awk "../a.out", as the .ok files expect.
		got, _ := run(bf, "../a.out", args...)
		want, _ := os.ReadFile(filepath.Join(bf, base+".ok"))
		ok := got == string(want)
		if !ok {
			if w2, err := os.ReadFile(filepath.Join(bf, base+".ok2")); err == nil && got == string(w2) {
				ok = true
			}
		}
		key := "bugs-fixed/" + base
		res[key] = ""
		wants[key] = string(want)
		if !ok {
			res[key] = got
		}
	}
	return res, wants
}

var forIn = regexp.MustCompile(`for *\( *[A-Za-z_]+ +in `)

func readText(p string) string {
	data, _ := os.ReadFile(p)
	return string(data)
}

func sortedText(s string) string {
	l := strings.Split(s, "\n")
	sort.Strings(l)
	return strings.Join(l, "\n")
}

// diffText shows the first differing lines of two outputs.
func diffText(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	var b bytes.Buffer
	shown := 0
	for i := 0; i < max(len(w), len(g)) && shown < 6; i++ {
		var wl, gl string
		if i < len(w) {
			wl = w[i]
		}
		if i < len(g) {
			gl = g[i]
		}
		if wl != gl {
			fmt.Fprintf(&b, "  line %d\n    want %q\n    got  %q\n", i+1, wl, gl)
			shown++
		}
	}
	return b.String()
}
