package gojax

import (
	"reflect"
	"sync"
	_ "unsafe" // go:linkname

	"github.com/dop251/goja"
	"github.com/dop251/goja/unistring"
)

// An Access is what the instruction a runtime is executing will do with
// the value of a property or variable it looks up, as far as it decides
// whether the script gets an error.
//
// A DynamicObject's Get learns only the key it is asked for: typeof o.k,
// "o.k?.()" and o.k() all ask the same. goja throws its own errors for a
// missing property that is called ("Object has no member 'k'") or read
// through ("Cannot read property 'm' of undefined"), and for a variable
// that is not defined, after Get has returned; CurrentAccess tells Get
// beforehand, so that it can throw an error that says more, at the same
// place, or return a value that throws it when called.
type Access uint8

const (
	// AccessOther is every other use (typeof o.k, o.k?.(), o.k ?? v, a
	// lookup from Go code), or one this package cannot tell.
	AccessOther Access = iota
	// AccessCall is a property looked up to be called: o.k(...) or
	// o["k"](...), not o.k?.(...). goja throws a TypeError at the call
	// when the value is not a function.
	AccessCall
	// AccessMember is a property looked up to read a property of its
	// value next: o.k.m or o.k.m(...), not o.k?.m. goja throws a
	// TypeError when the value is undefined.
	AccessMember
	// AccessVar is a variable that a script reads or calls, x or x(...),
	// looked up on the global object: goja throws a ReferenceError when
	// no object on the way has it (not for typeof x).
	AccessVar
)

// Site is what CurrentAccess reports.
type Site struct {
	// Access is what the instruction does with the value.
	Access Access
	// Next is the property read from the value next, for AccessMember
	// (m in o.k.m).
	Next string
}

// CurrentAccess reports what the instruction rt is executing does with
// key, the name of the property or variable that one of rt's
// DynamicObjects is asked for (from its Get). It reads the instruction
// from goja's compiled program with reflect, in the form this package was
// audited against, and reports AccessOther for anything else: when Enabled
// is false, when the runtime is not executing JavaScript (a lookup from Go
// code, or from a native function such as JSON.stringify), when the
// instruction looks up another name, and when goja compiles the probes of
// accessLayout differently.
//
// It costs a stack capture of one frame; callers ask only on the path of a
// lookup that found nothing.
func CurrentAccess(rt *goja.Runtime, key string) Site {
	l := accessLayoutOnce()
	if !l.ok || !enabled {
		return Site{}
	}
	return l.site(rt, key)
}

// accessLayout is where a goja.StackFrame keeps its program and program
// counter, and a goja.Program its instructions.
type accessLayout struct {
	ok      bool
	prg, pc int // field indexes in goja.StackFrame
	code    int // field index in goja.Program
}

var accessLayoutOnce = sync.OnceValue(findAccessLayout)

func findAccessLayout() accessLayout {
	frame := reflect.TypeFor[goja.StackFrame]()
	prg, ok1 := frame.FieldByName("prg")
	pc, ok2 := frame.FieldByName("pc")
	code, ok3 := reflect.TypeFor[goja.Program]().FieldByName("code")
	if !ok1 || !ok2 || !ok3 || len(prg.Index) != 1 || len(pc.Index) != 1 || len(code.Index) != 1 ||
		prg.Type != reflect.TypeFor[*goja.Program]() || pc.Type.Kind() != reflect.Int ||
		code.Type.Kind() != reflect.Slice || code.Type.Elem().Kind() != reflect.Interface {
		return accessLayout{}
	}
	l := accessLayout{ok: true, prg: prg.Index[0], pc: pc.Index[0], code: code.Index[0]}
	l.ok = probeAccess(l)
	return l
}

// instruction returns the type name of the instruction at pc in code (a
// reflect.Value of a Program's code) and its operand when it is a name, or
// "" past the end.
func instruction(code reflect.Value, pc int) (typ, name string) {
	if pc < 0 || pc >= code.Len() {
		return "", ""
	}
	in := code.Index(pc)
	if in.IsNil() {
		return "", ""
	}
	in = in.Elem()
	if in.Kind() == reflect.String {
		name = in.String()
	}
	return in.Type().Name(), name
}

func (l accessLayout) site(rt *goja.Runtime, key string) Site {
	var buf [1]goja.StackFrame
	frames := rt.CaptureCallStack(1, buf[:0])
	if len(frames) == 0 {
		return Site{}
	}
	frame := reflect.ValueOf(&frames[0]).Elem()
	prg := frame.Field(l.prg)
	if prg.IsNil() {
		return Site{} // a native function is running
	}
	code := prg.Elem().Field(l.code)
	pc := int(frame.Field(l.pc).Int())
	typ, name := instruction(code, pc)
	same := name == string(unistring.NewFromString(key))
	next, nextName := instruction(code, pc+1)
	switch typ {
	case "getPropCallee":
		if same && next != "joptc" {
			return Site{Access: AccessCall}
		}
	case "_getElemCallee":
		if next != "joptc" {
			return Site{Access: AccessCall}
		}
	case "getProp":
		if same && (next == "getProp" || next == "getPropCallee") {
			return Site{Access: AccessMember, Next: unistring.String(nextName).String()}
		}
	case "loadDynamic", "loadDynamicCallee":
		if same {
			return Site{Access: AccessVar}
		}
	}
	return Site{}
}

// probeAccess checks that goja compiles each form of lookup to the
// instructions site knows, by running them against a DynamicObject.
func probeAccess(l accessLayout) (ok bool) {
	defer func() {
		if recover() != nil {
			ok = false
		}
	}()
	rt := goja.New()
	p := &accessProbe{rt: rt, l: l}
	o := rt.NewObject()
	if o.SetPrototype(rt.NewDynamicObject(p)) != nil || rt.Set("o", o) != nil || rt.GlobalObject().SetPrototype(rt.NewDynamicObject(p)) != nil {
		return false
	}
	for _, c := range []struct {
		code string
		want Site
	}{
		{`o.k1()`, Site{Access: AccessCall}},
		{`o["k2"](1)`, Site{Access: AccessCall}},
		{`o[String(3)]()`, Site{Access: AccessCall}},
		{`o.k4.m()`, Site{Access: AccessMember, Next: "m"}},
		{`o.k5.m`, Site{Access: AccessMember, Next: "m"}},
		{`k6()`, Site{Access: AccessVar}},
		{`(function() { "use strict"; return k7 })()`, Site{Access: AccessVar}},
		{`typeof o.k8`, Site{}},
		{`o.k9?.()`, Site{}},
		{`o.k10?.m`, Site{}},
		{`typeof k11`, Site{}},
		{`o.k12`, Site{}},
	} {
		p.got = Site{Access: 255}
		_, _ = rt.RunString(c.code)
		if p.got != c.want {
			return false
		}
	}
	return true
}

// accessProbe is the DynamicObject probeAccess looks things up on.
type accessProbe struct {
	rt  *goja.Runtime
	l   accessLayout
	got Site
}

func (p *accessProbe) Get(key string) goja.Value {
	if key != "o" && key != "String" {
		p.got = p.l.site(p.rt, key)
	}
	return nil
}
func (p *accessProbe) Set(string, goja.Value) bool { return false }
func (p *accessProbe) Has(string) bool             { return false }
func (p *accessProbe) Delete(string) bool          { return false }
func (p *accessProbe) Keys() []string              { return nil }

//go:linkname referenceErrorCtor github.com/dop251/goja.(*Runtime).getReferenceError
func referenceErrorCtor(r *goja.Runtime) *goja.Object

//go:linkname newErrorObject github.com/dop251/goja.(*Runtime).newError
func newErrorObject(r *goja.Runtime, typ *goja.Object, msg string) goja.Value

// NewReferenceError returns a ReferenceError with message msg, made by
// rt's own ReferenceError constructor, as goja makes the one it throws for
// a variable that is not defined (and as rt.NewTypeError makes a
// TypeError): a script that replaced the global ReferenceError does not
// change it. Callers use it only when Enabled reports true.
func NewReferenceError(rt *goja.Runtime, msg string) *goja.Object {
	return newErrorObject(rt, referenceErrorCtor(rt), msg).(*goja.Object)
}
