package jq

import (
	"encoding/json"
	"reflect"
	"slices"
	"weak"

	"github.com/itchyny/gojq"
)

// jqSweepAt is the number of objects built by a program whose key order
// is recorded before the first sweep of the dead ones.
const jqSweepAt = 4096

// keyOrder remembers the key order of objects, so that they print in jq's
// insertion order although gojq's objects are Go maps, which have none.
// Objects are recorded when read from JSON text, when built by an object
// construction such as {name, id} (see wrapObject), and by the functions
// that build objects (setpath and the assignments, del, +, *, add,
// from_entries, match, ...).
//
// Objects are identified by address. The table does not keep them alive:
// an object built by the program is held by a weak pointer, and the
// records of dead ones are swept when the table has doubled; an object
// read from the input is held in memory anyway, and its order is used
// only if the object has exactly the recorded keys, so a map that reuses
// a dead input object's address can at worst print its keys in that
// object's order.
type keyOrder struct {
	specs     map[string]*parsedSpec // the key specs of object constructions
	objs      map[uintptr]orderEntry
	transient []uintptr // the recorded objects built by the program
	sweepAt   int       // len(transient) at which to sweep
}

// orderEntry is the recorded key order of one object.
type orderEntry struct {
	keys []string
	// ref is the object, for one built by the program.
	ref weak.Pointer[byte]
}

// newKeyOrder returns an empty keyOrder.
func newKeyOrder() *keyOrder {
	return &keyOrder{objs: map[uintptr]orderEntry{}, sweepAt: jqSweepAt}
}

// record remembers the key order of an object read from JSON text.
func (k *keyOrder) record(obj map[string]any, keys []string) {
	if k == nil || len(keys) < 2 {
		return
	}
	p := reflect.ValueOf(obj).Pointer()
	if slices.IsSorted(keys) {
		// Sorted is the order of an object without a record.
		delete(k.objs, p)
		return
	}
	k.objs[p] = orderEntry{keys: keys}
}

// recordTransient remembers the key order of an object built by the
// program.
func (k *keyOrder) recordTransient(obj map[string]any, keys []string) {
	if k == nil || len(keys) < 2 {
		return
	}
	v := reflect.ValueOf(obj)
	p := v.Pointer()
	if slices.IsSorted(keys) {
		delete(k.objs, p)
		return
	}
	ptr := (*byte)(v.UnsafePointer())
	if e, ok := k.objs[p]; ok && e.ref.Value() == ptr {
		e.keys = keys
		k.objs[p] = e
		return
	}
	k.objs[p] = orderEntry{keys: keys, ref: weak.Make(ptr)}
	k.transient = append(k.transient, p)
	if len(k.transient) >= k.sweepAt {
		k.sweep()
	}
}

// sweep forgets the recorded objects built by the program that are dead.
func (k *keyOrder) sweep() {
	live := k.transient[:0]
	for _, p := range k.transient {
		e, ok := k.objs[p]
		switch {
		case !ok || e.ref == (weak.Pointer[byte]{}):
			// Recorded again as an input object, or forgotten.
		case e.ref.Value() == nil:
			delete(k.objs, p)
		default:
			live = append(live, p)
		}
	}
	clear(k.transient[len(live):])
	k.transient = live
	k.sweepAt = max(jqSweepAt, 2*len(live))
}

// keys returns the recorded key order of obj, if it is a recorded object
// that still has exactly the recorded keys.
func (k *keyOrder) keys(obj map[string]any) ([]string, bool) {
	if k == nil {
		return nil, false
	}
	e, ok := k.objs[reflect.ValueOf(obj).Pointer()]
	if !ok || len(e.keys) != len(obj) {
		return nil, false
	}
	if e.ref != (weak.Pointer[byte]{}) && e.ref.Value() == nil {
		return nil, false
	}
	for _, key := range e.keys {
		if _, ok := obj[key]; !ok {
			return nil, false
		}
	}
	return e.keys, true
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
				Name: "_cordon_object_order",
				Args: []*gojq.Query{{Term: &gojq.Term{Type: gojq.TermTypeString, Str: &gojq.String{Str: string(spec)}}}},
			}}},
		},
		SuffixList: t.SuffixList,
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

// fromEntries implements from_entries as jq 1.7 defines it, keeping the
// entries' order: map({(.key // .Key // .name // .Name): (if has("value")
// then .value else .Value end)}) | add | . // {}.
func (k *keyOrder) fromEntries(v any) any {
	entries, ok := k.values(v)
	if !ok {
		return &jqError{"Cannot iterate over " + typeErrorPreview(v)}
	}
	obj := make(map[string]any, len(entries))
	keys := make([]string, 0, len(entries))
	for _, e := range entries {
		var key, val any
		switch entry := e.(type) {
		case nil:
		case map[string]any:
			key = alternative(entry, "key", "Key", "name", "Name")
			if x, ok := entry["value"]; ok {
				val = x
			} else {
				val = entry["Value"]
			}
		default:
			return jqIndexError(e, "key")
		}
		name, ok := key.(string)
		if !ok {
			return &jqError{"Cannot use " + typeErrorPreview(key) + " as object key"}
		}
		if _, dup := obj[name]; !dup {
			keys = append(keys, name)
		}
		obj[name] = val
	}
	k.recordTransient(obj, keys)
	return obj
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
