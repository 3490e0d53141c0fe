package jsrt

import (
	"bytes"
	"errors"
	"math"
	"reflect"
	"strconv"

	"github.com/cordonhq/cordon/guest/internal/gojax"
	"github.com/dop251/goja"
)

// marshalParams returns the JSON of a tool call's parameters, obj, as
// JSON.stringify(obj) writes it. goja's own JSON.stringify was a fifth of
// the guest's side of a call in the guest profile (bench/guestprof): it
// wraps the value in a holder object, looks up toJSON on every object and
// formats numbers through strings. Here a plain object's properties of the
// common kinds (integers, finite numbers, ASCII strings, booleans, null,
// undefined) are written directly, in the order and with the escapes goja
// uses; every other value is written by goja's algorithm itself (see
// appendByGoja), and any object that is not plain, or that has a toJSON
// method or a key that is not ASCII, is left to goja whole.
//
// It can differ from JSON.stringify in one way only: an inherited or
// non-enumerable toJSON that is an accessor, and returns a function, has
// its getter run twice (here, then in goja's pass). The bytes are always
// JSON that goja wrote or that TestMarshalParamsMatchesStringify holds
// equal to what it writes, and the policy and the handler see the same
// bytes.
func (r *run) marshalParams(obj *goja.Object) ([]byte, error) {
	if b, ok := r.marshalOrdinary(obj); ok {
		return b, nil
	}
	if obj.ClassName() != "Object" || obj.ExportType() != mapType {
		// Arrays, functions, proxies, boxed primitives, dates, errors and
		// Go values: goja's algorithm.
		return obj.MarshalJSON()
	}
	var out []byte
	var err error
	if ex := r.rt.Try(func() { out, err = r.appendPlainObject(obj) }); ex != nil {
		return nil, ex
	}
	return out, err
}

// marshalOrdinary is marshalParams for the common case, without running
// script code and so without goja's exception handling: an ordinary object
// whose prototype is Object.prototype, neither having a toJSON, and whose
// own properties are data properties with ASCII keys and values of the
// kinds appendValue writes itself. ok is false for anything else, and
// marshalParams then starts over on its general path; nothing observable
// has happened.
func (r *run) marshalOrdinary(obj *goja.Object) (_ []byte, ok bool) {
	if !useGojax {
		return nil, false
	}
	// AppendOwnProps succeeds only for an ordinary object, which
	// plainPrototype may then ask for its prototype.
	props, ok := gojax.AppendOwnProps(r.props[:0], obj)
	var b []byte
	if ok && r.plainPrototype(obj) {
		b, ok = appendOrdinary(props)
	} else {
		ok = false
	}
	clear(props) // the scratch keeps no values alive
	r.props = props[:0]
	return b, ok
}

// appendOrdinary writes the JSON of an object with the properties props,
// when they are of the kinds marshalOrdinary takes.
func appendOrdinary(props []gojax.OwnData) (_ []byte, ok bool) {
	b := make([]byte, 1, 64)
	b[0] = '{'
	for _, p := range props {
		k := string(p.Key)
		if p.Accessor || k == "toJSON" || !isASCII(k) {
			return nil, false
		}
		if !p.Enumerable {
			continue
		}
		var mark int
		b, mark = appendKey(b, k)
		var wrote bool
		if b, wrote, ok = appendPrimitive(b, p.Value); !ok {
			return nil, false
		}
		if !wrote {
			b = b[:mark]
		}
	}
	return append(b, '}'), true
}

// appendKey appends to b, an object's JSON so far (from its '{'), the
// comma before a member that is not the first, and the member's key k and
// colon; mark is where the member starts, for a caller that then leaves it
// out.
func appendKey(b []byte, k string) (_ []byte, mark int) {
	mark = len(b)
	if mark > 1 {
		b = append(b, ',')
	}
	b = appendQuotedASCII(b, k)
	return append(b, ':'), mark
}

// plainPrototype reports whether obj, an ordinary object, has for its
// prototype the runtime's own Object.prototype, which has no toJSON and no
// prototype: then JSON.stringify finds no toJSON for obj. Nothing here runs
// script code (a proxy's traps would, and a proxy is not ordinary).
func (r *run) plainPrototype(obj *goja.Object) bool {
	if r.objectProto == nil {
		r.objectProto = r.rt.NewObject().Prototype()
		r.toJSONKey = r.rt.ToValue("toJSON")
	}
	if obj.Prototype() != r.objectProto || r.objectProto.Prototype() != nil {
		return false
	}
	p, ok := gojax.OwnProp(r.objectProto, r.toJSONKey)
	return ok && !p.Exists
}

// appendPrimitive appends the JSON of v when it is undefined (wrote false:
// the property is left out), null, a symbol (left out, though its
// ExportType is string), a number, a boolean or an ASCII string; ok is
// false for any other value (objects, other strings, BigInts), which goes
// to goja's algorithm.
func appendPrimitive(b []byte, v goja.Value) (_ []byte, wrote, ok bool) {
	if v == nil || goja.IsUndefined(v) {
		return b, false, true
	}
	if goja.IsNull(v) {
		return append(b, "null"...), true, true
	}
	switch v.(type) {
	case *goja.Object:
		return b, false, false
	case *goja.Symbol:
		return b, false, true
	}
	switch v.ExportType() {
	case int64Type:
		return strconv.AppendInt(b, v.ToInteger(), 10), true, true
	case float64Type:
		if f := v.ToFloat(); math.IsNaN(f) || math.IsInf(f, 0) {
			return append(b, "null"...), true, true
		}
		// JavaScript's Number::toString, as goja's stringify writes it.
		return append(b, v.String()...), true, true
	case boolType:
		return strconv.AppendBool(b, v.ToBoolean()), true, true
	case stringType:
		// An all-ASCII result means every UTF-16 unit was ASCII (a lone
		// surrogate would have become U+FFFD).
		if s := v.String(); isASCII(s) {
			return appendQuotedASCII(b, s), true, true
		}
	}
	return b, false, false
}

var (
	mapType     = reflect.TypeOf(map[string]any(nil))
	int64Type   = reflect.TypeOf(int64(0))
	float64Type = reflect.TypeOf(float64(0))
	stringType  = reflect.TypeOf("")
	boolType    = reflect.TypeOf(false)
)

// errHolderShape means goja's output for a one-property holder was not
// {"key":VALUE} or {}; it cannot happen with a null-prototype holder, and is
// an error rather than a guess if it does.
var errHolderShape = errors.New("unexpected JSON from a holder object")

func (r *run) appendPlainObject(obj *goja.Object) ([]byte, error) {
	// JSON.stringify reads toJSON, then the keys. Listing a plain object's
	// keys runs no script, so reading them first is not observable, and a
	// decision to leave the object to goja is made before any getter runs.
	keys := obj.Keys()
	for _, k := range keys {
		// An own toJSON would be the holder's toJSON in appendByGoja; a
		// non-ASCII key read as a Go string can name a different key.
		if k == "toJSON" || !isASCII(k) {
			return obj.MarshalJSON()
		}
	}
	if _, ok := goja.AssertFunction(obj.Get("toJSON")); ok {
		return obj.MarshalJSON()
	}
	b := make([]byte, 1, 64)
	b[0] = '{'
	for _, k := range keys {
		var mark int
		b, mark = appendKey(b, k)
		var wrote bool
		var err error
		if b, wrote, err = r.appendValue(b, k, obj.Get(k)); err != nil {
			return nil, err
		}
		if !wrote {
			b = b[:mark]
		}
	}
	return append(b, '}'), nil
}

// appendValue appends the JSON of v, the value of property key; wrote is
// false when JSON.stringify leaves the property out (undefined, functions,
// symbols).
func (r *run) appendValue(b []byte, key string, v goja.Value) (_ []byte, wrote bool, _ error) {
	if out, wrote, ok := appendPrimitive(b, v); ok {
		return out, wrote, nil
	}
	return r.appendByGoja(b, key, v)
}

// appendByGoja appends the JSON of v as goja's JSON.stringify writes the
// property key holding it: toJSON(key), nested objects, arrays, BigInt's
// TypeError, cycles and all. The holder has no prototype, so no toJSON of
// its own; appendPlainObject never passes the key "toJSON".
func (r *run) appendByGoja(b []byte, key string, v goja.Value) ([]byte, bool, error) {
	h := r.rt.NewObject()
	if err := h.SetPrototype(nil); err != nil {
		return nil, false, err
	}
	if err := h.DefineDataProperty(key, v, goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_TRUE); err != nil {
		return nil, false, err
	}
	j, err := h.MarshalJSON()
	if err != nil {
		return nil, false, err
	}
	if string(j) == "{}" {
		return b, false, nil
	}
	prefix := appendQuotedASCII([]byte{'{'}, key)
	prefix = append(prefix, ':')
	if len(j) < len(prefix)+2 || !bytes.HasPrefix(j, prefix) || j[len(j)-1] != '}' {
		return nil, false, errHolderShape
	}
	return append(b, j[len(prefix):len(j)-1]...), true, nil
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// appendQuotedASCII appends s, all ASCII, as a JSON string with the escapes
// goja's JSON.stringify uses.
func appendQuotedASCII(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 0x20 && c != '"' && c != '\\' {
			continue
		}
		b = append(b, s[start:i]...)
		switch c {
		case '"', '\\':
			b = append(b, '\\', c)
		case '\b':
			b = append(b, '\\', 'b')
		case '\t':
			b = append(b, '\\', 't')
		case '\n':
			b = append(b, '\\', 'n')
		case '\f':
			b = append(b, '\\', 'f')
		case '\r':
			b = append(b, '\\', 'r')
		default:
			b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xF])
		}
		start = i + 1
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}
