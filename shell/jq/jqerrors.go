package jq

import (
	"regexp"
	"strings"
	"sync"

	"github.com/itchyny/gojq"
)

// Runtime errors carry jq 1.7's messages, which agents see on stderr and
// through try ... catch. The functions of this package raise *jqError,
// whose message is jq's. gojq's own errors (from indexing, iteration, path
// expressions and the builtins left to gojq) have unexported types and
// fixed message formats, one per type; jqMessage maps each format to jq's
// wording, both for the top-level report and in a catch handler (which
// gojq hands the message only: see _cordon_errmsg in jqrewrite.go).

// jqError is a runtime error with jq's message. It is a gojq.ValueError
// whose value is the message, so that a catch handler receives it as is.
type jqError struct{ msg string }

// Error returns the message.
func (e *jqError) Error() string { return e.msg }

// Value returns the message, for try ... catch.
func (e *jqError) Value() any { return e.msg }

// jqTrunc truncates a dump as jq's jv_dump_string_trunc does into a
// buffer of size bytes: at most size-1 bytes, the last three "..." when
// cut.
func jqTrunc(s string, size int) string {
	if len(s) <= size-1 {
		return s
	}
	return strings.ToValidUTF8(s[:size-4], "\ufffd") + "..."
}

// preview describes v as jq's type errors do: `number (1)`, the value
// cut to 11 bytes.
func (k *keyOrder) preview(v any) string {
	return gojq.TypeOf(v) + " (" + jqTrunc(k.compact(v), 15) + ")"
}

// compact returns the compact JSON text of v in key order.
func (k *keyOrder) compact(v any) string {
	return jqCompactOrdered(v, k)
}

// typeErrorPreview describes v like preview, with sorted keys.
func typeErrorPreview(v any) string {
	return (*keyOrder)(nil).preview(v)
}

// typeError is jq's type_error: "<type> (<value>) <msg>".
func typeError(v any, msg string) error {
	return &jqError{typeErrorPreview(v) + " " + msg}
}

// typeError2 is jq's type_error2: "<a> and <b> <msg>".
func typeError2(a, b any, msg string) error {
	return &jqError{typeErrorPreview(a) + " and " + typeErrorPreview(b) + " " + msg}
}

// jqTypeNames matches a gojq type error preview: `<type> (<value>)`.
const jqTypeNames = `(null|boolean|number|string|array|object)`

// The patterns of gojq's messages, compiled on first use (not when the
// guest starts).
var (
	jqRePreview  = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^` + jqTypeNames + ` \((.*)\)$`) })
	jqRePreview2 = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^` + jqTypeNames + ` \((.*?)\) and ` + jqTypeNames + ` \((.*)\)$`)
	})
	jqReFunc = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^([a-zA-Z0-9_]+)(\((.*)\))? cannot be applied to(: | )(.*)$`)
	})
)

// jqParsePreview splits a gojq preview into the type and the value.
func jqParsePreview(s string) (typ, val string, ok bool) {
	m := jqRePreview().FindStringSubmatch(s)
	if m == nil {
		return "", "", false
	}
	return m[1], m[2], true
}

// jqRepreview converts a gojq value preview (cut at 30 bytes, with a
// marker) to jq's (cut at size).
func jqRepreview(val string, size int) string {
	for _, marker := range []string{` ..."`, ` ...]`, ` ...}`, ` ...`} {
		if len(val) >= 25 && strings.HasSuffix(val, marker) {
			raw := strings.TrimSuffix(val, marker)
			if len(raw) > size-4 {
				return jqTrunc(raw, size)
			}
			return raw + "..."
		}
	}
	return jqTrunc(val, size)
}

// jqPreviewText converts a gojq "<type> (<value>)" to jq's.
func jqPreviewText(s string) string {
	if typ, val, ok := jqParsePreview(s); ok {
		return typ + " (" + jqRepreview(val, 15) + ")"
	}
	return s
}

// jqFunc0Messages words gojq's "<name> cannot be applied to: <value>" the
// way jq's builtin of that name does; %s stands for the value's preview.
var jqFunc0Messages = map[string]string{
	"length":         "%s has no length",
	"utf8bytelength": "%s only strings have UTF-8 byte length",
	"keys":           "%s has no keys",
	"keys_unsorted":  "%s has no keys",
	"sort":           "%s cannot be sorted, as it is not an array",
	"tonumber":       "%s cannot be parsed as a number",
	"fromjson":       "%s only strings can be parsed",
	"explode":        "explode input must be a string",
	"implode":        "implode input must be an array",
	"ascii_downcase": "explode input must be a string",
	"ascii_upcase":   "explode input must be a string",
	"min":            "%s and %s cannot be iterated over",
	"max":            "%s and %s cannot be iterated over",
	"add":            "Cannot iterate over %s",
	"unique":         "Cannot iterate over %s",
	"range":          "Range bounds must be numeric",
	"bsearch":        "Cannot index %t with number",
	"mktime":         "mktime requires array inputs",
	"gmtime":         "gmtime() requires numeric inputs",
	"localtime":      "localtime() requires numeric inputs",
	"tojson":         "%s cannot be dumped",
	"reverse":        "Cannot index %t with number",
	"transpose":      "Cannot iterate over %s",
	"splits":         "%s cannot be matched, as it is not a string",
}

// jqMessage returns jq's wording for a gojq error message.
func jqMessage(msg string) string {
	before, rest, ok := strings.Cut(msg, ": ")
	if ok {
		switch before {
		case "expected an object but got":
			if typ, _, ok := jqParsePreview(rest); ok {
				return "Cannot index " + typ + " with string"
			}
		case "expected an array but got":
			if typ, _, ok := jqParsePreview(rest); ok {
				return "Cannot index " + typ + " with number"
			}
		case "cannot iterate over":
			return "Cannot iterate over " + jqPreviewText(rest)
		case "array index should not be negative":
			return "Out of bounds negative array index"
		case "array index too large":
			return "Array index too large"
		case "expected a string for object key but got":
			return "Cannot use " + jqPreviewText(rest) + " as object key"
		case "expected a number for indexing an array but got", "expected a number for indexing a string but got":
			return "Array/string slice indices must be integers"
		case "invalid path against":
			if _, val, ok := jqParsePreview(rest); ok {
				return "Invalid path expression with result " + jqRepreview(val, 30)
			}
		case "invalid path on iterating against":
			if _, val, ok := jqParsePreview(rest); ok {
				return "Invalid path expression near attempt to iterate through " + jqRepreview(val, 30)
			}
		case "flatten depth should not be negative":
			return "flatten depth must not be negative"
		case "format not defined":
			return strings.TrimPrefix(rest, "@") + " is not a valid format"
		case "cannot negate", "cannot plus":
			return jqPreviewText(rest) + " cannot be negated"
		case "cannot add", "cannot subtract", "cannot multiply", "cannot divide", "cannot modulo":
			if m := jqRePreview2().FindStringSubmatch(rest); m != nil {
				past := map[string]string{"add": "added", "subtract": "subtracted", "multiply": "multiplied", "divide": "divided", "modulo": "divided (remainder)"}[before[len("cannot "):]]
				return m[1] + " (" + jqRepreview(m[2], 15) + ") and " + m[3] + " (" + jqRepreview(m[4], 15) + ") cannot be " + past
			}
		case "label not defined":
			return "$*label-" + strings.TrimPrefix(rest, "$") + " is not defined"
		case "variable not defined":
			return rest + " is not defined"
		case "function not defined":
			return rest + " is not defined"
		}
	}
	if rest, ok := strings.CutPrefix(msg, "cannot divide "); ok {
		if l, r, ok := strings.Cut(rest, " by: "); ok {
			return jqPreviewText(l) + " and " + jqPreviewText(r) + " cannot be divided because the divisor is zero"
		}
	}
	if rest, ok := strings.CutPrefix(msg, "cannot modulo "); ok {
		if l, r, ok := strings.Cut(rest, " by: "); ok {
			return jqPreviewText(l) + " and " + jqPreviewText(r) + " cannot be divided (remainder) because the divisor is zero"
		}
	}
	if m := jqReFunc().FindStringSubmatch(msg); m != nil {
		return jqFuncMessage(m[1], m[3], m[2] != "", m[4] == ": ", m[5], msg)
	}
	return msg
}

// jqFuncMessage words gojq's "<name>(<args>) cannot be applied to..."
// errors. With typeErr the rest is the input's preview; otherwise it is
// "<input>: <cause>".
func jqFuncMessage(name, args string, hasArgs, typeErr bool, rest, msg string) string {
	if typeErr {
		typ, _, _ := jqParsePreview(rest)
		p := jqPreviewText(rest)
		switch name {
		case "has":
			return "Cannot check whether " + typ + " has a " + jqArgType(args) + " key"
		case "contains", "inside":
			return p + " and " + jqArgPreview(args) + " cannot have their containment checked"
		case "startswith", "endswith":
			return name + "() requires string inputs"
		case "ltrimstr", "rtrimstr":
			return msg
		case "split":
			return "split input and separator must be strings"
		case "join":
			return "Cannot iterate over " + p
		case "strftime", "strflocaltime":
			return name + "/1 requires parsed datetime inputs"
		case "strptime":
			return "strptime/1 requires string inputs and arguments"
		case "_sort_by", "_group_by", "_unique_by":
			return p + " and " + jqArgPreview(args) + " cannot be sorted, as they are not both arrays"
		case "_min_by", "_max_by":
			return p + " and " + jqArgPreview(args) + " cannot be iterated over"
		case "setpath", "getpath", "paths":
			return "Path must be specified as an array"
		case "delpaths":
			return "Paths must be specified as an array"
		case "indices", "index", "rindex":
			return "Cannot index " + typ + " with " + jqArgType(args)
		}
		if jqIsMathFunc(name) {
			return p + " number required"
		}
		if f, ok := jqFunc0Messages[name]; ok && (!hasArgs || name == "range" || name == "bsearch") {
			f = strings.Replace(f, "%t", typ, 1)
			return strings.ReplaceAll(f, "%s", p)
		}
		return msg
	}
	input, cause, _ := strings.Cut(rest, ": ")
	switch name {
	case "mktime":
		return "mktime requires parsed datetime inputs"
	case "strftime", "strflocaltime":
		return name + "/1 requires parsed datetime inputs"
	case "gmtime", "localtime":
		return name + "() requires numeric inputs"
	case "getpath", "setpath", "delpaths":
		return jqPathCauseMessage(input, args, cause)
	case "strptime":
		in, err1 := parseJSONText(input, nil)
		f, err2 := parseJSONText(args, nil)
		if s, ok := in.(string); ok && err1 == nil && err2 == nil {
			if fs, ok := f.(string); ok {
				return "date \"" + s + "\" does not match format \"" + fs + "\""
			}
		}
	}
	if m := jqMessage(cause); m != cause {
		return m
	}
	return msg
}

// jqPathCauseMessage words an error of gojq's getpath, setpath or
// delpaths: it walks the path through the input (when its preview is
// whole) to find the key that failed.
func jqPathCauseMessage(input, args, cause string) string {
	path := args
	if i := strings.Index(args, "; "); i >= 0 && strings.HasPrefix(args, "[") {
		path = args[:i]
	}
	before, rest, _ := strings.Cut(cause, ": ")
	typ, _, _ := jqParsePreview(rest)
	switch before {
	case "array index should not be negative":
		return "Out of bounds negative array index"
	case "expected an array but got":
		return "Cannot index " + typ + " with number"
	case "expected an object but got":
		p, err1 := parseJSONText(path, nil)
		v, err2 := parseJSONText(input, nil)
		if ps, ok := p.([]any); ok && err1 == nil && err2 == nil {
			for _, key := range ps {
				next, err := jqGet(v, key)
				if err != nil {
					return err.Error()
				}
				v = next
			}
		}
		return "Cannot index " + typ + " with string"
	}
	return jqMessage(cause)
}

// jqArgType returns the type of a previewed argument.
func jqArgType(arg string) string {
	if v, err := parseJSONText(arg, nil); err == nil {
		return gojq.TypeOf(v)
	}
	return "string"
}

// jqArgPreview returns jq's preview of a previewed argument.
func jqArgPreview(arg string) string {
	if v, err := parseJSONText(arg, nil); err == nil {
		return typeErrorPreview(v)
	}
	return jqArgType(arg) + " (" + jqRepreview(arg, 15) + ")"
}

// jqMathFuncs are the math builtins, whose type errors read "<value>
// number required".
const jqMathFuncs = ` sin cos tan asin acos atan sinh cosh tanh asinh acosh atanh floor round
	nearbyint rint ceil trunc significand fabs sqrt cbrt exp exp10 exp2 expm1 frexp modf log log10
	log1p log2 logb gamma tgamma lgamma erf erfc j0 j1 y0 y1 atan2 copysign drem fdim fmax fmin fmod
	hypot jn nextafter nexttoward remainder ldexp scalb scalbln yn pow fma `

// jqIsMathFunc reports whether name is in jqMathFuncs.
func jqIsMathFunc(name string) bool {
	return strings.Contains(strings.ReplaceAll(jqMathFuncs, "\n\t", " "), " "+name+" ")
}
