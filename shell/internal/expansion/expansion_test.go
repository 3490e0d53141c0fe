package expansion

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"
)

// fakeEnv is an Env with no shell behind it: variables in a map, the
// positional parameters in a slice, files in a MapFS, and command
// substitutions answered from a table.
type fakeEnv struct {
	vars     map[string]expand.Variable
	readonly map[string]bool
	params   []string
	opts     Options
	dir      string
	files    fstest.MapFS
	// subst maps the source of a command substitution to its output.
	subst map[string]string
	err   error
	msgs  []string
}

// newFakeEnv returns an environment with a few variables, three
// positional parameters and a small tree under /w, the working directory.
func newFakeEnv() *fakeEnv {
	str := func(s string) expand.Variable { return vstr(s) }
	return &fakeEnv{
		vars: map[string]expand.Variable{
			"v":    str("hello world"),
			"e":    str(""),
			"file": str("archive.tar.gz"),
			"HOME": str("/home/me"),
			"ref":  str("v"),
			"a":    {Set: true, Kind: expand.Indexed, List: []string{"one", "two", "three"}},
			"m":    {Set: true, Kind: expand.Associative, Map: map[string]string{"k": "val", "j": "other"}},
		},
		readonly: map[string]bool{},
		params:   []string{"p 1", "p2", "*"},
		dir:      "/w",
		files: fstest.MapFS{
			"w/a.txt":          {},
			"w/b.txt":          {},
			"w/c.go":           {},
			"w/.hidden.txt":    {},
			"w/sub/d.txt":      {},
			"w/sub/deep/e.txt": {},
		},
		subst: map[string]string{"echo hi": "hi\n\n", "printf 'a b'": "a b"},
	}
}

func (f *fakeEnv) Get(name string) expand.Variable {
	switch name {
	case "@", "*":
		return expand.Variable{Set: true, Kind: expand.Indexed, List: slices.Clone(f.params)}
	case "#":
		return vstr(fmt.Sprint(len(f.params)))
	}
	if n := 0; name != "" && name[0] >= '1' && name[0] <= '9' {
		fmt.Sscan(name, &n)
		if n <= len(f.params) {
			return vstr(f.params[n-1])
		}
		return expand.Variable{}
	}
	v := f.vars[name]
	v.ReadOnly = f.readonly[name]
	return v
}

func (f *fakeEnv) Set(name string, v expand.Variable) error {
	if f.readonly[name] {
		return errors.New(name + ": readonly variable")
	}
	if !v.IsSet() {
		delete(f.vars, name)
		return nil
	}
	f.vars[name] = v
	return nil
}

func (f *fakeEnv) Each(fn func(string, expand.Variable) bool) {
	for _, k := range slices.Sorted(maps.Keys(f.vars)) {
		if !fn(k, f.vars[k]) {
			return
		}
	}
}

func (f *fakeEnv) RefTarget(string) (string, bool) { return "", false }

func (f *fakeEnv) Source() string { return "" }

func (f *fakeEnv) Attributes(name string) string {
	if f.vars[name].Kind == expand.Indexed {
		return "a"
	}
	return ""
}

func (f *fakeEnv) Options() Options { return f.opts }
func (f *fakeEnv) Dir() string      { return f.dir }

func (f *fakeEnv) Stat(name string) (fs.FileInfo, error) {
	return fs.Stat(f.files, strings.TrimPrefix(name, "/"))
}

func (f *fakeEnv) ReadDir(name string) ([]fs.DirEntry, error) {
	return fs.ReadDir(f.files, strings.TrimPrefix(name, "/"))
}

func (f *fakeEnv) CmdSubst(w io.Writer, cs *syntax.CmdSubst) error {
	var b strings.Builder
	for _, st := range cs.Stmts {
		syntax.NewPrinter().Print(&b, st)
	}
	out, ok := f.subst[b.String()]
	if !ok {
		return fmt.Errorf("no command %q", b.String())
	}
	_, err := io.WriteString(w, out)
	return err
}

func (f *fakeEnv) ProcSubst(*syntax.ProcSubst) (string, error) { return "/dev/fd/63", nil }
func (f *fakeEnv) Err() error                                  { return f.err }

func (f *fakeEnv) Errorf(format string, args ...any) {
	f.msgs = append(f.msgs, fmt.Sprintf(format, args...))
}

// words parses src as the arguments of a command.
func words(t *testing.T, src string) []*syntax.Word {
	t.Helper()
	file, err := NewParser().Parse(strings.NewReader(": "+src), "")
	if err != nil {
		t.Fatalf("parse %q: %v", src, err)
	}
	return file.Stmts[0].Cmd.(*syntax.CallExpr).Args[1:]
}

// fields expands src as a command's arguments in env.
func fields(t *testing.T, env *fakeEnv, src string) ([]string, error) {
	t.Helper()
	return New(env).Fields(words(t, src)...)
}

func TestParameterExpansion(t *testing.T) {
	for _, c := range []struct {
		src  string
		want []string
	}{
		// defaults and alternatives
		{`${u:-x}`, []string{"x"}},
		{`${e:-x}`, []string{"x"}},
		{`${e-x}`, nil},
		{`"${e-x}"`, []string{""}},
		{`${v:+alt}`, []string{"alt"}},
		{`${u+alt}`, nil},
		{`"${u:-a b}"`, []string{"a b"}},
		{`${u:-a b}`, []string{"a", "b"}},
		// length
		{`${#v}`, []string{"11"}},
		{`${#u}`, []string{"0"}},
		{`${#a[@]}`, []string{"3"}},
		{`${#a[1]}`, []string{"3"}},
		{`${#@}`, []string{"3"}},
		// removal of a prefix or a suffix
		{`${file%%.*}`, []string{"archive"}},
		{`${file%.*}`, []string{"archive.tar"}},
		{`${file#*.}`, []string{"tar.gz"}},
		{`${file##*.}`, []string{"gz"}},
		{`${file#"*."}`, []string{"archive.tar.gz"}},
		{`${file%.gz}`, []string{"archive.tar"}},
		// substitution
		{`"${v/o/0}"`, []string{"hell0 world"}},
		{`"${v//o/0}"`, []string{"hell0 w0rld"}},
		{`"${v/#h/H}"`, []string{"Hello world"}},
		{`"${v/%d/D}"`, []string{"hello worlD"}},
		{`"${v//[lo]/}"`, []string{"he wrd"}},
		{`"${v/world/<&>}"`, []string{"hello <world>"}},
		{`${v/o/0}`, []string{"hell0", "world"}},
		// case
		{`"${v^^}"`, []string{"HELLO WORLD"}},
		{`"${v^}"`, []string{"Hello world"}},
		{`"${a[@]^^}"`, []string{"ONE", "TWO", "THREE"}},
		{`"${v@U}"`, []string{"HELLO WORLD"}},
		{`"${v@Q}"`, []string{"'hello world'"}},
		{`"${a@a}"`, []string{"a"}},
		// arrays
		{`"${a[@]}"`, []string{"one", "two", "three"}},
		{`"${a[*]}"`, []string{"one two three"}},
		{`${a[1]}`, []string{"two"}},
		{`${a[-1]}`, []string{"three"}},
		{`${a[1+1]}`, []string{"three"}},
		{`${a}`, []string{"one"}},
		{`"${!a[@]}"`, []string{"0", "1", "2"}},
		{`"${a[@]:1}"`, []string{"two", "three"}},
		{`"${a[@]:0:2}"`, []string{"one", "two"}},
		{`"${a[@]/o/0}"`, []string{"0ne", "tw0", "three"}},
		{`"${m[k]}"`, []string{"val"}},
		{`"${m[j]}${m[x]}"`, []string{"other"}},
		// slices, indirection and names
		{`${v:6}`, []string{"world"}},
		{`${v:0:4}`, []string{"hell"}},
		{`${v: -3}`, []string{"rld"}},
		{`"${!ref}"`, []string{"hello world"}},
		{`"${!fi*}"`, []string{"file"}},
		// positional parameters
		{`"$@"`, []string{"p 1", "p2", "*"}},
		{`"$*"`, []string{"p 1 p2 *"}},
		{`$#`, []string{"3"}},
		{`"$1"`, []string{"p 1"}},
		{`"${@:2}"`, []string{"p2", "*"}},
		// command substitution, arithmetic, tilde, quoting
		{`$(echo hi)`, []string{"hi"}},
		{`"$(printf 'a b')"`, []string{"a b"}},
		{`$(printf 'a b')`, []string{"a", "b"}},
		{`$((1 + 2 * 3))`, []string{"7"}},
		{`~/x`, []string{"/home/me/x"}},
		{`"~/x"`, []string{"~/x"}},
		{`'$v'`, []string{"$v"}},
		{`$'a\tb'`, []string{"a\tb"}},
		{`x{1,2}y`, []string{"x1y", "x2y"}},
		{`pre$v`, []string{"prehello", "world"}},
		{`<(true)`, []string{"/dev/fd/63"}},
	} {
		got, err := fields(t, newFakeEnv(), c.src)
		if err != nil {
			t.Errorf("%s: %v", c.src, err)
			continue
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("%s = %q, want %q", c.src, got, c.want)
		}
	}
}

func TestParameterErrors(t *testing.T) {
	env := newFakeEnv()
	env.opts.NoUnset = true
	_, err := fields(t, env, `$undefined`)
	var ue expand.UnsetParameterError
	if !errors.As(err, &ue) {
		t.Errorf("$undefined under nounset: error %v, want an UnsetParameterError", err)
	}
	if got, err := fields(t, env, `${undefined:-ok}`); err != nil || !slices.Equal(got, []string{"ok"}) {
		t.Errorf("${undefined:-ok} under nounset = %q, %v", got, err)
	}

	env = newFakeEnv()
	if _, err := fields(t, env, `${!v}`); err == nil || err.Error() != "hello world: invalid variable name" {
		t.Errorf("${!v} (v is not a name): error %v, want bash's invalid variable name", err)
	}

	env = newFakeEnv()
	got, err := fields(t, env, `"${a[-10]}"`)
	if err != nil || !slices.Equal(got, []string{""}) {
		t.Errorf(`"${a[-10]}" = %q, %v; want [""]`, got, err)
	}
	if !slices.Equal(env.msgs, []string{"a: bad array subscript"}) {
		t.Errorf("messages %q, want the bad subscript", env.msgs)
	}
}

func TestAssignments(t *testing.T) {
	env := newFakeEnv()
	ex := New(env)
	w := words(t, `${u:=def}`)[0]
	if s, err := ex.Literal(w); err != nil || s != "def" {
		t.Fatalf("${u:=def} = %q, %v", s, err)
	}
	if got := env.vars["u"].String(); got != "def" {
		t.Errorf("u = %q after ${u:=def}, want def", got)
	}
	s, err := ex.Assign(words(t, `~/a:~/b`)[0])
	if err != nil || s != "/home/me/a:/home/me/b" {
		t.Errorf("assignment ~/a:~/b = %q, %v", s, err)
	}
	s, err = ex.Literal(words(t, `~/a:~/b`)[0])
	if err != nil || s != "/home/me/a:~/b" {
		t.Errorf("literal ~/a:~/b = %q, %v", s, err)
	}
}

func TestFieldSplitting(t *testing.T) {
	for _, c := range []struct {
		ifs  *string
		x    string
		src  string
		want []string
	}{
		{nil, " a  b\tc\n", `$x`, []string{"a", "b", "c"}},
		{ptr(":"), "a:b::c", `$x`, []string{"a", "b", "", "c"}},
		{ptr(":"), "a:b:", `$x`, []string{"a", "b"}},
		{ptr(":"), ":a", `$x`, []string{"", "a"}},
		{ptr(" :"), " a : b ", `$x`, []string{"a", "b"}},
		{ptr(""), "a b", `$x`, []string{"a b"}},
		{ptr(":"), "a:b", `"$x"`, []string{"a:b"}},
		{ptr(":"), "a b", `$x`, []string{"a b"}},
		{ptr(":"), "a:b", `pre$x"q:r"`, []string{"prea", "bq:r"}},
		{ptr("-"), "", `"$*"`, []string{"p 1-p2-*"}},
		{ptr(""), "", `$*`, []string{"p 1", "p2", "a.txt", "b.txt", "c.go", "sub"}},
		{nil, "", `$e`, nil},
		{nil, "", `"$e"`, []string{""}},
		{nil, "", `$e$e`, nil},
		{nil, "", `""$e`, []string{""}},
	} {
		env := newFakeEnv()
		if c.ifs != nil {
			env.vars["IFS"] = vstr(*c.ifs)
		}
		env.vars["x"] = vstr(c.x)
		got, err := fields(t, env, c.src)
		if err != nil {
			t.Errorf("IFS=%q x=%q %s: %v", deref(c.ifs), c.x, c.src, err)
			continue
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("IFS=%q x=%q %s = %q, want %q", deref(c.ifs), c.x, c.src, got, c.want)
		}
	}
}

func ptr(s string) *string { return &s }

func deref(s *string) string {
	if s == nil {
		return "<unset>"
	}
	return *s
}

func TestGlobbing(t *testing.T) {
	for _, c := range []struct {
		opts Options
		src  string
		want []string
	}{
		{Options{}, `*.txt`, []string{"a.txt", "b.txt"}},
		{Options{}, `?.go`, []string{"c.go"}},
		{Options{}, `[ab].txt`, []string{"a.txt", "b.txt"}},
		{Options{}, `"*".txt`, []string{"*.txt"}},
		{Options{}, `\*.txt`, []string{"*.txt"}},
		{Options{}, `*.none`, []string{"*.none"}},
		{Options{}, `.*.txt`, []string{".hidden.txt"}},
		{Options{}, `sub/*`, []string{"sub/d.txt", "sub/deep"}},
		{Options{}, `*/`, []string{"sub/"}},
		{Options{}, `*/*/*.txt`, []string{"sub/deep/e.txt"}},
		{Options{}, `/w/sub/*.txt`, []string{"/w/sub/d.txt"}},
		{Options{}, `sub/d.txt`, []string{"sub/d.txt"}},
		{Options{}, `**/*.txt`, []string{"sub/d.txt"}},
		{Options{GlobStar: true}, `**/*.txt`, []string{"a.txt", "b.txt", "sub/d.txt", "sub/deep/e.txt"}},
		{Options{NullGlob: true}, `*.none`, nil},
		{Options{NullGlob: true}, `*.none a`, []string{"a"}},
		{Options{DotGlob: true}, `*.txt`, []string{".hidden.txt", "a.txt", "b.txt"}},
		{Options{NoGlob: true}, `*.txt`, []string{"*.txt"}},
		{Options{ExtGlob: true}, `+(a|c).*`, []string{"a.txt", "c.go"}},
		{Options{ExtGlob: true}, `@(b|c).@(txt|go)`, []string{"b.txt", "c.go"}},
		{Options{NoCaseGlob: true}, `*.TXT`, []string{"a.txt", "b.txt"}},
		{Options{}, `*.TXT`, []string{"*.TXT"}},
	} {
		env := newFakeEnv()
		env.opts = c.opts
		got, err := fields(t, env, c.src)
		if err != nil {
			t.Errorf("%+v %s: %v", c.opts, c.src, err)
			continue
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("%+v %s = %q, want %q", c.opts, c.src, got, c.want)
		}
	}

	env := newFakeEnv()
	env.opts.FailGlob = true
	if _, err := fields(t, env, `*.none`); err == nil || err.Error() != "no match: *.none" {
		t.Errorf("failglob: error %v, want no match", err)
	}

	env = newFakeEnv()
	env.vars["p"] = vstr("*.go")
	if got, err := fields(t, env, `$p "$p"`); err != nil || !slices.Equal(got, []string{"c.go", "*.go"}) {
		t.Errorf(`$p "$p" = %q, %v; want the match, then the quoted pattern`, got, err)
	}

	env = newFakeEnv()
	env.dir = "/w/sub"
	if got, err := fields(t, env, `*`); err != nil || !slices.Equal(got, []string{"d.txt", "deep"}) {
		t.Errorf("* in /w/sub = %q, %v", got, err)
	}
}

func TestPattern(t *testing.T) {
	env := newFakeEnv()
	env.vars["p"] = vstr("a*")
	for src, want := range map[string]string{
		`"*"x*`:  `\*x*`,
		`$p`:     `a*`,
		`"$p"`:   `a\*`,
		`'[a]'?`: `\[a\]?`,
	} {
		got, err := New(env).Pattern(words(t, src)[0])
		if err != nil || got != want {
			t.Errorf("pattern %s = %q, %v; want %q", src, got, err, want)
		}
	}
}

func TestLiteralDoesNotSplitOrGlob(t *testing.T) {
	got, err := New(newFakeEnv()).Literal(words(t, `"$v"*.txt$v`)[0])
	if err != nil || got != "hello world*.txthello world" {
		t.Errorf("literal = %q, %v", got, err)
	}
}

func TestArithmetic(t *testing.T) {
	for _, c := range []struct {
		expr string
		want int
	}{
		{"1 + 2 * 3", 7},
		{"(1 + 2) * 3", 9},
		{"2 ** 10", 1024},
		{"-7 / 2", -3},
		{"-7 % 3", -1},
		{"0x1f + 010 + 2#101 + 36#z", 31 + 8 + 5 + 35},
		{"1 < 2 && 2 < 1", 0},
		{"1 < 2 || 2 < 1", 1},
		{"5 > 3 ? 10 : 20", 10},
		{"~0", -1},
		{"!7", 0},
		{"1 << 4 | 1", 17},
		{"i", 0},
		{"n + 1", 42},
		{"expr * 2", 42},
		{"a[1] + ${#a[@]}", 2},
		{"x = 5, x += 2, x", 7},
	} {
		env := newFakeEnv()
		env.vars["n"] = vstr("41")
		env.vars["expr"] = vstr("n - 20")
		env.vars["a"] = expand.Variable{Set: true, Kind: expand.Indexed, List: []string{"1", "0"}}
		got, err := New(env).ArithString(c.expr)
		if err != nil || got != c.want {
			t.Errorf("$((%s)) = %d, %v; want %d", c.expr, got, err, c.want)
		}
	}
}

func TestArithmeticAssigns(t *testing.T) {
	env := newFakeEnv()
	ex := New(env)
	for _, e := range []string{"x = 1", "x += 5", "y = x++", "a[1] = 7", "a[5] = 9", "m[k] = 3", "m[k] *= 2", "z[-1]++"} {
		if _, err := ex.ArithString(e); err != nil && e != "z[-1]++" {
			t.Fatalf("%s: %v", e, err)
		}
	}
	if x, y := env.vars["x"].String(), env.vars["y"].String(); x != "7" || y != "6" {
		t.Errorf("x=%s y=%s, want 7 and 6", x, y)
	}
	idx, vals := ArrayItems(env.vars["a"])
	if !slices.Equal(idx, []int{0, 1, 2, 5}) || !slices.Equal(vals, []string{"one", "7", "three", "9"}) {
		t.Errorf("a = %v %q", idx, vals)
	}
	if got := env.vars["m"].Map["k"]; got != "6" {
		t.Errorf("m[k] = %q, want 6", got)
	}
	if n, err := ex.Arith(words(t, "$((y))")[0].Parts[0].(*syntax.ArithmExp).X); err != nil || n != 6 {
		t.Errorf("Arith(y) = %d, %v", n, err)
	}
}

func TestArithmeticErrors(t *testing.T) {
	for _, c := range []struct{ expr, msg string }{
		{"1 / 0", "division by 0"},
		{"5 % 0", "division by 0"},
		{"2 ** -1", "exponent less than 0"},
		{"08", "08: value too great for base (error token is \"08\")"},
		{"1#1", "1#1: invalid arithmetic base (error token is \"1#1\")"},
		{"r", "expression recursion level exceeded"},
		{"1 +", "syntax error"},
		{"3 = 4", "3 = 4: attempted assignment to non-variable (error token is \"= 4\")"},
		{"1 2", "1 2: syntax error in expression (error token is \"2\")"},
		{"(1", "(1: missing `)' (error token is \"1\")"},
		{"1 ? 2", "1 ? 2: `:' expected for conditional expression (error token is \"2\")"},
		{"5 / (0) + 1", "5 / (0) + 1: division by 0 (error token is \"(0) + 1\")"},
		{"2**-1 + 3", "2**-1 + 3: exponent less than 0 (error token is \"+ 3\")"},
		{"'1' + 1", "syntax error: operand expected"},
		{"ro = 2", "ro: readonly variable"},
		{"ro[1] = 2", "ro: readonly variable"},
	} {
		env := newFakeEnv()
		env.vars["r"] = vstr("r + 1")
		env.vars["ro"] = vstr("1")
		env.readonly["ro"] = true
		_, err := New(env).ArithString(c.expr)
		if err == nil || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("$((%s)): error %v, want %q", c.expr, err, c.msg)
		}
		if IsFatal(err) {
			t.Errorf("$((%s)): %v is fatal", c.expr, err)
		}
	}

	env := newFakeEnv()
	env.opts.NoUnset = true
	_, err := New(env).ArithString("nope + 1")
	if err == nil || err.Error() != "nope: unbound variable" || !IsFatal(err) {
		t.Errorf("unset operand under nounset: %v (fatal %v), want a fatal unbound variable", err, IsFatal(err))
	}
}

func TestCanceled(t *testing.T) {
	env := newFakeEnv()
	env.err = context.Canceled
	if _, err := fields(t, env, `{1..3}`); !errors.Is(err, context.Canceled) {
		t.Errorf("brace expansion when canceled: %v", err)
	}
	if _, err := New(env).ArithString("1 + 1"); !errors.Is(err, context.Canceled) {
		t.Errorf("arithmetic when canceled: %v", err)
	}
}

func TestAssocKey(t *testing.T) {
	env := newFakeEnv()
	env.vars["x"] = vstr("5")
	ws := words(t, "$((a[$x+1]))")
	idx := ws[0].Parts[0].(*syntax.ArithmExp).X.(*syntax.Word).Parts[0].(*syntax.ParamExp).Index
	k, err := New(env).AssocKey(idx)
	if err != nil || k != "5+1" {
		t.Errorf("AssocKey($x+1) = %q, %v; want 5+1", k, err)
	}
}

func TestQuote(t *testing.T) {
	for in, want := range map[string]string{
		"":      "''",
		"a b":   `a\ b`,
		"a\tb":  `$'a\tb'`,
		"it's":  `it\'s`,
		"~x":    `\~x`,
		"x~":    `x~`,
		"$HOME": `\$HOME`,
	} {
		if got := Quote(in); got != want {
			t.Errorf("Quote(%q) = %s, want %s", in, got, want)
		}
	}
	if got := ANSIC(`a\x41\0b`); got != "aA" {
		t.Errorf("ANSIC stops at NUL: %q", got)
	}
}

func TestTooDeep(t *testing.T) {
	if TooDeep(strings.Repeat("(", 1000)) || !TooDeep(strings.Repeat("(", 1001)) {
		t.Error("the nesting bound is not 1000")
	}
	if TooDeep("'" + strings.Repeat("(", 2000) + "'") {
		t.Error("brackets in single quotes count")
	}
}
