package shell

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/cordonhq/cordon/shell/command"
	"github.com/cordonhq/cordon/shell/commands"
	"github.com/cordonhq/cordon/vfs"
)

// Output order (docs/shell.md, "Output order"): when standard output and standard
// error reach the same place, the bytes come out in the order the commands
// wrote them. These tests run a script that makes a command write to both
// and reduce what came out to its shape, a letter per run of lines: O for
// standard output, E for standard error ("OEO": output, then an error,
// then output again). Comparing shapes rather than text keeps a
// difference in the wording of a message from hiding or faking an order
// difference.
//
// Every builtin needs a case (a new one fails the test until it has one).
// Every registered command has one: its own below, or the default, which
// names an existing file, a missing one and another existing file, as
// agents do. The expected shape is bash's with GNU's tools, run unbuffered
// (stdbuf's library) so that they write in the order they produce, when
// bash and the tool are on this machine; an explicit shape is checked
// against bash too.

// orderCase is a script and the shape of its combined output.
type orderCase struct {
	script string
	want   string // "" takes bash's shape (the case is skipped without bash)
}

// orderFiles are the files every order script sees, in its working
// directory.
var orderFiles = map[string]string{
	"a": "a1\na2\n", "b": "b1\nb2\n", "j1": "1\n", "j2": "2\n",
}

// builtinOrderCases has a case for every builtin.
var builtinOrderCases = map[string]orderCase{
	":":         {script: `: a; echo x; : b >&2`, want: "O"},
	"true":      {script: `true; echo x`, want: "O"},
	"false":     {script: `false; echo x`, want: "O"},
	"echo":      {script: `echo a; echo b >&2; echo c`, want: "OEO"},
	"printf":    {script: `printf '%s\n%d\n%s\n' a x c`, want: "OEO"},
	"cd":        {script: `echo a; cd /nonexistent; pwd >/dev/null; echo c`, want: "OEO"},
	"pwd":       {script: `pwd; pwd -Z; pwd`, want: "OEO"},
	"exit":      {script: `echo a; (exit x); echo c`, want: "OEO"},
	"return":    {script: `echo a; f() { return x; }; f; echo c`, want: "OEO"},
	"break":     {script: `for i in 1; do echo a; done; break; echo c`, want: "OEO"},
	"continue":  {script: `for i in 1; do echo a; done; continue; echo c`, want: "OEO"},
	"eval":      {script: `eval 'echo a; printf "%d\n" x; echo c'`, want: "OEO"},
	"source":    {script: `echo a; source /nonexistent; echo c`, want: "OEO"},
	".":         {script: `echo a; . /nonexistent; echo c`, want: "OEO"},
	"export":    {script: `export A=1; export -p | grep -w A; export 'a b'; echo c`, want: "OEO"},
	"readonly":  {script: `readonly R=1; readonly -p | grep -w R; readonly 'a b'; echo c`, want: "OEO"},
	"local":     {script: `f() { local v=1; local -p; local 'a b'; echo c; }; f`, want: "OEO"},
	"declare":   {script: `A=1 B=2; declare -p A nonexistent B`, want: "OEO"},
	"typeset":   {script: `A=1 B=2; typeset -p A nonexistent B`, want: "OEO"},
	"unset":     {script: `echo a; unset -Z; echo c`, want: "OEO"},
	"set":       {script: `echo a; set -o bogus; echo c`, want: "OEO"},
	"shift":     {script: `echo a; shift x; echo c`, want: "OEO"},
	"shopt":     {script: `shopt nullglob bogus extglob`, want: "OEO"},
	"read":      {script: `read -r v <<< a; echo $v; read -Z v; echo c`, want: "OEO"},
	"test":      {script: `test 1 -eq 1 && echo a; test 1 -eq x; echo c`, want: "OEO"},
	"[":         {script: `[ 1 -eq 1 ] && echo a; [ 1 -eq x ]; echo c`, want: "OEO"},
	"type":      {script: `type echo nonexistent printf`, want: "OEO"},
	"command":   {script: `command -v echo; command -Z; echo c`, want: "OEO"},
	"builtin":   {script: `builtin echo a; builtin nonexistent; echo c`, want: "OEO"},
	"trap":      {script: `trap 'echo t' EXIT; trap -p EXIT; trap x BOGUS; echo c`, want: "OEO"},
	"getopts":   {script: `getopts a o -a -b; echo $o; getopts a o -a -b; echo c`, want: "OEO"},
	"hash":      {script: `echo a; hash; echo c >&2`, want: "OE"},
	"wait":      {script: `echo a; wait; echo c >&2`, want: "OE"},
	"umask":     {script: `umask; echo c >&2`, want: "OE"},
	"let":       {script: `let 'v=1' && echo a; let 'v=1+'; echo c`, want: "OEO"},
	"alias":     {script: `alias a=b; alias a nonexistent`, want: "OE"},
	"unalias":   {script: `echo a; unalias x 2>/dev/null; echo c >&2`, want: "OE"},
	"times":     {script: `times >/dev/null; echo a; echo c >&2`, want: "OE"},
	"mapfile":   {script: `mapfile -t l <<< a; echo ${l[0]}; mapfile -Z; echo c`, want: "OEO"},
	"readarray": {script: `readarray -t l <<< a; echo ${l[0]}; readarray -Z; echo c`, want: "OEO"},
	"jobs":      {script: `echo a; jobs; echo c >&2`, want: "OE"},
	"ulimit":    {script: `ulimit; echo c >&2`, want: "OE"},
	"enable":    {script: `echo a; enable echo; echo c >&2`, want: "OE"},
	"fg":        {script: `echo a; fg; echo c`, want: "OEO"},
	"bg":        {script: `echo a; bg; echo c`, want: "OEO"},
	"disown":    {script: `echo a; disown %1; echo c`, want: "OEO"},
	"kill":      {script: `echo a; kill -Z; echo c`, want: "OEO"},
	"suspend":   {script: `echo a; suspend -Z; echo c`, want: "OEO"},
	"exec":      {script: `echo a; (exec 3</nonexistent); echo c`, want: "OEO"},
	"coproc":    {script: `echo a; echo c >&2`, want: "OE"},
	"logout":    {script: `echo a; logout; echo c`, want: "OEO"},
	"history":   {script: `echo a; history -Z; echo c`, want: "OEO"},
	"fc":        {script: `echo a; fc -Z; echo c`, want: "OEO"},
	"bind":      {script: `echo a; bind -Z; echo c`, want: "OEO"},
	"complete":  {script: `echo a; complete -Z; echo c`, want: "OEO"},
	"compgen":   {script: `echo a; compgen -Z; echo c`, want: "OEO"},
	"compopt":   {script: `echo a; compopt -Z; echo c`, want: "OEO"},
	"dirs":      {script: `echo a; dirs -Z; echo c`, want: "OEO"},
	"pushd":     {script: `echo a; pushd /nonexistent; echo c`, want: "OEO"},
	"popd":      {script: `echo a; popd -Z; echo c`, want: "OEO"},
	"help":      {script: `help -s cd; help nosuch; echo c`, want: "OEO"},
	"caller":    {script: `f() { caller; caller x; echo c; }; f`, want: "OEO"},
}

// commandOrderCases are the commands whose default case (FILE MISSING
// FILE) says little about their order, or would not end.
var commandOrderCases = map[string]orderCase{
	"grep":   {script: `grep . a /nonexistent b`, want: "OEO"},
	"egrep":  {script: `egrep . a /nonexistent b 2>&1 | grep -v obsolescent`},
	"fgrep":  {script: `fgrep 1 a /nonexistent b 2>&1 | grep -v obsolescent`},
	"sed":    {script: `sed -n p a /nonexistent b`, want: "OEO"},
	"awk":    {script: `awk '{ print } NR == 2 { print "e" > "/dev/stderr" }' a b`, want: "OEO"},
	"jq":     {script: `jq . j1 /nonexistent j2; jq -R . j1 /nonexistent j2; jq -n 'input, input' j1 /nonexistent j2`, want: "OEOEOEO"},
	"xargs":  {script: `echo a b | xargs -t -n1 echo`, want: "EOEO"},
	"find":   {script: `find a /nonexistent b`, want: "OEO"},
	"yes":    {script: `yes a | head -n 2; yes a /nonexistent | head -n 1`, want: "O"},
	"tee":    {script: `echo hi | tee /nonexistent/x`, want: "EO"},
	"sleep":  {script: `echo a; sleep x; echo c`, want: "OEO"},
	"env":    {script: `env A=1 printenv A; env -Z; echo c`, want: "OEO"},
	"date":   {script: `date -d @0 -u +%Y; date -d bogus; echo c`, want: "OEO"},
	"mktemp": {script: `mktemp -p /nonexistent; echo c`, want: "EO"},
	"seq":    {script: `seq 2; seq x; seq 1`, want: "OEO"},
	// GNU tac holds its output in a buffer of its own until it exits.
	"tac":   {script: `tac a; tac /nonexistent; tac b`, want: "OEO"},
	"cp":    {script: `cp -v a a2; cp /nonexistent c; cp -v b b2`, want: "OEO"},
	"mv":    {script: `cp a a2; cp b b2; mv -v a2 a3; mv /nonexistent c; mv -v b2 b3`, want: "OEO"},
	"rm":    {script: `cp a a2; cp b b2; rm -v a2 /nonexistent b2`, want: "OEO"},
	"stat":  {script: `stat -c %n a /nonexistent b`, want: "OEO"},
	"mkdir": {script: `mkdir -v d1 /nonexistent/d d2`, want: "OEO"},
	"rmdir": {script: `mkdir d1 d2; rmdir -v d1 /nonexistent d2`, want: "OEO"},
	"touch": {script: `echo a; touch /nonexistent/x; echo c`, want: "OEO"},
	// GNU wget stamps each request with the time to the second, which can
	// differ between the reference's two runs (one with the streams
	// joined, one apart); -nv leaves the stamp out.
	"wget": {script: `wget -nv a /nonexistent b`, want: "E"},
}

// orderCommands is the registry the order tests run.
func orderCommands() command.Registry { return commands.All() }

// runOrder runs script in a fresh VFS holding orderFiles with the given
// writers for standard output and error.
func runOrder(t *testing.T, cmds command.Registry, script string, stdout, stderr *bytes.Buffer) {
	t.Helper()
	fs := vfs.New(vfs.Limits{MaxBytes: 1 << 20})
	for name, body := range orderFiles {
		if err := fs.WriteFile("/workspace/"+name, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	_, err := Run(ctx, Config{FS: fs, Commands: cmds, Stdout: stdout, Stderr: stderr,
		Now: func() time.Time { return time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC) }}, "script.sh", script)
	if err != nil {
		t.Fatal(err)
	}
}

// shape reduces combined output to a letter per line, given the lines of
// standard output and error alone; "?" marks a line that is in neither
// (the combined output is not an interleaving of the two).
func shape(combined, stdout, stderr string) string {
	o, e := lines(stdout), lines(stderr)
	var b strings.Builder
	for _, l := range lines(combined) {
		switch {
		case len(o) > 0 && l == o[0]:
			b.WriteByte('O')
			o = o[1:]
		case len(e) > 0 && l == e[0]:
			b.WriteByte('E')
			e = e[1:]
		default:
			b.WriteByte('?')
		}
	}
	return collapse(b.String())
}

// collapse keeps one letter of each run ("OEEO" is "OEO"): the order of the
// streams is what is compared, not how many lines a message takes (bash
// adds a usage line where cordon may not).
func collapse(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if i == 0 || s[i] != s[i-1] || s[i] == '?' {
			b.WriteByte(s[i])
		}
	}
	return b.String()
}

func lines(s string) []string {
	s = strings.TrimSuffix(s, "\n")
	if s == "" {
		return nil
	}
	return strings.Split(s, "\n")
}

// cordonShapes runs script with its output and errors apart, then
// combined three ways (2>&1, |& into a pipe, and one writer for both as
// the host's combined stream), and returns the shapes of the combined
// outputs.
func cordonShapes(t *testing.T, cmds command.Registry, script string) (dup, pipe, host string) {
	t.Helper()
	var out, errs, comb, piped, hostb bytes.Buffer
	runOrder(t, cmds, script, &out, &errs)
	// The braces keep the script on line 1, as its messages say.
	runOrder(t, cmds, "{ "+script+"\n} 2>&1", &comb, &comb)
	runOrder(t, cmds, "{ "+script+"\n} |& cat", &piped, &piped)
	runOrder(t, cmds, script, &hostb, &hostb)
	return shape(comb.String(), out.String(), errs.String()),
		shape(piped.String(), out.String(), errs.String()),
		shape(hostb.String(), out.String(), errs.String())
}

// bashShape runs script in bash with GNU's tools writing unbuffered, in a
// directory holding orderFiles, and returns the shape of its combined
// output; ok is false when bash or stdbuf's library is missing.
func bashShape(t *testing.T, script string) (string, bool) {
	t.Helper()
	bash, err := exec.LookPath("bash")
	if err != nil {
		return "", false
	}
	lib := ""
	for _, p := range []string{"/usr/libexec/coreutils/libstdbuf.so", "/usr/lib/coreutils/libstdbuf.so"} {
		if _, err := os.Stat(p); err == nil {
			lib = p
		}
	}
	if lib == "" {
		return "", false
	}
	dir := t.TempDir()
	for name, body := range orderFiles {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	run := func(src string, combine bool) (string, string) {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		cmd := exec.CommandContext(ctx, bash, "-c", src, "script.sh")
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "LD_PRELOAD="+lib, "_STDBUF_O=0", "LC_ALL=C", "TZ=UTC")
		var out, errs bytes.Buffer
		cmd.Stdout = &out
		cmd.Stderr = &errs
		if combine {
			cmd.Stderr = &out
		}
		_ = cmd.Run()
		// A fresh directory for the next run: the script may create files.
		for name, body := range orderFiles {
			os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644)
		}
		ents, _ := os.ReadDir(dir)
		for _, e := range ents {
			if _, ok := orderFiles[e.Name()]; !ok {
				os.RemoveAll(filepath.Join(dir, e.Name()))
			}
		}
		return out.String(), errs.String()
	}
	out, errs := run(script, false)
	comb, _ := run(script, true)
	return shape(comb, out, errs), true
}

// checkOrder runs one case in cordon and, when it can, in bash.
func checkOrder(t *testing.T, cmds command.Registry, c orderCase, needHost string) {
	t.Helper()
	dup, pipe, host := cordonShapes(t, cmds, c.script)
	want := c.want
	if b, ok := bashShape(t, c.script); ok && (needHost == "" || hostHas(needHost)) {
		if want != "" && b != want {
			t.Errorf("bash's shape is %q, the case says %q", b, want)
		}
		want = b
	} else if want == "" {
		t.Skipf("SKIPPED, not passed: no reference: bash, stdbuf or %s is missing", needHost)
	}
	if dup != want {
		t.Errorf("with 2>&1 the shape is %q, want %q", dup, want)
	}
	if pipe != want {
		t.Errorf("with |& the shape is %q, want %q", pipe, want)
	}
	if host != want {
		t.Errorf("on one host stream the shape is %q, want %q", host, want)
	}
}

// hostHas reports whether this machine has the command name.
func hostHas(name string) bool {
	_, err := exec.LookPath(name)
	return err == nil
}

func TestOutputOrderBuiltins(t *testing.T) {
	cmds := orderCommands()
	for name := range builtins {
		if _, ok := builtinOrderCases[name]; !ok {
			t.Errorf("builtin %s has no output order case (builtinOrderCases)", name)
		}
	}
	for _, name := range sortedKeys(builtinOrderCases) {
		t.Run(name, func(t *testing.T) {
			if _, ok := builtins[name]; !ok {
				t.Fatalf("%s is not a builtin", name)
			}
			checkOrder(t, cmds, builtinOrderCases[name], "")
		})
	}
}

func TestOutputOrderCommands(t *testing.T) {
	cmds := orderCommands()
	names := make([]string, 0, len(cmds))
	for name := range cmds {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			c, ok := commandOrderCases[name]
			if !ok {
				c = orderCase{script: name + " a /nonexistent b"}
			}
			checkOrder(t, cmds, c, name)
		})
	}
}

// The order holds through functions, subshells, command substitution,
// groups, pipes of both streams and files, with commands that buffer
// their output (cat, grep, sed write through a buffer) and builtins mixed.
func TestOutputOrderShell(t *testing.T) {
	cmds := orderCommands()
	cases := []struct{ name, script, want string }{
		{"function", `f() { printf '%s\n' a; grep . a /nonexistent; echo c; }; f 2>&1`,
			"a\na:a1\na:a2\ngrep: /nonexistent: No such file or directory\nc\n"},
		{"subshell", `( printf '%s\n%d\n' a x; cat a /nonexistent ) 2>&1`,
			"a\nscript.sh: line 1: printf: x: invalid number\n0\na1\na2\ncat: /nonexistent: No such file or directory\n"},
		{"substitution", `v=$( { sed -n 1p a /nonexistent; echo c; } 2>&1 ); echo "$v"`,
			"a1\nsed: can't read /nonexistent: No such file or directory\nc\n"},
		{"pipe", `{ cat a /nonexistent; echo c; } |& cat`,
			"a1\na2\ncat: /nonexistent: No such file or directory\nc\n"},
		{"file", `{ head -n1 a /nonexistent; echo c; } &> out; cat out`,
			"==> a <==\na1\nhead: cannot open '/nonexistent' for reading: No such file or directory\nc\n"},
		{"exec", `find a b -exec cat {} \; -print 2>&1`, "a1\na2\na\nb1\nb2\nb\n"},
		{"sed-w-stderr", `sed -n 'p;w /dev/stderr' a`, "a1\na1\na2\na2\n"},
		{"tee-stderr", `tee /dev/stderr < a`, "a1\na2\na1\na2\n"},
		{"xargs", `printf 'a\n/nonexistent\nb\n' | xargs -n1 cat 2>&1`,
			"a1\na2\ncat: /nonexistent: No such file or directory\nb1\nb2\n"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var out bytes.Buffer
			runOrder(t, cmds, c.script, &out, &out)
			if out.String() != c.want {
				t.Errorf("got\n%s\nwant\n%s", out.String(), c.want)
			}
		})
	}
}
