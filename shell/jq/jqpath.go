package jq

import (
	"math"
	"reflect"
	"slices"

	"github.com/itchyny/gojq"
)

// getpath, setpath and delpaths with jq 1.7's semantics and messages (its
// jv_get, jv_set and jv_delpaths), keeping the key order of objects. The
// assignment operators (=, |=, +=, ...) are defined on them in the
// prelude, as jq defines them; within one assignment an allocator lets
// setpath change the containers that it made itself in place, as gojq's
// own assignment does, so that .[] |= f is linear.

// maxArrayIndex bounds the index that setpath extends an array to.
const maxArrayIndex = 1<<27 - 1

// jqAllocator is the set of containers made by one assignment.
type jqAllocator map[uintptr]struct{}

// owns reports whether v is a container made by the assignment.
func (a jqAllocator) owns(v any) bool {
	if a == nil {
		return false
	}
	switch v.(type) {
	case map[string]any, []any:
		_, ok := a[reflect.ValueOf(v).Pointer()]
		return ok
	}
	return false
}

// add records a container made by the assignment.
func (a jqAllocator) add(v any) {
	if a != nil {
		a[reflect.ValueOf(v).Pointer()] = struct{}{}
	}
}

// release forgets every container when v is one of them: v is handed to
// the program, which may keep it, so it must not change in place.
func (a jqAllocator) release(v any) {
	if a.owns(v) {
		clear(a)
	}
}

// jqIndexError is jq's message for indexing t with k.
func jqIndexError(t, k any) error {
	if s, ok := k.(string); ok && len(s) < 30 {
		return &jqError{"Cannot index " + gojq.TypeOf(t) + " with string \"" + s + "\""}
	}
	return &jqError{"Cannot index " + gojq.TypeOf(t) + " with " + gojq.TypeOf(k)}
}

// jqIndexInt converts an array index like jq: truncated, clamped to the
// range of a C int.
func jqIndexInt(f float64) int {
	if f < math.MinInt32 {
		return math.MinInt32
	}
	if f > math.MaxInt32 {
		return math.MaxInt32
	}
	return int(f)
}

// jqGet implements jq's jv_get: t[k].
func jqGet(t, k any) (any, error) {
	switch t := t.(type) {
	case map[string]any:
		if s, ok := k.(string); ok {
			return t[s], nil
		}
	case []any:
		switch k := k.(type) {
		case map[string]any:
			start, end, err := jqSliceBounds(len(t), k)
			if err != nil {
				return nil, err
			}
			return t[start:end], nil
		case []any:
			return jqArrayIndexes(t, k), nil
		}
		if f, ok := jqFloat(k); ok {
			if math.IsNaN(f) {
				return nil, nil
			}
			i := jqIndexInt(f)
			if i < 0 {
				i += len(t)
			}
			if i < 0 || i >= len(t) {
				return nil, nil
			}
			return t[i], nil
		}
	case string:
		if k, ok := k.(map[string]any); ok {
			runes := []rune(t)
			start, end, err := jqSliceBounds(len(runes), k)
			if err != nil {
				return nil, err
			}
			return string(runes[start:end]), nil
		}
	case nil:
		switch k.(type) {
		case string, map[string]any:
			return nil, nil
		}
		if jqIsNumber(k) {
			return nil, nil
		}
	}
	return nil, jqIndexError(t, k)
}

// jqSliceBounds implements jq's parse_slice for a container of length n.
func jqSliceBounds(n int, slice map[string]any) (int, int, error) {
	startV, endV := slice["start"], slice["end"]
	if startV == nil {
		startV = 0
	}
	if endV == nil {
		endV = n
	}
	ds, ok1 := jqFloat(startV)
	de, ok2 := jqFloat(endV)
	if !ok1 || !ok2 {
		return 0, 0, &jqError{"Array/string slice indices must be integers"}
	}
	l := float64(n)
	if math.IsNaN(ds) {
		ds = 0
	}
	if ds < 0 {
		ds += l
	}
	if ds < 0 {
		ds = 0
	}
	if ds > l {
		ds = l
	}
	start := int(ds)
	if math.IsNaN(de) {
		de = l
	}
	if de < 0 {
		de += l
	}
	if de < 0 {
		de = float64(start)
	}
	end := n
	if de < l {
		end = int(de)
		if float64(end) < de {
			end++
		}
	}
	if end > n {
		end = n
	}
	if end < start {
		end = start
	}
	return start, end, nil
}

// jqArrayIndexes implements .[array] on an array: the offsets of b in a.
func jqArrayIndexes(a, b []any) any {
	out := []any{}
	if len(b) == 0 {
		return out
	}
	for i := range a {
		if i+len(b) > len(a) {
			if !jqEqual(a[i], b[0]) {
				continue
			}
			// jq compares past the end with null elements.
			match := true
			for j := range b {
				var x any
				if i+j < len(a) {
					x = a[i+j]
				}
				if !jqEqual(x, b[j]) {
					match = false
					break
				}
			}
			if match {
				out = append(out, i)
			}
			continue
		}
		match := true
		for j := range b {
			if !jqEqual(a[i+j], b[j]) {
				match = false
				break
			}
		}
		if match {
			out = append(out, i)
		}
	}
	return out
}

// jqGetpath implements getpath(path).
func jqGetpath(v, p any) (any, error) {
	path, ok := p.([]any)
	if !ok {
		return nil, &jqError{"Path must be specified as an array"}
	}
	for _, k := range path {
		var err error
		if v, err = jqGet(v, k); err != nil {
			return nil, err
		}
	}
	return v, nil
}

// setpath sets path in root to value, like jq's jv_setpath.
func (k *keyOrder) setpath(a jqAllocator, root any, path []any, value any) (any, error) {
	if len(path) == 0 {
		return value, nil
	}
	key := path[0]
	sub, err := jqGet(root, key)
	if err != nil {
		return nil, err
	}
	nv, err := k.setpath(a, sub, path[1:], value)
	if err != nil {
		return nil, err
	}
	return k.set(a, root, key, nv)
}

// set implements jq's jv_set: t with t[key] = v.
func (k *keyOrder) set(a jqAllocator, t, key, v any) (any, error) {
	switch key := key.(type) {
	case string:
		switch t := t.(type) {
		case nil:
			m := map[string]any{key: v}
			a.add(m)
			return m, nil
		case map[string]any:
			if a.owns(t) {
				if _, exists := t[key]; !exists {
					k.appendKey(t, key)
				}
				t[key] = v
				return t, nil
			}
			if old, exists := t[key]; exists && sameValue(old, v) {
				return t, nil
			}
			m := make(map[string]any, len(t)+1)
			for kk, vv := range t {
				m[kk] = vv
			}
			keys := k.orderedKeys(t)
			if _, exists := t[key]; !exists {
				keys = append(slices.Clip(keys), key)
			}
			m[key] = v
			k.recordTransient(m, keys)
			a.add(m)
			return m, nil
		}
	case map[string]any:
		switch t := t.(type) {
		case nil, []any:
			arr, _ := t.([]any)
			start, end, err := jqSliceBounds(len(arr), key)
			if err != nil {
				return nil, err
			}
			ins, ok := v.([]any)
			if !ok {
				return nil, &jqError{"A slice of an array can only be assigned another array"}
			}
			out := make([]any, 0, len(arr)-(end-start)+len(ins))
			out = append(append(append(out, arr[:start]...), ins...), arr[end:]...)
			a.add(out)
			return out, nil
		case string:
			return nil, &jqError{"Cannot update string slices"}
		}
	default:
		f, isNum := jqFloat(key)
		arr, isArr := t.([]any)
		if isNum && (isArr || t == nil) {
			if math.IsNaN(f) {
				return nil, &jqError{"Cannot set array element at NaN index"}
			}
			i := jqIndexInt(f)
			if i < 0 {
				i += len(arr)
				if i < 0 {
					return nil, &jqError{"Out of bounds negative array index"}
				}
			}
			if i > maxArrayIndex {
				return nil, &jqError{"Array index too large"}
			}
			if i < len(arr) {
				if a.owns(arr) {
					arr[i] = v
					return arr, nil
				}
				if sameValue(arr[i], v) {
					return arr, nil
				}
				out := slices.Clone(arr)
				out[i] = v
				a.add(out)
				return out, nil
			}
			out := make([]any, i+1, max(i+1, 2*len(arr)))
			copy(out, arr)
			out[i] = v
			a.add(out)
			return out, nil
		}
	}
	return nil, &jqError{"Cannot update field at " + gojq.TypeOf(key) + " index of " + gojq.TypeOf(t)}
}

// sameValue reports whether two values are the same scalar or the same
// container, so that setting one over the other changes nothing.
func sameValue(a, b any) bool {
	switch a := a.(type) {
	case nil, bool, int, string:
		return a == b
	case map[string]any:
		b, ok := b.(map[string]any)
		return ok && reflect.ValueOf(a).Pointer() == reflect.ValueOf(b).Pointer() && len(a) == len(b)
	case []any:
		b, ok := b.([]any)
		return ok && len(a) == len(b) && (len(a) == 0 || &a[0] == &b[0])
	}
	return false
}

// appendKey records that key was added to the recorded object obj.
func (k *keyOrder) appendKey(obj map[string]any, key string) {
	keys := k.orderedKeys(obj)
	keys = append(slices.Clip(keys), key)
	k.recordTransient(obj, keys)
}

// delpaths implements jq's jv_delpaths.
func (k *keyOrder) delpaths(a jqAllocator, v any, ps any) (any, error) {
	paths, ok := ps.([]any)
	if !ok {
		return nil, &jqError{"Paths must be specified as an array"}
	}
	if len(paths) == 0 {
		return v, nil
	}
	paths = slices.Clone(paths)
	slices.SortStableFunc(paths, gojq.Compare)
	for _, p := range paths {
		if _, ok := p.([]any); !ok {
			return nil, &jqError{"Path must be specified as array, not " + gojq.TypeOf(p)}
		}
	}
	if len(paths[0].([]any)) == 0 {
		return nil, nil
	}
	return k.delpathsSorted(a, v, paths, 0)
}

// delpathsSorted deletes the sorted paths, which share their first start
// elements, from v.
func (k *keyOrder) delpathsSorted(a jqAllocator, v any, paths []any, start int) (any, error) {
	var delkeys []any
	for i := 0; i < len(paths); {
		key := paths[i].([]any)[start]
		j := i
		for j < len(paths) && jqEqual(key, paths[j].([]any)[start]) {
			j++
		}
		if len(paths[i].([]any)) == start+1 {
			delkeys = append(delkeys, key)
		} else {
			sub, err := jqGet(v, key)
			if err != nil {
				return nil, err
			}
			if sub != nil {
				nsub, err := k.delpathsSorted(a, sub, paths[i:j], start+1)
				if err != nil {
					return nil, err
				}
				if v, err = k.set(a, v, key, nsub); err != nil {
					return nil, err
				}
			}
		}
		i = j
	}
	return k.dels(v, delkeys)
}

// dels deletes the sorted keys from t, like jq's jv_dels.
func (k *keyOrder) dels(t any, keys []any) (any, error) {
	if t == nil || len(keys) == 0 {
		return t, nil
	}
	switch t := t.(type) {
	case []any:
		del := make([]bool, len(t))
		for _, key := range keys {
			switch key := key.(type) {
			case map[string]any:
				s, e, err := jqSliceBounds(len(t), key)
				if err != nil {
					return nil, err
				}
				for i := s; i < e; i++ {
					del[i] = true
				}
			default:
				f, ok := jqFloat(key)
				if !ok {
					return nil, &jqError{"Cannot delete " + gojq.TypeOf(key) + " element of array"}
				}
				i := jqIndexInt(f)
				if i < 0 {
					i += len(t)
				}
				if i >= 0 && i < len(t) {
					del[i] = true
				}
			}
		}
		out := make([]any, 0, len(t))
		for i, x := range t {
			if !del[i] {
				out = append(out, x)
			}
		}
		return out, nil
	case map[string]any:
		for _, key := range keys {
			if _, ok := key.(string); !ok {
				return nil, &jqError{"Cannot delete " + gojq.TypeOf(key) + " field of object"}
			}
		}
		out := make(map[string]any, len(t))
		for kk, vv := range t {
			out[kk] = vv
		}
		for _, key := range keys {
			delete(out, key.(string))
		}
		if len(out) == len(t) {
			return t, nil
		}
		order := make([]string, 0, len(out))
		for _, kk := range k.orderedKeys(t) {
			if _, ok := out[kk]; ok {
				order = append(order, kk)
			}
		}
		k.recordTransient(out, order)
		return out, nil
	}
	return nil, &jqError{"Cannot delete fields from " + gojq.TypeOf(t)}
}
