package inspect

import (
	_ "embed" // for go:embed
	"fmt"
	"sync"

	"github.com/dop251/goja"
)

//go:embed fast.js
var fastScript string

// fastProgram returns the compiled fast.js, compiling it once per process.
var fastProgram = sync.OnceValues(func() (*goja.Program, error) {
	return goja.Compile("fast.js", fastScript, true)
})

// Fast formats plain data for console.log at a small fraction of the cost
// of installing the full formatter: a dozen closures per runtime instead of
// about 2,750 allocations. Plain data is primitives, and objects and arrays
// with Object.prototype and Array.prototype as their prototypes, nested,
// whose properties are all data properties (fast.js says exactly what it
// takes). Its output is the full formatter's, byte for byte; anything else it
// declines, without side effects, and Format of the Funcs from Install
// must be used.
//
// A Fast must only be used with the runtime passed to InstallFast and, like
// that runtime, from one goroutine at a time.
type Fast struct {
	format goja.Callable
}

// InstallFast evaluates fast.js in rt and returns its formatter. Like
// Install, it adds nothing to the global object.
func InstallFast(rt *goja.Runtime) (*Fast, error) {
	prg, err := fastProgram()
	if err != nil {
		return nil, fmt.Errorf("inspect: compiling fast.js: %w", err)
	}
	factoryValue, err := rt.RunProgram(prg)
	if err != nil {
		return nil, fmt.Errorf("inspect: running fast.js: %w", err)
	}
	factory, ok := goja.AssertFunction(factoryValue)
	if !ok {
		return nil, fmt.Errorf("inspect: fast.js did not evaluate to a function")
	}
	formatValue, err := factory(goja.Undefined(), newFastHost(rt))
	if err != nil {
		return nil, fmt.Errorf("inspect: initialising fast.js: %w", err)
	}
	format, ok := goja.AssertFunction(formatValue)
	if !ok {
		return nil, fmt.Errorf("inspect: fast.js did not return a function")
	}
	return &Fast{format: format}, nil
}

// TryFormat returns what Format of the full formatter would return for
// args, and true, when every argument is a primitive or plain data and the
// first is not a string with format directives. Otherwise it returns false,
// having run no script code that the full formatter would run again. err is
// set when script code run while formatting threw (a built-in the script
// replaced) or the runtime was interrupted.
func (f *Fast) TryFormat(args []goja.Value) (s string, ok bool, err error) {
	res, err := f.format(goja.Undefined(), args...)
	if err != nil {
		return "", false, err
	}
	if goja.IsUndefined(res) {
		return "", false, nil
	}
	return res.String(), true, nil
}

// newFastHost builds the host object of fast.js: kind and stringWidth, as
// in newHost, and the well-known symbols it needs (taking them from the
// Symbol global would build all of Symbol).
func newFastHost(rt *goja.Runtime) *goja.Object {
	plain, array := rt.ToValue(""), rt.ToValue("Array")
	host := rt.NewObject()
	mustSet(host, "iterator", goja.SymIterator)
	mustSet(host, "unscopables", goja.SymUnscopables)
	mustSet(host, "species", goja.SymSpecies)
	mustSet(host, "kind", func(call goja.FunctionCall) goja.Value {
		o, ok := call.Argument(0).(*goja.Object)
		if !ok {
			return plain
		}
		switch k := objectKind(o); k {
		case "":
			return plain
		case "Array":
			return array
		default:
			return rt.ToValue(k)
		}
	})
	mustSet(host, "stringWidth", func(call goja.FunctionCall) goja.Value {
		return rt.ToValue(stringWidth(call.Argument(0).String()))
	})
	return host
}
