package jq

import (
	"bufio"
	"encoding/json"
	"math"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/itchyny/gojq"
)

// jqFunc is a function that the rewritten program or the prelude calls.
// It gets the binding of the invocation that runs the program.
type jqFunc struct {
	name     string
	min, max int
	fn       func(b *jqBinding, v any, args []any) any
}

// jqFuncs are the Go functions behind the prelude and the rewriting.
var jqFuncs = []jqFunc{
	{"_cordon_add", 2, 2, func(b *jqBinding, _ any, a []any) any { return b.order.jqPlus(a[0], a[1]) }},
	{"_cordon_sub", 2, 2, func(b *jqBinding, _ any, a []any) any { return b.order.jqMinus(a[0], a[1]) }},
	{"_cordon_mul", 2, 2, func(b *jqBinding, _ any, a []any) any { return b.order.jqMultiply(a[0], a[1]) }},
	{"_cordon_div", 2, 2, func(b *jqBinding, _ any, a []any) any { return b.order.jqDivide(a[0], a[1]) }},
	{"_cordon_mod", 2, 2, func(b *jqBinding, _ any, a []any) any { return b.order.jqModulo(a[0], a[1]) }},
	{"_cordon_neg", 0, 0, func(b *jqBinding, v any, _ []any) any { return b.order.jqNegate(v) }},
	{"_cordon_lit", 1, 1, func(_ *jqBinding, _ any, a []any) any {
		v, _ := canonicalNumber(a[0].(string))
		return v
	}},
	{"_cordon_object_order", 1, 1, func(b *jqBinding, v any, a []any) any {
		b.order.recordConstruction(v, a[0])
		return v
	}},
	{"_cordon_isobj", 0, 0, func(_ *jqBinding, v any, _ []any) any {
		_, ok := v.(map[string]any)
		return ok
	}},
	{"_cordon_keys", 0, 0, func(b *jqBinding, v any, _ []any) any { return b.order.keysUnsorted(v) }},
	{"_cordon_keys_unsorted", 0, 0, func(b *jqBinding, v any, _ []any) any { return b.order.keysUnsorted(v) }},
	{"_cordon_from_entries", 0, 0, func(b *jqBinding, v any, _ []any) any { return b.order.fromEntries(v) }},
	{"_cordon_idx", 1, 1, func(b *jqBinding, v any, a []any) any {
		switch v.(type) {
		case []any, map[string]any:
			// The index may fail as a path expression: keep what
			// it indexes, for the message.
			b.lastIndex, b.lastIndexed = a[0], v
		}
		return jqIndexGuard(v, a[0])
	}},
	{"_cordon_errmsg", 0, 0, func(b *jqBinding, v any, _ []any) any {
		if s, ok := v.(string); ok {
			return b.message(s)
		}
		return v
	}},
	{"_cordon_env", 0, 0, func(b *jqBinding, _ any, _ []any) any { return b.envObject() }},
	{"_cordon_alloc", 0, 0, func(_ *jqBinding, _ any, _ []any) any { return jqAllocator{} }},
	{"_cordon_setpath", 3, 3, func(b *jqBinding, v any, a []any) any {
		path, ok := a[0].([]any)
		if !ok {
			return &jqError{"Path must be specified as an array"}
		}
		alloc, _ := a[2].(jqAllocator)
		out, err := b.order.setpath(alloc, v, path, a[1])
		if err != nil {
			return err
		}
		return out
	}},
	{"_cordon_getpath", 2, 2, func(_ *jqBinding, v any, a []any) any {
		out, err := jqGetpath(v, a[0])
		if err != nil {
			return err
		}
		if alloc, ok := a[1].(jqAllocator); ok {
			alloc.release(out)
		}
		return out
	}},
	{"_cordon_delpaths", 2, 2, func(b *jqBinding, v any, a []any) any {
		alloc, _ := a[1].(jqAllocator)
		out, err := b.order.delpaths(alloc, v, a[0])
		if err != nil {
			return err
		}
		return out
	}},
	{"_cordon_del", 1, 1, func(b *jqBinding, v any, a []any) any {
		// del(p) for constant paths: path(p) fails as getpath does.
		for _, p := range a[0].([]any) {
			if _, err := jqGetpath(v, p); err != nil {
				return err
			}
		}
		out, err := b.order.delpaths(nil, v, a[0])
		if err != nil {
			return err
		}
		return out
	}},
	{"_cordon_addall", 0, 0, func(b *jqBinding, v any, _ []any) any { return b.order.addAll(v) }},
	{"_cordon_join", 1, 1, func(b *jqBinding, v any, a []any) any { return b.order.join(v, a[0]) }},
	{"_cordon_length", 0, 0, func(b *jqBinding, v any, _ []any) any { return b.order.jqLength(v) }},
	{"_cordon_utf8bytelength", 0, 0, func(b *jqBinding, v any, _ []any) any {
		if s, ok := v.(string); ok {
			return len(s)
		}
		return b.order.typeError(v, "only strings have UTF-8 byte length")
	}},
	{"_cordon_tojson", 0, 0, func(b *jqBinding, v any, _ []any) any { return b.order.compact(v) }},
	{"_cordon_tostring", 0, 0, func(b *jqBinding, v any, _ []any) any {
		if s, ok := v.(string); ok {
			return s
		}
		return b.order.compact(v)
	}},
	{"_cordon_fromjson", 0, 0, func(b *jqBinding, v any, _ []any) any {
		s, ok := v.(string)
		if !ok {
			return b.order.typeError(v, "only strings can be parsed")
		}
		return jqParseValue(s, b.order)
	}},
	{"_cordon_tonumber", 0, 0, func(b *jqBinding, v any, _ []any) any {
		if jqIsNumber(v) {
			return v
		}
		if s, ok := v.(string); ok {
			w := jqParseValue(s, b.order)
			if _, isErr := w.(error); isErr || jqIsNumber(w) {
				return w
			}
		}
		return b.order.typeError(v, "cannot be parsed as a number")
	}},
	{"_cordon_implode", 0, 0, func(_ *jqBinding, v any, _ []any) any { return jqImplode(v) }},
	{"_cordon_explode", 0, 0, func(_ *jqBinding, v any, _ []any) any {
		s, ok := v.(string)
		if !ok {
			return &jqError{"explode input must be a string"}
		}
		out := make([]any, 0, len(s))
		for _, r := range s {
			out = append(out, int(r))
		}
		return out
	}},
	{"_cordon_ascii", 1, 1, func(_ *jqBinding, v any, a []any) any {
		s, ok := v.(string)
		if !ok {
			return &jqError{"explode input must be a string"}
		}
		if a[0] == true {
			return strings.Map(func(r rune) rune {
				if 'a' <= r && r <= 'z' {
					return r - 32
				}
				return r
			}, s)
		}
		return strings.Map(func(r rune) rune {
			if 'A' <= r && r <= 'Z' {
				return r + 32
			}
			return r
		}, s)
	}},
	{"_cordon_indices", 1, 1, func(_ *jqBinding, v any, a []any) any { return jqIndices(v, a[0]) }},
	{"_cordon_trimstr", 2, 2, func(_ *jqBinding, v any, a []any) any {
		s, ok1 := v.(string)
		x, ok2 := a[0].(string)
		switch {
		case !ok1 || !ok2:
			return v
		case a[1] == true:
			return strings.TrimSuffix(s, x)
		}
		return strings.TrimPrefix(s, x)
	}},
	{"_cordon_reverse", 0, 0, func(_ *jqBinding, v any, _ []any) any { return jqReverse(v) }},
	{"_cordon_flatten", 0, 1, func(_ *jqBinding, v any, a []any) any {
		depth := math.Inf(1)
		if len(a) > 0 {
			d, ok := jqFloat(a[0])
			if !ok {
				return typeError2(a[0], 1, "cannot be subtracted")
			}
			if d < 0 {
				return &jqError{"flatten depth must not be negative"}
			}
			depth = d
		}
		return jqFlatten(v, depth)
	}},
	{"_cordon_format", 1, 1, func(b *jqBinding, v any, a []any) any { return b.order.format(v, a[0]) }},
	{"_cordon_match", 3, 3, func(b *jqBinding, v any, a []any) any { return b.match(v, a[0], a[1], a[2] == true) }},
	{"_cordon_debug", 0, 0, func(b *jqBinding, v any, _ []any) any {
		b.writeStderr("[\"DEBUG:\"," + b.order.compact(v) + "]\n")
		return v
	}},
	{"_cordon_stderr", 0, 0, func(b *jqBinding, v any, _ []any) any {
		b.writeStderr(b.order.compact(v))
		return v
	}},
	{"_cordon_input_line_number", 0, 0, func(b *jqBinding, _ any, _ []any) any { return b.inputs.lineNumber() }},
	{"_cordon_search_list", 0, 0, func(b *jqBinding, _ any, _ []any) any {
		out := make([]any, len(b.libDirs))
		for i, d := range b.libDirs {
			out[i] = d
		}
		return out
	}},
	{"_cordon_jq_origin", 0, 0, func(_ *jqBinding, _ any, _ []any) any { return jqOrigin }},
	{"_cordon_prog_origin", 0, 0, func(b *jqBinding, _ any, _ []any) any { return b.progOrigin }},
	{"_cordon_modulemeta", 0, 0, func(b *jqBinding, v any, _ []any) any { return b.modulemeta(v) }},
	{"_cordon_builtins", 0, 0, func(_ *jqBinding, _ any, _ []any) any { return jqBuiltinList() }},
	{"_cordon_lgamma_r", 0, 0, func(_ *jqBinding, v any, _ []any) any {
		f, ok := jqFloat(v)
		if !ok {
			return typeError(v, "number required")
		}
		lg, sign := math.Lgamma(f)
		return []any{jqNumber(lg), sign}
	}},
}

// jqOrigin is the directory that jq runs from ($ORIGIN, get_jq_origin).
const jqOrigin = "/usr/bin"

// jqFunctionOptions returns the compiler options that define jqFuncs for
// the invocations bound to b.
func jqFunctionOptions(b *jqBinding) []gojq.CompilerOption {
	opts := make([]gojq.CompilerOption, 0, len(jqFuncs))
	for _, f := range jqFuncs {
		fn := f.fn
		opts = append(opts, gojq.WithFunction(f.name, f.min, f.max, func(v any, args []any) any { return fn(b, v, args) }))
	}
	return opts
}

// writeStderr writes debugging output at once.
func (b *jqBinding) writeStderr(s string) {
	if b.inputs != nil && b.inputs.env != nil && !b.quiet {
		b.flushOut()
		b.inputs.env.Stderr.Write([]byte(s))
	}
}

// flushOut flushes the standard output written so far, so that debugging
// output keeps its place among the results.
func (b *jqBinding) flushOut() {
	if b.out != nil {
		b.out.Flush()
	}
}

// envObject returns $ENV: the environment in its order.
func (b *jqBinding) envObject() any {
	if b.env != nil {
		return b.env
	}
	env := map[string]any{}
	var keys []string
	for _, kv := range b.environ {
		if k, v, ok := strings.Cut(kv, "="); ok && k != "" {
			if _, dup := env[k]; !dup {
				keys = append(keys, k)
			}
			env[k] = v
		}
	}
	b.order.record(env, keys)
	b.env = env
	return env
}

// recordConstruction records the key order of an object built by a
// construction with the key spec of wrapObject.
func (k *keyOrder) recordConstruction(v, spec any) {
	obj, ok := v.(map[string]any)
	s, _ := spec.(string)
	if !ok || len(obj) < 2 || k == nil {
		return
	}
	ps, ok := k.specs[s]
	if !ok {
		ps = &parsedSpec{}
		json.Unmarshal([]byte(s), &ps.keys)
		for _, key := range ps.keys {
			if key == nil || slices.Contains(ps.static, *key) {
				ps.static = nil
				break
			}
			ps.static = append(ps.static, *key)
		}
		if k.specs == nil {
			k.specs = map[string]*parsedSpec{}
		}
		k.specs[s] = ps
	}
	k.recordTransient(obj, constructionOrder(obj, ps.keys, ps.static))
}

// parsedSpec is the parsed key spec of an object construction.
type parsedSpec struct {
	keys   []*string
	static []string // the keys when all are static and distinct
}

// keysUnsorted implements keys_unsorted: an object's keys in order, an
// array's indices.
func (k *keyOrder) keysUnsorted(v any) any {
	obj, ok := v.(map[string]any)
	if !ok {
		return gojqKeys(v)
	}
	keys := k.orderedKeys(obj)
	out := make([]any, len(keys))
	for i, key := range keys {
		out[i] = key
	}
	return out
}

// values returns what .[] yields from v: an array's elements, or an
// object's values in key order. It reports false when v is neither.
func (k *keyOrder) values(v any) ([]any, bool) {
	switch v := v.(type) {
	case []any:
		return v, true
	case map[string]any:
		keys := k.orderedKeys(v)
		vals := make([]any, len(keys))
		for i, key := range keys {
			vals[i] = v[key]
		}
		return vals, true
	}
	return nil, false
}

// addAll implements add: reduce .[] as $x (null; . + $x), with strings
// and arrays joined in one go.
func (k *keyOrder) addAll(v any) any {
	vals, ok := k.values(v)
	if !ok {
		return &jqError{"Cannot iterate over " + k.preview(v)}
	}
	var acc any
	for i := 0; i < len(vals); i++ {
		x := vals[i]
		if s, ok := acc.(string); ok {
			if _, ok := x.(string); ok {
				var sb strings.Builder
				sb.WriteString(s)
				for ; i < len(vals); i++ {
					t, ok := vals[i].(string)
					if !ok {
						break
					}
					sb.WriteString(t)
				}
				acc = sb.String()
				i--
				continue
			}
		}
		if a, ok := acc.([]any); ok {
			if _, ok := x.([]any); ok {
				out := slices.Clip(slices.Clone(a))
				for ; i < len(vals); i++ {
					t, ok := vals[i].([]any)
					if !ok {
						break
					}
					out = append(out, t...)
				}
				acc = out
				i--
				continue
			}
		}
		r := k.jqPlus(acc, x)
		if err, ok := r.(error); ok {
			return err
		}
		acc = r
	}
	return acc
}

// join implements join($x) as jq 1.7 defines it: reduce .[] as $i (null;
// (if .==null then "" else .+$x end) + ($i | if type=="boolean" or
// type=="number" then tostring else .//"" end)) // "".
func (k *keyOrder) join(v, sep any) any {
	vals, ok := k.values(v)
	if !ok {
		return &jqError{"Cannot iterate over " + k.preview(v)}
	}
	if len(vals) == 0 {
		return ""
	}
	sepStr, sepIsStr := sep.(string)
	var sb strings.Builder
	for i, x := range vals {
		var item any
		switch x := x.(type) {
		case bool:
			item = k.compact(x)
		case nil:
			item = ""
		default:
			if jqIsNumber(x) {
				item = k.compact(x)
			} else {
				item = x
			}
		}
		if i > 0 {
			switch {
			case sepIsStr:
				sb.WriteString(sepStr)
			case sep != nil:
				return k.typeError2(sb.String(), sep, "cannot be added")
			}
		}
		str, ok := item.(string)
		if !ok {
			return k.typeError2(sb.String(), item, "cannot be added")
		}
		sb.WriteString(str)
	}
	return sb.String()
}

// typeError2 is jq's type_error2 with objects in key order.
func (k *keyOrder) typeError2(a, b any, msg string) error {
	return &jqError{k.preview(a) + " and " + k.preview(b) + " " + msg}
}

// jqLength implements length.
func (k *keyOrder) jqLength(v any) any {
	switch v := v.(type) {
	case nil:
		return 0
	case string:
		return utf8.RuneCountInString(v)
	case []any:
		return len(v)
	case map[string]any:
		return len(v)
	case int:
		if v < 0 {
			return k.jqNegate(v)
		}
		return v
	case bool:
		return k.typeError(v, "has no length")
	}
	f, ok := jqFloat(v)
	if !ok {
		return k.typeError(v, "has no length")
	}
	return jqNumber(math.Abs(f))
}

// jqImplode implements implode with jq 1.7's checks.
func jqImplode(v any) any {
	arr, ok := v.([]any)
	if !ok {
		return &jqError{"implode input must be an array"}
	}
	var sb strings.Builder
	for _, x := range arr {
		f, ok := jqFloat(x)
		if !ok {
			return typeError(x, "can't be imploded, unicode codepoint needs to be numeric") // a scalar
		}
		if math.IsNaN(f) {
			return &jqError{"number (null) can't be imploded, unicode codepoint needs to be numeric"}
		}
		r := rune(jqIndexInt(f))
		if r < 0 || r > utf8.MaxRune || (r >= 0xD800 && r < 0xE000) {
			r = utf8.RuneError
		}
		sb.WriteRune(r)
	}
	return sb.String()
}

// jqReverse implements reverse as jq 1.7 defines it:
// [.[length - 1 - range(0;length)]].
func jqReverse(v any) any {
	switch v := v.(type) {
	case []any:
		out := make([]any, len(v))
		for i, x := range v {
			out[len(v)-1-i] = x
		}
		return out
	case nil:
		return []any{}
	case string:
		if v == "" {
			return []any{}
		}
		return jqIndexError(v, 0)
	case map[string]any:
		if len(v) == 0 {
			return []any{}
		}
		return jqIndexError(v, 0)
	}
	n := (*keyOrder)(nil).jqLength(v)
	if err, ok := n.(error); ok {
		return err
	}
	if f, _ := jqFloat(n); f == 0 {
		return []any{}
	}
	return jqIndexError(v, 0)
}

// jqFlatten flattens arrays nested up to depth.
func jqFlatten(v any, depth float64) any {
	arr, ok := v.([]any)
	if !ok {
		return &jqError{"Cannot iterate over " + typeErrorPreview(v)}
	}
	out := make([]any, 0, len(arr))
	var flat func(arr []any, depth float64)
	flat = func(arr []any, depth float64) {
		for _, x := range arr {
			if sub, ok := x.([]any); ok && depth != 0 {
				flat(sub, depth-1)
			} else {
				out = append(out, x)
			}
		}
	}
	flat(arr, depth)
	return out
}

// jqParseValue parses exactly one JSON value for fromjson and tonumber,
// with jq's message on failure.
func jqParseValue(s string, order *keyOrder) any {
	d := &jsonDecoder{data: []byte(s), order: order}
	v, ok, err := d.next()
	if err == nil && !ok {
		err = &jsonError{msg: "Expected JSON value"}
	}
	if err == nil {
		d.skipSpace()
		if d.pos < len(d.data) {
			// jq reports a value that follows the first one, or a parse
			// error in it.
			if _, _, err2 := d.next(); err2 != nil {
				err = err2
			} else {
				err = &jsonError{msg: "Unexpected extra JSON values"}
			}
		}
	}
	if err != nil {
		msg := err.Error()
		if je, ok := err.(*jsonError); ok && je.line == 0 {
			msg = je.msg
		}
		return &jqError{msg + " (while parsing '" + s + "')"}
	}
	return v
}

// jqCompactOrdered returns the compact JSON text of v with objects in key
// order.
func jqCompactOrdered(v any, order *keyOrder) string {
	var sb strings.Builder
	w := bufio.NewWriterSize(&sb, 64)
	(&jqEncoder{w: w, order: order}).encode(v)
	w.Flush()
	return sb.String()
}

// jqBuiltins is jq 1.7.1's builtins list.
const jqBuiltins = "IN/1 IN/2 INDEX/1 INDEX/2 JOIN/2 JOIN/3 JOIN/4 abs/0 acos/0 acosh/0 add/0 all/0 all/1 all/2 any/0 any/1 any/2 arrays/0 ascii_downcase/0 ascii_upcase/0 asin/0 asinh/0 atan/0 atan2/2 atanh/0 booleans/0 bsearch/1 builtins/0 capture/1 capture/2 cbrt/0 ceil/0 combinations/0 combinations/1 contains/1 copysign/2 cos/0 cosh/0 debug/0 debug/1 del/1 delpaths/1 drem/2 empty/0 endswith/1 env/0 erf/0 erfc/0 error/0 error/1 exp/0 exp10/0 exp2/0 explode/0 expm1/0 fabs/0 fdim/2 finites/0 first/0 first/1 flatten/0 flatten/1 floor/0 fma/3 fmax/2 fmin/2 fmod/2 format/1 frexp/0 from_entries/0 fromdate/0 fromdateiso8601/0 fromjson/0 fromstream/1 gamma/0 get_jq_origin/0 get_prog_origin/0 get_search_list/0 getpath/1 gmtime/0 group_by/1 gsub/2 gsub/3 halt/0 halt_error/0 halt_error/1 has/1 hypot/2 implode/0 in/1 index/1 indices/1 infinite/0 input/0 input_filename/0 input_line_number/0 inputs/0 inside/1 isempty/1 isfinite/0 isinfinite/0 isnan/0 isnormal/0 iterables/0 j0/0 j1/0 jn/2 join/1 keys/0 keys_unsorted/0 last/0 last/1 ldexp/2 length/0 lgamma/0 lgamma_r/0 limit/2 localtime/0 log/0 log10/0 log1p/0 log2/0 logb/0 ltrimstr/1 map/1 map_values/1 match/1 match/2 max/0 max_by/1 min/0 min_by/1 mktime/0 modf/0 modulemeta/0 nan/0 nearbyint/0 nextafter/2 nexttoward/2 normals/0 not/0 now/0 nth/1 nth/2 nulls/0 numbers/0 objects/0 path/1 paths/0 paths/1 pick/1 pow/2 pow10/0 range/1 range/2 range/3 recurse/0 recurse/1 recurse/2 remainder/2 repeat/1 reverse/0 rindex/1 rint/0 round/0 rtrimstr/1 scalars/0 scalb/2 scalbln/2 scan/1 scan/2 select/1 setpath/2 significand/0 sin/0 sinh/0 sort/0 sort_by/1 split/1 split/2 splits/1 splits/2 sqrt/0 startswith/1 stderr/0 strflocaltime/1 strftime/1 strings/0 strptime/1 sub/2 sub/3 tan/0 tanh/0 test/1 test/2 tgamma/0 to_entries/0 todate/0 todateiso8601/0 tojson/0 tonumber/0 tostream/0 tostring/0 transpose/0 trunc/0 truncate_stream/1 type/0 unique/0 unique_by/1 until/2 utf8bytelength/0 values/0 walk/1 while/2 with_entries/1 y0/0 y1/0 yn/2"

// jqBuiltinList returns the builtins list, as jq 1.7.1 gives it.
func jqBuiltinList() any {
	names := strings.Fields(jqBuiltins)
	out := make([]any, len(names))
	for i, n := range names {
		out[i] = n
	}
	return out
}

// jqIndexGuard checks .[k] before gojq indexes: jq has no string
// indexing, and names a string key in its message, which gojq's does not.
// It returns v when gojq may go on.
func jqIndexGuard(v, k any) any {
	_, keyIsStr := k.(string)
	switch v.(type) {
	case nil, map[string]any:
		return v
	case []any:
		if keyIsStr {
			return jqIndexError(v, k)
		}
		return v
	case string:
		if _, isSlice := k.(map[string]any); isSlice {
			return v
		}
	}
	if keyIsStr || jqIsNumber(k) {
		return jqIndexError(v, k)
	}
	return v
}

// jqIndices implements indices($i) as jq 1.7 defines it; the offsets in
// a string are byte offsets, as in jq 1.7.
func jqIndices(v, i any) any {
	switch x := v.(type) {
	case []any:
		if y, ok := i.([]any); ok {
			return jqArrayIndexes(x, y)
		}
		return jqArrayIndexes(x, []any{i})
	case string:
		if y, ok := i.(string); ok {
			out := []any{}
			if y == "" {
				return out
			}
			for off := 0; ; {
				j := strings.Index(x[off:], y)
				if j < 0 {
					return out
				}
				out = append(out, off+j)
				off += j + 1
			}
		}
	}
	out, err := jqGet(v, i)
	if err != nil {
		return err
	}
	return out
}

// message returns jq's wording for a gojq error message, using what the
// last checked index indexed to word an invalid path expression as jq
// does ("near attempt to access element 0 of [...]").
func (b *jqBinding) message(msg string) string {
	if rest, ok := strings.CutPrefix(msg, "invalid path against: "); ok && b.lastIndexed != nil {
		v := b.lastIndexed
		if rest == gojq.TypeOf(v)+" ("+gojq.Preview(v)+")" {
			return "Invalid path expression near attempt to access element " + jqTrunc(b.order.compact(b.lastIndex), 15) +
				" of " + jqTrunc(b.order.compact(v), 30)
		}
	}
	return jqMessage(msg)
}
