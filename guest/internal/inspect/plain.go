package inspect

import (
	"math"
	"math/big"
	"reflect"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/cordonhq/cordon/guest/internal/gojax"
	"github.com/dop251/goja"
	"golang.org/x/text/unicode/norm"
)

// plain is fast.js's formatter for plain data (primitives, and objects and
// arrays of them), written in Go. fast.js, interpreted by goja in the
// guest, spent a great many guest instructions on every property it
// printed, so that printing a tool result took long (BENCHMARKS.md); this takes
// what fast.js takes, less errors, and gives its output byte for byte
// (TestPlainMatchesFast). It reads properties through gojax, which runs no
// script code and builds no descriptors, so it is used only when
// gojax.Enabled(); whatever it declines goes to fast.js, and declining has no
// side effect that fast.js would repeat.
//
// Its functions are fast.js's, with the same names and steps; lengths are
// counted in UTF-16 units, as JavaScript's are.
type plain struct {
	rt                                     *goja.Runtime
	objectProto, arrayProto, functionProto *goja.Object

	// For the format call under way, as in fast.js.
	checkedObjects, checkedArrays bool
	indentationLvl                int
	seen                          []*goja.Object
	currentDepth                  int
}

// declined is panicked to give up, as fast.js throws bail.
type declined struct{}

func decline() { panic(declined{}) }

func newPlain(rt *goja.Runtime) *plain {
	fn := rt.ToValue(func(goja.FunctionCall) goja.Value { return nil }).(*goja.Object)
	return &plain{
		rt:            rt,
		objectProto:   rt.NewObject().Prototype(),
		arrayProto:    rt.NewArray().Prototype(),
		functionProto: fn.Prototype(),
	}
}

// run calls f, reporting false if it declined.
func (p *plain) run(f func() string) (s string, ok bool) {
	p.checkedObjects, p.checkedArrays = false, false
	defer func() {
		if x := recover(); x != nil {
			if _, is := x.(declined); !is {
				panic(x)
			}
			s, ok = "", false
		}
	}()
	return f(), true
}

// format is fast.js's format.
func (p *plain) format(args []goja.Value) (string, bool) {
	if len(args) > 1 {
		if s, isString := args[0].(goja.String); isString && strings.Contains(s.String(), "%") {
			return "", false
		}
	}
	return p.run(func() string {
		var b strings.Builder
		for i, v := range args {
			if i > 0 {
				b.WriteByte(' ')
			}
			if s, isString := v.(goja.String); isString {
				b.WriteString(s.String())
			} else {
				b.WriteString(p.inspect(v))
			}
		}
		return b.String()
	})
}

// inspectValue is fast.js's inspect.
func (p *plain) inspectValue(v goja.Value) (string, bool) {
	return p.run(func() string { return p.inspect(v) })
}

func (p *plain) inspect(v goja.Value) string {
	p.indentationLvl, p.currentDepth = 0, 0
	p.seen = p.seen[:0]
	return p.formatValue(v, 0)
}

const (
	kDepth           = 2
	kBreakLength     = 80
	kCompact         = 3
	kMaxArrayLength  = 100
	kMaxStringLength = 10000
	kMinLineLength   = 16
	kMaxOutput       = 1 << 20

	kObjectType      = 0
	kArrayType       = 1
	kArrayExtrasType = 2
)

var (
	int64Type  = reflect.TypeFor[int64]()
	floatType  = reflect.TypeFor[float64]()
	bigIntType = reflect.TypeFor[*big.Int]()
	boolType   = reflect.TypeFor[bool]()
)

func isNumber(v goja.Value) bool {
	t := v.ExportType()
	return t == int64Type || t == floatType
}

func (p *plain) formatPrimitive(v goja.Value) string {
	if s, isString := v.(goja.String); isString {
		trailer := ""
		if n := s.Length(); n > kMaxStringLength {
			remaining := n - kMaxStringLength
			s = s.Substring(0, kMaxStringLength)
			trailer = "... " + strconv.Itoa(remaining) + " more character"
			if remaining > 1 {
				trailer += "s"
			}
		}
		if n := s.Length(); n > kMinLineLength && n > kBreakLength-p.indentationLvl-4 {
			lines := splitAfterNewlines(s)
			escaped := make([]string, len(lines))
			for i, l := range lines {
				escaped[i] = strEscape(l)
			}
			return strings.Join(escaped, " +\n"+strings.Repeat(" ", p.indentationLvl+2)) + trailer
		}
		return strEscape(s) + trailer
	}
	switch {
	case goja.IsUndefined(v):
		return "undefined"
	case isNumber(v):
		if f := v.ToFloat(); f == 0 && math.Signbit(f) {
			return "-0"
		}
		return v.String()
	case v.ExportType() == bigIntType:
		return v.String() + "n"
	case v.ExportType() == boolType:
		return v.String()
	}
	decline() // a symbol
	return ""
}

// splitAfterNewlines splits s after each newline that is not its last
// character.
func splitAfterNewlines(s goja.String) []goja.String {
	var lines []goja.String
	start, n := 0, s.Length()
	for i := 0; i+1 < n; i++ {
		if s.CharAt(i) == '\n' {
			lines = append(lines, s.Substring(start, i+1))
			start = i + 1
		}
	}
	return append(lines, s.Substring(start, n))
}

func (p *plain) formatValue(v goja.Value, recurseTimes int) string {
	o, isObject := v.(*goja.Object)
	if !isObject {
		if goja.IsNull(v) {
			return "null"
		}
		return p.formatPrimitive(v)
	}
	kind := objectKind(o)
	isArray := kind == "Array"
	if !isArray && kind != "" {
		decline() // functions, errors (fast.js takes those), proxies, ...
	}
	proto := p.objectProto
	if isArray {
		proto = p.arrayProto
	}
	if o.Prototype() != proto {
		decline()
	}
	if isArray {
		if !p.checkedArrays {
			if p.checkedArrays = p.pristineArrays(); !p.checkedArrays {
				decline()
			}
		}
	} else if !p.checkedObjects {
		if p.checkedObjects = p.pristineObjects(); !p.checkedObjects {
			decline()
		}
	}
	for _, s := range p.seen {
		if s == o {
			decline() // a cycle: inspect.js prints references
		}
	}
	ownKeys := o.GetOwnPropertyNames()
	if n, ok := gojax.OwnSymbolCount(p.rt, o); !ok || n != 0 {
		decline()
	}
	var keys []string
	var values []goja.Value
	length := 0
	if isArray {
		lp := p.ownData(o, p.rt.ToValue("length"))
		length = int(lp.ToInteger())
		if len(ownKeys) != length+1 || ownKeys[length] != "length" ||
			(length > 0 && ownKeys[length-1] != strconv.Itoa(length-1)) {
			decline()
		}
		read := min(length, kMaxArrayLength+1)
		values = make([]goja.Value, read)
		for i := range read {
			values[i] = p.ownData(o, p.rt.ToValue(i))
		}
	} else {
		for _, key := range ownKeys {
			if key == "constructor" || strings.ContainsRune(key, utf8.RuneError) {
				// A key with a lone surrogate reads back as U+FFFD in Go.
				decline()
			}
			prop, ok := gojax.OwnProp(o, p.rt.ToValue(key))
			if !ok || !prop.Exists || prop.Accessor {
				decline()
			}
			if prop.Enumerable {
				keys = append(keys, key)
				values = append(values, prop.Value)
			}
		}
	}
	braces := [2]string{"{", "}"}
	if isArray {
		braces = [2]string{"[", "]"}
	}
	if isArray && length == 0 || !isArray && len(keys) == 0 {
		return braces[0] + braces[1]
	}
	if recurseTimes > kDepth {
		if isArray {
			return "[Array]"
		}
		return "[Object]"
	}
	recurseTimes++
	p.seen = append(p.seen, o)
	p.currentDepth = recurseTimes
	var output []string
	if isArray {
		n := min(length, kMaxArrayLength)
		output = make([]string, 0, n+1)
		for i := range n {
			output = append(output, p.formatProperty(values[i], recurseTimes, "", kArrayType))
		}
		if remaining := length - n; remaining > 0 {
			s := "... " + strconv.Itoa(remaining) + " more item"
			if remaining > 1 {
				s += "s"
			}
			output = append(output, s)
		}
	} else {
		output = make([]string, 0, len(keys))
		for i, k := range keys {
			output = append(output, p.formatProperty(values[i], recurseTimes, k, kObjectType))
		}
	}
	p.seen = p.seen[:len(p.seen)-1]
	extras := kObjectType
	if isArray {
		extras = kArrayExtrasType
	}
	res := p.reduceToSingleString(output, braces, extras, recurseTimes, values)
	if utf16Len(res) > kMaxOutput {
		decline()
	}
	return res
}

// ownData returns o's own data property key, declining for anything else.
func (p *plain) ownData(o *goja.Object, key goja.Value) goja.Value {
	v := ownDataProp(o, key)
	if v == nil {
		decline()
	}
	return v
}

func (p *plain) formatProperty(v goja.Value, recurseTimes int, key string, typ int) string {
	str := "undefined"
	if v != nil && !goja.IsUndefined(v) {
		p.indentationLvl += 2
		str = p.formatValue(v, recurseTimes)
		p.indentationLvl -= 2
	}
	if typ == kArrayType {
		return str
	}
	return propertyName(key) + ": " + str
}

// propertyName is inspect.js's key formatting in formatProperty.
func propertyName(key string) string {
	switch {
	case key == "__proto__":
		return "['__proto__']"
	case isIdentifierKey(key):
		return key
	}
	return strEscape(goja.StringFromUTF16(utf16Units(key)))
}

// hasOnlySymbols reports whether o's own symbol keys are exactly want.
func (p *plain) hasOnlySymbols(o *goja.Object, want ...*goja.Symbol) bool {
	if n, ok := gojax.OwnSymbolCount(p.rt, o); !ok || n != int64(len(want)) {
		return false
	}
	for _, s := range want {
		if prop, ok := gojax.OwnProp(o, s); !ok || !prop.Exists {
			return false
		}
	}
	return true
}

// ownDataProp returns o's own data property key, or nil.
func ownDataProp(o *goja.Object, key goja.Value) goja.Value {
	prop, ok := gojax.OwnProp(o, key)
	if !ok || !prop.Exists || prop.Accessor {
		return nil
	}
	return prop.Value
}

// constructorNamed is fast.js's.
func (p *plain) constructorNamed(proto *goja.Object, name string, symbols ...*goja.Symbol) bool {
	ctor, ok := ownDataProp(proto, p.rt.ToValue("constructor")).(*goja.Object)
	if !ok || objectKind(ctor) != "Function" {
		return false
	}
	nameValue := ownDataProp(ctor, p.rt.ToValue("name"))
	protoValue := ownDataProp(ctor, p.rt.ToValue("prototype"))
	_, nameIsString := nameValue.(goja.String)
	return nameIsString && nameValue.String() == name &&
		protoValue != nil && protoValue.SameAs(proto) &&
		ctor.Prototype() == p.functionProto &&
		p.hasOnlySymbols(ctor, symbols...)
}

// pristineObjects and pristineArrays are fast.js's.
func (p *plain) pristineObjects() bool {
	return p.objectProto.Prototype() == nil &&
		p.hasOnlySymbols(p.objectProto) &&
		p.constructorNamed(p.objectProto, "Object")
}

func (p *plain) pristineArrays() bool {
	return p.arrayProto.Prototype() == p.objectProto &&
		p.hasOnlySymbols(p.arrayProto, goja.SymIterator, goja.SymUnscopables) &&
		p.constructorNamed(p.arrayProto, "Array", goja.SymSpecies)
}

// groupArrayElements is inspect.js's, without colors.
func (p *plain) groupArrayElements(output []string, values []goja.Value) []string {
	totalLength, maxLength := 0, 0
	outputLength := len(output)
	if kMaxArrayLength < len(output) {
		outputLength--
	}
	const separatorSpace = 2
	dataLen := make([]int, outputLength)
	for i := range outputLength {
		l := stringWidthOf(output[i])
		dataLen[i] = l
		totalLength += l + separatorSpace
		maxLength = max(maxLength, l)
	}
	actualMax := maxLength + separatorSpace
	if actualMax*3+p.indentationLvl < kBreakLength &&
		(float64(totalLength)/float64(actualMax) > 5 || maxLength <= 6) {
		const approxCharHeights = 2.5
		averageBias := math.Sqrt(float64(actualMax) - float64(totalLength)/float64(len(output)))
		biasedMax := math.Max(float64(actualMax)-3-averageBias, 1)
		columns := min(
			jsRound(math.Sqrt(approxCharHeights*biasedMax*float64(outputLength))/biasedMax),
			math.Floor(float64(kBreakLength-p.indentationLvl)/float64(actualMax)),
			kCompact*4,
			15,
		)
		if !(columns > 1) {
			return output
		}
		cols := int(columns)
		maxLineLength := make([]int, cols)
		for i := range cols {
			lineMaxLength := 0
			for j := i; j < outputLength; j += cols {
				lineMaxLength = max(lineMaxLength, dataLen[j])
			}
			maxLineLength[i] = lineMaxLength + separatorSpace
		}
		padStart := true
		for i := range output {
			if t := values[i].ExportType(); t != int64Type && t != floatType && t != bigIntType {
				padStart = false
				break
			}
		}
		tmp := make([]string, 0, outputLength/cols+2)
		for i := 0; i < outputLength; i += cols {
			end := min(i+cols, outputLength)
			var str strings.Builder
			j := i
			for ; j < end-1; j++ {
				padding := maxLineLength[j-i] + utf16Len(output[j]) - dataLen[j]
				if padStart {
					str.WriteString(padStartTo(output[j]+", ", padding))
				} else {
					str.WriteString(padEndTo(output[j]+", ", padding))
				}
			}
			if padStart {
				padding := maxLineLength[j-i] + utf16Len(output[j]) - dataLen[j] - separatorSpace
				str.WriteString(padStartTo(output[j], padding))
			} else {
				str.WriteString(output[j])
			}
			tmp = append(tmp, str.String())
		}
		if kMaxArrayLength < len(output) {
			tmp = append(tmp, output[outputLength])
		}
		output = tmp
	}
	return output
}

// jsRound is Math.round for the non-negative numbers it is used on here.
func jsRound(x float64) float64 { return math.Floor(x + 0.5) }

func padStartTo(s string, n int) string {
	if l := utf16Len(s); l < n {
		return strings.Repeat(" ", n-l) + s
	}
	return s
}

func padEndTo(s string, n int) string {
	if l := utf16Len(s); l < n {
		return s + strings.Repeat(" ", n-l)
	}
	return s
}

func (p *plain) isBelowBreakLength(output []string, start int) bool {
	totalLength := len(output) + start
	if totalLength+len(output) > kBreakLength {
		return false
	}
	for _, s := range output {
		totalLength += utf16Len(s)
		if totalLength > kBreakLength {
			return false
		}
	}
	return true
}

// reduceToSingleString is inspect.js's for compact: 3, with no base.
func (p *plain) reduceToSingleString(output []string, braces [2]string, extrasType, recurseTimes int, values []goja.Value) string {
	entries := len(output)
	if extrasType == kArrayExtrasType && entries > 6 {
		output = p.groupArrayElements(output, values)
	}
	if p.currentDepth-recurseTimes < kCompact && entries == len(output) {
		start := len(output) + p.indentationLvl + len(braces[0]) + 10
		if p.isBelowBreakLength(output, start) {
			joined := strings.Join(output, ", ")
			if !strings.Contains(joined, "\n") {
				return braces[0] + " " + joined + " " + braces[1]
			}
		}
	}
	indentation := "\n" + strings.Repeat(" ", p.indentationLvl)
	return braces[0] + indentation + "  " + strings.Join(output, ","+indentation+"  ") + indentation + braces[1]
}

// utf16Len is the length JavaScript gives s.
func utf16Len(s string) int {
	n := 0
	for i := 0; i < len(s); i++ {
		if s[i] < utf8.RuneSelf {
			n++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		n++
		if r >= 0x10000 {
			n++
		}
		i += size - 1
	}
	return n
}

// utf16Units returns s as UTF-16 code units.
func utf16Units(s string) []uint16 {
	u := make([]uint16, 0, len(s))
	for _, r := range s {
		if r >= 0x10000 {
			r -= 0x10000
			u = append(u, uint16(0xd800+(r>>10)), uint16(0xdc00+(r&0x3ff)))
		} else {
			u = append(u, uint16(r))
		}
	}
	return u
}

// stringWidthOf is getStringWidth of a string that holds no lone
// surrogates.
func stringWidthOf(s string) int {
	width := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 127 {
			return width + stringWidth(norm.NFC.String(s[i:]))
		}
		if c >= 32 {
			width++
		}
	}
	return width
}
