package jsrt

import (
	"bytes"
	"errors"

	"github.com/dop251/goja"
)

// ToolError is a class made in Go rather than written in JS: an error's
// stack starts at the function that creates it, so a JS constructor would
// put a frame of the sandbox's own code on top of every ToolError's stack.
// A Go constructor adds none, and a tool call that fails gets the frames of
// the script where it made the call (callSiteFrames of them) as its stack,
// rather than the few frames of the event loop that rejected it.

// callSiteFrames is how many frames of a tool call's caller are kept, the
// tool's own function included, for the stack of its ToolError.
const callSiteFrames = 4

// toolErrorCtor returns this run's ToolError class, defining it on first
// use; it is called from JS (reading the global), where a failure throws.
func (r *run) toolErrorCtor() goja.Value {
	te, err := r.toolErrorClass()
	if err != nil {
		panic(r.rt.NewTypeError(err.Error()))
	}
	return te
}

// toolErrorClass returns this run's ToolError class, made on first use:
// new ToolError(message, method, kind, reasons) is an Error (made by the
// script's own Error constructor, as newError's are) whose prototype is
// ToolError.prototype, named "ToolError", with method, kind and reasons
// as own properties. It can be extended (class Mine extends ToolError),
// and, as Error, called without new.
func (r *run) toolErrorClass() (goja.Value, error) {
	if r.toolError != nil {
		return r.toolError, nil
	}
	rt := r.rt
	notCtor := errors.New("the global Error is not a constructor with a prototype: ToolError cannot extend it")
	base, ok := rt.Get("Error").(*goja.Object)
	if !ok {
		return nil, notCtor
	}
	baseCtor, ok := goja.AssertConstructor(base)
	if !ok {
		return nil, notCtor
	}
	baseProto, ok := base.Get("prototype").(*goja.Object)
	if !ok {
		return nil, notCtor
	}
	var ctor *goja.Object
	ctor = rt.ToValue(func(call goja.ConstructorCall) *goja.Object {
		newTarget := call.NewTarget
		if newTarget == nil { // new ToolError(...), or a call from Go
			newTarget = ctor
		}
		obj, err := baseCtor(newTarget, call.Argument(0))
		if err != nil {
			panic(err)
		}
		for i, key := range []string{"method", "kind", "reasons"} {
			if err := obj.DefineDataProperty(key, call.Argument(i+1), goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_TRUE); err != nil {
				panic(err)
			}
		}
		return obj
	}).(*goja.Object)
	proto, ok := ctor.Get("prototype").(*goja.Object)
	if !ok {
		return nil, errors.New("the ToolError function has no prototype object")
	}
	if err := proto.SetPrototype(baseProto); err != nil {
		return nil, err
	}
	if err := ctor.SetPrototype(base); err != nil {
		return nil, err
	}
	// As a class declares them: name on the prototype writable and
	// configurable, the function's name and length read-only.
	_ = proto.DefineDataProperty("name", rt.ToValue("ToolError"), goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_FALSE)
	setName(rt, ctor, "ToolError")
	_ = ctor.DefineDataProperty("length", rt.ToValue(4), goja.FLAG_FALSE, goja.FLAG_TRUE, goja.FLAG_FALSE)
	r.toolError = ctor
	return ctor, nil
}

// setCallSite gives err, a ToolError made in Go, the stack of the call
// site: frames as goja writes them, from the script's code that made the
// call (site, captured when it did, starts with the tool's own function).
func setCallSite(rt *goja.Runtime, err *goja.Object, site []goja.StackFrame) {
	if len(site) > 0 && site[0].SrcName() == "<native>" {
		site = site[1:] // the tool's function
	}
	if len(site) == 0 {
		return
	}
	var b bytes.Buffer
	b.WriteString(errorSummary(err))
	b.WriteByte('\n')
	for i := range site {
		b.WriteString("\tat ")
		site[i].Write(&b)
		b.WriteByte('\n')
	}
	_ = err.DefineDataProperty("stack", rt.ToValue(b.String()), goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_FALSE)
}
