package jsrt

import (
	"github.com/cordonhq/cordon/guest/internal/gojax"
	"github.com/cordonhq/cordon/internal/abi"
	"github.com/dop251/goja"
)

// A tool call's promise is made without goja's resolving functions when
// gojax allows it. goja's public Runtime.NewPromise makes a promise and two
// resolving functions, each a native function object with its own property
// map, plus a Go closure around each. A tool call needs none of that: the
// script never sees the resolving functions, and the guest settles the
// promise itself when the host answers. In the guest profile the two
// functions were a large share of a tool call's samples and guest
// instructions (BENCHMARKS.md has the figures, measured with bench/instr
// over many calls).

// useGojax is whether this package uses gojax's functions: gojax.Enabled.
// The package's tests set it aside to exercise the public-API paths.
var useGojax = gojax.Enabled()

// newCallPromise returns a pending tool call's promise, recording in pc how
// to settle it.
func (r *run) newCallPromise(pc *pendingCall) *goja.Promise {
	if useGojax {
		pc.p = gojax.NewPromise(r.rt)
		return pc.p
	}
	p, resolve, reject := r.rt.NewPromise()
	pc.resolve, pc.reject = resolve, reject
	return p
}

// settle resolves or rejects the promise of an answered call. The Hub may
// call it while another interpreter (a shell run by shell()) waits for its
// own call; promise jobs then run when this script resumes.
func (r *run) settle(pc *pendingCall, c abi.CallResult) {
	r.inflight--
	v, ok := r.callOutcome(pc, c)
	var err error
	switch {
	case pc.p == nil && ok:
		err = pc.resolve(v)
	case pc.p == nil:
		err = pc.reject(v)
	default:
		// Settled inside goja's wrapper for calls from Go, as the resolving
		// functions are: it catches what a getter throws, and runs the
		// promise jobs (the script's continuation) when it returns to Go.
		if r.settleInVM == nil {
			r.settleInVM, _ = goja.AssertFunction(r.rt.ToValue(r.settleNow))
		}
		r.settling, r.settlingValue, r.settlingOK = pc.p, v, ok
		_, err = r.settleInVM(nil)
	}
	if err != nil && r.settleErr == nil {
		r.settleErr = err
	}
}

// callOutcome is the value a call's promise settles with: the parsed
// result, or (ok false) the ToolError to reject it with.
func (r *run) callOutcome(pc *pendingCall, c abi.CallResult) (v goja.Value, ok bool) {
	method := pc.method
	if !c.OK {
		return r.newToolError(method, c.ErrKind, c.ErrMsg, c.Reasons, pc.site), false
	}
	if pc.fetch {
		return r.fetchOutcome(pc, c.Value)
	}
	v, err := r.parseJSON(c.Value)
	if err != nil {
		return r.newToolError(method, abi.ToolInvalidResult, "tool "+method+" returned "+err.Error(), nil, pc.site), false
	}
	return v, true
}

// settleNow settles r.settling as its resolving functions would: a result
// that is an object is looked at for a callable then, which JSON cannot
// make but a script can put on Object.prototype or Array.prototype.
func (r *run) settleNow(goja.FunctionCall) goja.Value {
	p, v, ok := r.settling, r.settlingValue, r.settlingOK
	r.settling, r.settlingValue = nil, nil
	if !ok {
		gojax.Reject(p, v)
		return goja.Undefined()
	}
	if o, isObject := v.(*goja.Object); isObject {
		var then goja.Value
		if ex := r.rt.Try(func() { then = o.Get("then") }); ex != nil {
			gojax.Reject(p, ex.Value())
			return goja.Undefined()
		}
		if _, thenable := goja.AssertFunction(then); thenable {
			// A thenable is adopted by goja's own algorithm (which reads
			// then a second time).
			resolve, _ := gojax.ResolvingFunctions(p)
			fn, _ := goja.AssertFunction(resolve)
			if _, err := fn(nil, v); err != nil {
				panic(err)
			}
			return goja.Undefined()
		}
	}
	gojax.Fulfill(p, v)
	return goja.Undefined()
}
