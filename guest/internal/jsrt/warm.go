package jsrt

import (
	"errors"
	"fmt"

	"github.com/cordonhq/cordon/guest/internal/inspect"
	"github.com/cordonhq/cordon/internal/abi"
	"github.com/cordonhq/cordon/vfs"
)

// Warm does, once per process, the work that a guest's first execution
// would otherwise do on its caller's clock; a pooled guest does it before
// it is taken (abi.OpWarm).
//
//   - It compiles the formatter for plain data and errors (inspect.Fast),
//     which console.log of an object and an uncaught error use, and the
//     source map of a first line of a script named script.js
//     (firstLineMap).
//   - It runs warmScript, with one tool answered inside the guest, so that
//     goja's one-time tables (the function prototype's template among
//     them), this package's interrupt field lookup, and the first pass
//     through the parser, the compiler, and the promise and tool-call
//     paths are not a first execution's. The first execution of a pooled
//     sandbox is faster, for `return 1` and for one tool call alike
//     (BENCHMARKS.md has the figures; RATIONALE.md, "A pool of
//     booted guests").
//
// The warm run leaves nothing behind that a script can see: it has its own
// runtime and file system, and its compiled program is not kept.
func Warm() error {
	if err := inspect.CompileFast(); err != nil {
		return err
	}
	firstLineMap("script.js", "return 1") // the default name's first-line map
	h := &warmHost{}
	out := Run(Options{Common: Common{Host: h, FS: vfs.New(vfs.Limits{}), Tools: []abi.ToolInfo{{Name: "warm/tool"}}}}, "warm.js", warmScript)
	programs.forget("warm.js", warmScript)
	if out.ExitCode != 0 || out.ErrCode != "" {
		return fmt.Errorf("jsrt: warm-up script failed: %s: %s", out.ErrCode, out.ErrMsg)
	}
	if h.calls != warmCalls {
		return fmt.Errorf("jsrt: warm-up script made %d tool calls, want %d", h.calls, warmCalls)
	}
	return nil
}

// warmScript goes through what agents' scripts commonly do: tool calls
// awaited one by one and together, objects and arrays, JSON, strings,
// classes, a caught error, console output (which warmHost drops).
const warmScript = `const rows = []
for (let i = 0; i < 3; i++) rows.push(await warm.tool({i, name: "row" + i, ok: true}))
const all = await Promise.all([1, 2].map(n => warm_tool({n})))
class Box { constructor(v) { this.v = v } get twice() { return this.v * 2 } }
const text = JSON.stringify({rows, all, box: new Box(2).twice, list: [1, 2, 3].filter(x => x > 1).map(x => x + 0.5)})
const back = JSON.parse(text)
let caught = ""
try { null.x } catch (e) { caught = String(e) + e.stack }
const words = text.split(",").slice(0, 3).join(" ").toUpperCase().replace(/ROW(\d)/g, "r$1")
console.log(back.rows.length, words.length, caught.length > 0, ` + "`${Object.keys(back).length} keys`" + `)
console.log({nested: {a: [1, "two", null]}})
return back.box`

// warmCalls is how many tool calls warmScript makes.
const warmCalls = 5

// warmHost answers warmScript's tool calls inside the guest, each with its
// parameters, and drops its output.
type warmHost struct{ calls int }

func (h *warmHost) Yield(calls []abi.Call) (*abi.Resume, error) {
	res := &abi.Resume{Results: make([]abi.CallResult, len(calls))}
	for i, c := range calls {
		h.calls++
		res.Results[i] = abi.CallResult{ID: c.ID, OK: true, Value: c.Params}
	}
	return res, nil
}

func (*warmHost) Write(int, []byte) {}

func (*warmHost) WatchInterrupt(*uint32) {}

// Next is never called: the warm-up runs a script, not a request loop.
func (*warmHost) Next([]byte) ([]byte, error) {
	return nil, errors.New("jsrt: the warm-up host serves no requests")
}
