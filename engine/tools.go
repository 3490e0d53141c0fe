package engine

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/cordonhq/cordon/internal/abi"
	jsonv2 "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
	jsonv1 "github.com/go-json-experiment/json/v1"
)

// Handler runs a tool call on the host. params is the JSON object the script
// passed, in canonical form: the exact bytes the policy decided on, with no
// two keys equal under Unicode case folding, no "__proto__" key, valid
// UTF-8, and only numbers that a float64 reads back exactly, written as
// JavaScript writes them (params that cannot be put in that form are
// refused with a ToolError of kind "invalid" before the policy runs). Any
// JSON reader, whether encoding/json into a struct or a map, json.Number,
// OPA or JavaScript, reads the same values from them. The result is marshaled to JSON (a json.RawMessage is passed
// through after validation); an error rejects the script's promise with a
// ToolError whose message includes err's text, so do not put secrets in it.
// A panicking handler becomes a tool error too.
type Handler func(ctx context.Context, params json.RawMessage) (any, error)

// Tool is a function the host offers to scripts.
type Tool struct {
	// Name is the method name scripts call and policies see. A tool name is
	// segments of letters, digits and "_ - :", separated by "/" or "." (no
	// empty segment, at most 256 bytes). Each tool has three forms of its
	// name: the registered name ("stripe/listTransactions"), the dotted
	// form, with every "/" written "." ("stripe.listTransactions"), and the
	// flat alias, with "_" for each of "/ . - :" ("stripe_listTransactions").
	// JavaScript calls the tool at its dotted path
	// (await stripe.listTransactions({...})) or by its alias; getToolInfo,
	// listTools(prefix) and the shell's tool command (and tool --help)
	// accept all three forms, with "/" and "." interchangeable; the policy
	// and the audit see the registered name. NewSandbox refuses, with an error of KindInvalid, two tools
	// that share a dotted form or an alias ("a.b" and "a/b"; "a/b_c" and
	// "a_b/c"), a name whose first segment or alias is a JavaScript global
	// or part of the sandbox API ("console.log", "JSON"), and a segment
	// named "__proto__", "constructor" or "prototype". A tool can also be
	// the namespace of longer names ("a/b" and "a/b/c" give a.b() and
	// a.b.c()).
	Name string
	// Description is shown to scripts by listTools() and getToolInfo().
	Description string
	// InputSchema is an optional JSON Schema of the params object. It is shown
	// to scripts and used by the shell's `tool` command to type its flags.
	InputSchema json.RawMessage
	// Handler runs the call. A tool without a handler can still be driven
	// through the step API (Execution.Next), where the caller answers.
	Handler Handler
}

// Func adapts a typed function to a Handler: params are decoded into P as
// encoding/json would, except that an object key matches a struct field
// only when it is spelled exactly as the field's JSON name (encoding/json
// also matches "AMOUNT", "Amount" and "\u212amount" to a field "amount",
// which is a key the policy never checked), and that duplicate keys and
// invalid UTF-8 are refused. Unknown fields are ignored; a type mismatch is
// a tool error.
//
// The engine hands every handler params in canonical form (no two keys
// equal under case folding, numbers a float64 reads exactly), so a Func
// handler reads the very values the policy decided on.
func Func[P, R any](f func(ctx context.Context, params P) (R, error)) Handler {
	return func(ctx context.Context, raw json.RawMessage) (any, error) {
		var p P
		if err := strictUnmarshal(raw, &p); err != nil {
			return nil, fmt.Errorf("invalid parameters: %w", err)
		}
		return f(ctx, p)
	}
}

// strictUnmarshal is encoding/json's Unmarshal with exact, case-sensitive
// key matching and no duplicate keys.
func strictUnmarshal(raw []byte, v any) error {
	return jsonv2.Unmarshal(raw, v,
		jsonv1.DefaultOptionsV1(),
		jsonv2.MatchCaseInsensitiveNames(false),
		jsonv1.MatchCaseSensitiveDelimiter(true),
		jsontext.AllowDuplicateNames(false),
		jsontext.AllowInvalidUTF8(false))
}

func (t Tool) validate() error {
	if err := abi.ValidateToolName(t.Name); err != nil {
		return &Error{Kind: KindInvalid, Message: err.Error()}
	}
	if len(t.InputSchema) > 0 {
		var schema map[string]any
		if err := json.Unmarshal(t.InputSchema, &schema); err != nil {
			return &Error{Kind: KindInvalid, Message: fmt.Sprintf("tool %q: input schema is not a JSON object", t.Name), Err: err}
		}
	}
	return nil
}
