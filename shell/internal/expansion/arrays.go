package expansion

import (
	"slices"
	"sort"

	"mvdan.cc/sh/v3/expand"
)

// The helpers of indexed arrays, which the shell shares for its
// assignments and builtins.

// ArrayItems returns the indexes and the values of an indexed array, in
// order of index, as copies. A set string variable is an array of one
// element, 0; anything else has none.
func ArrayItems(v expand.Variable) ([]int, []string) {
	switch v.Kind {
	case expand.Indexed:
		if v.Indexes != nil {
			return slices.Clone(v.Indexes), slices.Clone(v.List)
		}
		idx := make([]int, len(v.List))
		for i := range idx {
			idx[i] = i
		}
		return idx, slices.Clone(v.List)
	case expand.String:
		if v.Set {
			return []int{0}, []string{v.Str}
		}
	}
	return nil, nil
}

// MakeIndexed returns a set indexed array of the values vals at the
// sorted indexes idx.
func MakeIndexed(idx []int, vals []string) expand.Variable {
	dense := true
	for i, n := range idx {
		if n != i {
			dense = false
			break
		}
	}
	v := expand.Variable{Set: true, Kind: expand.Indexed, List: vals}
	if !dense {
		v.Indexes = idx
	}
	if v.List == nil {
		v.List = []string{}
	}
	return v
}

// SetItem sets element n of the array idx, vals to s, keeping idx sorted,
// and returns the array.
func SetItem(idx []int, vals []string, n int, s string) ([]int, []string) {
	i := sort.SearchInts(idx, n)
	if i < len(idx) && idx[i] == n {
		vals[i] = s
		return idx, vals
	}
	idx = slices.Insert(idx, i, n)
	vals = slices.Insert(vals, i, s)
	return idx, vals
}

// vstr returns a set string variable.
func vstr(s string) expand.Variable {
	return expand.Variable{Set: true, Kind: expand.String, Str: s}
}

// AssocSet sets key in the associative array v to val. v.List, which an
// associative array does not otherwise use, keeps the keys in order of
// insertion: bash lists the keys that share a bucket of its hash table
// most recent first. A key deleted and set again is appended again; the
// last time counts.
func AssocSet(v *expand.Variable, key, val string) {
	if v.Map == nil {
		v.Map = map[string]string{}
	}
	if _, ok := v.Map[key]; !ok {
		if len(v.List) > 2*len(v.Map)+16 {
			v.List = compactKeys(v.List, v.Map)
		}
		v.List = append(v.List, key)
	}
	v.Map[key] = val
	v.Set = true
}

// AssocDelete removes key from the associative array v.
func AssocDelete(v *expand.Variable, key string) {
	delete(v.Map, key)
}

// compactKeys returns the order of insertion list without the keys that
// are no longer in m, each at its last place.
func compactKeys(list []string, m map[string]string) []string {
	last := make(map[string]int, len(m))
	for i, k := range list {
		if _, ok := m[k]; ok {
			last[k] = i
		}
	}
	out := make([]string, 0, len(last))
	for i, k := range list {
		if last[k] == i {
			if _, ok := m[k]; ok {
				out = append(out, k)
			}
		}
	}
	return out
}
