package jq

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"reflect"
	"strconv"
	"testing"

	"github.com/cordonhq/cordon/shell/command"
)

// checkShortInt holds shortInt, the decoder's fast path for integers, to
// canonicalNumber's answer for the same token: when it takes a token it
// must give exactly the int canonicalNumber gives, and the decoder must
// decode the token as canonicalNumber does either way.
func checkShortInt(t *testing.T, tok string) {
	t.Helper()
	want, wantOK := canonicalNumber(tok)
	if n, ok := shortInt([]byte(tok)); ok {
		if !wantOK || !reflect.DeepEqual(any(n), want) {
			t.Fatalf("shortInt(%q) = %d, canonicalNumber gives %#v, %v", tok, n, want, wantOK)
		}
	}
	d := &jsonDecoder{data: []byte(tok)}
	got, ok, err := d.next()
	if wantOK && (err != nil || !ok || !(reflect.DeepEqual(got, want) || bothNaN(got, want))) {
		t.Fatalf("decoding %q gives %#v, %v, %v; want %#v", tok, got, ok, err, want)
	}
	if !wantOK && err == nil && tok != "null" && tok != "true" && tok != "false" && tok != "nan" && tok != "NaN" {
		t.Fatalf("decoding %q gives %#v, want an error", tok, got)
	}
}

// bothNaN reports whether a and b are both the float NaN, which
// reflect.DeepEqual never takes as equal (NaN literals such as "NAN" decode
// to it, as in jq 1.7).
func bothNaN(a, b any) bool {
	x, ok1 := a.(float64)
	y, ok2 := b.(float64)
	return ok1 && ok2 && math.IsNaN(x) && math.IsNaN(y)
}

func TestShortIntAgreesWithParseJSONNumber(t *testing.T) {
	for _, tok := range []string{
		"0", "7", "-7", "-0", "-00", "00", "007", "-007", "10", "3000",
		"999999999999999999", "-999999999999999999", // 18 digits: taken
		"1000000000000000000", "-1000000000000000000", // 19: declined
		"9223372036854775807", "-9223372036854775808", "9223372036854775808",
		"1.5", "1e3", "-", "--1", "1-", "+1", "0x10", "1_000", "١",
	} {
		if _, ok := shortInt([]byte(tok)); ok != (len(tok) > 0 && tok != "-0" && tok != "-00" && isShort(tok)) {
			t.Errorf("shortInt(%q) took it: %v", tok, ok)
		}
		checkShortInt(t, tok)
	}
	r := rand.New(rand.NewPCG(1, 2))
	const alphabet = "0123456789-+.eE"
	for range 20000 {
		b := make([]byte, 1+r.IntN(21))
		for i := range b {
			if r.IntN(4) == 0 {
				b[i] = alphabet[r.IntN(len(alphabet))]
			} else {
				b[i] = byte('0' + r.IntN(10))
			}
		}
		checkShortInt(t, string(b))
	}
}

// isShort reports whether tok is an optional minus and 1 to 18 digits.
func isShort(tok string) bool {
	if tok[0] == '-' {
		tok = tok[1:]
	}
	if len(tok) == 0 || len(tok) > 18 {
		return false
	}
	_, err := strconv.ParseUint(tok, 10, 64)
	return err == nil
}

func FuzzShortInt(f *testing.F) {
	for _, s := range []string{"0", "-0", "123", "-999999999999999999", "1e5", "00"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, tok string) {
		if len(tok) > 0 && isLiteralByteString(tok) {
			checkShortInt(t, tok)
		}
	})
}

// isLiteralByteString reports whether the decoder reads tok as one bare
// token (no JSON punctuation or space in it).
func isLiteralByteString(tok string) bool {
	for i := 0; i < len(tok); i++ {
		if !isLiteralByte(tok[i]) {
			return false
		}
	}
	return true
}

// asJQError answers as v.(error) does, for every kind of value gojq and the
// decoder hand over.
func TestAsJQErrorAgreesWithAssertion(t *testing.T) {
	for _, v := range []any{
		nil, true, false, 0, -7, 1.5, "", "s", []any{}, []any{1}, map[string]any{}, map[string]any{"a": 1},
		big.NewInt(1), command.ErrCanceled, &jsonError{msg: "x"}, errors.New("e"), fmt.Errorf("w: %w", command.ErrCanceled),
		json.Number("1"), struct{}{},
	} {
		want, wantOK := v.(error)
		got, gotOK := asJQError(v)
		if got != want || gotOK != wantOK {
			t.Errorf("asJQError(%#v) = %v, %v; v.(error) = %v, %v", v, got, gotOK, want, wantOK)
		}
	}
}
