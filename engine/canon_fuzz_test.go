package engine_test

import (
	"bytes"
	"context"
	"encoding/json"
	"strconv"
	"sync"
	"testing"

	"github.com/cordonhq/cordon/dsl"
	"github.com/cordonhq/cordon/engine"
	"github.com/cordonhq/cordon/internal/canon"
	"github.com/cordonhq/cordon/policy"
	"github.com/cordonhq/cordon/policy/authz"
)

// fuzzParams is what a handler written docs/embedding.md's way decodes.
type fuzzParams struct {
	Amount   float64 `json:"amount"`
	Count    int64   `json:"count"`
	Currency string  `json:"currency"`
	Inner    struct {
		Limit float64 `json:"limit"`
	} `json:"inner"`
}

var (
	fuzzOnce     sync.Once
	fuzzPolicies [2]*policy.Policy
	fuzzErr      error
)

// fuzzPolicy constrains each field fuzzParams reads, decided in Go and by
// OPA.
func fuzzPolicy() ([2]*policy.Policy, error) {
	fuzzOnce.Do(func() {
		caps := []*dsl.Capability{dsl.Method("pay").Where(
			dsl.Param("amount").Le(1000), dsl.Param("amount").Gt(0),
			dsl.Param("count").Lt(10), dsl.Param("currency").In("USD", "EUR"),
			dsl.Param("inner/limit").Le(5))}
		for i, always := range []bool{false, true} {
			if fuzzPolicies[i], fuzzErr = policy.New(context.Background(), policy.Config{Capabilities: caps, AlwaysRego: always}); fuzzErr != nil {
				return
			}
		}
	})
	return fuzzPolicies, fuzzErr
}

// FuzzCanonicalParamsAgree: for any params, either the canonical form
// refuses them, or a struct decoder (engine.Func), a map decoder
// (float64 and json.Number) and both policy evaluators agree on every
// value the policy constrains; in particular the policy never allows a
// call whose handler would read a value outside the constraints.
func FuzzCanonicalParamsAgree(f *testing.F) {
	for _, s := range []string{
		`{"amount": 5, "currency": "USD", "count": 1, "inner": {"limit": 1}}`,
		`{"amount": 5, "currency": "USD", "AMOUNT": 999999, "Currency": "BTC", "count": 1, "inner": {"limit": 1}}`,
		`{"amount": 999.99999999999999999, "currency": "USD", "count": 1, "inner": {"limit": 1}}`,
		`{"amount": 1e-400, "currency": "USD", "count": 1, "inner": {"limit": 1}}`,
		`{"amount": 5, "currency": "USD", "count": 9.0, "inner": {"LIMIT": 100, "limit": 1}}`,
		`{"amount": 5, "currency": "USD", "count": 1, "inner": {"\u212aimit": 100, "limit": 1}}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		pols, err := fuzzPolicy()
		if err != nil {
			t.Fatal(err)
		}
		params, err := canon.Params(raw)
		if err != nil {
			return // refused: the call never reaches the policy or a handler
		}
		ctx := context.Background()
		in := &authz.Input{Method: "pay", Params: params}
		dGo, errGo := pols[0].Decide(ctx, in)
		dRego, errRego := pols[1].Decide(ctx, in)
		if dGo.Allow != dRego.Allow || (errGo == nil) != (errRego == nil) {
			t.Fatalf("the evaluators disagree on %s: Go %+v %v, Rego %+v %v", params, dGo, errGo, dRego, errRego)
		}
		var got fuzzParams
		handler := engine.Func(func(_ context.Context, p fuzzParams) (any, error) { got = p; return nil, nil })
		_, herr := handler(ctx, params)
		var asMap map[string]any
		if err := json.Unmarshal(params, &asMap); err != nil {
			t.Fatalf("canonical params %s do not decode: %v", params, err)
		}
		d := json.NewDecoder(bytes.NewReader(params))
		d.UseNumber()
		var asNumbers map[string]any
		if err := d.Decode(&asNumbers); err != nil {
			t.Fatal(err)
		}
		// The map readers agree with each other on every number.
		if a, ok := asMap["amount"].(float64); ok {
			n, _ := asNumbers["amount"].(json.Number)
			if f, err := strconv.ParseFloat(string(n), 64); err != nil || f != a {
				t.Fatalf("amount: float64 reader %v, json.Number %q", a, n)
			}
		}
		if !dGo.Allow {
			return
		}
		// Allowed: the handler reads exactly what the policy checked.
		if herr != nil {
			if _, isNum := asMap["count"].(float64); isNum {
				// A count that is not an integer fails to decode into
				// int64: the handler refuses; it never misreads.
				return
			}
			t.Fatalf("an allowed call's params %s do not decode: %v", params, herr)
		}
		if got.Amount != asMap["amount"] || got.Amount > 1000 || got.Amount <= 0 {
			t.Fatalf("allowed %s, but the handler reads amount %v", params, got.Amount)
		}
		if float64(got.Count) != asMap["count"] || got.Count >= 10 {
			t.Fatalf("allowed %s, but the handler reads count %v", params, got.Count)
		}
		if got.Currency != asMap["currency"] || (got.Currency != "USD" && got.Currency != "EUR") {
			t.Fatalf("allowed %s, but the handler reads currency %q", params, got.Currency)
		}
		inner, _ := asMap["inner"].(map[string]any)
		if got.Inner.Limit != inner["limit"] || got.Inner.Limit > 5 {
			t.Fatalf("allowed %s, but the handler reads inner.limit %v", params, got.Inner.Limit)
		}
	})
}
