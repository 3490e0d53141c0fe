// Package gojax reaches a few of goja's unexported functions and fields,
// for work that goja's public API can only do at a much higher cost in the
// guest: making a tool call's promise without two resolving functions the
// script never sees, reading an own property without building a property
// descriptor object, and listing an ordinary object's own properties
// without the iterators and key strings of Object.Keys (8 allocations for
// a one-key object). It also tells what the instruction a script is
// executing does with a value it looks up (CurrentAccess), which goja's
// public API cannot tell at any cost: a DynamicObject's Get is asked for a
// key, not whether the value will be called.
//
// The functions are reached by go:linkname, and their declarations here use
// only goja's exported types (and unsafe.Pointer for a *baseObject). The
// linker fails the build if a goja upgrade removes one, but a changed
// signature or meaning would not fail it, so everything here was read
// against one goja version, Audited, and callers must use it only when
// Enabled reports true:
//
//   - in a binary built from this module, whose go.mod pins goja (the
//     package's tests fail when go.mod moves it away from Audited);
//   - in any other binary, when its module list names goja at Audited,
//     unreplaced.
//
// Whoever upgrades goja reads newPromise, getPromisePrototype, fulfill,
// reject, createResolvingFunctions, getReferenceError, newError,
// Object.getOwnProp,
// baseObject.ensurePropOrder and baseObject._put, the valueProperty, Object
// and baseObject structs (Object.self first; baseObject.values, propNames
// and extensible) and what
// goja stores in baseObject.values (a value, or a *valueProperty), the
// StackFrame (prg, pc) and Program (code) structs and the instructions
// CurrentAccess names (what the compiler emits for o.k(), o.k.m, x and
// o.k?.()), in the new version, checks the declarations,
// findValueProperty, findOrdinaryLayout and findAccessLayout against them,
// and sets Audited.
package gojax

import (
	"reflect"
	"runtime/debug"
	"sync"
	"unsafe"

	"github.com/dop251/goja"
	"github.com/dop251/goja/unistring"
)

// Audited is the goja version this package was read against.
const Audited = "v0.0.0-20260917113740-793a2a65c13b"

const (
	gojaPath   = "github.com/dop251/goja"
	cordonPath = "github.com/cordonhq/cordon"
)

// enabled is Enabled's answer, decided once from the binary's build
// information.
var enabled = audited()

// Enabled reports whether the functions of this package may be used in this
// binary (see the package documentation). The answer is decided once, when
// the package initializes, and does not change.
func Enabled() bool { return enabled }

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

// fieldOffset returns the offset of struct t's own field name, provided it
// has type want.
func fieldOffset(t reflect.Type, name string, want reflect.Type) (uintptr, bool) {
	sf, ok := t.FieldByName(name)
	if !ok || len(sf.Index) != 1 || sf.Type != want {
		return 0, false
	}
	return sf.Offset, true
}

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
	field := func(name string, want reflect.Type) (uintptr, bool) { return fieldOffset(t.Elem(), name, want) }
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

//go:linkname ensurePropOrder github.com/dop251/goja.(*baseObject).ensurePropOrder
func ensurePropOrder(o unsafe.Pointer)

// OwnData is one own string-keyed property of an ordinary object, as
// AppendOwnProps reads it.
type OwnData struct {
	// Key is the property's key in goja's internal form: the string itself
	// when it is ASCII (unistring.String.AsUtf16 is nil then).
	Key unistring.String
	// Value is a data property's value; nil for an accessor.
	Value goja.Value
	// Accessor is true for a getter or setter.
	Accessor bool
	// Enumerable is the property's enumerable attribute.
	Enumerable bool
}

// AppendOwnProps appends o's own string-keyed properties to dst, in the
// order Object.getOwnPropertyNames lists them (integer keys first, in
// ascending order, then the others in the order they were made), and
// returns the extended slice. It runs no script code and allocates nothing
// beyond dst's growth.
//
// ok is false, and dst is returned unchanged, unless o is an ordinary
// object as goja represents an object literal, new Object() or a class
// instance (not an array, a function, a proxy, a boxed primitive, an error
// or a Go value), in the layout this package was audited against.
// Symbol-keyed properties are not listed.
func AppendOwnProps(dst []OwnData, o *goja.Object) (_ []OwnData, ok bool) {
	base, ok := ordinary(o)
	if !ok {
		return dst, false
	}
	vp := valuePropertyLayout()
	if !vp.ok {
		return dst, false
	}
	l := ordinaryObjectLayout()
	ensurePropOrder(base)
	values := *(*map[unistring.String]goja.Value)(unsafe.Add(base, l.values))
	for _, k := range *(*[]unistring.String)(unsafe.Add(base, l.propNames)) {
		v := values[k]
		if reflect.TypeOf(v) != vp.typ {
			dst = append(dst, OwnData{Key: k, Value: v, Enumerable: true})
			continue
		}
		ptr := reflect.ValueOf(v).UnsafePointer()
		d := OwnData{
			Key:        k,
			Accessor:   *(*bool)(unsafe.Add(ptr, vp.accessor)),
			Enumerable: *(*bool)(unsafe.Add(ptr, vp.enumerable)),
		}
		if !d.Accessor {
			d.Value = *(*goja.Value)(unsafe.Add(ptr, vp.value))
		}
		dst = append(dst, d)
	}
	return dst, true
}

// ordinary returns o's *baseObject when o is one, in the audited layout.
func ordinary(o *goja.Object) (unsafe.Pointer, bool) {
	l := ordinaryObjectLayout()
	if !l.ok || o == nil {
		return nil, false
	}
	// Object's first field is its implementation, an interface value: the
	// itab of (objectImpl, *baseObject), which is unique, then the pointer.
	self := (*[2]unsafe.Pointer)(unsafe.Pointer(o))
	if self[0] != l.itab || self[1] == nil {
		return nil, false
	}
	return self[1], true
}

// ordinaryLayout is what ordinary and AppendOwnProps need of goja's Object
// and baseObject.
type ordinaryLayout struct {
	ok                            bool
	itab                          unsafe.Pointer
	values, propNames, extensible uintptr
}

var ordinaryObjectLayout = sync.OnceValue(findOrdinaryLayout)

func findOrdinaryLayout() ordinaryLayout {
	o := goja.New().NewObject()
	self, ok := reflect.TypeFor[goja.Object]().FieldByName("self")
	if !ok || self.Offset != 0 || len(self.Index) != 1 || self.Type.Kind() != reflect.Interface {
		return ordinaryLayout{}
	}
	impl := reflect.ValueOf(o).Elem().Field(self.Index[0]).Elem()
	t := impl.Type()
	if t.Kind() != reflect.Pointer || t.Elem().Kind() != reflect.Struct || t.Elem().Name() != "baseObject" || t.Elem().PkgPath() != gojaPath {
		return ordinaryLayout{}
	}
	field := func(name string, want reflect.Type) (uintptr, bool) { return fieldOffset(t.Elem(), name, want) }
	l := ordinaryLayout{itab: (*[2]unsafe.Pointer)(unsafe.Pointer(o))[0]}
	var ok1, ok2, ok3 bool
	l.values, ok1 = field("values", reflect.TypeFor[map[unistring.String]goja.Value]())
	l.propNames, ok2 = field("propNames", reflect.TypeFor[[]unistring.String]())
	l.extensible, ok3 = field("extensible", reflect.TypeFor[bool]())
	l.ok = ok1 && ok2 && ok3 && l.itab != nil
	return l
}

//go:linkname put github.com/dop251/goja.(*baseObject)._put
func put(o unsafe.Pointer, name unistring.String, v goja.Value)

// PutData sets key on o as an own writable, enumerable and configurable
// data property holding v, keeping the key's place if o has it already, as
// CreateDataProperty does on an object that has no accessor or
// non-configurable property there; it runs no setter (a key "__proto__" is
// an own property). It is meant for an object the caller has just made and
// fills itself, such as a parsed JSON object, and skips the descriptor
// checks of DefineDataProperty.
//
// ok is false, and o is unchanged, unless o is an ordinary object
// (AppendOwnProps) that is extensible and holds no property at key other
// than a plain data property.
func PutData(o *goja.Object, key string, v goja.Value) (ok bool) {
	base, ok := ordinary(o)
	if !ok {
		return false
	}
	name := unistring.NewFromString(key)
	l := ordinaryObjectLayout()
	if !*(*bool)(unsafe.Add(base, l.extensible)) {
		return false
	}
	if old, exists := (*(*map[unistring.String]goja.Value)(unsafe.Add(base, l.values)))[name]; exists {
		if vp := valuePropertyLayout(); !vp.ok || reflect.TypeOf(old) == vp.typ {
			return false
		}
	}
	put(base, name, v)
	return true
}
