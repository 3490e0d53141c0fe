package textutils

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/cordonhq/cordon/shell/command"
	"github.com/cordonhq/cordon/vfs"
)

// TestFiles checks commands that write to the file system; the expected
// contents were verified with GNU sed 4.9 and coreutils 9.1.
func TestFiles(t *testing.T) {
	cases := []struct {
		files map[string]string
		stdin string
		args  []string
		out   string
		code  int
		want  map[string]string // file contents afterwards
	}{
		{
			files: map[string]string{"a": "one\ntwo\n", "b": "three\nfour\n"},
			args:  []string{"sed", "-i.bak", "1d;$s/$/!/", "a", "b"},
			want:  map[string]string{"a": "two!\n", "b": "four!\n", "a.bak": "one\ntwo\n", "b.bak": "three\nfour\n"},
		},
		{
			files: map[string]string{"c": "x\n"},
			args:  []string{"sed", "-n", "-i", "p;p", "c"},
			want:  map[string]string{"c": "x\nx\n"},
		},
		{
			files: map[string]string{"c": "x\nx\n"},
			args:  []string{"sed", "-i", "s/x/y/w changes", "c"},
			want:  map[string]string{"c": "y\ny\n", "changes": "y\ny\n"},
		},
		{
			files: map[string]string{"c": "x\n"},
			args:  []string{"sed", "--in-place=.orig", "s/x/z/", "c"},
			want:  map[string]string{"c": "z\n", "c.orig": "x\n"},
		},
		{
			files: map[string]string{"c": "y\n"},
			args:  []string{"sed", "-i", "s/a/b/", "nope", "c"},
			code:  2,
			want:  map[string]string{"c": "y\n"},
		},
		{args: []string{"sed", "-i", "p"}, code: 4},
		{
			files: map[string]string{"s": "b\na\n"},
			args:  []string{"sort", "-o", "s", "s"},
			want:  map[string]string{"s": "a\nb\n"},
		},
		{
			stdin: "a\na\n",
			args:  []string{"uniq", "-", "u.out"},
			want:  map[string]string{"u.out": "a\n"},
		},
		{
			stdin: "a\nb\n",
			args:  []string{"sed", "-n", "/a/w /tmp/w.txt", "-"},
			want:  map[string]string{"/tmp/w.txt": "a\n"},
		},
	}
	for _, c := range cases {
		t.Run(strings.Join(c.args, " "), func(t *testing.T) {
			out, errs, code, fsys := runCmd(context.Background(), c.files, c.stdin, c.args...)
			if out != c.out || code != c.code {
				t.Errorf("%q: got %q, %d (stderr %q); want %q, %d", c.args, out, code, errs, c.out, c.code)
			}
			for name, want := range c.want {
				p := name
				if !strings.HasPrefix(p, "/") {
					p = "/workspace/" + p
				}
				got, err := fsys.ReadFile(p)
				if err != nil || string(got) != want {
					t.Errorf("%q: %s = %q, %v; want %q", c.args, name, got, err, want)
				}
			}
		})
	}
}

// TestRefusals checks what cordon deliberately does differently from GNU:
// back-references (not expressible in RE2) and sed's e command.
func TestRefusals(t *testing.T) {
	cases := []struct {
		args   []string
		code   int
		stderr string
	}{
		{[]string{"grep", `\(a\)\1`, "-"}, 2, "grep: back-references are not supported\n"},
		{[]string{"grep", "-E", `(a)\1`, "-"}, 2, "grep: back-references are not supported\n"},
		{[]string{"grep", "a{1001}", "-E"}, 2, "grep: Regular expression too big\n"},
		{[]string{"sed", ":a;G;H;ba"}, 4, "sed: pattern space too large\n"},
	}
	for _, c := range cases {
		t.Run(strings.Join(c.args, " "), func(t *testing.T) {
			out, errs, code, _ := runCmd(context.Background(), nil, "aa\n", c.args...)
			if code != c.code || errs != c.stderr || out != "" {
				t.Errorf("%q: got %q, %d, stderr %q; want status %d, stderr %q", c.args, out, code, errs, c.code, c.stderr)
			}
		})
	}
}

// TestStderr checks GNU's wording of common errors.
func TestStderr(t *testing.T) {
	cases := []struct {
		files  map[string]string
		args   []string
		stderr string
	}{
		{nil, []string{"grep", "-Y", "x"}, "grep: invalid option -- 'Y'\nUsage: grep [OPTION]... PATTERNS [FILE]...\nTry 'grep --help' for more information.\n"},
		{nil, []string{"grep", "x", "nope"}, "grep: nope: No such file or directory\n"},
		{map[string]string{"b": "a\x00\nx\n"}, []string{"grep", "x", "b"}, "grep: b: binary file matches\n"},
		{nil, []string{"sed", "s/a/b"}, "sed: -e expression #1, char 5: unterminated `s' command\n"},
		{nil, []string{"sed", "-e", "p", "-e", "s/x"}, "sed: -e expression #2, char 3: unterminated `s' command\n"},
		{nil, []string{"sed", "/x/{p"}, "sed: -e expression #1, char 0: unmatched `{'\n"},
		{nil, []string{"sed", "bfoo"}, "sed: can't find label for jump to `foo'\n"},
		{nil, []string{"sed", "p", "nope"}, "sed: can't read nope: No such file or directory\n"},
		{map[string]string{"s": "k\n"}, []string{"sed", "-f", "s"}, "sed: file s line 1: unknown command: `k'\n"},
		{nil, []string{"sort", "nope"}, "sort: cannot read: nope: No such file or directory\n"},
		{nil, []string{"sort", "-k0"}, "sort: field number is zero: invalid field specification '0'\n"},
		{nil, []string{"sort", "-Z"}, "sort: invalid option -- 'Z'\nTry 'sort --help' for more information.\n"},
		{nil, []string{"cut", "-f0"}, "cut: fields are numbered from 1\nTry 'cut --help' for more information.\n"},
		{nil, []string{"tr", "a"}, "tr: missing operand after 'a'\nTwo strings must be given when translating.\nTry 'tr --help' for more information.\n"},
		{nil, []string{"uniq", "nope"}, "uniq: nope: No such file or directory\n"},
	}
	for _, c := range cases {
		t.Run(strings.Join(c.args, " "), func(t *testing.T) {
			_, errs, _, _ := runCmd(context.Background(), c.files, "b\na\n", c.args...)
			if errs != c.stderr {
				t.Errorf("%q: stderr %q, want %q", c.args, errs, c.stderr)
			}
		})
	}
}

func TestTranslateRE(t *testing.T) {
	cases := []struct {
		pat  string
		ere  bool
		want string
		err  string
	}{
		{pat: `a\(b\)*c`, want: `(?:a(b)*c)`},
		{pat: `a\{2,3\}`, want: `(?:a{2,3})`},
		{pat: `a\|b`, want: `(?:a|b)`},
		{pat: `a+?(){}|`, want: `(?:a\+\?\(\)\{\}\|)`},
		{pat: `*a`, want: `(?:\*a)`},
		{pat: `^*a`, want: `(?:^\*a)`},
		{pat: `a^b$c$`, want: `(?:a\^b\$c$)`},
		{pat: `[]a]`, want: `(?:[\x{5d}a])`},
		{pat: `[^[:alpha:]-]`, want: `(?:[^[:alpha:]\x{2d}\n])`},
		{pat: `a**`, want: `(?:(?:a*)*)`},
		{pat: `a{,2}`, ere: true, want: `(?:a{0,2})`},
		{pat: `a{x`, ere: true, want: `(?:a\{x)`},
		{pat: `a)`, ere: true, want: `(?:a\))`},
		{pat: `\(a`, err: "Unmatched ( or \\("},
		{pat: `a\)`, err: "Unmatched ) or \\)"},
		{pat: `[a`, err: "Unmatched [, [^, [:, [., or [="},
		{pat: `a\`, err: "Trailing backslash"},
		{pat: `a\{1`, err: "Unmatched \\{"},
		{pat: `[[:nope:]]`, err: "Invalid character class name"},
		{pat: `[z-a]`, err: "Invalid range end"},
		{pat: `\(a\)\1`, err: "back-references are not supported"},
	}
	for _, c := range cases {
		t.Run(c.pat, func(t *testing.T) {
			got, err := translateRE(c.pat, reOpts{ere: c.ere})
			if c.err != "" {
				if err == nil || err.Error() != c.err {
					t.Errorf("%q: err %v, want %q", c.pat, err, c.err)
				}
				return
			}
			if err != nil || got != c.want {
				t.Errorf("%q: got %q, %v; want %q", c.pat, got, err, c.want)
			}
		})
	}
}

// endless is an infinite input that cancels its context after limit bytes.
type endless struct {
	line   []byte
	n      int
	limit  int
	cancel context.CancelFunc
}

func (e *endless) Read(p []byte) (int, error) {
	n := 0
	for n+len(e.line) <= len(p) {
		n += copy(p[n:], e.line)
	}
	if n == 0 {
		n = copy(p, e.line)
	}
	e.n += n
	if e.n >= e.limit {
		e.cancel()
	}
	return n, nil
}

// TestCancel checks that every command stops soon after Ctx is canceled
// while it reads an endless input or loops in a script.
func TestCancel(t *testing.T) {
	cmds := [][]string{
		{"grep", "foo"},
		{"grep", "-v", "zzz"},
		{"grep", "-c", "o"},
		{"sed", "s/foo/bar/"},
		{"sed", "-n", "$p"},
		{"sort"},
		{"sort", "-n"},
		{"uniq", "-c"},
		{"cut", "-d", " ", "-f2"},
		{"tr", "a-z", "A-Z"},
		{"column", "-t"},
		{"column"},
	}
	for _, args := range cmds {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			in := &endless{line: []byte("foo bar baz 123\n"), limit: 4 << 20, cancel: cancel}
			code, read := runEnv(ctx, args, in)
			cancel()
			if code == 0 {
				t.Errorf("%q: status 0 after cancel", args)
			}
			if read > 16<<20 {
				t.Errorf("%q: read %d bytes after cancel at 4 MiB", args, read)
			}
		})
	}
	// Scripts that loop forever on one line.
	for _, args := range [][]string{{"sed", ":a;ba"}, {"sed", ":a;s/x*/x/;ta"}} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
			start := time.Now()
			code, _ := runEnv(ctx, args, strings.NewReader("x\n"))
			cancel()
			if code == 0 || time.Since(start) > 5*time.Second {
				t.Errorf("%q: status %d after %v", args, code, time.Since(start))
			}
		})
	}
}

func runEnv(ctx context.Context, args []string, stdin io.Reader) (int, int) {
	env := &command.Env{
		Ctx: ctx, Args: args, Stdin: stdin, Stdout: io.Discard, Stderr: io.Discard,
		Dir: "/workspace", FS: vfs.New(vfs.Limits{}), Now: time.Now,
	}
	code := Commands()[args[0]](env)
	if e, ok := stdin.(*endless); ok {
		return code, e.n
	}
	return code, 0
}

// TestHostile feeds odd inputs that must not panic.
func TestHostile(t *testing.T) {
	long := strings.Repeat("x", 1<<20)
	cases := [][]string{
		{"grep", "-E", "(((((a*)*)*)*)*)*b"},
		{"grep", "-o", ""},
		{"grep", "-w", ""},
		{"grep", "\xff\xfe"},
		{"grep", "[[.a.]]"},
		{"sed", "s/x*/y/g"},
		{"sed", "y/\xff/a/"},
		{"sed", "$!N;$!D"},
		{"sed", "100000000000000000000p"},
		{"sort", "-k1000000000"},
		{"sort", "-t", "x", "-k3.99999999999999999999"},
		{"cut", "-c", "99999999999999999999"},
		{"cut", "-f", "1-99999999999"},
		{"tr", "[a*99999999999]", "x"},
		{"tr", "a", "[b*99999999999]"},
		{"uniq", "-w", "99999999999999999999"},
		{"column", "-t", "-s", ""},
		{"column", "-c", "1"},
		{"column", "-x", "-c", "99999999999"},
	}
	for _, args := range cases {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			start := time.Now()
			for _, in := range []string{"", "\n", "a\x00b\n", long, "x\ny\n" + long + "\n"} {
				runCmd(context.Background(), nil, in, args...)
			}
			if d := time.Since(start); d > time.Second {
				t.Logf("%q took %v", args, d)
			}
		})
	}
}

func bigInput() string {
	var b strings.Builder
	for i := 0; b.Len() < 10<<20; i++ {
		fmt.Fprintf(&b, "line %d word%d some filler text here foo%d\n", i, i%997, i%13)
	}
	return b.String()
}

func benchCmd(b *testing.B, args ...string) {
	in := bigInput()
	b.SetBytes(int64(len(in)))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		var out bytes.Buffer
		env := &command.Env{
			Ctx: context.Background(), Args: args, Stdin: strings.NewReader(in), Stdout: &out,
			Stderr: io.Discard, Dir: "/workspace", FS: vfs.New(vfs.Limits{}), Now: time.Now,
		}
		if code := Commands()[args[0]](env); code > 1 {
			b.Fatalf("status %d", code)
		}
	}
}

func BenchmarkGrep(b *testing.B)      { benchCmd(b, "grep", "foo1") }
func BenchmarkGrepRegex(b *testing.B) { benchCmd(b, "grep", "-c", "word[0-9]*7 ") }
func BenchmarkSort(b *testing.B)      { benchCmd(b, "sort") }
func BenchmarkSortN(b *testing.B)     { benchCmd(b, "sort", "-rn", "-k2") }
func BenchmarkUniq(b *testing.B)      { benchCmd(b, "uniq", "-c") }
func BenchmarkSed(b *testing.B)       { benchCmd(b, "sed", "s/foo/bar/g") }

// BenchmarkPipeline runs grep foo | sort | uniq -c | sort -rn stage by
// stage over the 10 MB input.
func BenchmarkPipeline(b *testing.B) {
	in := bigInput()
	b.SetBytes(int64(len(in)))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		data := in
		for _, args := range [][]string{{"grep", "foo"}, {"sort"}, {"uniq", "-c"}, {"sort", "-rn"}} {
			var out bytes.Buffer
			env := &command.Env{
				Ctx: context.Background(), Args: args, Stdin: strings.NewReader(data), Stdout: &out,
				Stderr: io.Discard, Dir: "/workspace", FS: vfs.New(vfs.Limits{}), Now: time.Now,
			}
			if code := Commands()[args[0]](env); code != 0 {
				b.Fatalf("%q: status %d", args, code)
			}
			data = out.String()
		}
	}
}

// TestSortRandom checks sort -R: a permutation of the input that keeps
// equal keys together and depends on the clock's seed.
func TestSortRandom(t *testing.T) {
	var in strings.Builder
	for i := 0; i < 200; i++ {
		fmt.Fprintf(&in, "line%d\n", i%50)
	}
	orders := map[string]bool{}
	for seed := 0; seed < 3; seed++ {
		var out, errb bytes.Buffer
		env := &command.Env{
			Ctx: context.Background(), Args: []string{"sort", "-R"}, Stdin: strings.NewReader(in.String()),
			Stdout: &out, Stderr: &errb, Dir: "/workspace", FS: vfs.New(vfs.Limits{}),
			Now: func() time.Time { return time.Unix(int64(seed), 0) },
		}
		if code := Commands()["sort"](env); code != 0 {
			t.Fatalf("status %d: %s", code, errb.String())
		}
		lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
		if len(lines) != 200 {
			t.Fatalf("got %d lines", len(lines))
		}
		runs := 1
		for i := 1; i < len(lines); i++ {
			if lines[i] != lines[i-1] {
				runs++
			}
		}
		if runs != 50 {
			t.Errorf("seed %d: equal lines not adjacent (%d runs)", seed, runs)
		}
		orders[out.String()] = true
	}
	if len(orders) < 2 {
		t.Errorf("sort -R gave the same order for different seeds")
	}
}

// The 8-byte prefix shortcut of a plain sort orders like bytes.Compare,
// short lines, NUL bytes and high bytes included.
func TestSortPrefixOrder(t *testing.T) {
	lines := []string{"ab", "ab\x00", "ab\x01", "abc", "a", "", "abcdefgh", "abcdefgh\x00", "abcdefgi", "\xffz", "abcdefg", "b", "ab\x00\x00\x00\x00\x00\x00\x00"}
	want := slices.Clone(lines)
	slices.Sort(want)
	out, _, status, _ := runCmd(context.Background(), nil, strings.Join(lines, "\n")+"\n", "sort")
	if status != 0 || out != strings.Join(want, "\n")+"\n" {
		t.Errorf("got %q\nwant %q", out, strings.Join(want, "\n")+"\n")
	}
}
