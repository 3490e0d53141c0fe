package authz

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/big"
	"strconv"
)

// maxParamDepth bounds the nesting of a call's params, as package policy
// bounds them for OPA: the same params are refused by both evaluators.
const maxParamDepth = 256

// maxBinaryExp bounds the binary exponent of a number in the params: OPA
// refuses a number whose exponent is outside it (it would make [big.Float]
// arithmetic slow), so this evaluator refuses it too.
const maxBinaryExp = 100000

// decodeParams decodes a call's params as the Rego path sees them: an
// object, {} when empty, numbers kept as their JSON text.
func decodeParams(b []byte) (any, error) {
	if len(bytes.TrimSpace(b)) == 0 {
		return map[string]any{}, nil
	}
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		return nil, err
	}
	if _, err := d.Token(); !errors.Is(err, io.EOF) {
		return nil, errors.New("unexpected text after the params")
	}
	if _, ok := v.(map[string]any); !ok {
		return nil, fmt.Errorf("params are %s, not an object", jsonKind(v))
	}
	if err := checkNumbers(v, 0); err != nil {
		return nil, err
	}
	return v, nil
}

// checkNumbers refuses what OPA's input reader refuses: numbers with an
// out-of-range exponent, so that both evaluators deny such params alike.
func checkNumbers(v any, depth int) error {
	if depth > maxParamDepth {
		return fmt.Errorf("params are nested more than %d levels deep", maxParamDepth)
	}
	switch v := v.(type) {
	case json.Number:
		return checkNumber(string(v))
	case []any:
		for _, e := range v {
			if err := checkNumbers(e, depth+1); err != nil {
				return err
			}
		}
	case map[string]any:
		for _, e := range v {
			if err := checkNumbers(e, depth+1); err != nil {
				return err
			}
		}
	}
	return nil
}

// checkNumber refuses a JSON number whose binary exponent is outside
// ±maxBinaryExp (or that is infinite). Only a number with an exponent can
// be that large or small; one whose decimal exponent and digits are
// small enough is accepted without arithmetic, since a decimal digit
// takes at most 4 bits.
func checkNumber(s string) error {
	e := bytes.IndexAny([]byte(s), "eE")
	if e < 0 {
		return nil
	}
	if exp, err := strconv.Atoi(s[e+1:]); err == nil && e+max(exp, -exp) <= maxBinaryExp/4 {
		return nil
	}
	f, ok := new(big.Float).SetString(s)
	if !ok {
		return errors.New("invalid number: invalid float")
	}
	if exp := f.MantExp(nil); exp > maxBinaryExp || exp < -maxBinaryExp || f.IsInf() {
		return errors.New("invalid number: number too big")
	}
	return nil
}

func jsonKind(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case json.Number:
		return "number"
	case string:
		return "string"
	case []any:
		return "array"
	}
	return "object"
}
