// Package inspect formats JavaScript values the way Node.js v20 prints them.
//
// It provides util.inspect and util.format (the formatter behind
// console.log) for the goja engine. The formatting itself is a port of Node's
// lib/internal/util/inspect.js, kept in inspect.js and embedded into the
// binary; this file compiles that script once per process, runs it in a
// runtime and supplies the few engine facts that JavaScript cannot observe on
// its own: whether an object is a Proxy (and its target), the state of a
// Promise, the internal class of an object, and the display width of Unicode
// text.
//
// Typical use, in the code that builds a runtime:
//
//	funcs, err := inspect.Install(rt)
//	if err != nil {
//		return err
//	}
//	console := rt.NewObject()
//	console.Set("log", func(call goja.FunctionCall) goja.Value {
//		fmt.Fprintln(stdout, funcs.Format(call.Arguments))
//		return goja.Undefined()
//	})
//
// Install adds nothing to the global object.
//
// Installing the port costs about 2,750 allocations per runtime. For
// console.log of plain data (primitives, and objects and arrays of them),
// InstallFast installs fast.js instead, a cut-down copy of the port's code
// for exactly those values that costs about 290; its TryFormat declines
// everything else, with no side effect, for the port to format. Tests
// compare the two on the Node corpus and on generated data.
//
// # Differences from Node
//
// testdata/cases.js holds a corpus of values compared byte for byte with the
// output of Node v20 (testdata/node.golden). The output is identical except
// in these places, where goja differs from V8:
//
//   - Stack traces. Errors print their stack as Node does ("Name: message"
//     and then the frames, with extra properties in braces after them), but
//     the frames are goja's. Inspect rewrites goja's tab-indented
//     "at fn (file:line:col(pc))" lines into V8's four-space-indented
//     "at fn (file:line:col)", yet the frames themselves differ: goja writes
//     "at name (native)" for built-ins, has no "new " or "Object.<anonymous>"
//     prefixes, and its columns can point elsewhere on the line. Engine error
//     messages, such as the text of a TypeError for reading a property of
//     null, are goja's too.
//   - Map and Set iterators print as "Object [Map Iterator] {}": Node
//     previews their entries through V8's previewEntries, and goja offers no
//     way to read an iterator without consuming it. For the same reason
//     WeakMap and WeakSet always print "<items unknown>", even with
//     showHidden.
//   - With showHidden (and %o), functions list goja's hidden own properties:
//     goja orders them prototype, length, name and has no arguments/caller.
//   - The global object holds the embedder's globals, not Node's.
//   - A stack overflow while inspecting is an uncatchable error in goja, so
//     Node's "[Object: Inspection interrupted prematurely...]" never appears;
//     the error reaches the caller instead.
//   - Colored output (colors: true) does not grey out Node core frames or
//     highlight node_modules and the working directory in stack traces.
//   - WeakMap, WeakSet and DataView objects are recognised through their
//     inherited Symbol.toStringTag plus a brand check; one whose prototype
//     was replaced prints as a plain object. Async methods, which goja
//     creates with Function.prototype as their prototype, are recognised by
//     their source text.
//   - A regular expression whose source spells "\u002f" prints it as "\/",
//     because goja itself escapes "/" that way.
//
// Values computed differently by the engines (V8 evaluates 10 ** -4 to
// 0.00009999999999999999, goja to 0.0001) print differently, but that is
// not a formatting difference.
package inspect

import (
	_ "embed" // for go:embed
	"fmt"
	"math/big"
	"reflect"
	"sort"
	"sync"

	"github.com/dop251/goja"
)

//go:generate sh -c "node --expose-internals tools/genwidth.js > width_table.go"

//go:embed inspect.js
var script string

// program returns the compiled inspect.js, compiling it on first use.
// Runtimes are created per execution, so the parse and compile cost is paid
// once per process.
var program = sync.OnceValues(func() (*goja.Program, error) {
	return goja.Compile("inspect.js", script, true)
})

// Funcs holds the inspect and format functions installed in one runtime.
// It must only be used with the runtime passed to Install and, like that
// runtime, from one goroutine at a time.
type Funcs struct {
	exports *goja.Object
	inspect goja.Callable
	format  goja.Callable
}

// Install evaluates the inspect script in rt and returns Go handles to the
// resulting functions. It adds nothing to the global object: the script
// evaluates to a factory function that Install calls directly, passing it
// the Go helpers it needs. The script is compiled once per process; Install
// itself costs thousands of allocations per runtime, far more in the guest
// than natively (BENCHMARKS.md), so the script defers what only some
// values need (colors, Error, Map, Set, the built-ins of dates, typed
// arrays, ...).
//
// Install should run before any untrusted code: like Node's primordials, the
// script captures the built-in functions it uses for every value (such as
// Object.keys and Array.prototype.join) so that user code replacing them
// later does not change how values print. Built-ins needed only for
// particular kinds of values (dates, typed arrays, weak collections, ...)
// are captured the first time such a value is formatted, which keeps
// Install cheap.
func Install(rt *goja.Runtime) (*Funcs, error) {
	prg, err := program()
	if err != nil {
		return nil, fmt.Errorf("inspect: compiling inspect.js: %w", err)
	}
	factoryValue, err := rt.RunProgram(prg)
	if err != nil {
		return nil, fmt.Errorf("inspect: running inspect.js: %w", err)
	}
	factory, ok := goja.AssertFunction(factoryValue)
	if !ok {
		return nil, fmt.Errorf("inspect: inspect.js did not evaluate to a function")
	}
	exportsValue, err := factory(goja.Undefined(), newHost(rt))
	if err != nil {
		return nil, fmt.Errorf("inspect: initialising inspect.js: %w", err)
	}
	exports := exportsValue.ToObject(rt)
	inspectFn, ok1 := goja.AssertFunction(exports.Get("inspect"))
	formatFn, ok2 := goja.AssertFunction(exports.Get("format"))
	if !ok1 || !ok2 {
		return nil, fmt.Errorf("inspect: inspect.js did not return inspect and format")
	}
	return &Funcs{exports: exports, inspect: inspectFn, format: formatFn}, nil
}

// Exports returns the JavaScript object {inspect, format, formatWithOptions}
// created by the script. Its functions behave like Node's util.inspect,
// util.format and util.formatWithOptions (inspect also carries the custom,
// colors, styles and defaultOptions properties), so the object can back a
// JavaScript-visible util module.
func (f *Funcs) Exports() *goja.Object {
	return f.exports
}

// Inspect returns the string that Node's util.inspect(v) would return, with
// Node's default options (depth 2, breakLength 80, compact 3, maxArrayLength
// 100, maxStringLength 10000, no colors).
//
// Inspecting can run JavaScript: getters are not called by default, but
// objects may define a [util.inspect.custom] method. If that code throws, or
// the runtime is interrupted, Inspect panics with the error returned by goja
// (a *goja.Exception or an uncatchable error such as *goja.InterruptedError).
// Called from a Go function that JavaScript invoked, goja turns that panic
// back into the original exception, exactly as Node's util.inspect would
// throw. Use TryInspect to receive the error instead.
func (f *Funcs) Inspect(v goja.Value) string {
	s, err := f.TryInspect(v)
	if err != nil {
		panic(err)
	}
	return s
}

// TryInspect is like Inspect but returns the error instead of panicking.
func (f *Funcs) TryInspect(v goja.Value) (string, error) {
	if v == nil {
		v = goja.Undefined()
	}
	res, err := f.inspect(goja.Undefined(), v)
	if err != nil {
		return "", err
	}
	return res.String(), nil
}

// Format returns the string that Node's util.format(...args) would return,
// which is the line console.log(...args) prints without its trailing
// newline: printf-style directives (%s %d %i %f %j %o %O %c %%) in a leading
// string are replaced, remaining arguments are appended separated by spaces,
// strings are appended as they are and other values as Inspect shows them.
//
// Like Inspect, Format panics with goja's error if JavaScript code run while
// formatting (a toString method used by %s, a custom inspect method) throws;
// use TryFormat to receive the error instead.
func (f *Funcs) Format(args []goja.Value) string {
	s, err := f.TryFormat(args)
	if err != nil {
		panic(err)
	}
	return s
}

// TryFormat is like Format but returns the error instead of panicking.
func (f *Funcs) TryFormat(args []goja.Value) (string, error) {
	res, err := f.format(goja.Undefined(), args...)
	if err != nil {
		return "", err
	}
	return res.String(), nil
}

// Reflection types used to recognise goja's internal objects. goja does not
// export its object kinds, but (*goja.Object).ExportType reveals them.
var (
	typeProxy       = reflect.TypeOf(goja.Proxy{})
	typePromise     = reflect.TypeOf((*goja.Promise)(nil))
	typeArrayBuffer = reflect.TypeOf(goja.ArrayBuffer{})
	typeMapExport   = reflect.TypeOf([][2]interface{}{})
	typeSetExport   = reflect.TypeOf([]interface{}{})
	typeSymbolBox   = reflect.TypeOf("")
	typeBigIntBox   = reflect.TypeOf((*big.Int)(nil))
	typedArrayTypes = map[reflect.Type]bool{
		reflect.TypeOf([]byte(nil)):    true, // Uint8Array, Uint8ClampedArray
		reflect.TypeOf([]int8(nil)):    true,
		reflect.TypeOf([]uint16(nil)):  true,
		reflect.TypeOf([]int16(nil)):   true,
		reflect.TypeOf([]uint32(nil)):  true,
		reflect.TypeOf([]int32(nil)):   true,
		reflect.TypeOf([]float32(nil)): true,
		reflect.TypeOf([]float64(nil)): true,
		reflect.TypeOf([]int64(nil)):   true, // BigInt64Array
		reflect.TypeOf([]uint64(nil)):  true, // BigUint64Array
	}
)

// kinds are the values host.kind can return (see inspect.js).
var kinds = []string{
	"Proxy", "Promise", "Map", "Set", "ArrayBuffer", "TypedArray", "Array",
	"Function", "Error", "RegExp", "Date", "Arguments", "Number", "String",
	"Boolean", "Symbol", "BigInt",
}

// objectKind returns the internal class of o as inspect.js expects it from
// host.kind, or "" for ordinary objects and everything it cannot identify.
func objectKind(o *goja.Object) string {
	t := o.ExportType()
	if t == typeProxy {
		// Checked first: ClassName panics on a revoked proxy.
		return "Proxy"
	}
	switch class := o.ClassName(); class {
	case "Object":
		switch {
		case t == typePromise:
			return "Promise"
		case t == typeMapExport:
			return "Map"
		case t == typeSetExport:
			return "Set"
		case t == typeArrayBuffer:
			return "ArrayBuffer"
		case t == typeSymbolBox:
			return "Symbol"
		case t == typeBigIntBox:
			return "BigInt"
		case typedArrayTypes[t]:
			return "TypedArray"
		}
	case "Array", "Function", "Error", "RegExp", "Date", "Arguments",
		"Number", "String", "Boolean":
		return class
	}
	return ""
}

// newHost builds the object handed to the inspect.js factory.
func newHost(rt *goja.Runtime) *goja.Object {
	kindValues := make(map[string]goja.Value, len(kinds)+1)
	kindValues[""] = rt.ToValue("")
	for _, k := range kinds {
		kindValues[k] = rt.ToValue(k)
	}
	pending := rt.ToValue("pending")
	fulfilled := rt.ToValue("fulfilled")
	rejected := rt.ToValue("rejected")

	host := rt.NewObject()

	// isBuiltInObject(name): whether name is one of the global names of a
	// fresh runtime that look like built-in constructors (builtInNames).
	mustSet(host, "isBuiltInObject", func(call goja.FunctionCall) goja.Value {
		name, ok := call.Argument(0).Export().(string)
		return rt.ToValue(ok && builtInNames()[name])
	})

	// kind(value): the internal class of an object, "" for primitives.
	mustSet(host, "kind", func(call goja.FunctionCall) goja.Value {
		o, ok := call.Argument(0).(*goja.Object)
		if !ok {
			return kindValues[""]
		}
		return kindValues[objectKind(o)]
	})

	// proxyDetails(proxy): [target, handler], or null when revoked.
	mustSet(host, "proxyDetails", func(call goja.FunctionCall) goja.Value {
		o, ok := call.Argument(0).(*goja.Object)
		if !ok || o.ExportType() != typeProxy {
			return goja.Undefined()
		}
		p, ok := o.Export().(goja.Proxy)
		if !ok || p.Target() == nil {
			return goja.Null()
		}
		return rt.NewArray(p.Target(), p.Handler())
	})

	// promiseState(promise): ['pending'], ['fulfilled', value] or
	// ['rejected', reason].
	mustSet(host, "promiseState", func(call goja.FunctionCall) goja.Value {
		o, ok := call.Argument(0).(*goja.Object)
		if !ok {
			return goja.Undefined()
		}
		p, ok := o.Export().(*goja.Promise)
		if !ok {
			return goja.Undefined()
		}
		switch p.State() {
		case goja.PromiseStateFulfilled:
			return rt.NewArray(fulfilled, p.Result())
		case goja.PromiseStateRejected:
			return rt.NewArray(rejected, p.Result())
		default:
			return rt.NewArray(pending)
		}
	})

	// stringWidth(str): display width of an NFC-normalised string.
	mustSet(host, "stringWidth", func(call goja.FunctionCall) goja.Value {
		return rt.ToValue(stringWidth(call.Argument(0).String()))
	})

	return host
}

// mustSet sets a property on an ordinary object created by the caller,
// which cannot fail.
func mustSet(o *goja.Object, name string, v any) {
	if err := o.Set(name, v); err != nil {
		panic(err)
	}
}

// builtInNames is the set of global names of a fresh runtime that match
// /^[A-Z][a-zA-Z0-9]+$/ (Node's builtInObjects), taken once per process:
// the globals a script adds must not count, and listing them per runtime
// cost a tenth of Install.
var builtInNames = sync.OnceValue(func() map[string]bool {
	names := map[string]bool{}
	for _, name := range goja.New().GlobalObject().GetOwnPropertyNames() {
		if isBuiltInName(name) {
			names[name] = true
		}
	}
	return names
})

// isBuiltInName reports whether a global property name matches
// /^[A-Z][a-zA-Z0-9]+$/, Node's test for the names of built-in constructors.
func isBuiltInName(name string) bool {
	if len(name) < 2 || name[0] < 'A' || name[0] > 'Z' {
		return false
	}
	for i := 1; i < len(name); i++ {
		c := name[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9') {
			return false
		}
	}
	return true
}

// widthRange is a range of code points sharing a display width.
type widthRange struct {
	lo, hi rune
	width  uint8
}

// stringWidth returns the number of terminal columns s occupies, summing
// the width of each code point as ICU's East Asian Width and emoji
// properties define it (the algorithm of Node's icu.getStringWidth).
func stringWidth(s string) int {
	width := 0
	for _, r := range s {
		width += runeWidth(r)
	}
	return width
}

// runeWidth returns the display width of one code point: 0, 1 or 2.
func runeWidth(r rune) int {
	if r >= 0x20 && r < 0x7f {
		return 1
	}
	i := sort.Search(len(widthRanges), func(i int) bool { return widthRanges[i].hi >= r })
	if i < len(widthRanges) && widthRanges[i].lo <= r {
		return int(widthRanges[i].width)
	}
	return 1
}
