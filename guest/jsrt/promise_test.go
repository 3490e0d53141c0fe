package jsrt

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"io"
	"os"
	"strings"
	"testing"

	"github.com/cordonhq/cordon/internal/abi"
	"github.com/cordonhq/cordon/vfs"
)

// A test binary of a package that is not main carries no module list in its
// build information, so linkedWith cannot see goja's version here; go.mod
// says which goja these tests are linked with.
func init() {
	if !cheapPromises {
		cheapPromises = goModVersion("github.com/dop251/goja") == auditedGoja
	}
}

// goModVersion returns the version go.mod requires of path, or "".
func goModVersion(path string) string {
	b, err := os.ReadFile("../../go.mod")
	if err != nil {
		return ""
	}
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		f := strings.Fields(strings.TrimPrefix(strings.TrimSpace(sc.Text()), "require "))
		if len(f) >= 2 && f[0] == path {
			return f[1]
		}
	}
	return ""
}

// The promise functions reached by go:linkname were read against one goja
// version. When go.mod moves goja, this fails: read newPromise,
// getPromisePrototype, fulfill, reject and createResolvingFunctions in the
// new version, check the declarations in promise.go still match them, and
// set auditedGoja.
func TestPromisesUseTheAuditedGoja(t *testing.T) {
	if v := goModVersion("github.com/dop251/goja"); v != auditedGoja {
		t.Fatalf("go.mod requires goja %s; promise.go's go:linkname declarations were checked against %s", v, auditedGoja)
	}
}

// The guest's build information names the goja it was linked with, which
// is what turns the cheap promises on inside it.
func TestGuestLinksTheAuditedGoja(t *testing.T) {
	f, err := os.Open("../../engine/guest.wasm.gz")
	if err != nil {
		t.Skip(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	wasm, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(wasm, []byte("\ndep\tgithub.com/dop251/goja\t"+auditedGoja+"\t")) {
		t.Errorf("engine/guest.wasm.gz does not record goja %s in its build information: tool calls in the guest would use goja's slower NewPromise", auditedGoja)
	}
}

// Both ways of making a call's promise behave the same to scripts.
func TestCallPromisesBehaveAlike(t *testing.T) {
	scripts := []struct{ name, code string }{
		{"result", `return await t({a: 1})`},
		{"all", `return await Promise.all([t({a: 1}), t({a: 2}), t({})])`},
		{"then", `return await new Promise(res => t({a: 3}).then(v => res(["then", v])))`},
		{"order", `const o = []; const p = t({a: 1}).then(() => o.push("a")); t({a: 2}).then(() => o.push("b")); Promise.resolve().then(() => o.push("tick")); await p; await null; return o`},
		{"denied", `try { await t({deny: true}) } catch (e) { return [e.name, e.kind, e.message] }`},
		{"invalid", `try { await t({bad: true}) } catch (e) { return [e.name, e.kind] }`},
		{"unhandled", `t({deny: true}); await t({a: 1}); return "not reached"`},
		{"late catch", `const p = t({deny: true}); p.catch(() => {}); await t({a: 1}); return "caught"`},
		{"thenable via prototype", `Object.prototype.then = function (res) { delete Object.prototype.then; res("adopted") }; return await t({a: 1})`},
		{"then getter throws", `Object.defineProperty(Object.prototype, "then", {get() { throw new Error("getter") }, configurable: true}); try { await t({a: 1}) } catch (e) { delete Object.prototype.then; return "rejected: " + e.message }`},
		{"primitive result", `return await t({prim: true})`},
		{"after finish", `t({a: 1}).then(v => console.log("late", v)); return 1`},
	}
	answer := func(c abi.Call) abi.CallResult {
		p := string(c.Params)
		switch {
		case strings.Contains(p, "deny"):
			return abi.CallResult{ID: c.ID, ErrKind: "denied", ErrMsg: "tool t denied: no"}
		case strings.Contains(p, "bad"):
			return abi.CallResult{ID: c.ID, OK: true, Value: []byte(`{"x":`)}
		case strings.Contains(p, "prim"):
			return abi.CallResult{ID: c.ID, OK: true, Value: []byte(`42`)}
		}
		return abi.CallResult{ID: c.ID, OK: true, Value: []byte(`{"got":` + p + `}`)}
	}
	run := func(code string) string {
		h := &fakeHost{answer: answer}
		out := Run(Options{Host: h, FS: vfs.New(vfs.Limits{}), Tools: []abi.ToolInfo{{Name: "t"}}}, "p.js", code)
		return string(out.Value) + " | " + out.ErrCode + " | " + h.stdout.String() + " | " + h.stderr.String()
	}
	if !cheapPromises {
		t.Fatal("the cheap promises are off in this build")
	}
	defer func() { cheapPromises = true }()
	for _, s := range scripts {
		cheapPromises = true
		cheap := run(s.code)
		cheapPromises = false
		public := run(s.code)
		if cheap != public {
			t.Errorf("%s:\ncheap:  %s\npublic: %s", s.name, cheap, public)
		} else {
			t.Logf("%s: %s", s.name, cheap)
		}
	}
}
