package describe_test

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"reflect"
	"strings"
	"testing"

	"github.com/cordonhq/cordon/describe"
	"github.com/cordonhq/cordon/dsl"
)

// TestPolicy renders what capabilities allow of a tool in plain words.
func TestPolicy(t *testing.T) {
	names := []string{"stripe/charges/create", "stripe/charges/refund", "weather/current"}
	for _, tc := range []struct {
		name string
		caps []*dsl.Capability
		tool string
		want []string
	}{
		{"no policy", nil, "weather/current", nil},
		{"unrestricted", []*dsl.Capability{dsl.Method("weather/*")}, "weather/current", nil},
		{"no match", []*dsl.Capability{dsl.Method("stripe/**")}, "weather/current", []string{describe.Denied}},
		{
			"constraints, limit and ask",
			[]*dsl.Capability{dsl.Method("stripe/charges/create").
				Where(dsl.Param("amount").Le(1000), dsl.Param("currency").In("USD", "EUR")).MaxCalls(10).Ask()},
			"stripe/charges/create",
			[]string{"amount <= 1000; currency in USD, EUR; at most 10 calls; needs approval"},
		},
		{
			"alternatives stop at one that takes every call",
			[]*dsl.Capability{
				dsl.Method("stripe/charges/create").Where(dsl.Param("amount").Le(1000)),
				dsl.Method("stripe/charges/*").MaxCalls(1),
				dsl.Method("stripe/charges/create").Ask(),
				dsl.Method("**"),
			},
			"stripe/charges/create",
			[]string{"amount <= 1000", "at most 1 call, shared by all tools matching stripe/charges/*", "needs approval"},
		},
		{
			"a flow rule, then what asks",
			[]*dsl.Capability{
				dsl.Method("stripe/charges/create").Where(dsl.Param("amount").Le(1000)),
				dsl.Method("stripe/**").UnlessTouched("private", "untrusted"),
				dsl.Method("stripe/**").Ask(),
			},
			"stripe/charges/create",
			[]string{"amount <= 1000", "only until a tool labelled private or untrusted is called", "needs approval"},
		},
		{
			"anything else",
			[]*dsl.Capability{dsl.Method("stripe/charges/create").Where(dsl.Param("amount").Le(1000)), dsl.Method("**")},
			"stripe/charges/create",
			[]string{"amount <= 1000", "any other call"},
		},
		{
			"words for every operator; paths as a script writes them",
			[]*dsl.Capability{dsl.Method("weather/current").Where(
				dsl.Param("body/user/email").EndsWith("@example.com"),
				dsl.Param("items/0/sku").StartsWith("A-"),
				dsl.Param("tags").Contains("x"),
				dsl.Param("created_at").Ge("2026-01-01"),
				dsl.Param("role").Ne("admin"),
				dsl.Param("region").NotIn("cn", "ru"),
				dsl.Param("id").Exists(),
				dsl.Param("debug").NotExists(),
				dsl.Param("x-key").Eq(true),
				dsl.AnyOf(dsl.Param("a").Lt(1), dsl.AllOf(dsl.Param("b").Gt(2), dsl.Param("c").Eq("two words"))),
			)},
			"weather/current",
			[]string{`body.user.email ends with "@example.com"; items[0].sku starts with A-; tags contains x; ` +
				`created_at >= "2026-01-01"; role != admin; region not in cn, ru; id is given; debug is not given; ` +
				`["x-key"] == true; (a < 1 or (b > 2 and c == "two words"))`},
		},
		{"an invalid capability allows nothing", []*dsl.Capability{dsl.Method("weather/*").MaxCalls(-1)}, "weather/current", []string{describe.Denied}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := describe.Policy(tc.caps, tc.tool, names); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("got  %q\nwant %q", got, tc.want)
			}
		})
	}
}

// declared returns the TypeScript of a tool whose params schema is
// params.
func declared(t *testing.T, params string) string {
	t.Helper()
	return describe.Declaration(describe.ToolSpec{Name: "t/call", InputSchema: json.RawMessage(params)}, describe.Options{})
}

// TestSchemaTypes checks the TypeScript of each kind of JSON Schema.
func TestSchemaTypes(t *testing.T) {
	for _, tc := range []struct {
		name, schema string
		want         []string
	}{
		{"scalars", `{"type":"object","properties":{"s":{"type":"string"},"n":{"type":"number"},"i":{"type":"integer"},"b":{"type":"boolean"},"z":{"type":"null"}}}`,
			[]string{"s?: string", "n?: number", "/** integer */", "i?: number", "b?: boolean", "z?: null"}},
		{"required and optional, required first", `{"type":"object","properties":{"b":{"type":"string"},"a":{"type":"string"}},"required":["a"]}`,
			[]string{"(params: { a: string; b?: string })"}},
		{"params optional when nothing is required", `{"type":"object","properties":{"a":{"type":"string"}}}`,
			[]string{"(params?: { a?: string })"}},
		{"enum and const", `{"type":"object","properties":{"e":{"enum":["a",1,null]},"c":{"const":"x"}}}`,
			[]string{`e?: "a" | 1 | null`, `c?: "x"`}},
		{"nullable three ways", `{"type":"object","properties":{"a":{"type":["string","null"]},"b":{"type":"string","nullable":true},"c":{"anyOf":[{"type":"null"},{"type":"integer"}]}}}`,
			[]string{"a?: string | null", "b?: string | null", "c?: number | null"}},
		{"arrays and tuples", `{"type":"object","properties":{"a":{"type":"array","items":{"type":"string"}},"u":{"type":"array","items":{"anyOf":[{"type":"string"},{"type":"number"}]}},"t":{"type":"array","prefixItems":[{"type":"number"},{"type":"string"}],"items":false},"x":{"type":"array"}}}`,
			[]string{"a?: string[]", "u?: (string | number)[]", "t?: [number, string]", "x?: unknown[]"}},
		{"index signatures", `{"type":"object","properties":{"m":{"type":"object","additionalProperties":{"type":"integer"}},"o":{"type":"object"},"p":{"type":"object","properties":{"k":{"type":"string"}},"additionalProperties":true},"q":{"type":"object","properties":{"k":{"type":"string"}},"additionalProperties":{"type":"number"}}}}`,
			[]string{"m?: { [key: string]: number }", "o?: { [key: string]: unknown }", "p?: { k?: string; [key: string]: unknown }", "q?: { k?: string; [key: string]: number | string | undefined }"}},
		{"oneOf, anyOf, allOf", `{"type":"object","properties":{"o":{"oneOf":[{"type":"string"},{"type":"boolean"}]},"a":{"allOf":[{"type":"object","properties":{"x":{"type":"string"}}},{"type":"object","properties":{"y":{"type":"number"}}}]},"m":{"type":"object","properties":{"k":{"type":"string"}},"anyOf":[{"required":["k"]},{"required":["j"]}]}}}`,
			[]string{"o?: string | boolean", "a?: { x?: string } & { y?: number }", "m?: { k?: string }"}},
		{"$ref and $defs", `{"type":"object","properties":{"u":{"$ref":"#/$defs/user"},"v":{"$ref":"#/definitions/simple_user"}},"$defs":{"user":{"type":"object","description":"A user.","properties":{"name":{"type":"string"}}}},"definitions":{"simple_user":{"type":"string"}}}`,
			[]string{"u?: t.User", "v?: t.SimpleUser", "declare namespace t {", "  /** A user. */\n  interface User { name?: string }", "  type SimpleUser = string;"}},
		{"notes", `{"type":"object","properties":{"d":{"type":"string","format":"date-time","description":"When."},"n":{"type":"integer","minimum":1,"maximum":10,"default":5},"s":{"type":"string","minLength":2,"maxLength":2,"pattern":"^[A-Z]+$","examples":["US"]},"old":{"type":"string","deprecated":true}}}`,
			[]string{"/** When. (format: date-time) */", "/** integer, >= 1, <= 10, default: 5 */", `/** 2 characters, pattern: ^[A-Z]+$, example: "US" */`, "/** deprecated */"}},
		{"quoted keys", `{"type":"object","properties":{"content-type":{"type":"string"},"2fa":{"type":"boolean"},"ok_1":{"type":"string"}}}`,
			[]string{`"content-type"?: string`, `"2fa"?: boolean`, "ok_1?: string"}},
		{"boolean schemas and unknown refs", `{"type":"object","properties":{"a":true,"b":false,"c":{"$ref":"https://example.com/x.json"},"d":{}}}`,
			[]string{"a?: unknown", "b?: never", "c?: unknown", "d?: unknown"}},
		{"a schema that is not an object", `[1,2]`, []string{"(params?: unknown)"}},
		{"comment ends are escaped", `{"type":"object","properties":{"a":{"type":"string","description":"a */ b"}}}`,
			[]string{`/** a *\/ b */`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := declared(t, tc.schema)
			for _, w := range tc.want {
				if !strings.Contains(got, w) {
					t.Errorf("the declaration lacks %q:\n%s", w, got)
				}
			}
		})
	}
}

// TestSharedDefinitions: identical definitions of several tools share a
// name, whatever they are called and wherever they are; different ones
// with the same name get the tool's name in front.
func TestSharedDefinitions(t *testing.T) {
	user := `{"type":"object","properties":{"name":{"type":"string"},"boss":{"$ref":"#/$defs/user"}}}`
	tools := []describe.ToolSpec{
		{Name: "hr/get", OutputSchema: json.RawMessage(`{"$ref":"#/$defs/user","$defs":{"user":` + user + `}}`)},
		{Name: "hr/find", OutputSchema: json.RawMessage(`{"type":"array","items":{"$ref":"#/components/schemas/user"},"components":{"schemas":{"user":` + strings.ReplaceAll(user, "$defs", "components/schemas") + `}}}`)},
		{Name: "hr/other", OutputSchema: json.RawMessage(`{"$ref":"#/$defs/user","$defs":{"user":{"type":"string"}}}`)},
	}
	got := describe.TypeScript(tools, describe.Options{})
	for _, w := range []string{"Promise<hr.User>", "Promise<hr.User[]>", "Promise<hr.OtherUser>", "interface User { name?: string; boss?: hr.User }", "type OtherUser = string;"} {
		if !strings.Contains(got, w) {
			t.Errorf("the declarations lack %q:\n%s", w, got)
		}
	}
	if n := strings.Count(got, "interface User "); n != 1 {
		t.Errorf("User is declared %d times", n)
	}
}

// TestNames checks how tools are reached: by path and alias, by alias
// only, with quoted or bracketed segments; and that a name the engine
// refuses is left out.
func TestNames(t *testing.T) {
	tools := []describe.ToolSpec{
		{Name: "a.b/c"}, {Name: "single"}, {Name: "two-words"}, {Name: "9lives/x"},
		{Name: "x/delete"}, {Name: "x/get-it"}, {Name: "bad name"}, {Name: "JSON/parse"}, {Name: "a/b/c"},
	}
	got := describe.TypeScript(tools, describe.Options{})
	for _, w := range []string{
		"declare const a: {\n  b: {\n    c(params?",
		"declare function single(params?",
		"declare function two_words(params?",
		"declare function _9lives_x(params?",
		`Also globalThis["9lives"].x.`,
		"  delete(params?",
		`  "get-it"(params?`,
		"declare const a_b_c: typeof a.b.c;",
		`declare const x_get_it: typeof x["get-it"];`,
		"declare const x_delete: typeof x.delete;",
	} {
		if !strings.Contains(got, w) {
			t.Errorf("the declarations lack %q:\n%s", w, got)
		}
	}
	for _, refused := range []string{"bad", "declare const JSON"} {
		if strings.Contains(got, refused) {
			t.Errorf("a refused name (%s) is declared:\n%s", refused, got)
		}
	}
	if n := strings.Count(got, "c(params"); n != 1 {
		t.Errorf("a.b/c and a/b/c (the same function) are declared %d times", n)
	}
	if d := describe.Declaration(describe.ToolSpec{Name: "bad name"}, describe.Options{}); d != "" {
		t.Errorf("Declaration of a refused name: %q", d)
	}
}

// TestToolAndNamespace: a tool that is also the namespace of longer names
// is an object type with a call signature.
func TestToolAndNamespace(t *testing.T) {
	got := describe.TypeScript([]describe.ToolSpec{
		{Name: "db", Description: "Query.", InputSchema: json.RawMessage(`{"type":"object","properties":{"sql":{"type":"string"}},"required":["sql"]}`)},
		{Name: "db/tables"},
	}, describe.Options{})
	want := "declare const db: {\n  /** Query. */\n  (params: { sql: string }): Promise<unknown>;\n  tables(params?: { [key: string]: unknown }): Promise<unknown>;\n};"
	if !strings.Contains(got, want) {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
}

// manyTools returns n tools with long descriptions.
func manyTools(n int) []describe.ToolSpec {
	var tools []describe.ToolSpec
	for i := range n {
		tools = append(tools, describe.ToolSpec{
			Name:        fmt.Sprintf("svc%d/items/list", i),
			Description: fmt.Sprintf("List the items of service %d.\n%s", i, strings.Repeat("More words about it. ", 20)),
			InputSchema: json.RawMessage(`{"type":"object","properties":{"q":{"type":"string","description":"A query."},"limit":{"type":"integer"}},"required":["q"]}`),
		})
	}
	return tools
}

// TestBudget: above MaxBytes the prompt lists the tools compactly and
// points to discovery; tools that do not fit are counted.
func TestBudget(t *testing.T) {
	tools := manyTools(60)
	full := describe.Prompt(tools, describe.Options{MaxBytes: -1})
	if len(full) <= describe.DefaultMaxBytes || !strings.Contains(full, "```ts") {
		t.Fatalf("the full prompt is %d bytes; the test needs more than %d", len(full), describe.DefaultMaxBytes)
	}
	compact := describe.Prompt(tools, describe.Options{})
	if len(compact) > describe.DefaultMaxBytes {
		t.Errorf("the compact prompt is %d bytes, over the budget", len(compact))
	}
	for _, w := range []string{"getToolInfo(\"name\")", "listTools(prefix)", "tool --help NAME", "- `svc0.items.list({ q })` List the items of service 0.\n", "- `svc59.items.list({ q })`"} {
		if !strings.Contains(compact, w) {
			t.Errorf("the compact prompt lacks %q", w)
		}
	}
	if strings.Contains(compact, "```ts") || strings.Contains(compact, "More words") {
		t.Error("the compact prompt has declarations or whole descriptions")
	}
	small := describe.Prompt(tools, describe.Options{MaxBytes: 4000, Language: describe.Shell})
	if len(small) > 4000 || !strings.Contains(small, "more tools: tool --list lists them all.") || !strings.Contains(small, "- `tool svc0/items/list --q <string> [--limit <integer>]`") {
		t.Errorf("a small budget (%d bytes):\n%s", len(small), small)
	}
	if got := describe.Prompt(tools[:1], describe.Options{}); !strings.Contains(got, "```ts") {
		t.Error("one tool does not get its declarations")
	}
}

// TestLanguages: each language gets its rules, its listing and its
// example, and only those.
func TestLanguages(t *testing.T) {
	tools := manyTools(1)
	js := describe.Prompt(tools, describe.Options{Language: describe.JavaScript})
	sh := describe.Prompt(tools, describe.Options{Language: describe.Shell})
	both := describe.Prompt(tools, describe.Options{})
	none := describe.Prompt(tools, describe.Options{NoExample: true})
	for _, c := range []struct {
		name, text string
		has, lacks []string
	}{
		{"js", js, []string{"## JavaScript", "```ts", "```js\nconst result = await svc0.items.list({ q: \"<q>\" });"}, []string{"## Shell", "```sh"}},
		{"sh", sh, []string{"## Shell", "```sh\n# List the items", "tool svc0/items/list --q '<q>' | jq ."}, []string{"## JavaScript", "```ts", "```js"}},
		{"both", both, []string{"## JavaScript", "## Shell", "```ts", "```sh", "```js"}, nil},
		{"no example", none, []string{"```ts"}, []string{"## Example"}},
	} {
		for _, w := range c.has {
			if !strings.Contains(c.text, w) {
				t.Errorf("%s: lacks %q", c.name, w)
			}
		}
		for _, w := range c.lacks {
			if strings.Contains(c.text, w) {
				t.Errorf("%s: has %q", c.name, w)
			}
		}
	}
	if got := describe.Prompt(nil, describe.Options{}); !strings.Contains(got, "There are no tools.") {
		t.Errorf("no tools:\n%s", got)
	}
}

// TestExample: the example calls the first tool with a required param
// that the policy allows, with values from the schema that satisfy the
// policy's constraints.
func TestExample(t *testing.T) {
	tools := []describe.ToolSpec{
		{Name: "misc/ping"},
		{Name: "pay/send", InputSchema: json.RawMessage(`{"type":"object","properties":{"to":{"type":"string","format":"email"}},"required":["to"]}`)},
		{Name: "pay/charge", InputSchema: json.RawMessage(`{"type":"object","properties":{
			"amount":{"type":"integer","minimum":100},
			"currency":{"type":"string","enum":["usd","eur"]},
			"note":{"type":"string"},
			"when":{"type":"string","format":"date"},
			"card":{"$ref":"#/$defs/card"},
			"tags":{"type":"array","items":{"type":"string"}},
			"meta":{"type":"object"}},
			"required":["amount","currency","card","tags","when","meta"],
			"$defs":{"card":{"type":"object","properties":{"number":{"type":"string","examples":["4242"]},"cvc":{"type":"string"}},"required":["number"]}}}`)},
	}
	caps := []*dsl.Capability{
		dsl.Method("pay/send").Where(dsl.Param("to").EndsWith("@corp.example")).Ask(),
		dsl.Method("pay/charge").Where(dsl.Param("amount").Lt(50), dsl.Param("currency").In("eur"), dsl.Param("note").StartsWith("order "), dsl.Param("meta/source").Eq("agent")),
		dsl.Method("misc/*"),
	}
	got, err := describe.JSON(tools, describe.Options{Capabilities: caps[1:]})
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Example struct{ Tool, JavaScript, Shell string }
	}
	if err := json.Unmarshal(got, &doc); err != nil {
		t.Fatal(err)
	}
	wantJS := "const result = await pay.charge({\n" +
		"  amount: 49,\n  currency: \"eur\",\n  card: { number: \"4242\" },\n  tags: [\"<tag>\"],\n  when: \"2026-01-01\",\n" +
		"  meta: { source: \"agent\" },\n  note: \"order \",\n});\nreturn result; // printed as JSON\n"
	wantSh := "tool pay/charge --amount 49 --currency eur --card '{\"number\":\"4242\"}' --tags '<tag>' --when 2026-01-01 --meta '{\"source\":\"agent\"}' --note 'order ' | jq .\n"
	if doc.Example.Tool != "pay/charge" || doc.Example.JavaScript != wantJS || doc.Example.Shell != wantSh {
		t.Errorf("example of %s:\n%s\n%s\nwant:\n%s\n%s", doc.Example.Tool, doc.Example.JavaScript, doc.Example.Shell, wantJS, wantSh)
	}
	// With the whole policy, pay/send (whose calls need approval) comes
	// first, its address made to fit.
	p := describe.Prompt(tools, describe.Options{Capabilities: caps})
	if !strings.Contains(p, `await pay.send({ to: "@corp.example" });`) {
		t.Errorf("the example does not call pay/send with a value that fits:\n%s", p)
	}
	// A denied tool is never the example.
	p = describe.Prompt(tools[1:2], describe.Options{Capabilities: []*dsl.Capability{dsl.Method("other")}})
	if strings.Contains(p, "## Example") {
		t.Errorf("a denied tool is the example:\n%s", p)
	}
}

// TestJSON: the machine-readable form holds every tool with its forms of
// name, policy, declaration and usage line.
func TestJSON(t *testing.T) {
	set := loadSet(t, "testdata/stripe.json")
	b, err := describe.JSON(set.tools, describe.Options{Capabilities: set.caps, Language: describe.Shell})
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Rules      string `json:"rules"`
		TypeScript string `json:"typescript"`
		Tools      []struct {
			Name, Path, Alias, Declaration, Shell string
			Policy                                []string
			InputSchema                           json.RawMessage `json:"input_schema"`
		} `json:"tools"`
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	if doc.TypeScript != "" || len(doc.Tools) != len(set.tools) || strings.Contains(doc.Rules, "JavaScript") {
		t.Fatalf("shell only: %s", b)
	}
	tool := doc.Tools[0]
	if tool.Name != "stripe/charges/create" || tool.Path != "stripe.charges.create" || tool.Alias != "stripe_charges_create" ||
		tool.Declaration != "" || !strings.HasPrefix(tool.Shell, "tool stripe/charges/create --amount <integer>") ||
		len(tool.Policy) != 2 || !json.Valid(tool.InputSchema) {
		t.Errorf("first tool: %+v", tool)
	}
	if last := doc.Tools[len(doc.Tools)-1]; last.Path != "" || last.Alias != "stripe_terminal_readers_list" {
		t.Errorf("a tool that only its alias reaches: %+v", last)
	}
}

// TestGuestDependencies: the package builds for the guest, so it must not
// depend on the engine, the policy, OPA or wazero.
func TestGuestDependencies(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command")
	}
	cmd := exec.Command("go", "list", "-deps", ".")
	cmd.Env = append(os.Environ(), "GOOS=wasip1", "GOARCH=wasm")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	for _, dep := range strings.Fields(string(out)) {
		for _, banned := range []string{"/engine", "/policy", "open-policy-agent", "wazero", "/config"} {
			if strings.Contains(dep, banned) {
				t.Errorf("describe depends on %s", dep)
			}
		}
	}
}
