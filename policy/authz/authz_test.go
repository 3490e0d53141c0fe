package authz_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/cordonhq/cordon/dsl"
	"github.com/cordonhq/cordon/policy/authz"
)

func mustNew(t *testing.T, caps ...*dsl.Capability) *authz.CapabilityPolicy {
	t.Helper()
	p, err := authz.New(caps)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestNewRefusesInvalidCapabilities(t *testing.T) {
	_, err := authz.New([]*dsl.Capability{dsl.Method("ok"), dsl.Method("a//b"), dsl.Method("x").MaxCalls(-1)})
	if !errors.Is(err, dsl.ErrInvalid) || !strings.HasPrefix(err.Error(), "authz: ") || !strings.Contains(err.Error(), "capability 1") || !strings.Contains(err.Error(), "capability 2") {
		t.Errorf("err %v", err)
	}
}

func TestDecide(t *testing.T) {
	p := mustNew(t,
		dsl.Method("pay").Where(dsl.Param("amount").Le(100)).MaxCalls(1).Named("small"),
		dsl.Method("refund/*").Ask(),
	)
	ctx := context.Background()
	decide := func(method, params string, capCalls map[int]int) (authz.Decision, error) {
		return p.Decide(ctx, &authz.Input{Method: method, Params: json.RawMessage(params), CapabilityCalls: capCalls})
	}
	for _, tc := range []struct {
		method, params string
		calls          map[int]int
		want           authz.Decision
	}{
		{"pay", `{"amount": 100.0}`, nil, authz.Decision{Allow: true, Capability: 0}},
		{"pay", `{"amount": 100}`, map[int]int{0: 1}, authz.Decision{Capability: -1, Reasons: []string{`capability #0 "small": max_calls 1 used up`}}},
		{"pay", `{"amount": 101}`, nil, authz.Decision{Capability: -1, Reasons: []string{`capability #0 "small": amount <= 100 does not hold (amount is 101)`}}},
		{"refund/create", ``, nil, authz.Decision{Ask: true, Capability: 1, Reasons: []string{`capability #1 "refund/*" requires approval`}}},
		{"other", `{}`, nil, authz.Decision{Capability: -1, Reasons: []string{`no capability allows method "other"`}}},
	} {
		d, err := decide(tc.method, tc.params, tc.calls)
		if err != nil || !reflect.DeepEqual(d, tc.want) {
			t.Errorf("%s %s: %+v %v, want %+v", tc.method, tc.params, d, err, tc.want)
		}
	}
	// Params that cannot be put in canonical form, or that are not an
	// object, deny with an error.
	for params, want := range map[string]string{
		`{"amount": 5, "AMOUNT": 500}`: "param AMOUNT",
		`[1]`:                          "params",
		`{"amount": 1e400}`:            "param amount",
	} {
		d, err := decide("pay", params, nil)
		if err == nil || d.Allow || d.Ask || d.Capability != -1 || len(d.Reasons) != 1 || !strings.Contains(err.Error(), want) || !strings.HasPrefix(err.Error(), "authz: ") {
			t.Errorf("%s: %+v %v", params, d, err)
		}
	}
	if p.CapabilityName(0) != "small" || p.CapabilityName(1) != "#1 refund/*" || p.CapabilityName(2) != "" || p.CapabilityName(-1) != "" {
		t.Errorf("names %q %q", p.CapabilityName(0), p.CapabilityName(1))
	}
	if len(p.Capabilities()) != 2 || (*authz.CapabilityPolicy)(nil).Capabilities() != nil {
		t.Error("Capabilities")
	}
}

// The revision identifies what decides: the same capabilities give the
// same revision, and any change that can change a decision changes it.
func TestRevision(t *testing.T) {
	base := func() *dsl.Capability { return dsl.Method("pay").Where(dsl.Param("amount").Le(100)) }
	r := mustNew(t, base()).Revision()
	if len(r) != 12 || mustNew(t, base()).Revision() != r {
		t.Fatalf("revision %q is not stable", r)
	}
	seen := map[string]bool{r: true}
	for i, caps := range [][]*dsl.Capability{
		{dsl.Method("pay").Where(dsl.Param("amount").Le(101))},
		{dsl.Method("pay/*").Where(dsl.Param("amount").Le(100))},
		{base().MaxCalls(3)},
		{base().Ask()},
		{base().Named("x")},
		{base(), dsl.Method("x")},
		{},
	} {
		rev := mustNew(t, caps...).Revision()
		if seen[rev] {
			t.Errorf("case %d: revision %q seen before", i, rev)
		}
		seen[rev] = true
	}
}

func ExampleNew() {
	pol, err := authz.New([]*dsl.Capability{
		dsl.Method("stripe/charges/*").Where(dsl.Param("amount").Le(100)).MaxCalls(10),
	})
	if err != nil {
		panic(err)
	}
	d, _ := pol.Decide(context.Background(), &authz.Input{Method: "stripe/charges/create", Params: json.RawMessage(`{"amount": 500}`)})
	fmt.Println(d.Allow, d.Reasons)
	// Output: false [capability #0 "stripe/charges/*": amount <= 100 does not hold (amount is 500)]
}
