package coreutils

import (
	"encoding/json"
	"reflect"
	"slices"

	"github.com/itchyny/gojq"
)

// maxTransientObjects bounds how many objects built by a program keep
// their key order; older ones print with sorted keys. Objects read from the
// input are not bounded (they are held in memory anyway).
const maxTransientObjects = 1 << 16

// keyOrder remembers the key order of objects, so that they print in jq's
// insertion order although gojq's objects are Go maps, which have none.
// Objects are recorded when read from JSON text, when built by an object
// construction such as {name, id} (see orderObjects) and by from_entries;
// objects that gojq changes (.a = 1, del, +) are new maps and print with
// sorted keys.
//
// Objects are identified by address and the table does not keep them
// alive, so that it costs little memory; a recorded order is used only if
// the object has exactly the recorded keys, so a map that reuses a dead
// object's address can at worst print its keys in that object's order.
type keyOrder struct {
	objs      map[uintptr][]string
	transient []uintptr // FIFO of the recorded objects built by the program
	next      int
}

// newKeyOrder returns an empty keyOrder.
func newKeyOrder() *keyOrder {
	return &keyOrder{objs: map[uintptr][]string{}}
}

// record remembers the key order of an object read from JSON text.
func (k *keyOrder) record(obj map[string]any, keys []string) {
	if k == nil || len(keys) < 2 {
		return
	}
	k.objs[reflect.ValueOf(obj).Pointer()] = keys
}

// recordTransient remembers the key order of an object built by the
// program, forgetting the oldest such object beyond maxTransientObjects.
func (k *keyOrder) recordTransient(obj map[string]any, keys []string) {
	if k == nil || len(keys) < 2 {
		return
	}
	p := reflect.ValueOf(obj).Pointer()
	if _, ok := k.objs[p]; !ok {
		if len(k.transient) < maxTransientObjects {
			k.transient = append(k.transient, p)
		} else {
			delete(k.objs, k.transient[k.next])
			k.transient[k.next] = p
			k.next = (k.next + 1) % maxTransientObjects
		}
	}
	k.objs[p] = keys
}

// keys returns the recorded key order of obj, if it is a recorded object
// that still has exactly the recorded keys.
func (k *keyOrder) keys(obj map[string]any) ([]string, bool) {
	if k == nil {
		return nil, false
	}
	keys, ok := k.objs[reflect.ValueOf(obj).Pointer()]
	if !ok || len(keys) != len(obj) {
		return nil, false
	}
	for _, key := range keys {
		if _, ok := obj[key]; !ok {
			return nil, false
		}
	}
	return keys, true
}

// orderedKeys returns obj's keys in recorded order, or sorted.
func (k *keyOrder) orderedKeys(obj map[string]any) []string {
	if keys, ok := k.keys(obj); ok {
		return keys
	}
	keys := make([]string, 0, len(obj))
	for key := range obj {
		keys = append(keys, key)
	}
	slices.Sort(keys)
	return keys
}

// Names of the functions that the rewritten program calls.
const (
	jqOrderFunc       = "_cordon_object_order"
	jqKeysFunc        = "_cordon_keys_unsorted"
	jqFromEntriesFunc = "_cordon_from_entries"
)

// jqOrderPrelude redefines the builtins whose output order depends on
// insertion order in terms of the order-aware functions, and adds the jq
// 1.7 builtins that gojq lacks.
const jqOrderPrelude = `def keys_unsorted: ` + jqKeysFunc + `;
def to_entries: [keys_unsorted[] as $k | {key: $k, value: .[$k]}];
def from_entries: ` + jqFromEntriesFunc + `;
def with_entries(f): to_entries | map(f) | from_entries;
def leaf_paths: paths(scalars);
def recurse_down: recurse;
def have_decnum: false;
def have_literal_numbers: true;
.`

// orderObjects rewrites q so that each object construction records its key
// order: {a: 1, (.k): 2} becomes ({a: 1, (.k): 2} | _cordon_object_order(
// "[\"a\",null]")), where null stands for a key computed at run time. It
// also adds the definitions of jqOrderPrelude.
func orderObjects(q *gojq.Query) error {
	prelude, err := gojq.Parse(jqOrderPrelude)
	if err != nil {
		return err
	}
	walkTerms(reflect.ValueOf(q))
	q.FuncDefs = append(prelude.FuncDefs, q.FuncDefs...)
	return nil
}

// termType is the type of the AST nodes that orderObjects rewrites.
var termType = reflect.TypeFor[*gojq.Term]()

// walkTerms rewrites the object constructions below v, innermost first.
func walkTerms(v reflect.Value) {
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() {
			return
		}
		walkTerms(v.Elem())
		if v.Type() == termType {
			wrapObject(v.Interface().(*gojq.Term))
		}
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			if v.Type().Field(i).IsExported() {
				walkTerms(v.Field(i))
			}
		}
	case reflect.Slice:
		for i := 0; i < v.Len(); i++ {
			walkTerms(v.Index(i))
		}
	}
}

// wrapObject rewrites one object construction term in place.
func wrapObject(t *gojq.Term) {
	if t.Type != gojq.TermTypeObject || t.Object == nil || len(t.Object.KeyVals) < 2 {
		return
	}
	keys := make([]*string, 0, len(t.Object.KeyVals))
	for _, kv := range t.Object.KeyVals {
		var key *string
		switch {
		case kv.Key != "" && kv.Key[0] == '$':
			if kv.Val == nil {
				k := kv.Key[1:]
				key = &k
			}
		case kv.Key != "":
			k := kv.Key
			key = &k
		case kv.KeyString != nil && kv.KeyString.Queries == nil:
			k := kv.KeyString.Str
			key = &k
		}
		keys = append(keys, key)
	}
	spec, _ := json.Marshal(keys)
	inner := *t
	inner.SuffixList = nil
	*t = gojq.Term{
		Type: gojq.TermTypeQuery,
		Query: &gojq.Query{
			Left: &gojq.Query{Term: &inner},
			Op:   gojq.OpPipe,
			Right: &gojq.Query{Term: &gojq.Term{Type: gojq.TermTypeFunc, Func: &gojq.Func{
				Name: jqOrderFunc,
				Args: []*gojq.Query{{Term: &gojq.Term{Type: gojq.TermTypeString, Str: &gojq.String{Str: string(spec)}}}},
			}}},
		},
		SuffixList: t.SuffixList,
	}
}

// orderFunctions returns the compiler options that define the
// order-aware functions, which use the key order that cur returns.
func orderFunctions(cur func() *keyOrder) []gojq.CompilerOption {
	type parsedSpec struct {
		keys   []*string
		static []string // the keys when all are static and distinct
	}
	specs := map[string]*parsedSpec{}
	return []gojq.CompilerOption{
		gojq.WithFunction(jqOrderFunc, 1, 1, func(v any, args []any) any {
			obj, ok := v.(map[string]any)
			spec, _ := args[0].(string)
			if !ok || len(obj) < 2 {
				return v
			}
			ps, ok := specs[spec]
			if !ok {
				ps = &parsedSpec{}
				json.Unmarshal([]byte(spec), &ps.keys)
				for _, key := range ps.keys {
					if key == nil || slices.Contains(ps.static, *key) {
						ps.static = nil
						break
					}
					ps.static = append(ps.static, *key)
				}
				specs[spec] = ps
			}
			cur().recordTransient(obj, constructionOrder(obj, ps.keys, ps.static))
			return v
		}),
		gojq.WithFunction(jqKeysFunc, 0, 0, func(v any, _ []any) any {
			obj, ok := v.(map[string]any)
			if !ok {
				return gojqKeys(v)
			}
			keys := cur().orderedKeys(obj)
			out := make([]any, len(keys))
			for i, key := range keys {
				out[i] = key
			}
			return out
		}),
		gojq.WithFunction(jqFromEntriesFunc, 0, 0, func(v any, _ []any) any {
			return cur().fromEntries(v)
		}),
	}
}

// constructionOrder returns the keys of an object built by a construction
// whose static keys are spec (nil for computed keys): the computed keys,
// found at run time, fill the nil slots in sorted order. static is the
// shared key list of a construction without computed or repeated keys.
func constructionOrder(obj map[string]any, spec []*string, static []string) []string {
	if static != nil && len(static) == len(obj) {
		return static
	}
	statics := map[string]bool{}
	for _, s := range spec {
		if s != nil {
			statics[*s] = true
		}
	}
	var computed []string
	for key := range obj {
		if !statics[key] {
			computed = append(computed, key)
		}
	}
	slices.Sort(computed)
	keys := make([]string, 0, len(obj))
	seen := map[string]bool{}
	for _, s := range spec {
		var key string
		switch {
		case s != nil:
			key = *s
		case len(computed) > 0:
			key, computed = computed[0], computed[1:]
		default:
			continue
		}
		if _, ok := obj[key]; ok && !seen[key] {
			seen[key] = true
			keys = append(keys, key)
		}
	}
	return append(keys, computed...)
}

// fromEntries implements from_entries, keeping the entries' order. It
// accepts the spellings of all jq versions: the key is .key, or else
// .k // .name // .Name // .K // .Key, converted with tojson unless it is a
// string; the value is .value, .Value or .v.
func (k *keyOrder) fromEntries(v any) any {
	arr, ok := v.([]any)
	if !ok {
		obj, isObj := v.(map[string]any)
		if !isObj {
			return &jqError{"Cannot iterate over " + typeErrorPreview(v)}
		}
		arr = make([]any, 0, len(obj))
		for _, key := range k.orderedKeys(obj) {
			arr = append(arr, obj[key])
		}
	}
	obj := make(map[string]any, len(arr))
	keys := make([]string, 0, len(arr))
	for _, e := range arr {
		entry, ok := e.(map[string]any)
		if !ok {
			return &jqError{"Cannot index " + gojq.TypeOf(e) + " with \"key\""}
		}
		key, ok := entry["key"]
		if !ok || key == nil {
			key = alternative(entry, "k", "name", "Name", "K", "Key")
		}
		name, isString := key.(string)
		if !isString {
			name = jqCompact(key)
		}
		val, ok := entry["value"]
		if !ok {
			if val, ok = entry["Value"]; !ok {
				val = entry["v"]
			}
		}
		if _, dup := obj[name]; !dup {
			keys = append(keys, name)
		}
		obj[name] = val
	}
	k.recordTransient(obj, keys)
	return obj
}

// alternative evaluates jq's .a // .b // ... on m: the first field that is
// neither null nor false, else the last one.
func alternative(m map[string]any, names ...string) any {
	for _, n := range names[:len(names)-1] {
		if v := m[n]; v != nil && v != false {
			return v
		}
	}
	return m[names[len(names)-1]]
}

// gojqKeys returns keys of a non-object value the way the keys builtin
// does (the indices of an array) or an error.
func gojqKeys(v any) any {
	if arr, ok := v.([]any); ok {
		out := make([]any, len(arr))
		for i := range arr {
			out[i] = i
		}
		return out
	}
	return &jqError{typeErrorPreview(v) + " has no keys"}
}

// jqError is a runtime error raised by the order-aware functions.
type jqError struct{ msg string }

// Error returns the message.
func (e *jqError) Error() string { return e.msg }

// typeErrorPreview describes a value in jq's error style: `number (1)`.
func typeErrorPreview(v any) string {
	s := jqCompact(v)
	if len(s) > 11 {
		s = s[:10] + "..."
	}
	return gojq.TypeOf(v) + " (" + s + ")"
}
