package shellrt

import (
	"fmt"
	"strings"
	"testing"

	"github.com/cordonhq/cordon/guest/internal/hub/hubtest"
	"github.com/cordonhq/cordon/guest/internal/jsrt"
	"github.com/cordonhq/cordon/internal/abi"
	"github.com/cordonhq/cordon/vfs"
)

func runShTools(t *testing.T, tools []abi.ToolInfo, script string) (*hubtest.Host, Outcome) {
	t.Helper()
	h := newHost()
	out := Run(Options{Common: jsrt.Common{Host: h, FS: vfs.New(vfs.Limits{}), Tools: tools}}, "script.sh", script)
	return h, out
}

var stripeSchema = []byte(`{"type":"object","properties":{"customer":{"type":"string"},"limit":{"type":"integer"}},"required":["customer"]}`)

// tool accepts every form of a name that getToolInfo accepts: the
// registered name, its dotted form and its flat alias, for a name
// registered with "." or with "/"; and so does tool --help.
func TestToolCommandAcceptsEveryForm(t *testing.T) {
	for _, name := range []string{"stripe.listTransactions", "stripe/listTransactions"} {
		tools := []abi.ToolInfo{{Name: name, Schema: stripeSchema}}
		for _, form := range []string{"stripe/listTransactions", "stripe.listTransactions", "stripe_listTransactions"} {
			h, out := runShTools(t, tools, `tool `+form+` --customer cus_123 --limit 2 | jq -c .`)
			want := `{"method":"` + name + `","params":{"customer":"cus_123","limit":2}}` + "\n"
			if out.ExitCode != 0 || h.Stdout() != want {
				t.Errorf("%s as %s: got %d %q %q, want %q", name, form, out.ExitCode, h.Stdout(), h.Stderr(), want)
			}
			h, out = runShTools(t, tools, `tool --help `+form)
			if out.ExitCode != 0 || !strings.HasPrefix(h.Stdout(), "Usage: tool "+name+" --customer string [flags]\n") ||
				!strings.Contains(h.Stdout(), "\nIn JavaScript: stripe.listTransactions(...) or stripe_listTransactions(...)\n") {
				t.Errorf("--help %s for %s: got %d %q %q", form, name, out.ExitCode, h.Stdout(), h.Stderr())
			}
		}
		h, out := runShTools(t, tools, `tool --list stripe.; tool --list stripe/; tool --list stripe_`)
		if want := strings.Repeat(name+"\n", 3); out.ExitCode != 0 || h.Stdout() != want {
			t.Errorf("--list for %s: got %q, want %q", name, h.Stdout(), want)
		}
	}
}

// An unknown tool close to a registered one names it, in the form the
// script was closest to, at every depth; one close to none names the tools
// of its namespace.
func TestToolCommandUnknownToolHint(t *testing.T) {
	tools := []abi.ToolInfo{{Name: "stripe/listTransactions"}, {Name: "weather/current"}, {Name: "stripe/charges/create"}, {Name: "a/b/c/list"}}
	for i := 1; i <= 7; i++ {
		tools = append(tools, abi.ToolInfo{Name: fmt.Sprintf("many/t%d", i)})
	}
	for _, c := range []struct{ script, want string }{
		{`tool a.b.c.lst`, `tool: unknown tool "a.b.c.lst"; did you mean a.b.c.list?` + "\n"},
		{`tool a/b/cc/list`, `tool: unknown tool "a/b/cc/list"; did you mean a/b/c/list?` + "\n"},
		{`tool stripe.charge.create`, `tool: unknown tool "stripe.charge.create"; did you mean stripe.charges.create?` + "\n"},
		{`tool stripe.refund`, `tool: unknown tool "stripe.refund"; the tools under stripe are stripe.charges.create, stripe.listTransactions` + "\n"},
		{`tool stripe/charges`, `tool: unknown tool "stripe/charges"; the tools under stripe.charges are stripe.charges.create` + "\n"},
		{`tool a.b.c.list.x`, `tool: unknown tool "a.b.c.list.x"; did you mean a.b.c.list?` + "\n"},
		{`tool many/zzzzzzzzzz`, `tool: unknown tool "many/zzzzzzzzzz"; the tools under many include many.t1, many.t2, many.t3, many.t4, many.t5 (tool --list many lists all 7)` + "\n"},
		{`tool stripe.listTransaction --customer x`, `tool: unknown tool "stripe.listTransaction"; did you mean stripe.listTransactions?` + "\n"},
		{`tool stripe/listTransaction`, `tool: unknown tool "stripe/listTransaction"; did you mean stripe/listTransactions?` + "\n"},
		{`tool stripe_listtransactions`, `tool: unknown tool "stripe_listtransactions"; did you mean stripe_listTransactions?` + "\n"},
		{`tool --help wether.current`, `tool: unknown tool "wether.current"; did you mean weather.current?` + "\n"},
		{`tool nope/x`, `tool: unknown tool "nope/x" (tool --list shows the tools)` + "\n"},
	} {
		h, out := runShTools(t, tools, c.script)
		if out.ExitCode != 2 || h.Stderr() != c.want || len(h.Calls()) != 0 {
			t.Errorf("%s:\n got %d %q (%d calls)\nwant 2 %q", c.script, out.ExitCode, h.Stderr(), len(h.Calls()), c.want)
		}
	}
}

// tool --help shows how JavaScript calls the tool and a one-line summary
// of its output schema.
func TestToolHelpShowsReturns(t *testing.T) {
	tools := []abi.ToolInfo{
		{Name: "stripe/listTransactions", Description: "List a customer's transactions.", Schema: stripeSchema,
			OutputSchema: []byte(`{"type":"object","description":"One page of transactions.","required":["data"],"properties":{"has_more":{"type":"boolean"},"data":{"type":"array","items":{"type":"object","properties":{"id":{"type":"string"},"amount":{"type":"integer"},"status":{"enum":["paid","failed"]}}}},"next":{"type":["string","null"]}}}`)},
		{Name: "plain"},
		{Name: "my-tool/run", OutputSchema: []byte(`{"type":"array","items":{"anyOf":[{"type":"string"},{"type":"number"}]}}`)},
	}
	for _, c := range []struct{ name, want string }{
		{"stripe.listTransactions", "Usage: tool stripe/listTransactions --customer string [flags]\n\n  List a customer's transactions.\n\n" +
			"In JavaScript: stripe.listTransactions(...) or stripe_listTransactions(...)\n" +
			`Returns: {data: {amount: integer, id: string, status: "paid"|"failed"}[], has_more?: boolean, next?: string|null}  One page of transactions.` + "\n" +
			"\nFlags:\n"},
		{"plain", "Usage: tool plain\n\nIn JavaScript: plain(...)\n  --json"},
		{"my-tool/run", "Usage: tool my-tool/run\n\nIn JavaScript: my_tool_run(...)\nReturns: (string | number)[]\n  --json"},
	} {
		h, out := runShTools(t, tools, `tool --help `+c.name)
		if out.ExitCode != 0 || !strings.HasPrefix(h.Stdout(), c.want) {
			t.Errorf("--help %s:\n got %q\nwant %q...", c.name, h.Stdout(), c.want)
		}
	}
}
