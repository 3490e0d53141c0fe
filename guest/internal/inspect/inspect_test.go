package inspect

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/dop251/goja"
)

var update = flag.Bool("update", false,
	"regenerate testdata/node.golden by running testdata/cases.js under node")

const (
	casesPath  = "testdata/cases.js"
	goldenPath = "testdata/node.golden"
)

// skipped lists the corpus cases whose goja output cannot match Node's,
// with the reason. They still run (so they must not fail under goja), but
// their output is not compared.
var skipped = map[string]string{
	"global-object": "the global object holds different things: Node's globals " +
		"(process, Buffer, timers, ...) versus the embedder's",
	"map-iterator": "Node previews Map iterator entries through V8's previewEntries; " +
		"goja has no way to read an iterator without consuming it",
	"set-iterator": "Node previews Set iterator entries through V8's previewEntries; " +
		"goja has no way to read an iterator without consuming it",
	"edge-format-o-function": "%o shows hidden properties in own-key order; V8 orders a " +
		"function's keys length, name, arguments, caller, prototype while goja has " +
		"prototype, length, name and no arguments/caller properties",
}

// frameLine matches a stack frame line ("    at fn (file:1:2)"), capturing
// its indentation and the separator that may follow the frame.
var frameLine = regexp.MustCompile(`^(\s*)at .*?( \{|,)?$`)

// collapseFrames replaces each run of stack frame lines by a single
// "at <frames>" line, so that outputs containing real V8 and goja stacks
// can be compared for everything but the frames themselves.
func collapseFrames(s string) string {
	lines := strings.Split(s, "\n")
	out := make([]string, 0, len(lines))
	for i := 0; i < len(lines); i++ {
		m := frameLine.FindStringSubmatch(lines[i])
		if m == nil {
			out = append(out, lines[i])
			continue
		}
		indent, suffix := m[1], m[2]
		for i+1 < len(lines) {
			next := frameLine.FindStringSubmatch(lines[i+1])
			if next == nil || next[1] != indent || suffix != "" {
				break
			}
			suffix = next[2]
			i++
		}
		out = append(out, indent+"at <frames>"+suffix)
	}
	return strings.Join(out, "\n")
}

// corpusCase is one entry of testdata/cases.js.
type corpusCase struct {
	name   string
	fn     goja.Callable
	frames bool
}

// corpus is a runtime with this package installed, console.log capturing
// into out, and the cases of testdata/cases.js loaded.
type corpus struct {
	rt    *goja.Runtime
	funcs *Funcs
	out   bytes.Buffer
	cases []corpusCase
}

func loadCorpus(t testing.TB) *corpus {
	t.Helper()
	c := &corpus{rt: goja.New()}
	funcs, err := Install(c.rt)
	if err != nil {
		t.Fatal(err)
	}
	c.funcs = funcs
	console := c.rt.NewObject()
	if err := console.Set("log", func(call goja.FunctionCall) goja.Value {
		c.out.WriteString(funcs.Format(call.Arguments))
		c.out.WriteByte('\n')
		return goja.Undefined()
	}); err != nil {
		t.Fatal(err)
	}
	if err := c.rt.Set("console", console); err != nil {
		t.Fatal(err)
	}
	if err := c.rt.Set("util", funcs.Exports()); err != nil {
		t.Fatal(err)
	}

	src, err := os.ReadFile(casesPath)
	if err != nil {
		t.Fatal(err)
	}
	list, err := c.rt.RunScript("cases.js", string(src))
	if err != nil {
		t.Fatalf("loading %s: %v", casesPath, err)
	}
	var entries []goja.Value
	if err := c.rt.ExportTo(list, &entries); err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		entry := e.ToObject(c.rt)
		fn, ok := goja.AssertFunction(entry.Get("1"))
		if !ok {
			t.Fatalf("case %v: second element is not a function", entry.Get("0"))
		}
		flags := entry.Get("2")
		c.cases = append(c.cases, corpusCase{
			name:   entry.Get("0").String(),
			fn:     fn,
			frames: flags != nil && !goja.IsUndefined(flags) && strings.Contains(flags.String(), "frames"),
		})
	}
	return c
}

// run runs one case and returns what it printed.
func (c *corpus) run(cc corpusCase) (string, error) {
	c.out.Reset()
	_, err := cc.fn(goja.Undefined())
	return c.out.String(), err
}

// parseGolden splits node.golden into the output of each case.
func parseGolden(data string) map[string]string {
	res := map[string]string{}
	name := ""
	var buf strings.Builder
	flush := func() {
		if name != "" {
			res[name] = buf.String()
		}
		buf.Reset()
	}
	for _, line := range strings.SplitAfter(data, "\n") {
		if strings.HasPrefix(line, "=== ") {
			flush()
			name = strings.TrimSuffix(strings.TrimPrefix(line, "=== "), "\n")
			continue
		}
		buf.WriteString(line)
	}
	flush()
	return res
}

func regenerateGolden(t *testing.T) {
	cmd := exec.Command("node", filepath.Join("testdata", "gen_golden.js"))
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("running node: %v\n%s", err, stderr.String())
	}
	if err := os.WriteFile(goldenPath, out, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestGolden runs every case of testdata/cases.js under goja and compares
// the output with Node's, recorded in testdata/node.golden. Run with
// -update (which needs node on PATH) to regenerate the golden file.
func TestGolden(t *testing.T) {
	if *update {
		regenerateGolden(t)
	}
	data, err := os.ReadFile(goldenPath)
	if err != nil {
		t.Fatal(err)
	}
	golden := parseGolden(string(data))
	c := loadCorpus(t)
	if len(golden) != len(c.cases) {
		t.Errorf("%s has %d cases, %s has %d; regenerate with -update",
			goldenPath, len(golden), casesPath, len(c.cases))
	}

	matched, compared := 0, 0
	for _, cc := range c.cases {
		t.Run(cc.name, func(t *testing.T) {
			got, err := c.run(cc)
			if err != nil {
				t.Fatalf("case threw: %v", err)
			}
			want, ok := golden[cc.name]
			if !ok {
				t.Fatalf("no golden output; regenerate with -update")
			}
			if reason, ok := skipped[cc.name]; ok {
				t.Skip(reason)
			}
			compared++
			if cc.frames {
				got, want = collapseFrames(got), collapseFrames(want)
			}
			if got != want {
				t.Errorf("output differs from Node\n--- node\n%s--- goja\n%s", want, got)
				return
			}
			matched++
		})
	}
	t.Logf("match rate: %d/%d compared cases identical to Node (%.1f%%); %d of %d corpus cases skipped",
		matched, compared, 100*float64(matched)/float64(max(compared, 1)), len(c.cases)-compared, len(c.cases))
	for name := range skipped {
		if _, ok := golden[name]; !ok {
			t.Errorf("skip list names unknown case %q", name)
		}
	}
}

// TestCollapseFrames checks the stack frame normalisation used by
// TestGolden for cases flagged 'frames'.
func TestCollapseFrames(t *testing.T) {
	in := "{\n  e: Error: x\n      at a (f.js:1:1)\n      at b (f.js:2:2) {\n    code: 1\n  },\n" +
		"  l: [\n    Error: y\n        at c (g.js:1:1),\n    1\n  ]\n}\n"
	want := "{\n  e: Error: x\n      at <frames> {\n    code: 1\n  },\n" +
		"  l: [\n    Error: y\n        at <frames>,\n    1\n  ]\n}\n"
	if got := collapseFrames(in); got != want {
		t.Errorf("collapseFrames:\n%s\nwant:\n%s", got, want)
	}
}

// newTestRuntime returns a runtime with the package installed.
func newTestRuntime(t testing.TB) (*goja.Runtime, *Funcs) {
	t.Helper()
	rt := goja.New()
	funcs, err := Install(rt)
	if err != nil {
		t.Fatal(err)
	}
	return rt, funcs
}

// TestGojaStack checks how goja's own stack traces are printed: frames are
// rewritten to V8's "    at " form without goja's program counters.
func TestGojaStack(t *testing.T) {
	rt, funcs := newTestRuntime(t)
	v, err := rt.RunScript("agent.js", "function inner() { return new Error('deep'); }\n"+
		"function outer() { return inner(); }\nouter();")
	if err != nil {
		t.Fatal(err)
	}
	got := funcs.Inspect(v)
	want := "Error: deep\n" +
		"    at inner (agent.js:1:27)\n" +
		"    at outer (agent.js:2:32)\n" +
		"    at agent.js:3:6"
	if got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
}

// TestNoGlobals checks that Install and InstallFast, and formatting, leave
// the global object untouched.
func TestNoGlobals(t *testing.T) {
	rt := goja.New()
	before := rt.GlobalObject().Keys()
	names := func() []string {
		v, err := rt.RunString("Object.getOwnPropertyNames(globalThis).concat(Object.getOwnPropertySymbols(globalThis).map(String))")
		if err != nil {
			t.Fatal(err)
		}
		var s []string
		if err := rt.ExportTo(v, &s); err != nil {
			t.Fatal(err)
		}
		return s
	}
	allBefore := names()
	if _, err := Install(rt); err != nil {
		t.Fatal(err)
	}
	fast, err := InstallFast(rt)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok, err := fast.TryFormat([]goja.Value{rt.NewArray(1, rt.NewObject())}); !ok || err != nil {
		t.Fatal(ok, err)
	}
	if after := rt.GlobalObject().Keys(); fmt.Sprint(before) != fmt.Sprint(after) {
		t.Errorf("enumerable globals changed: %v -> %v", before, after)
	}
	if allAfter := names(); fmt.Sprint(allBefore) != fmt.Sprint(allAfter) {
		t.Errorf("globals changed: %v -> %v", allBefore, allAfter)
	}
}

// TestMonkeyPatching checks that formatting keeps working after user code
// replaces the built-ins it relies on.
func TestMonkeyPatching(t *testing.T) {
	rt, funcs := newTestRuntime(t)
	v, err := rt.RunString(`
		Array.prototype.push = function() { throw new Error('patched push'); };
		Array.prototype.join = function() { return 'patched'; };
		Object.keys = function() { return []; };
		String.prototype.slice = function() { return 'patched'; };
		Map.prototype.get = function() { throw new Error('patched get'); };
		({ list: [1, 2, 3], m: new Map([[1, { s: 'x' }]]), o: { a: 1 } })`)
	if err != nil {
		t.Fatal(err)
	}
	want := "{ list: [ 1, 2, 3 ], m: Map(1) { 1 => { s: 'x' } }, o: { a: 1 } }"
	if got := funcs.Inspect(v); got != want {
		t.Errorf("got %s, want %s", got, want)
	}
}

// TestThrowingToString checks that an exception thrown by user code while
// formatting reaches the caller: as an error from TryFormat, and as the
// original JavaScript exception when Format is called from a native
// function.
func TestThrowingToString(t *testing.T) {
	rt, funcs := newTestRuntime(t)
	v, err := rt.RunString(`({ toString() { throw new Error('no string for you'); } })`)
	if err != nil {
		t.Fatal(err)
	}
	_, err = funcs.TryFormat([]goja.Value{rt.ToValue("%s"), v})
	if err == nil || !strings.Contains(err.Error(), "no string for you") {
		t.Fatalf("TryFormat error = %v", err)
	}

	if err := rt.Set("log", func(call goja.FunctionCall) goja.Value {
		return rt.ToValue(funcs.Format(call.Arguments))
	}); err != nil {
		t.Fatal(err)
	}
	res, err := rt.RunString(`
		let msg;
		try { log('%s', { toString() { throw new TypeError('inner'); } }); } catch (e) { msg = e.name + ': ' + e.message; }
		msg`)
	if err != nil {
		t.Fatal(err)
	}
	if got := res.String(); got != "TypeError: inner" {
		t.Errorf("caught %q", got)
	}
}

// TestStringWidth checks the ICU-derived width table.
func TestStringWidth(t *testing.T) {
	for _, tc := range []struct {
		s    string
		want int
	}{
		{"abc", 3},
		{"日本", 4},
		{"😀", 2},
		{"e\u0301", 1},
		{"\u200b", 0},
		{"한국어", 6},
		{"ñ", 1},
	} {
		if got := stringWidth(tc.s); got != tc.want {
			t.Errorf("stringWidth(%q) = %d, want %d", tc.s, got, tc.want)
		}
	}
}

// TestInstallReusesProgram checks that several runtimes share one compiled
// program and work independently.
func TestInstallReusesProgram(t *testing.T) {
	for i := 0; i < 3; i++ {
		rt, funcs := newTestRuntime(t)
		got := funcs.Format([]goja.Value{rt.ToValue("run %d:"), rt.ToValue(i), rt.NewArray(1, "a")})
		if want := fmt.Sprintf("run %d: [ 1, 'a' ]", i); got != want {
			t.Errorf("got %q, want %q", got, want)
		}
	}
	p1, _ := program()
	p2, _ := program()
	if p1 != p2 {
		t.Error("program compiled twice")
	}
}

// TestGoValues checks that values wrapped from Go by the embedder format
// without errors. Node has no equivalent, so only the shape is checked.
func TestGoValues(t *testing.T) {
	rt, funcs := newTestRuntime(t)
	type record struct {
		Name  string
		Count int
	}
	for _, tc := range []struct {
		v    any
		want string
	}{
		{map[string]any{"a": 1}, "{ a: 1 }"}, // one key: Go map order is random
		{[]any{1, "two"}, "[ 1, 'two' ]"},
		{[]int{1, 2}, "[ 1, 2 ]"},
		{record{"n", 3}, "{ Name: 'n', Count: 3 }"},
		{&record{"p", 4}, "{ Name: 'p', Count: 4 }"},
		{time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC), ""},
		{errors.New("go failure"), ""},
	} {
		got, err := funcs.TryInspect(rt.ToValue(tc.v))
		if err != nil {
			t.Errorf("%T: %v", tc.v, err)
			continue
		}
		if tc.want != "" && got != tc.want {
			t.Errorf("%T: got %s, want %s", tc.v, got, tc.want)
		}
	}
}

// TestInterrupt checks that interrupting the runtime while user code runs
// inside formatting stops it and reports goja's InterruptedError.
func TestInterrupt(t *testing.T) {
	if runtime.GOOS == "wasip1" {
		t.Skip("wasip1 has no preemption: the timer goroutine never runs while JavaScript loops")
	}
	rt, funcs := newTestRuntime(t)
	v, err := rt.RunString(`({ [Symbol.for('nodejs.util.inspect.custom')]() { for (;;) {} } })`)
	if err != nil {
		t.Fatal(err)
	}
	timer := time.AfterFunc(20*time.Millisecond, func() { rt.Interrupt("stop") })
	defer timer.Stop()
	_, err = funcs.TryInspect(v)
	var interrupted *goja.InterruptedError
	if !errors.As(err, &interrupted) {
		t.Fatalf("TryInspect error = %v, want *goja.InterruptedError", err)
	}
}

// Install is paid by every execution that prints an object or throws, so it
// builds only what every value needs: the color table, Error, Map and Set
// wait until a value needs them (about 2,750 allocations; 3,970 when they
// were built up front).
func TestInstallStaysCheap(t *testing.T) {
	n := testing.AllocsPerRun(20, func() {
		if _, err := Install(goja.New()); err != nil {
			t.Fatal(err)
		}
	})
	if n > 3200 {
		t.Errorf("Install allocates %v times, want at most 3200", n)
	}
}

// Node's builtInObjects are the globals before user code runs; here, those
// of a fresh runtime, whatever a script has added since.
func TestBuiltInNames(t *testing.T) {
	rt := goja.New()
	rt.Set("MyThing", 1)
	if _, err := Install(rt); err != nil {
		t.Fatal(err)
	}
	names := builtInNames()
	for _, want := range []string{"Object", "Map", "Error", "Uint8Array", "JSON"} {
		if !names[want] {
			t.Errorf("%s is missing", want)
		}
	}
	for _, not := range []string{"MyThing", "globalThis", "eval", "X"} {
		if names[not] {
			t.Errorf("%s counts as a built-in", not)
		}
	}
}
