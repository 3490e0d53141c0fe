package jsrt

import (
	"slices"

	"github.com/dop251/goja"
)

// lazyObject is a goja DynamicObject whose properties, fixed keys in a fixed
// order, are built the first time a script reads them. fs (28 functions)
// and console (8) are lazyObjects: building all of their functions up front
// cost more than running `return 1`, for scripts that use one or two.
//
// To a script the properties look like an ordinary object's own, writable,
// enumerable, configurable data properties, in the same order every run.
// Assigning keeps a key's place, deleting removes it, and a new key (or one
// deleted before) goes last, as on an ordinary object. What a
// DynamicObject cannot do is become non-extensible or hold a read-only or
// accessor property: Object.freeze, Object.seal, Object.preventExtensions
// and such defineProperty calls throw a TypeError.
type lazyObject struct {
	self    *goja.Object
	keys    []string
	build   func(key string) goja.Value
	made    map[string]goja.Value // properties built so far
	user    map[string]goja.Value // values a script assigned
	extra   []string              // keys a script added, in insertion order
	deleted map[string]bool       // keys a script deleted
}

// newLazyObject returns an object with keys whose values build makes on
// first read.
func (r *run) newLazyObject(keys []string, build func(key string) goja.Value) *goja.Object {
	o := &lazyObject{keys: keys, build: build}
	o.self = r.rt.NewDynamicObject(o)
	return o.self
}

// own reports whether key is one of the fixed keys, not deleted.
func (o *lazyObject) own(key string) bool {
	return !o.deleted[key] && slices.Contains(o.keys, key)
}

// Get implements goja.DynamicObject.
func (o *lazyObject) Get(key string) goja.Value {
	if v, ok := o.user[key]; ok {
		return v
	}
	if v, ok := o.made[key]; ok && !o.deleted[key] {
		return v
	}
	if !o.own(key) {
		return nil
	}
	v := o.build(key)
	if o.made == nil {
		o.made = map[string]goja.Value{}
	}
	o.made[key] = v
	return v
}

// Has implements goja.DynamicObject.
func (o *lazyObject) Has(key string) bool {
	_, ok := o.user[key]
	return ok || o.own(key)
}

// Set implements goja.DynamicObject.
func (o *lazyObject) Set(key string, v goja.Value) bool {
	if o.user == nil {
		o.user = map[string]goja.Value{}
	}
	if _, ok := o.user[key]; !ok && !o.own(key) {
		o.extra = append(o.extra, key)
	}
	o.user[key] = v
	return true
}

// Delete implements goja.DynamicObject.
func (o *lazyObject) Delete(key string) bool {
	if i := slices.Index(o.extra, key); i >= 0 {
		o.extra = slices.Delete(o.extra, i, i+1)
		delete(o.user, key)
		return true
	}
	if o.own(key) {
		if o.deleted == nil {
			o.deleted = map[string]bool{}
		}
		o.deleted[key] = true
		delete(o.user, key)
	}
	return true
}

// Keys implements goja.DynamicObject.
func (o *lazyObject) Keys() []string {
	keys := make([]string, 0, len(o.keys)+len(o.extra))
	for _, k := range o.keys {
		if !o.deleted[k] {
			keys = append(keys, k)
		}
	}
	return append(keys, o.extra...)
}
