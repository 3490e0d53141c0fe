package jsrt

import (
	"strings"
	"testing"

	"github.com/cordonhq/cordon/internal/abi"
)

// calledMethods returns the methods of the calls the script made, in order.
func calledMethods(h *fakeHost) []string {
	var out []string
	for _, b := range h.batches {
		for _, c := range b {
			out = append(out, c.Method)
		}
	}
	return out
}

// A name's "." segments namespace as its "/" segments do: a tool
// registered as stripe.listTransactions or as stripe/listTransactions is
// stripe.listTransactions(...) in JS, and its flat alias stays.
func TestDottedToolNamesNamespace(t *testing.T) {
	for _, name := range []string{"stripe.listTransactions", "stripe/listTransactions"} {
		tools := []abi.ToolInfo{{Name: name}, {Name: "a/b.c/d"}, {Name: "gh.repos/list"}}
		h := &fakeHost{}
		out := runJS(t, h, tools, `return [
  await stripe.listTransactions({customer: "cus_123"}),
  await stripe_listTransactions({}),
  await a.b.c.d({}), await a_b_c_d({}),
  await gh.repos.list({}),
  typeof globalThis["stripe.listTransactions"],
]`)
		if out.ExitCode != 0 {
			t.Fatalf("%s: %+v %s", name, out, h.stderr.String())
		}
		if want := `[{"customer":"cus_123"},{},{},{},{},"undefined"]`; string(out.Value) != want {
			t.Errorf("%s: got %s, want %s", name, out.Value, want)
		}
		want := []string{name, name, "a/b.c/d", "a/b.c/d", "gh.repos/list"}
		if got := calledMethods(h); strings.Join(got, " ") != strings.Join(want, " ") {
			t.Errorf("%s: called %q, want %q", name, got, want)
		}
	}
}

// A tool whose path is also the namespace of longer names is a function
// that holds their members, whichever separator each name uses and
// whichever sorts first ("a.b.c" sorts before "a/b").
func TestToolThatIsAlsoANamespace(t *testing.T) {
	tools := []abi.ToolInfo{{Name: "a/b"}, {Name: "a.b.c"}, {Name: "x.y"}, {Name: "x/y/z"}, {Name: "p/q"}, {Name: "p/q/r"}}
	h := &fakeHost{}
	out := runJS(t, h, tools, `await a.b({}); await a.b.c({}); await x.y({}); await x.y.z({}); await p.q({}); await p.q.r({})
return [typeof a.b, typeof a.b.c, Object.keys(a.b).join(), typeof a_b, typeof a_b_c]`)
	if out.ExitCode != 0 {
		t.Fatalf("%+v %s", out, h.stderr.String())
	}
	if want := `["function","function","c","function","function"]`; string(out.Value) != want {
		t.Errorf("got %s, want %s", out.Value, want)
	}
	want := "a/b a.b.c x.y x/y/z p/q p/q/r"
	if got := strings.Join(calledMethods(h), " "); got != want {
		t.Errorf("called %q, want %q", got, want)
	}
}

// getToolInfo and listTools(prefix) accept every form of a name, "/"
// and "." interchangeable.
func TestGetToolInfoAcceptsEveryForm(t *testing.T) {
	for _, name := range []string{"stripe.listTransactions", "stripe/listTransactions"} {
		tools := []abi.ToolInfo{{Name: name}, {Name: "other"}}
		h := &fakeHost{}
		out := runJS(t, h, tools, `const forms = ["stripe/listTransactions", "stripe.listTransactions", "stripe_listTransactions"]
return [forms.map(f => getToolInfo(f) && getToolInfo(f).name), getToolInfo("stripe.listTransaction"),
  forms.map(f => listTools(f.slice(0, 7)).map(t => t.name).join())]`)
		want := `[["N","N","N"],null,["N","N","N"]]`
		if want = strings.ReplaceAll(want, "N", name); out.ExitCode != 0 || string(out.Value) != want {
			t.Errorf("got  %d %s %s\nwant %s", out.ExitCode, out.Value, h.stderr.String(), want)
		}
	}
}

// getToolInfo and listTools show a tool's output schema as outputSchema,
// with its keys in the schema's order, and leave it out when the tool has
// none.
func TestToolInfoShowsOutputSchema(t *testing.T) {
	tools := []abi.ToolInfo{
		{Name: "stripe/listTransactions", OutputSchema: []byte(`{"type":"object","properties":{"data":{"type":"array"},"has_more":{"type":"boolean"}}}`)},
		{Name: "other"},
	}
	h := &fakeHost{}
	out := runJS(t, h, tools, `return [JSON.stringify(getToolInfo("stripe.listTransactions").outputSchema), "outputSchema" in getToolInfo("other"),
  JSON.stringify(listTools("stripe")[0].outputSchema), Object.keys(listTools("stripe")[0]).join()]`)
	want := `["{\"type\":\"object\",\"properties\":{\"data\":{\"type\":\"array\"},\"has_more\":{\"type\":\"boolean\"}}}",false,` +
		`"{\"type\":\"object\",\"properties\":{\"data\":{\"type\":\"array\"},\"has_more\":{\"type\":\"boolean\"}}}","name,description,alias,outputSchema"]`
	if out.ExitCode != 0 || string(out.Value) != want {
		t.Errorf("got  %d %s %s\nwant %s", out.ExitCode, out.Value, h.stderr.String(), want)
	}
}

// An uncaught error from a mistyped tool names the tool meant.
func TestMistypedToolHints(t *testing.T) {
	tools := []abi.ToolInfo{{Name: "stripe.listTransactions"}, {Name: "stripe/charges/create"}, {Name: "a/b"}, {Name: "a/b/c"}, {Name: "weather"}}
	for _, c := range []struct{ code, want string }{
		{`await stripe_listTransaction({customer: "cus_123"})`, "ReferenceError: stripe_listTransaction is not defined; did you mean stripe_listTransactions?"},
		{`await stripe.listTransaction({customer: "cus_123"})`, "TypeError: stripe.listTransaction is not a function; did you mean stripe.listTransactions?"},
		{`stripe.ListTransactions()`, "TypeError: stripe.ListTransactions is not a function; did you mean stripe.listTransactions?"},
		{`await strpe.listTransactions({})`, "ReferenceError: strpe is not defined; did you mean stripe?"},
		{`stripe.charges.craete({})`, "TypeError: stripe.charges.craete is not a function; did you mean stripe.charges.create?"},
		{`a.b.d()`, "TypeError: a.b.d is not a function; did you mean a.b.c?"},
		{`wheather()`, "ReferenceError: wheather is not defined; did you mean weather?"},
		// Too far from every tool: goja's message, or only the namespace.
		{`fetchUrl()`, "ReferenceError: fetchUrl is not defined\n"},
		{`stripe.refund()`, "TypeError: stripe.refund is not a function\n"},
		// Not a tool namespace: goja's message.
		{`const o = {listTransactions() {}}; o.listTransaction()`, "TypeError: Object has no member 'listTransaction'"},
		{`stripe.listTransactions; const o = {}; o.listTransactions()`, "TypeError: Object has no member 'listTransactions'"},
		// A script's own error is left alone unless it is that error.
		{`throw new Error("stripe_listTransaction is not defined")`, "Error: stripe_listTransaction is not defined\n"},
		// The stack, read before, gets the hint too.
		{`try { stripe_listTransaction() } catch (e) { e.stack; throw e }`, "ReferenceError: stripe_listTransaction is not defined; did you mean stripe_listTransactions?\n"},
	} {
		h := &fakeHost{}
		out := runJS(t, h, tools, c.code)
		if out.ExitCode != 1 || !strings.HasPrefix(h.stderr.String(), c.want) {
			t.Errorf("%s:\n got %d %q\nwant %q", c.code, out.ExitCode, h.stderr.String(), c.want)
		}
		if first, _, _ := strings.Cut(c.want, "\n"); !strings.HasPrefix(out.ErrMsg, first) {
			t.Errorf("%s: ErrMsg %q, want %q", c.code, out.ErrMsg, first)
		}
	}
	// Lookups that do not throw are untouched, and so is an error the
	// script catches.
	h := &fakeHost{}
	out := runJS(t, h, tools, `let m; try { stripe_listTransaction } catch (e) { m = e.message }
return [typeof stripe_listTransaction, typeof stripe.listTransaction, "listTransaction" in stripe, m]`)
	if want := `["undefined","undefined",false,"stripe_listTransaction is not defined"]`; out.ExitCode != 0 || string(out.Value) != want {
		t.Errorf("got %d %s %s, want %s", out.ExitCode, out.Value, h.stderr.String(), want)
	}
	// The prototype that notes a namespace's misses leaves it an ordinary
	// object: its keys and JSON are its own, what a script sets on it or
	// on that prototype stays, and Object.prototype is next in the chain.
	h = &fakeHost{}
	out = runJS(t, h, tools, `const p = Object.getPrototypeOf(stripe)
p.extra = 1
stripe.mine = 2
return [Object.keys(stripe).join(), JSON.stringify(stripe), String(stripe), stripe.hasOwnProperty("charges"), stripe.extra, stripe.mine,
  p !== Object.prototype, Object.getPrototypeOf(p) === Object.prototype, stripe instanceof Object, Object.isFrozen(Object.freeze(stripe))]`)
	if want := `["listTransactions,charges,mine","{\"charges\":{},\"mine\":2}","[object Object]",true,1,2,true,true,true,true]`; out.ExitCode != 0 || string(out.Value) != want {
		t.Errorf("got %d %s %s, want %s", out.ExitCode, out.Value, h.stderr.String(), want)
	}
}
