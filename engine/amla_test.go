package engine_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/cordonhq/cordon/dsl"
	"github.com/cordonhq/cordon/engine"
	"github.com/cordonhq/cordon/engine/enginetest"
)

// amla-sandbox's README, in a sandbox with its example tools and its
// capability on stripe/charges/*: the examples run unchanged, shell() from
// JavaScript included, and the capability refuses what the README says it
// refuses.
func TestAmlaReadmeExamples(t *testing.T) {
	txns := []map[string]any{{"id": "txn_1", "disputed": false}, {"id": "txn_2", "disputed": true}}
	sb := enginetest.NewSandbox(t, engine.SandboxConfig{
		Tools: []engine.Tool{
			enginetest.Mock("stripe/listTransactions", txns),
			enginetest.Echo("stripe/charges/create"),
			{Name: "get_weather", Handler: func(_ context.Context, p json.RawMessage) (any, error) {
				var params struct{ City string }
				err := json.Unmarshal(p, &params)
				return map[string]any{"city": params.City, "temp": 72}, err
			}},
		},
		Policy: enginetest.Policy(t,
			dsl.Method("stripe/charges/*").Where(dsl.Param("amount").Le(10000), dsl.Param("currency").In("USD", "EUR")).MaxCalls(100),
			dsl.Method("stripe/listTransactions"), dsl.Method("get_weather"),
		),
	})
	for _, c := range []struct {
		lang         engine.Language
		code, stdout string
		exit         int
	}{
		{engine.JavaScript, `
    const txns = await stripe.listTransactions({customer: "cus_123"});
    await fs.writeFile('/workspace/txns.json', JSON.stringify(txns));
    const disputed = shell("grep 'disputed' /workspace/txns.json | head -1");
    console.log(disputed);
`, `[{"disputed":false,"id":"txn_1"},{"disputed":true,"id":"txn_2"}]` + "\n\n", 0},
		{engine.JavaScript, `
    const txns = await stripe.listTransactions({customer: "cus_123"});
    const disputed = txns.filter(t => t.disputed);
    console.log(disputed[0]);
`, "{ disputed: true, id: 'txn_2' }\n", 0},
		{engine.Shell, `
    tool stripe.listTransactions --customer cus_123 | jq '[.[] | select(.disputed)] | .[0]'
`, "{\n  \"disputed\": true,\n  \"id\": \"txn_2\"\n}\n", 0},
		{engine.JavaScript, `await stripe.charges.create({amount: 500, currency: "USD"})`, "", 0},
		{engine.JavaScript, `await stripe.charges.create({amount: 50000, currency: "USD"})`, "", 1},
		{engine.JavaScript, `const w = await get_weather({city: 'SF'}); console.log(w);`, "{ city: 'SF', temp: 72 }\n", 0},
		{engine.JavaScript, `return await get_weather({city: "SF"});`, `{"city":"SF","temp":72}` + "\n", 0},
		{engine.Shell, `echo 'hello' | tr 'a-z' 'A-Z'`, "HELLO\n", 0},
	} {
		res, err := sb.Execute(context.Background(), c.lang, c.code)
		if err != nil {
			t.Fatal(err)
		}
		out := res.Stdout // a returned value printed as cordon run prints it
		if res.ExitCode != c.exit || out != c.stdout {
			t.Errorf("%s:\n got %d %q %q\nwant %d %q", c.code, res.ExitCode, out, res.Stderr, c.exit, c.stdout)
		}
	}
}

// A mistyped member of a tool namespace, at every depth, names the tool
// meant in the error the script catches, in a sandbox as in the guest's
// tests; the shell's tool does the same.
func TestMistypedMemberHintsWhenCaught(t *testing.T) {
	sb := enginetest.NewSandbox(t, engine.SandboxConfig{Tools: []engine.Tool{listTransactions("stripe/listTransactions"), enginetest.Mock("a/b/c/list", 1)}})
	res := enginetest.Run(t, sb, `const out = []
for (const f of [() => stripe.listTransaction({customer: "c"}), () => a.b.c.lst({}), () => a.b.cc.list({}), () => stripe_listTransaction({})]) {
  try { await f() } catch (e) { out.push(e.name + ": " + e.message) }
}
return [typeof stripe.listTransaction, ...out]`)
	want := `["undefined","TypeError: stripe.listTransaction is not a function; did you mean stripe.listTransactions?",` +
		`"TypeError: a.b.c.lst is not a function; did you mean a.b.c.list?",` +
		`"TypeError: Cannot read property 'list' of a.b.cc, which is undefined; did you mean a.b.c.list?",` +
		`"ReferenceError: stripe_listTransaction is not defined; did you mean stripe_listTransactions?"]`
	if res.ExitCode != 0 || string(res.Value) != want || len(res.ToolCalls) != 0 {
		t.Errorf("got  %d %s %s (%d calls)\nwant %s", res.ExitCode, res.Value, res.Stderr, len(res.ToolCalls), want)
	}
	res = enginetest.RunShell(t, sb, `tool a.b.c.lst; tool stripe.refund`)
	if want := "tool: unknown tool \"a.b.c.lst\"; did you mean a.b.c.list?\ntool: unknown tool \"stripe.refund\"; the tools under stripe are stripe.listTransactions\n"; res.Stderr != want {
		t.Errorf("shell: got %q, want %q", res.Stderr, want)
	}
	if strings.Contains(res.Stdout, "list") {
		t.Errorf("shell: stdout %q", res.Stdout)
	}
}
