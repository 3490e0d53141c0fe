package jsrt

import (
	"slices"

	"github.com/cordonhq/cordon/internal/abi"
	"github.com/dop251/goja"
)

// The sandbox API (console, fs, timers, the tools...) lives on the
// prototype of the global object, an object that builds each value the first
// time a script reads it. A fresh runtime per execution used to create
// about 30 function objects up front, which was two thirds of the cost of
// running `return 1` in the guest; now a script pays for what it touches.
//
// What a script can observe: the API names are inherited, not own,
// properties of globalThis (`'console' in globalThis` is true,
// `globalThis.hasOwnProperty('console')` is false), as in browsers, whose
// globals also live on the global object's prototype chain. They are not
// enumerable. Assigning to one shadows it, and `delete globalThis.console`
// removes only such a shadowing value (deleting it from the prototype
// removes it). Each value is built once per execution, so
// `console === console`.

// apiGlobals is the DynamicObject behind the global object's prototype.
type apiGlobals struct {
	r       *run
	self    *goja.Object          // the prototype this is the DynamicObject of
	made    map[string]goja.Value // API values built so far
	user    map[string]goja.Value // properties a script set on the prototype itself
	keys    []string              // user's keys, in insertion order
	deleted map[string]bool
}

// apiBuilders builds each API global for a run. A nil result means the
// global does not exist in this run (shell without a shell).
var apiBuilders = map[string]func(r *run) goja.Value{
	"ToolError":   func(r *run) goja.Value { return r.toolErrorCtor() },
	"console":     func(r *run) goja.Value { return r.console() },
	"fs":          func(r *run) goja.Value { return r.fsObject() },
	"listTools":   func(r *run) goja.Value { return r.fn("listTools", r.listTools) },
	"getToolInfo": func(r *run) goja.Value { return r.fn("getToolInfo", r.getToolInfo) },
	"setTimeout":  func(r *run) goja.Value { return r.fn("setTimeout", r.setTimer(false)) },
	"setInterval": func(r *run) goja.Value { return r.fn("setInterval", r.setTimer(true)) },
	"setImmediate": func(r *run) goja.Value {
		return r.fn("setImmediate", func(call goja.FunctionCall) goja.Value {
			return r.addTimer(call.Argument(0), 0, false, call.Arguments[min(1, len(call.Arguments)):])
		})
	},
	"clearTimeout":   func(r *run) goja.Value { return r.fn("clearTimeout", r.clearTimer) },
	"clearInterval":  func(r *run) goja.Value { return r.fn("clearInterval", r.clearTimer) },
	"queueMicrotask": func(r *run) goja.Value { return r.fn("queueMicrotask", r.queueMicrotask) },
	"btoa":           func(r *run) goja.Value { return r.fn("btoa", r.btoa) },
	"atob":           func(r *run) goja.Value { return r.fn("atob", r.atob) },
	"shell": func(r *run) goja.Value {
		if r.opts.Shell == nil {
			return nil
		}
		return r.fn("shell", r.shell)
	},
}

// fn makes a native function with a JS name (goja would name it after the
// Go symbol).
func (r *run) fn(name string, f func(goja.FunctionCall) goja.Value) goja.Value {
	o := r.rt.ToValue(f).(*goja.Object)
	setName(r.rt, o, name)
	return o
}

// Get implements goja.DynamicObject.
func (a *apiGlobals) Get(key string) goja.Value {
	if v, ok := a.user[key]; ok {
		return v
	}
	if a.deleted[key] {
		return nil
	}
	if v, ok := a.made[key]; ok {
		return v
	}
	var v goja.Value
	if build := apiBuilders[key]; build != nil {
		v = build(a.r)
	} else if tools := a.toolsFor(key); tools != nil {
		v = a.r.toolRoot(key, tools)
	}
	if v == nil {
		return a.r.undefinedGlobal(a.self, key)
	}
	if a.made == nil {
		a.made = map[string]goja.Value{}
	}
	a.made[key] = v
	return v
}

// Has implements goja.DynamicObject.
func (a *apiGlobals) Has(key string) bool {
	if _, ok := a.user[key]; ok {
		return true
	}
	if a.deleted[key] {
		return false
	}
	if _, ok := a.made[key]; ok {
		return true
	}
	if key == "shell" {
		return a.r.opts.Shell != nil
	}
	return apiBuilders[key] != nil || a.toolsFor(key) != nil
}

// Set implements goja.DynamicObject: a script that writes to the prototype
// itself gets an ordinary property.
func (a *apiGlobals) Set(key string, v goja.Value) bool {
	if a.user == nil {
		a.user = map[string]goja.Value{}
	}
	if _, ok := a.user[key]; !ok {
		a.keys = append(a.keys, key)
	}
	a.user[key] = v
	return true
}

// Delete implements goja.DynamicObject.
func (a *apiGlobals) Delete(key string) bool {
	if _, ok := a.user[key]; ok {
		delete(a.user, key)
		for i, k := range a.keys {
			if k == key {
				a.keys = append(a.keys[:i], a.keys[i+1:]...)
				break
			}
		}
	}
	if a.deleted == nil {
		a.deleted = map[string]bool{}
	}
	a.deleted[key] = true
	return true
}

// Keys implements goja.DynamicObject: the API is not enumerable, like
// Node's globals; what a script set is.
func (a *apiGlobals) Keys() []string {
	return append([]string(nil), a.keys...)
}

// toolsFor returns the tools that define the global name key: by their flat
// alias or by the first segment of a namespaced name.
func (a *apiGlobals) toolsFor(key string) []abi.ToolInfo {
	return a.r.plan.byRoot[key]
}

// builtinGlobalNames are the names a fresh goja runtime's global object
// has, own (Object, Math, JSON, ...) or from Object.prototype (toString,
// ...), sorted. They are listed here rather than read from a runtime:
// reading them built every built-in in full, about 13.5M guest
// instructions once per guest, which the first execution of every new
// sandbox with tools paid. TestBuiltinGlobalNamesMatchGoja reads them from
// a runtime and fails when a goja upgrade changes them.
var builtinGlobalNames = []string{
	"AggregateError", "Array", "ArrayBuffer", "BigInt", "BigInt64Array", "BigUint64Array",
	"Boolean", "DataView", "Date", "Error", "EvalError", "Float32Array",
	"Float64Array", "Function", "GoError", "Infinity", "Int16Array", "Int32Array",
	"Int8Array", "JSON", "Map", "Math", "NaN", "Number",
	"Object", "Promise", "Proxy", "RangeError", "ReferenceError", "Reflect",
	"RegExp", "Set", "String", "Symbol", "SyntaxError", "TypeError",
	"URIError", "Uint16Array", "Uint32Array", "Uint8Array", "Uint8ClampedArray", "WeakMap",
	"WeakSet", "__proto__", "constructor", "decodeURI", "decodeURIComponent", "encodeURI",
	"encodeURIComponent", "escape", "eval", "globalThis", "hasOwnProperty", "isFinite",
	"isNaN", "isPrototypeOf", "parseFloat", "parseInt", "propertyIsEnumerable", "toLocaleString",
	"toString", "undefined", "unescape", "valueOf",
}

// isBuiltinGlobal reports whether name is one of builtinGlobalNames.
func isBuiltinGlobal(name string) bool {
	_, found := slices.BinarySearch(builtinGlobalNames, name)
	return found
}

// reservedRoot reports whether a tool's global name is taken by goja or by
// the API: such tools are installed directly on the global object (see
// installTools), where they behave as they always did.
func reservedRoot(name string) bool {
	return isBuiltinGlobal(name) || apiBuilders[name] != nil
}
