package abi

import (
	"fmt"
	"reflect"
	"testing"
)

// filler sets every field of a message to a value of its own, so that a
// round trip shows a field that is not encoded or not decoded.
type filler struct{ n int }

func (f *filler) fill(v reflect.Value) {
	f.n++
	switch v.Kind() {
	case reflect.String:
		v.SetString(fmt.Sprintf("s%d", f.n))
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Uint8:
		v.SetUint(1) // a status or an op: 1 is valid for both
	case reflect.Uint16, reflect.Uint32, reflect.Uint64:
		v.SetUint(uint64(f.n))
	case reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64, reflect.Int:
		v.SetInt(int64(f.n))
	case reflect.Slice:
		s := reflect.MakeSlice(v.Type(), 2, 2)
		for i := range 2 {
			f.fill(s.Index(i))
		}
		v.Set(s)
	case reflect.Struct:
		for i := range v.NumField() {
			f.fill(v.Field(i))
		}
	case reflect.Pointer:
		p := reflect.New(v.Type().Elem())
		f.fill(p.Elem())
		v.Set(p)
	default:
		panic("filler: no value for a " + v.Type().String())
	}
}

// filled returns a T with every field set.
func filled[T any]() T {
	var v T
	(&filler{}).fill(reflect.ValueOf(&v).Elem())
	return v
}

// Every field of every message survives a round trip: a field added to a
// message (a limit the guest must know, say) but not to its encoder or
// decoder fails here, whether or not another test sets it.
func TestRoundTripEveryField(t *testing.T) {
	setup, exec, files := filled[Setup](), filled[Exec](), filled[[]File]()
	for _, r := range []*Request{
		{Op: OpSetup, Setup: &setup},
		{Op: OpExec, Exec: &exec},
		{Op: OpPutFiles, Files: files},
		{Op: OpGetFiles, Path: "/workspace/x"},
	} {
		got, err := DecodeRequest(EncodeRequest(nil, r))
		if err != nil || !reflect.DeepEqual(got, r) {
			t.Errorf("request op %d: %s, %v; want %s", r.Op, requestText(got), err, requestText(r))
		}
	}
	resp := filled[Response]()
	if got, err := DecodeResponse(EncodeResponse(nil, &resp)); err != nil || !reflect.DeepEqual(*got, resp) {
		t.Errorf("response: %+v, %v; want %+v", got, err, resp)
	}
	calls := filled[[]Call]()
	if got, err := DecodeCalls(EncodeCalls(nil, calls)); err != nil || !reflect.DeepEqual(got, calls) {
		t.Errorf("calls: %+v, %v; want %+v", got, err, calls)
	}
	resume := filled[Resume]()
	if got, err := DecodeResume(EncodeResume(nil, &resume)); err != nil || !reflect.DeepEqual(*got, resume) {
		t.Errorf("resume: %+v, %v; want %+v", got, err, resume)
	}
}

// requestText shows a request with its payload, not the payload's address.
func requestText(r *Request) string {
	if r == nil {
		return "nil"
	}
	switch {
	case r.Setup != nil:
		return fmt.Sprintf("setup %+v", *r.Setup)
	case r.Exec != nil:
		return fmt.Sprintf("exec %+v", *r.Exec)
	}
	return fmt.Sprintf("%+v", *r)
}
