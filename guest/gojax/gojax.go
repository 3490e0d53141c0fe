// Package gojax reaches a few of goja's unexported functions and fields,
// for work that goja's public API can only do at a much higher cost in the
// guest: making a tool call's promise without two resolving functions the
// script never sees, and reading an own property without building a
// property descriptor object.
//
// The functions are reached by go:linkname, and their declarations here use
// only goja's exported types. The linker fails the build if a goja upgrade
// removes one, but a changed signature or meaning would not fail it, so
// everything here was read against one goja version, Audited, and callers
// must use it only when Enabled is true:
//
//   - in a binary built from this module, whose go.mod pins goja (the
//     package's tests fail when go.mod moves it away from Audited);
//   - in any other binary, when its module list names goja at Audited,
//     unreplaced.
//
// Whoever upgrades goja reads newPromise, getPromisePrototype, fulfill,
// reject, createResolvingFunctions and Object.getOwnProp, and the
// valueProperty struct, in the new version, checks the declarations and
// findValueProperty against them, and sets Audited.
package gojax

import (
	"reflect"
	"runtime/debug"
	"sync"
	"unsafe"

	"github.com/dop251/goja"
)

// Audited is the goja version this package was read against.
const Audited = "v0.0.0-20260917113740-793a2a65c13b"

const (
	gojaPath   = "github.com/dop251/goja"
	cordonPath = "github.com/cordonhq/cordon"
)

// Enabled reports whether the functions of this package may be used in this
// binary (see the package documentation). Tests may set it to false to
// exercise the public-API paths that callers fall back to.
var Enabled = audited()

func audited() bool {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return false
	}
	if bi.Main.Path == cordonPath {
		// The guest, cordon's commands and this module's test binaries (a
		// test binary of a library package records no module list).
		return true
	}
	for _, d := range bi.Deps {
		if d.Path == gojaPath {
			return d.Version == Audited && d.Replace == nil
		}
	}
	return false
}

//go:linkname newPromise github.com/dop251/goja.(*Runtime).newPromise
func newPromise(r *goja.Runtime, proto *goja.Object) *goja.Promise

//go:linkname promisePrototype github.com/dop251/goja.(*Runtime).getPromisePrototype
func promisePrototype(r *goja.Runtime) *goja.Object

//go:linkname fulfill github.com/dop251/goja.(*Promise).fulfill
func fulfill(p *goja.Promise, v goja.Value) goja.Value

//go:linkname reject github.com/dop251/goja.(*Promise).reject
func reject(p *goja.Promise, reason goja.Value) goja.Value

//go:linkname resolvingFunctions github.com/dop251/goja.(*Promise).createResolvingFunctions
func resolvingFunctions(p *goja.Promise) (resolve, reject *goja.Object)

//go:linkname getOwnProp github.com/dop251/goja.(*Object).getOwnProp
func getOwnProp(o *goja.Object, p goja.Value) goja.Value

// NewPromise returns a pending promise of rt, as rt.NewPromise does, but
// without resolving functions: Fulfill, Reject or ResolvingFunctions
// settle it.
func NewPromise(rt *goja.Runtime) *goja.Promise {
	return newPromise(rt, promisePrototype(rt))
}

// Fulfill fulfills the pending promise p with v, which must not be a
// thenable (a promise resolved with a thenable adopts its state: use
// ResolvingFunctions). Reactions are queued as jobs, which run when the
// runtime next returns to Go from a call made through goja's public API.
func Fulfill(p *goja.Promise, v goja.Value) { fulfill(p, v) }

// Reject rejects the pending promise p with reason, telling the runtime's
// rejection tracker if p has no handler.
func Reject(p *goja.Promise, reason goja.Value) { reject(p, reason) }

// ResolvingFunctions returns the resolve and reject functions of the
// pending promise p, as its executor would have received them.
func ResolvingFunctions(p *goja.Promise) (resolve, reject *goja.Object) {
	return resolvingFunctions(p)
}

// Prop is an own property as OwnProp reads it.
type Prop struct {
	// Exists is false when the object has no such own property.
	Exists bool
	// Accessor is true for a getter or setter, whose Value is nil.
	Accessor bool
	// Enumerable is the property's enumerable attribute.
	Enumerable bool
	// Value is a data property's value.
	Value goja.Value
}

// OwnProp reads o's own property key (a string, a symbol or an integer
// index value) without running script code and without building a
// descriptor, provided o is not a proxy: a proxy's getOwnPropertyDescriptor
// trap would run. ok is false when goja's representation of the property
// is not one this package knows, and the caller must then use the public
// API.
func OwnProp(o *goja.Object, key goja.Value) (p Prop, ok bool) {
	v := getOwnProp(o, key)
	if v == nil {
		return Prop{}, true
	}
	vp := valuePropertyLayout()
	if !vp.ok {
		return Prop{}, false
	}
	if reflect.TypeOf(v) != vp.typ {
		// A data property that is writable, enumerable and configurable is
		// kept as its value.
		return Prop{Exists: true, Enumerable: true, Value: v}, true
	}
	ptr := reflect.ValueOf(v).UnsafePointer()
	p = Prop{
		Exists:     true,
		Accessor:   *(*bool)(unsafe.Add(ptr, vp.accessor)),
		Enumerable: *(*bool)(unsafe.Add(ptr, vp.enumerable)),
	}
	if !p.Accessor {
		p.Value = *(*goja.Value)(unsafe.Add(ptr, vp.value))
	}
	return p, true
}

// valueProperty is the layout of goja's *valueProperty, the representation
// of an own property that is not a plain writable, enumerable and
// configurable data property.
type valueProperty struct {
	ok                          bool
	typ                         reflect.Type
	value, accessor, enumerable uintptr
}

var valuePropertyLayout = sync.OnceValue(findValueProperty)

func findValueProperty() valueProperty {
	rt := goja.New()
	o := rt.NewObject()
	if o.DefineDataProperty("x", goja.Undefined(), goja.FLAG_FALSE, goja.FLAG_FALSE, goja.FLAG_FALSE) != nil {
		return valueProperty{}
	}
	v := getOwnProp(o, rt.ToValue("x"))
	t := reflect.TypeOf(v)
	if t == nil || t.Kind() != reflect.Pointer || t.Elem().Kind() != reflect.Struct || t.Elem().Name() != "valueProperty" {
		return valueProperty{}
	}
	field := func(name string, want reflect.Type) (uintptr, bool) {
		sf, ok := t.Elem().FieldByName(name)
		if !ok || len(sf.Index) != 1 || sf.Type != want {
			return 0, false
		}
		return sf.Offset, true
	}
	boolType, valueType := reflect.TypeFor[bool](), reflect.TypeFor[goja.Value]()
	vp := valueProperty{typ: t}
	var ok1, ok2, ok3 bool
	vp.value, ok1 = field("value", valueType)
	vp.accessor, ok2 = field("accessor", boolType)
	vp.enumerable, ok3 = field("enumerable", boolType)
	vp.ok = ok1 && ok2 && ok3
	return vp
}

//go:linkname objectGetOwnPropertySymbols github.com/dop251/goja.(*Runtime).object_getOwnPropertySymbols
func objectGetOwnPropertySymbols(r *goja.Runtime, call goja.FunctionCall) goja.Value

// OwnSymbolCount returns how many own symbol-keyed properties o has,
// enumerable or not, as Object.getOwnPropertySymbols(o).length, without
// running script code, provided o is not a proxy. ok is false when the
// count could not be read that way.
func OwnSymbolCount(rt *goja.Runtime, o *goja.Object) (n int64, ok bool) {
	syms, isObject := objectGetOwnPropertySymbols(rt, goja.FunctionCall{Arguments: []goja.Value{o}}).(*goja.Object)
	if !isObject {
		return 0, false
	}
	p, ok := OwnProp(syms, lengthKey(rt))
	if !ok || !p.Exists || p.Accessor {
		return 0, false
	}
	return p.Value.ToInteger(), true
}

func lengthKey(rt *goja.Runtime) goja.Value { return rt.ToValue("length") }
