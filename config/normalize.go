package config

import (
	"reflect"
	"strings"
)

// dropEmpty sets every empty list or map of v (a pointer to a struct),
// at any depth, whose key is marked omitempty to nil. Such a key is left
// out when the config is marshaled, so an empty value must mean what an
// absent one means; keeping one form of each makes a config that is
// marshaled and loaded again equal to the one it came from. Keys whose
// empty value means something (capabilities: [] allows nothing) are
// marked omitzero instead and keep it.
func dropEmpty(v reflect.Value) {
	switch v.Kind() {
	case reflect.Pointer:
		if !v.IsNil() {
			dropEmpty(v.Elem())
		}
	case reflect.Slice:
		if v.Type().Elem().Kind() == reflect.Struct || v.Type().Elem().Kind() == reflect.Pointer {
			for i := range v.Len() {
				dropEmpty(v.Index(i))
			}
		}
	case reflect.Struct:
		t := v.Type()
		for i := range t.NumField() {
			f := t.Field(i)
			if !f.IsExported() {
				continue
			}
			fv := v.Field(i)
			tag := f.Tag.Get("json")
			if (fv.Kind() == reflect.Slice || fv.Kind() == reflect.Map) && !fv.IsNil() && fv.Len() == 0 &&
				strings.Contains(tag, ",omitempty") && fv.CanSet() {
				fv.SetZero()
				continue
			}
			dropEmpty(fv)
		}
	}
}
