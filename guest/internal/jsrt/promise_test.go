package jsrt

import (
	"strings"
	"testing"

	"github.com/cordonhq/cordon/guest/internal/gojax"
	"github.com/cordonhq/cordon/guest/internal/hub/hubtest"
	"github.com/cordonhq/cordon/internal/abi"
	"github.com/cordonhq/cordon/vfs"
)

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
		h := &hubtest.Host{Answer: answer}
		out := Run(Options{Common: Common{Host: h, FS: vfs.New(vfs.Limits{}), Tools: []abi.ToolInfo{{Name: "t"}}}}, "p.js", code)
		return string(out.Value) + " | " + string(out.ErrCode) + " | " + h.Stdout() + " | " + h.Stderr()
	}
	if !gojax.Enabled() {
		t.Fatal("gojax is off in this build")
	}
	defer func() { useGojax = true }()
	for _, s := range scripts {
		useGojax = true
		cheap := run(s.code)
		useGojax = false
		public := run(s.code)
		if cheap != public {
			t.Errorf("%s:\ncheap:  %s\npublic: %s", s.name, cheap, public)
		} else {
			t.Logf("%s: %s", s.name, cheap)
		}
	}
}
