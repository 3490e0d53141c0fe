package dsl_test

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/cordonhq/cordon/dsl"
)

// MethodCases are shared with the Rego agreement test in policy/compile
// (by copy: test files cannot be imported); keep both in sync.
var methodCases = []struct {
	pattern, method string
	want            bool
}{
	{"stripe/charges/*", "stripe/charges/create", true},
	{"stripe/charges/*", "stripe/charges", false},
	{"stripe/charges/*", "stripe/charges/a/b", false},
	{"stripe/*", "stripe/charges/create", false},
	{"stripe/**", "stripe", true},
	{"stripe/**", "stripe/charges", true},
	{"stripe/**", "stripe/charges/create", true},
	{"stripe/**", "stripeX", false},
	{"stripe/**", "xstripe/a", false},
	{"**/create", "create", true},
	{"**/create", "a/create", true},
	{"**/create", "a/b/create", true},
	{"**/create", "a/recreate", false},
	{"a/**/b", "a/b", true},
	{"a/**/b", "a/x/b", true},
	{"a/**/b", "a/x/y/b", true},
	{"a/**/b", "a/xb", false},
	{"a/**/b", "ab", false},
	{"**", "anything/at/all", true},
	{"*", "one", true},
	{"*", "one/two", false},
	{"db/read_*", "db/read_rows", true},
	{"db/read_*", "db/write_rows", false},
	{"db/read_*", "db/read_/x", false},
	{"fs/{read,write}", "fs/write", true},
	{"fs/{read,write}", "fs/delete", false},
	{"fs/?at", "fs/cat", true},
	{"fs/[a-c]at", "fs/dat", false},
	{"mail.send", "mail.send", true},
	{"mail.send", "mailXsend", false},
	{`lit/\*`, "lit/*", true},
	{`lit/\*`, "lit/x", false},
	{"a/**/b/**", "a/b", true},
	{"a/**/b/**", "a/x/b/y/z", true},
	{"a/**/b/**", "a/x/c", false},
}

func TestMatchMethod(t *testing.T) {
	for _, tc := range methodCases {
		got, err := dsl.MatchMethod(tc.pattern, tc.method)
		if err != nil || got != tc.want {
			t.Errorf("MatchMethod(%q, %q) = %v, %v; want %v", tc.pattern, tc.method, got, err, tc.want)
		}
	}
	if _, err := dsl.MatchMethod("a**", "a"); !errors.Is(err, dsl.ErrInvalid) && err == nil {
		t.Errorf("MatchMethod(a**): no error")
	}
}

func TestBuilderProblems(t *testing.T) {
	c := dsl.Method("stripe/**x").
		Where(dsl.Param("amount").Le(true), dsl.Param("").Exists(), dsl.AnyOf(), dsl.Param("x").Eq(make(chan int))).
		MaxCalls(-1)
	err := c.Validate()
	if err == nil {
		t.Fatal("no error")
	}
	for _, want := range []string{
		`dsl: capability "stripe/**x": method pattern "stripe/**x": "**" must be a whole segment`,
		`dsl: capability "stripe/**x": max_calls must not be negative, got -1`,
		`dsl: capability "stripe/**x": constraint 0 "amount <= true": <= needs a number or a string, not true`,
		`constraint 1 "\"\" exists": the parameter path is empty`,
		`constraint 2 "any_of()": any_of needs at least one constraint`,
		`constraint 3 "x == null": value is not JSON: unsupported type: chan int`,
	} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q\nwant it to contain %q", err, want)
		}
	}
	if !errors.Is(err, dsl.ErrInvalid) {
		t.Error("not ErrInvalid")
	}
	var e *dsl.Error
	if !errors.As(err, &e) || e.Capability != -1 || e.Method != "stripe/**x" {
		t.Errorf("errors.As: %#v", e)
	}
	err = dsl.Validate([]*dsl.Capability{dsl.Method("ok"), c})
	if !errors.As(err, &e) || e.Capability != 1 || !strings.HasPrefix(err.Error(), `dsl: capability 1 ("stripe/**x"): `) {
		t.Errorf("Validate: %v", err)
	}
	// Literal constraints must be normalized.
	err = dsl.Constraint{Op: dsl.OpLe, Param: "a", Value: 5}.Validate()
	if err == nil || !strings.Contains(err.Error(), "not normalized") {
		t.Errorf("unnormalized value: %v", err)
	}
	err = dsl.Constraint{Op: "~", Param: "a"}.Validate()
	if err == nil || !strings.Contains(err.Error(), `unknown operator "~"`) {
		t.Errorf("unknown op: %v", err)
	}
}

func TestAccessors(t *testing.T) {
	c := dsl.Method("m/*").Where(dsl.Param("a").Exists()).MaxCalls(3).Named("n").Ask().Describe("d")
	if c.Pattern() != "m/*" || len(c.Constraints()) != 1 || c.CallLimit() != 3 || c.Name() != "n" || !c.Asks() || c.Description() != "d" || c.Label() != "n" {
		t.Errorf("accessors: %#v", c)
	}
	if dsl.Method("m/*").Label() != "m/*" {
		t.Error("Label without a name")
	}
}

func TestQuoteIsSafe(t *testing.T) {
	for _, s := range []string{"a\nb", "a\u2028b", "a\rb", "\x00\x7f\u0085", "\xff", "😀", `"\`} {
		q := dsl.Quote(s)
		if strings.ContainsAny(q, "\n\r\u2028\u2029\x00\x7f\u0085") {
			t.Errorf("Quote(%q) = %q holds a raw control character", s, q)
		}
		var back string
		if err := json.Unmarshal([]byte(q), &back); err != nil || (back != s && s != "\xff") {
			t.Errorf("Quote(%q) = %q does not decode back: %q, %v", s, q, back, err)
		}
	}
}

type allowsCase struct {
	name     string
	c        dsl.Constraint
	params   string // JSON
	want     bool
	violates string // the reason when !want
}

var allowsCases = []allowsCase{
	{"le ok", dsl.Param("amount").Le(10000), `{"amount": 10000}`, true, ""},
	{"le big", dsl.Param("amount").Le(10000), `{"amount": 20000}`, false, "amount <= 10000 does not hold (amount is 20000)"},
	{"le missing", dsl.Param("amount").Le(10000), `{}`, false, "amount <= 10000 does not hold (amount is missing)"},
	{"le null", dsl.Param("amount").Le(10000), `{"amount": null}`, false, "amount <= 10000 does not hold (amount is null)"},
	{"le string", dsl.Param("amount").Le(10000), `{"amount": "5"}`, false, `amount <= 10000 does not hold (amount is "5")`},
	{"ge string", dsl.Param("amount").Ge(100), `{"amount": "abc"}`, false, `amount >= 100 does not hold (amount is "abc")`},
	{"lt float", dsl.Param("amount").Lt(1.5), `{"amount": 1.4999}`, true, ""},
	{"gt equal", dsl.Param("amount").Gt(1), `{"amount": 1.0}`, false, "amount > 1 does not hold (amount is 1.0)"},
	{"ge date string", dsl.Param("created_at").Ge("2026-01-01"), `{"created_at": "2026-01-01T00:00:00Z"}`, true, ""},
	{"ge date string equal", dsl.Param("created_at").Ge("2026-01-01"), `{"created_at": "2026-01-01"}`, true, ""},
	{"ge date string before", dsl.Param("created_at").Ge("2026-01-01"), `{"created_at": "2025-12-31"}`, false,
		`created_at >= "2026-01-01" does not hold (created_at is "2025-12-31")`},
	{"lt string prefix", dsl.Param("s").Lt("ab"), `{"s": "a"}`, true, ""},
	{"lt string case", dsl.Param("s").Lt("a"), `{"s": "Z"}`, true, ""},
	{"gt string code points", dsl.Param("s").Gt("\uffff"), `{"s": "\ud83d\ude00"}`, true, ""},
	{"le string code points", dsl.Param("s").Le("z"), `{"s": "\u00e9"}`, false, `s <= "z" does not hold (s is "é")`},
	{"le string vs number", dsl.Param("s").Le("m"), `{"s": 5}`, false, `s <= "m" does not hold (s is 5)`},
	{"le string vs numeric string", dsl.Param("n").Le(10), `{"n": "9"}`, false, `n <= 10 does not hold (n is "9")`},
	{"gt string vs array", dsl.Param("s").Gt(""), `{"s": ["a"]}`, false, `s > "" does not hold (s is ["a"])`},
	{"gt string null", dsl.Param("s").Gt(""), `{"s": null}`, false, `s > "" does not hold (s is null)`},
	{"eq number", dsl.Param("n").Eq(1), `{"n": 1.0}`, true, ""},
	{"eq string vs number", dsl.Param("n").Eq(1), `{"n": "1"}`, false, `n == 1 does not hold (n is "1")`},
	{"eq object", dsl.Param("o").Eq(map[string]any{"a": []any{1, "x"}}), `{"o": {"a": [1.0, "x"]}}`, true, ""},
	{"ne ok", dsl.Param("n").Ne(1), `{"n": "1"}`, true, ""},
	{"ne missing", dsl.Param("n").Ne(1), `{}`, false, "n != 1 does not hold (n is missing)"},
	{"ne null", dsl.Param("n").Ne(1), `{"n": null}`, false, "n != 1 does not hold (n is null)"},
	{"in", dsl.Param("c").In("USD", "EUR"), `{"c": "EUR"}`, true, ""},
	{"in no", dsl.Param("c").In("USD", "EUR"), `{"c": "usd"}`, false, `c in ["USD", "EUR"] does not hold (c is "usd")`},
	{"in null member", dsl.Param("c").In(nil, 1), `{"c": null}`, false, `c in [null, 1] does not hold (c is null)`},
	{"not_in", dsl.Param("c").NotIn("XXX"), `{"c": "EUR"}`, true, ""},
	{"not_in missing", dsl.Param("c").NotIn("XXX"), `{}`, false, `c not_in ["XXX"] does not hold (c is missing)`},
	{"starts_with", dsl.Param("p").StartsWith("/tmp/"), `{"p": "/tmp/x"}`, true, ""},
	{"starts_with number", dsl.Param("p").StartsWith("1"), `{"p": 12}`, false, `p starts_with "1" does not hold (p is 12)`},
	{"ends_with", dsl.Param("e").EndsWith("@example.com"), `{"e": "a@example.com"}`, true, ""},
	{"contains string", dsl.Param("s").Contains("ell"), `{"s": "hello"}`, true, ""},
	{"contains array", dsl.Param("s").Contains("x"), `{"s": ["a", "x"]}`, true, ""},
	{"contains array number", dsl.Param("s").Contains(2), `{"s": [1, 2.0]}`, true, ""},
	{"contains string number", dsl.Param("s").Contains(1), `{"s": "123"}`, false, `s contains 1 does not hold (s is "123")`},
	{"contains object", dsl.Param("s").Contains("a"), `{"s": {"a": 1}}`, false, `s contains "a" does not hold (s is {"a":1})`},
	{"exists", dsl.Param("a/b").Exists(), `{"a": {"b": false}}`, true, ""},
	{"exists null", dsl.Param("a/b").Exists(), `{"a": {"b": null}}`, false, "a/b exists does not hold (a/b is null)"},
	{"not_exists missing", dsl.Param("a/b").NotExists(), `{"a": 1}`, true, ""},
	{"not_exists null", dsl.Param("a/b").NotExists(), `{"a": {"b": null}}`, true, ""},
	{"not_exists present", dsl.Param("a/b").NotExists(), `{"a": {"b": 0}}`, false, "a/b not_exists does not hold (a/b is 0)"},
	{"index", dsl.Param("items/1/sku").Eq("x"), `{"items": [{}, {"sku": "x"}]}`, true, ""},
	{"index out of range", dsl.Param("items/2").Exists(), `{"items": [1, 2]}`, false, "items/2 exists does not hold (items/2 is missing)"},
	{"index on object", dsl.Param("items/0").Exists(), `{"items": {"0": 1}}`, false, "items/0 exists does not hold (items/0 is missing)"},
	{"odd key", dsl.Param("a-b c").Eq(1), `{"a-b c": 1}`, true, ""},
	{"any_of", dsl.AnyOf(dsl.Param("a").Lt(1000), dsl.AllOf(dsl.Param("a").Ge(1000), dsl.Param("c").Eq("usd"))), `{"a": 5000, "c": "usd"}`, true, ""},
	{"any_of no", dsl.AnyOf(dsl.Param("a").Lt(1000), dsl.AllOf(dsl.Param("a").Ge(1000), dsl.Param("c").Eq("usd"))), `{"a": 5000, "c": "eur"}`, false,
		`any_of(a < 1000, all_of(a >= 1000, c == "usd")) does not hold (a is 5000, c is "eur")`},
	{"long value", dsl.Param("s").Eq("x"), `{"s": "` + strings.Repeat("y", 100) + `"}`, false,
		`s == "x" does not hold (s is "` + strings.Repeat("y", 60) + `...)`},
}

func TestAllows(t *testing.T) {
	for _, tc := range allowsCases {
		params := decodeParams(t, tc.params)
		c := dsl.Method("t/*").Where(tc.c)
		got, reasons := c.Allows("t/x", params, 0)
		if got != tc.want {
			t.Errorf("%s: Allows = %v %q, want %v", tc.name, got, reasons, tc.want)
			continue
		}
		if !tc.want && (len(reasons) != 1 || reasons[0] != tc.violates) {
			t.Errorf("%s: reasons %q, want %q", tc.name, reasons, tc.violates)
		}
	}
}

func TestAllowsMethodAndCalls(t *testing.T) {
	c := dsl.Method("db/*").MaxCalls(5)
	if ok, r := c.Allows("db/read", nil, 4); !ok {
		t.Errorf("4 of 5 calls: %q", r)
	}
	if ok, r := c.Allows("db/read", nil, 5); ok || len(r) != 1 || r[0] != "max_calls 5 used up" {
		t.Errorf("5 of 5 calls: %v %q", ok, r)
	}
	if ok, r := c.Allows("dbx/read", nil, 0); ok || len(r) != 1 || r[0] != `method "dbx/read" does not match "db/*"` {
		t.Errorf("other method: %v %q", ok, r)
	}
	if ok, _ := dsl.Method("a**").Allows("a", nil, 0); ok {
		t.Error("an invalid capability allowed a call")
	}
	if ok, _ := dsl.Method("db/*").Allows("db/x", nil, 1000); !ok {
		t.Error("no max_calls: denied")
	}
}

// decodeParams decodes JSON params with numbers as json.Number, as they
// come from a tool call.
func decodeParams(t testing.TB, s string) map[string]any {
	t.Helper()
	d := json.NewDecoder(strings.NewReader(s))
	d.UseNumber()
	var params map[string]any
	if err := d.Decode(&params); err != nil {
		t.Fatal(err)
	}
	return params
}
