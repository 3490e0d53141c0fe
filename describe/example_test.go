package describe_test

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/cordonhq/cordon/describe"
	"github.com/cordonhq/cordon/dsl"
)

var chargeTool = describe.ToolSpec{
	Name:        "stripe/charges/create",
	Description: "Create a charge.",
	InputSchema: json.RawMessage(`{
		"type": "object",
		"properties": {
			"amount": {"type": "integer", "description": "In cents.", "minimum": 50},
			"currency": {"type": "string", "enum": ["usd", "eur"]},
			"metadata": {"type": "object", "additionalProperties": {"type": "string"}}
		},
		"required": ["amount", "currency"]
	}`),
	OutputSchema: json.RawMessage(`{"type": "object", "properties": {"id": {"type": "string"}, "status": {"type": "string", "enum": ["succeeded", "failed"]}}, "required": ["id", "status"]}`),
}

var chargeCaps = []*dsl.Capability{
	dsl.Method("stripe/charges/*").Where(dsl.Param("amount").Le(10000), dsl.Param("currency").In("usd")).MaxCalls(10),
	dsl.Method("stripe/charges/create").Ask(),
}

func ExampleDeclaration() {
	fmt.Println(describe.Declaration(chargeTool, describe.Options{Capabilities: chargeCaps}))
	// Output:
	// declare const stripe: {
	//   charges: {
	//     /**
	//      * Create a charge.
	//      *
	//      * Policy (the first rule that fits a call applies):
	//      * - amount <= 10000; currency in usd; at most 10 calls
	//      * - needs approval
	//      */
	//     create(params: {
	//       /** In cents. (integer, >= 50) */
	//       amount: number;
	//       currency: "usd" | "eur";
	//       metadata?: { [key: string]: string };
	//     }): Promise<{ id: string; status: "succeeded" | "failed" }>;
	//   };
	// };
	//
	// // The same functions under their flat aliases.
	// declare const stripe_charges_create: typeof stripe.charges.create;
}

func ExamplePolicy() {
	for _, line := range describe.Policy(chargeCaps, "stripe/charges/create", []string{"stripe/charges/create", "stripe/charges/refund"}) {
		fmt.Println(line)
	}
	// Output:
	// amount <= 10000; currency in usd; at most 10 calls, shared by all tools matching stripe/charges/*
	// needs approval
}

func ExampleShellUsage() {
	fmt.Println(describe.ShellUsage(chargeTool))
	// Output:
	// tool stripe/charges/create --amount <integer> --currency usd|eur [--metadata <json>]
}

func ExamplePrompt() {
	text := describe.Prompt([]describe.ToolSpec{chargeTool}, describe.Options{Capabilities: chargeCaps})
	// The whole text for the model: the rules, the declarations, the
	// shell usage, and an example whose params fit the policy.
	_, example, _ := strings.Cut(text, "## Example\n\n")
	fmt.Print(example)
	// Output:
	// ```js
	// const result = await stripe.charges.create({ amount: 50, currency: "usd" });
	// return result; // printed as JSON
	// ```
	//
	// ```sh
	// tool stripe/charges/create --amount 50 --currency usd | jq .
	// ```
}

func ExamplePrompt_compact() {
	var tools []describe.ToolSpec
	for _, name := range []string{"crm/contacts/search", "crm/contacts/get", "crm/deals/list"} {
		t := chargeTool
		t.Name, t.Description = name, "The "+name+" tool.\nMore about it."
		tools = append(tools, t)
	}
	// Over the budget, the tools are listed one line each.
	text := describe.Prompt(tools, describe.Options{MaxBytes: 3000, Language: describe.JavaScript})
	_, list, _ := strings.Cut(text, "## Tools\n\n")
	fmt.Print(list)
	// Output:
	// Only the names are listed here, to keep this short. Before calling a tool, read its params: getToolInfo("name") returns its TypeScript declaration (declaration), description, inputSchema and outputSchema; listTools(prefix) lists tools by prefix.
	//
	// - `crm.contacts.search({ amount, currency })` The crm/contacts/search tool.
	// - `crm.contacts.get({ amount, currency })` The crm/contacts/get tool.
	// - `crm.deals.list({ amount, currency })` The crm/deals/list tool.
}

func ExampleJSON() {
	b, err := describe.JSON([]describe.ToolSpec{chargeTool}, describe.Options{Capabilities: chargeCaps, Language: describe.Shell})
	if err != nil {
		panic(err)
	}
	var doc struct {
		Tools []struct {
			Name, Path, Alias, Shell string
			Policy                   []string
		}
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		panic(err)
	}
	for _, t := range doc.Tools {
		fmt.Printf("%s\n%s %s\n%s\n%q\n", t.Name, t.Path, t.Alias, t.Shell, t.Policy)
	}
	// Output:
	// stripe/charges/create
	// stripe.charges.create stripe_charges_create
	// tool stripe/charges/create --amount <integer> --currency usd|eur [--metadata <json>]
	// ["amount <= 10000; currency in usd; at most 10 calls" "needs approval"]
}

// The three texts a host gives a model: the whole prompt, the TypeScript
// declarations alone, and one tool's part.
func Example_texts() {
	tools, caps, tool := []describe.ToolSpec{chargeTool}, chargeCaps, chargeTool
	// region texts
	text := describe.Prompt(tools, describe.Options{Capabilities: caps}) // rules, declarations, shell usage, an example
	dts := describe.TypeScript(tools, describe.Options{})                // for tsc --noEmit --strict
	one := describe.Declaration(tool, describe.Options{})                // one tool's part, for discovery
	// endregion
	fmt.Println(strings.Contains(text, "## Example"), strings.Contains(dts, "declare function getToolInfo"), strings.HasPrefix(one, "declare const stripe"))
	// Output: true true true
}
