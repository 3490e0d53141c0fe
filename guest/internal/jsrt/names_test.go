package jsrt

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"github.com/cordonhq/cordon/guest/internal/hub/hubtest"
	"github.com/cordonhq/cordon/internal/abi"
)

// A name's "." segments namespace as its "/" segments do: a tool
// registered as stripe.listTransactions or as stripe/listTransactions is
// stripe.listTransactions(...) in JS, and its flat alias stays.
func TestDottedToolNamesNamespace(t *testing.T) {
	for _, name := range []string{"stripe.listTransactions", "stripe/listTransactions"} {
		tools := []abi.ToolInfo{{Name: name}, {Name: "a/b.c/d"}, {Name: "gh.repos/list"}}
		h := &hubtest.Host{}
		out := runJS(t, h, tools, `return [
  await stripe.listTransactions({customer: "cus_123"}),
  await stripe_listTransactions({}),
  await a.b.c.d({}), await a_b_c_d({}),
  await gh.repos.list({}),
  typeof globalThis["stripe.listTransactions"],
]`)
		if out.ExitCode != 0 {
			t.Fatalf("%s: %+v %s", name, out, h.Stderr())
		}
		if want := `[{"customer":"cus_123"},{},{},{},{},"undefined"]`; string(out.Value) != want {
			t.Errorf("%s: got %s, want %s", name, out.Value, want)
		}
		want := []string{name, name, "a/b.c/d", "a/b.c/d", "gh.repos/list"}
		if got := h.Methods(); strings.Join(got, " ") != strings.Join(want, " ") {
			t.Errorf("%s: called %q, want %q", name, got, want)
		}
	}
}

// A tool whose path is also the namespace of longer names is a function
// that holds their members, whichever separator each name uses and
// whichever sorts first ("a.b.c" sorts before "a/b").
func TestToolThatIsAlsoANamespace(t *testing.T) {
	tools := []abi.ToolInfo{{Name: "a/b"}, {Name: "a.b.c"}, {Name: "x.y"}, {Name: "x/y/z"}, {Name: "p/q"}, {Name: "p/q/r"}}
	h := &hubtest.Host{}
	out := runJS(t, h, tools, `await a.b({}); await a.b.c({}); await x.y({}); await x.y.z({}); await p.q({}); await p.q.r({})
return [typeof a.b, typeof a.b.c, Object.keys(a.b).join(), typeof a_b, typeof a_b_c]`)
	if out.ExitCode != 0 {
		t.Fatalf("%+v %s", out, h.Stderr())
	}
	if want := `["function","function","c","function","function"]`; string(out.Value) != want {
		t.Errorf("got %s, want %s", out.Value, want)
	}
	want := "a/b a.b.c x.y x/y/z p/q p/q/r"
	if got := strings.Join(h.Methods(), " "); got != want {
		t.Errorf("called %q, want %q", got, want)
	}
}

// getToolInfo and listTools(prefix) accept every form of a name, "/"
// and "." interchangeable.
func TestGetToolInfoAcceptsEveryForm(t *testing.T) {
	for _, name := range []string{"stripe.listTransactions", "stripe/listTransactions"} {
		tools := []abi.ToolInfo{{Name: name}, {Name: "other"}}
		h := &hubtest.Host{}
		out := runJS(t, h, tools, `const forms = ["stripe/listTransactions", "stripe.listTransactions", "stripe_listTransactions"]
return [forms.map(f => getToolInfo(f) && getToolInfo(f).name), getToolInfo("stripe.listTransaction"),
  forms.map(f => listTools(f.slice(0, 7)).map(t => t.name).join())]`)
		want := `[["N","N","N"],null,["N","N","N"]]`
		if want = strings.ReplaceAll(want, "N", name); out.ExitCode != 0 || string(out.Value) != want {
			t.Errorf("got  %d %s %s\nwant %s", out.ExitCode, out.Value, h.Stderr(), want)
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
	h := &hubtest.Host{}
	out := runJS(t, h, tools, `return [JSON.stringify(getToolInfo("stripe.listTransactions").outputSchema), "outputSchema" in getToolInfo("other"),
  JSON.stringify(listTools("stripe")[0].outputSchema), Object.keys(listTools("stripe")[0]).join()]`)
	want := `["{\"type\":\"object\",\"properties\":{\"data\":{\"type\":\"array\"},\"has_more\":{\"type\":\"boolean\"}}}",false,` +
		`"{\"type\":\"object\",\"properties\":{\"data\":{\"type\":\"array\"},\"has_more\":{\"type\":\"boolean\"}}}","name,description,alias,outputSchema"]`
	if out.ExitCode != 0 || string(out.Value) != want {
		t.Errorf("got  %d %s %s\nwant %s", out.ExitCode, out.Value, h.Stderr(), want)
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
		// Too far from every tool: goja's message, or the namespace's tools.
		{`fetchUrl()`, "ReferenceError: fetchUrl is not defined\n"},
		{`stripe.refund()`, "TypeError: stripe.refund is not a function; the tools under stripe are stripe.charges.create, stripe.listTransactions\n"},
		// Not a tool namespace: goja's message.
		{`const o = {listTransactions() {}}; o.listTransaction()`, "TypeError: Object has no member 'listTransaction'"},
		{`stripe.listTransactions; const o = {}; o.listTransactions()`, "TypeError: Object has no member 'listTransactions'"},
		// A script's own error is left alone unless it is that error.
		{`throw new Error("stripe_listTransaction is not defined")`, "Error: stripe_listTransaction is not defined\n"},
		// The stack, read before, gets the hint too.
		{`try { stripe_listTransaction() } catch (e) { e.stack; throw e }`, "ReferenceError: stripe_listTransaction is not defined; did you mean stripe_listTransactions?\n"},
	} {
		// The same whether the error is made with the hint (gojax) or
		// gets it when it is uncaught.
		for _, gx := range []bool{true, false} {
			useGojax = gx
			h := &hubtest.Host{}
			out := runJS(t, h, tools, c.code)
			useGojax = true
			if out.ExitCode != 1 || !strings.HasPrefix(h.Stderr(), c.want) {
				t.Errorf("%s (gojax %v):\n got %d %q\nwant %q", c.code, gx, out.ExitCode, h.Stderr(), c.want)
			}
			if first, _, _ := strings.Cut(c.want, "\n"); !strings.HasPrefix(out.ErrMsg, first) {
				t.Errorf("%s (gojax %v): ErrMsg %q, want %q", c.code, gx, out.ErrMsg, first)
			}
		}
	}
	// Lookups that do not throw are untouched; an error the script
	// catches has the hint.
	h := &hubtest.Host{}
	out := runJS(t, h, tools, `let m; try { stripe_listTransaction } catch (e) { m = e.message }
return [typeof stripe_listTransaction, typeof stripe.listTransaction, "listTransaction" in stripe, m]`)
	if want := `["undefined","undefined",false,"stripe_listTransaction is not defined; did you mean stripe_listTransactions?"]`; out.ExitCode != 0 || string(out.Value) != want {
		t.Errorf("got %d %s %s, want %s", out.ExitCode, out.Value, h.Stderr(), want)
	}
	// The prototype that notes a namespace's misses leaves it an ordinary
	// object: its keys and JSON are its own, what a script sets on it or
	// on that prototype stays, and Object.prototype is next in the chain.
	h = &hubtest.Host{}
	out = runJS(t, h, tools, `const p = Object.getPrototypeOf(stripe)
p.extra = 1
stripe.mine = 2
return [Object.keys(stripe).join(), JSON.stringify(stripe), String(stripe), stripe.hasOwnProperty("charges"), stripe.extra, stripe.mine,
  p !== Object.prototype, Object.getPrototypeOf(p) === Object.prototype, stripe instanceof Object, Object.isFrozen(Object.freeze(stripe))]`)
	if want := `["listTransactions,charges,mine","{\"charges\":{},\"mine\":2}","[object Object]",true,1,2,true,true,true,true]`; out.ExitCode != 0 || string(out.Value) != want {
		t.Errorf("got %d %s %s, want %s", out.ExitCode, out.Value, h.Stderr(), want)
	}
}

// A mistyped member of a tool namespace, at any depth, throws an error
// that names the tool meant, where goja would have thrown its own: a
// script that catches it reads the hint, and the error is a TypeError (a
// ReferenceError for a global) thrown from the script's own line.
func TestMistypedMemberHintsWhenCaught(t *testing.T) {
	tools := []abi.ToolInfo{{Name: "stripe/listTransactions"}, {Name: "stripe/charges/create"}, {Name: "a/b"}, {Name: "a/b/c/list"}}
	for i := 1; i <= 7; i++ {
		tools = append(tools, abi.ToolInfo{Name: "many/t" + strconv.Itoa(i)})
	}
	for _, c := range []struct{ code, want string }{
		{`await stripe.listTransaction({})`, `TypeError: stripe.listTransaction is not a function; did you mean stripe.listTransactions?`},
		{`await stripe["listTransaction"]({})`, `TypeError: stripe.listTransaction is not a function; did you mean stripe.listTransactions?`},
		{`const k = "listTransaction"; await stripe[k]({})`, `TypeError: stripe.listTransaction is not a function; did you mean stripe.listTransactions?`},
		{`await stripe.charges.craete({amount: 1})`, `TypeError: stripe.charges.craete is not a function; did you mean stripe.charges.create?`},
		{`await a.b.c.lst({})`, `TypeError: a.b.c.lst is not a function; did you mean a.b.c.list?`},
		{`await stripe.charge.create({})`, `TypeError: Cannot read property 'create' of stripe.charge, which is undefined; did you mean stripe.charges.create?`},
		{`await a.b.cc.list({})`, `TypeError: Cannot read property 'list' of a.b.cc, which is undefined; did you mean a.b.c.list?`},
		{`await stripe.chargs.refund({})`, `TypeError: Cannot read property 'refund' of stripe.chargs, which is undefined; did you mean stripe.charges?`},
		{`await stripe_listTransaction({})`, `ReferenceError: stripe_listTransaction is not defined; did you mean stripe_listTransactions?`},
		{`stripe_listTransaction + 1`, `ReferenceError: stripe_listTransaction is not defined; did you mean stripe_listTransactions?`},
		{`await strpe.listTransactions({})`, `ReferenceError: strpe is not defined; did you mean stripe?`},
		{`await stripe.refund({})`, `TypeError: stripe.refund is not a function; the tools under stripe are stripe.charges.create, stripe.listTransactions`},
		{`await many.zzzzzzzzzzz({})`, `TypeError: many.zzzzzzzzzzz is not a function; the tools under many include many.t1, many.t2, many.t3, many.t4, many.t5 (listTools("many") lists all 7)`},
		// Too far from every tool, or not a tool namespace (a tool function
		// that holds no tools is not): goja's own.
		{`await a.b.c.list.x()`, `TypeError: Object has no member 'x'`},
		{`fetchUrl()`, `ReferenceError: fetchUrl is not defined`},
		{`const o = {}; o.listTransaction()`, `TypeError: Object has no member 'listTransaction'`},
	} {
		h := &hubtest.Host{}
		code := "try {\n" + c.code + "\n} catch (e) {\n" +
			"  return [`${e.name}: ${e.message}`, e instanceof (e.name === \"TypeError\" ? TypeError : ReferenceError), e.stack.split(\"\\n\")[1]]\n}"
		out := runJS(t, h, tools, code)
		var got []any
		if out.ExitCode != 0 || json.Unmarshal(out.Value, &got) != nil || len(got) != 3 {
			t.Errorf("%s: %d %s %s", c.code, out.ExitCode, out.Value, h.Stderr())
			continue
		}
		if msg, _ := got[0].(string); !strings.HasPrefix(msg, c.want) {
			t.Errorf("%s:\n got %q\nwant %q", c.code, msg, c.want)
		}
		if got[1] != true {
			t.Errorf("%s: not an instance of its class", c.code)
		}
		if frame, _ := got[2].(string); !strings.Contains(frame, "test.js:2:") {
			t.Errorf("%s: the stack's first frame is %q, want the script's line 2", c.code, frame)
		}
	}
}

// The hint changes no lookup that does not throw: feature checks, optional
// calls and chains, nullish defaults, inherited members, assignment. A
// call to a missing member evaluates its arguments first, as JavaScript
// does.
func TestMistypedMemberSemantics(t *testing.T) {
	tools := []abi.ToolInfo{{Name: "stripe/listTransactions"}, {Name: "stripe/charges/create"}, {Name: "a/b"}, {Name: "a/b/c"}}
	h := &hubtest.Host{}
	out := runJS(t, h, tools, `const r = [typeof stripe.listTransaction, "listTransaction" in stripe, stripe.listTransaction?.({}),
  stripe.listTransaction ?? 1, stripe.charge?.create({}), stripe.listTransaction ? 1 : 2, Boolean(stripe.listTransaction),
  stripe.hasOwnProperty("charges"), stripe.toString(), typeof a.b.call, typeof stripe_listTransaction,
  typeof globalThis.stripe_listTransaction, "stripe_listTransaction" in globalThis, stripe.charges.create.name]
stripe.listTransaction = () => "mine"
r.push(stripe.listTransaction(), typeof toString)
let n = 0, m
try { stripe.listTransaction2(n++, await stripe.listTransactions({n: n++})) } catch (e) { m = e.message }
r.push(n, m)
return r`)
	want := `["undefined",false,null,1,null,2,false,true,"[object Object]","function","undefined","undefined",false,"stripe_charges_create","mine","function",2,"stripe.listTransaction2 is not a function; did you mean stripe.listTransactions?"]`
	if out.ExitCode != 0 || string(out.Value) != want {
		t.Errorf("got  %d %s %s\nwant %s", out.ExitCode, out.Value, h.Stderr(), want)
	}
	if got := strings.Join(h.Methods(), " "); got != "stripe/listTransactions" {
		t.Errorf("called %q", got)
	}
}

// A missing member read into a variable and called later fails at the
// call, where nothing is looked up: the error, uncaught or rejecting a
// promise, names the member read, where, and the tool it is close to.
func TestMistypedMemberReadThenCalled(t *testing.T) {
	tools := []abi.ToolInfo{{Name: "stripe/listTransactions"}}
	h := &hubtest.Host{}
	out := runJS(t, h, tools, "const f = stripe.listTransaction\nawait f({})")
	want := "TypeError: Value is not an object: undefined; stripe.listTransaction (read at test.js:1:18) is undefined; did you mean stripe.listTransactions?"
	if out.ExitCode != 1 || !strings.HasPrefix(h.Stderr(), want) {
		t.Errorf("got %d %q\nwant %q", out.ExitCode, h.Stderr(), want)
	}
	h = &hubtest.Host{}
	out = runJS(t, h, tools, `async function list(p) { const f = stripe.listTransaction; return f(p) }
return await list({}).catch(e => e.message)`)
	want = `"Value is not an object: undefined; stripe.listTransaction (read at test.js:1:43) is undefined; did you mean stripe.listTransactions?"`
	if out.ExitCode != 0 || string(out.Value) != want {
		t.Errorf("got  %d %s %s\nwant %s", out.ExitCode, out.Value, h.Stderr(), want)
	}
	// Not close to a tool: goja's message alone.
	h = &hubtest.Host{}
	runJS(t, h, tools, "const f = stripe.refund\nf()")
	if want := "TypeError: Value is not an object: undefined\n"; !strings.HasPrefix(h.Stderr(), want) {
		t.Errorf("got %q, want %q", h.Stderr(), want)
	}
}
