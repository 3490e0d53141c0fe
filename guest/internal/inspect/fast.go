package inspect

import (
	_ "embed" // for go:embed
	"fmt"
	"strings"
	"sync"
	"unicode/utf16"

	"github.com/cordonhq/cordon/guest/internal/gojax"
	"github.com/dop251/goja"
	"golang.org/x/text/unicode/norm"
)

//go:embed fast.js
var fastScript string

// fastProgram returns the compiled fast.js, compiling it once per process.
var fastProgram = sync.OnceValues(func() (*goja.Program, error) {
	return goja.Compile("fast.js", fastScript, true)
})

// CompileFast compiles fast.js now, once per process, so that the first
// InstallFast does not: it is most of what the first console.log of an
// object costs in a fresh guest.
func CompileFast() error {
	_, err := fastProgram()
	if err != nil {
		return fmt.Errorf("inspect: compiling fast.js: %w", err)
	}
	return nil
}

// Fast formats plain data for console.log at a small fraction of the cost
// of installing the full formatter: a dozen closures per runtime instead of
// about 2,750 allocations. Plain data is primitives, and objects and arrays
// with Object.prototype and Array.prototype as their prototypes, nested,
// whose properties are all data properties; ordinary errors are taken too
// (fast.js says exactly what it takes). Its output is the full formatter's,
// byte for byte; anything else it declines, without side effects, and
// Format or Inspect of the Funcs from Install must be used.
//
// A Fast must only be used with the runtime passed to InstallFast and, like
// that runtime, from one goroutine at a time.
type Fast struct {
	rt      *goja.Runtime
	format  goja.Callable // fast.js's, once installJS has run
	inspect goja.Callable
	plain   *plain // nil unless gojax.Enabled()
}

// InstallFast returns the formatter for rt. Like Install, it adds nothing
// to the global object. When gojax is enabled, plain data is formatted in
// Go, and fast.js is evaluated in rt only when a value first needs it (an
// error, or anything the Go formatter declines); otherwise now.
func InstallFast(rt *goja.Runtime) (*Fast, error) {
	f := &Fast{rt: rt}
	if gojax.Enabled() {
		f.plain = newPlain(rt)
		return f, nil
	}
	if err := f.installJS(); err != nil {
		return nil, err
	}
	return f, nil
}

// installJS evaluates fast.js in f.rt, once.
func (f *Fast) installJS() error {
	if f.format != nil {
		return nil
	}
	prg, err := fastProgram()
	if err != nil {
		return fmt.Errorf("inspect: compiling fast.js: %w", err)
	}
	factoryValue, err := f.rt.RunProgram(prg)
	if err != nil {
		return fmt.Errorf("inspect: running fast.js: %w", err)
	}
	factory, ok := goja.AssertFunction(factoryValue)
	if !ok {
		return fmt.Errorf("inspect: fast.js did not evaluate to a function")
	}
	funcs, err := factory(goja.Undefined(), newFastHost(f.rt))
	if err != nil {
		return fmt.Errorf("inspect: initialising fast.js: %w", err)
	}
	obj, ok := funcs.(*goja.Object)
	if !ok {
		return fmt.Errorf("inspect: fast.js did not return an object")
	}
	format, ok1 := goja.AssertFunction(obj.Get("format"))
	inspect, ok2 := goja.AssertFunction(obj.Get("inspect"))
	if !ok1 || !ok2 {
		return fmt.Errorf("inspect: fast.js did not return format and inspect")
	}
	f.format, f.inspect = format, inspect
	return nil
}

// TryFormat returns what Format of the full formatter would return for
// args, and true, when every argument is a primitive or plain data and the
// first is not a string with format directives. Otherwise it returns false,
// having run no script code that the full formatter would run again. err is
// set when script code run while formatting threw (a built-in the script
// replaced) or the runtime was interrupted.
func (f *Fast) TryFormat(args []goja.Value) (s string, ok bool, err error) {
	if f.plain != nil {
		if s, ok := f.plain.format(args); ok {
			return s, true, nil
		}
	}
	if err := f.installJS(); err != nil {
		return "", false, err
	}
	return result(f.format(goja.Undefined(), args...))
}

// TryInspect is TryFormat for Inspect of the full formatter: it returns what
// that would return for v (a string is quoted), and true, when v is a
// primitive, plain data or an ordinary error (fast.js says which).
func (f *Fast) TryInspect(v goja.Value) (s string, ok bool, err error) {
	if f.plain != nil {
		if s, ok := f.plain.inspectValue(v); ok {
			return s, true, nil
		}
	}
	if err := f.installJS(); err != nil {
		return "", false, err
	}
	return result(f.inspect(goja.Undefined(), v))
}

func result(res goja.Value, err error) (string, bool, error) {
	if err != nil {
		return "", false, err
	}
	if goja.IsUndefined(res) {
		return "", false, nil
	}
	return res.String(), true, nil
}

// newFastHost builds the host object of fast.js: kind, as in newHost; the
// well-known symbols it needs (taking them from the Symbol global would
// build all of Symbol); and its per-character string work.
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
	mustSet(host, "strEscape", func(call goja.FunctionCall) goja.Value {
		return rt.ToValue(strEscape(jsString(call.Argument(0))))
	})
	mustSet(host, "propertyName", func(call goja.FunctionCall) goja.Value {
		key := call.Argument(0)
		switch s := key.String(); {
		case s == "__proto__":
			return rt.ToValue("['__proto__']")
		case isIdentifierKey(s):
			return key
		}
		return rt.ToValue(strEscape(jsString(key)))
	})
	mustSet(host, "getStringWidth", func(call goja.FunctionCall) goja.Value {
		return rt.ToValue(getStringWidth(jsString(call.Argument(0))))
	})
	mustSet(host, "v8StyleStack", func(call goja.FunctionCall) goja.Value {
		s := call.Argument(0).String()
		if v := v8StyleStack(s); v != s {
			return rt.ToValue(v)
		}
		return call.Argument(0)
	})
	return host
}

// v8StyleStack is inspect.js's v8StyleStack, which fast.js calls from here:
// in JavaScript each string method call on a primitive allocates. goja
// prints frames as "\tat fn (file:1:2(3))" and ends the stack with a
// newline; V8 prints "    at fn (file:1:2)" and does not.
func v8StyleStack(stack string) string {
	if !strings.Contains(stack, "\n\tat ") {
		return stack
	}
	lines := strings.Split(stack, "\n")
	end := len(lines)
	for end > 1 && lines[end-1] == "" {
		end--
	}
	var b strings.Builder
	b.Grow(len(stack))
	for i, line := range lines[:end] {
		if i > 0 {
			b.WriteByte('\n')
		}
		if rest, ok := strings.CutPrefix(line, "\tat "); ok {
			b.WriteString("    at ")
			b.WriteString(dropFramePC(rest))
		} else {
			b.WriteString(line)
		}
	}
	return b.String()
}

// dropFramePC replaces the first match of /(:\d+:\d+)\(\d+\)/ in line with
// its group, as inspect.js does: ":1:2(3)" becomes ":1:2".
func dropFramePC(line string) string {
	digits := func(i int) int {
		for i < len(line) && line[i] >= '0' && line[i] <= '9' {
			i++
		}
		return i
	}
	for i := 0; i < len(line); i++ {
		if line[i] != ':' {
			continue
		}
		a := digits(i + 1)
		if a == i+1 || a >= len(line) || line[a] != ':' {
			continue
		}
		b := digits(a + 1)
		if b == a+1 || b >= len(line) || line[b] != '(' {
			continue
		}
		c := digits(b + 1)
		if c == b+1 || c >= len(line) || line[c] != ')' {
			continue
		}
		return line[:b] + line[c+1:]
	}
	return line
}

// jsString returns v's UTF-16 code units: a script's string may hold lone
// surrogates, which a Go string cannot.
func jsString(v goja.Value) goja.String {
	if s, ok := v.(goja.String); ok {
		return s
	}
	return goja.StringFromUTF16(nil)
}

// isIdentifierKey is inspect.js's test with keyStrRegExp,
// /^[a-zA-Z_][a-zA-Z_0-9]*$/.
func isIdentifierKey(key string) bool {
	if key == "" {
		return false
	}
	for i := 0; i < len(key); i++ {
		c := key[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' || i > 0 && c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

// strEscape is inspect.js's strEscape: str quoted with single quotes, or
// double quotes or backticks when those need no escaping, and control
// characters, backslashes, the quote and lone surrogates escaped.
func strEscape(str goja.String) string {
	n := str.Length()
	has := func(c uint16) bool {
		for i := range n {
			if str.CharAt(i) == c {
				return true
			}
		}
		return false
	}
	var quote uint16 = '\''
	if has('\'') {
		if !has('"') {
			quote = '"'
		} else if !has('`') && !hasTemplateStart(str) {
			quote = '`'
		}
	}
	var b strings.Builder
	b.Grow(n + 2)
	b.WriteByte(byte(quote))
	for i := 0; i < n; i++ {
		c := str.CharAt(i)
		switch {
		case c == quote && quote == '\'':
			b.WriteString(`\'`)
		case c == '\\':
			b.WriteString(`\\`)
		case c < 0x20 || c >= 0x7f && c < 0xa0:
			b.WriteString(escapeMeta(c))
		case c >= 0xd800 && c <= 0xdbff && i+1 < n && str.CharAt(i+1) >= 0xdc00 && str.CharAt(i+1) <= 0xdfff:
			b.WriteRune(utf16.DecodeRune(rune(c), rune(str.CharAt(i+1))))
			i++
		case c >= 0xd800 && c <= 0xdfff:
			fmt.Fprintf(&b, "\\u%x", c)
		case c < 0x80:
			b.WriteByte(byte(c))
		default:
			b.WriteRune(rune(c))
		}
	}
	b.WriteByte(byte(quote))
	return b.String()
}

// hasTemplateStart reports whether str contains "${".
func hasTemplateStart(str goja.String) bool {
	for i := 0; i+1 < str.Length(); i++ {
		if str.CharAt(i) == '$' && str.CharAt(i+1) == '{' {
			return true
		}
	}
	return false
}

// escapeMeta is inspect.js's meta table for a control character: C0
// controls, DEL and C1 controls.
func escapeMeta(c uint16) string {
	switch c {
	case '\b':
		return `\b`
	case '\t':
		return `\t`
	case '\n':
		return `\n`
	case '\f':
		return `\f`
	case '\r':
		return `\r`
	}
	return fmt.Sprintf("\\x%02X", c)
}

// getStringWidth is inspect.js's getStringWidth without colors: the ASCII
// prefix counts its printable characters, the rest is measured after NFC
// normalisation, as String.prototype.normalize does it.
func getStringWidth(str goja.String) int {
	width := 0
	for i := range str.Length() {
		c := str.CharAt(i)
		if c >= 127 {
			return width + stringWidth(norm.NFC.String(str.Substring(i, str.Length()).String()))
		}
		if c >= 32 {
			width++
		}
	}
	return width
}
