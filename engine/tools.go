package engine

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"reflect"
	"strings"

	"github.com/cordonhq/cordon/dsl"
	"github.com/cordonhq/cordon/internal/abi"
	"github.com/cordonhq/cordon/policy/authz"
	jsonv2 "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
	jsonv1 "github.com/go-json-experiment/json/v1"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

// Handler runs a tool call on the host. params is the JSON object the script
// passed, in canonical form: the exact bytes the policy decided on, with no
// two keys equal under Unicode case folding, no "__proto__" key, valid
// UTF-8, and only numbers that a float64 reads back exactly, written as
// JavaScript writes them (params that cannot be put in that form are
// refused with a ToolError of kind "invalid" before the policy runs). Any
// JSON reader, whether encoding/json into a struct or a map, [json.Number],
// OPA or JavaScript, reads the same values from them. The result is marshaled to JSON (a [json.RawMessage] is passed
// through after validation); an error rejects the script's promise with a
// ToolError: a *ToolError's kind and message are what the script sees, and
// any other error is shown only as "internal error", its text kept for the
// host ([ToolCall.Cause], the audit), so that secrets in error messages do
// not reach the model. A panicking handler becomes a tool error too. ctx carries the call's
// CallInfo (CallFrom): one handler can serve many tools.
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
	// and the audit see the registered name. NewSandbox refuses, with an
	// error of KindInvalid, two tools that share a dotted form or an alias
	// ("a.b" and "a/b"; "a/b_c" and "a_b/c"), a name whose first segment
	// or alias is a JavaScript global or part of the sandbox API
	// ("console.log", "JSON"), and a segment named "__proto__",
	// "constructor" or "prototype". A tool can also be the namespace of
	// longer names ("a/b" and "a/b/c" give a.b() and a.b.c()).
	Name string
	// Description is shown to scripts by listTools() and getToolInfo().
	Description string
	// InputSchema is an optional JSON Schema of the params object (draft
	// 2020-12 unless its $schema names draft 2019-09, 7, 6 or 4). The host
	// checks every call against it, whichever way the script made the call
	// (JS, the shell's `tool`, a nested interpreter) and under the step API
	// too, after the params are put in canonical form and before the policy
	// runs: a call that violates it fails in the script with a ToolError of
	// kind "invalid" whose reasons name each param and rule ("amount:
	// expected number, got string"), and is neither decided nor handled.
	// It is compiled once, by NewSandbox, which refuses a malformed schema
	// and one that refers to another document ($ref to a URL or a file: no
	// schema is ever loaded from the network or the disk) with an error of
	// KindInvalid naming the tool. "format" is an annotation, as draft
	// 2020-12 says, and "pattern" is a Go (RE2) regular expression. The
	// schema is also shown to scripts (listTools, getToolInfo, `tool
	// --help`) and types the shell's `tool` flags.
	InputSchema json.RawMessage
	// OutputSchema is an optional JSON Schema of the tool's result, shown to
	// scripts so that they know what a call returns. It must be a JSON
	// object; results are not checked against it.
	OutputSchema json.RawMessage
	// Handler runs the call. A tool without a handler can still be driven
	// through the step API ([Execution.Next]), where the caller answers.
	Handler Handler
	// Policy, when set, is what the policy sees of the tool as input.tool:
	// for a tool imported from an MCP server (package mcptools), the
	// server's name and the tool's annotations.
	Policy *authz.ToolInfo
	// Labels are the tool's flow labels ("private", "untrusted", "egress":
	// names the host's configuration chooses; letters, digits and
	// "_ - . :"). The policy sees them as input.tool.labels, and, for each
	// label, the number of calls to tools with it that were allowed so far
	// in the call counters' scope as input.session.flow.labels: a flow
	// rule ([dsl.Capability.UnlessTouched], or Rego) can then refuse
	// egress after a private read, which no rule on one call can see.
	// The history is kept with the call counters, in their store and
	// scope, so a sandbox that replaces another keeps it.
	Labels []string
	// Prepare, when set, turns the params the script sent into the params
	// the policy decides on, the audit records and the Handler receives:
	// it parses them once, on the host, so that the policy sees the parts
	// the handler acts on and no second parser reads the script's bytes
	// differently (package egress parses a URL into scheme, host, port,
	// path and query). It runs after the InputSchema check, which is of
	// the params the script sent, and before the policy; its result is
	// put in canonical form again. An error refuses the call with a
	// ToolError of kind "invalid": a *ToolError's message is what the
	// script sees, any other error's text too (Prepare describes bad
	// input, and must not put secrets in its errors). Prepare runs while
	// the execution's calls are being accepted, so it must be quick and
	// must not call out.
	Prepare func(ctx context.Context, params json.RawMessage) (json.RawMessage, error)
	// Fetch marks the tool that network requests go through: JavaScript's
	// fetch and the shell's curl and wget call it, with the params of
	// package egress. At most one tool of a sandbox may have it; without
	// one, fetch, curl and wget fail saying that network access is not
	// enabled (see package egress, which makes such a tool).
	Fetch bool
}

// tool is a registered tool with its compiled input schema (nil when it
// has none).
type tool struct {
	Tool
	schema *jsonschema.Schema
	// info is what the policy sees as input.tool: Tool.Policy with the
	// tool's labels, or nil when there is neither.
	info *authz.ToolInfo
}

// Func adapts a typed function to a Handler: params are decoded into P as
// encoding/json would, except that an object key matches a struct field
// only when it is spelled exactly as the field's JSON name (encoding/json
// also matches "AMOUNT", "Amount" and "\u212amount" to a field "amount",
// which is a key the policy never checked), and that duplicate keys and
// invalid UTF-8 are refused. Unknown fields are ignored; a type mismatch is
// a tool error of kind "failed" that names the param and the type it needed
// in JSON's terms ("invalid parameters: n: expected integer, got string"),
// not Go's. Give the tool an InputSchema to have such calls refused before
// the policy runs, with kind "invalid".
//
// The engine hands every handler params in canonical form (no two keys
// equal under case folding, numbers a float64 reads exactly), so a Func
// handler reads the very values the policy decided on.
func Func[P, R any](f func(ctx context.Context, params P) (R, error)) Handler {
	return func(ctx context.Context, raw json.RawMessage) (any, error) {
		var p P
		if err := strictUnmarshal(raw, &p); err != nil {
			return nil, &ToolError{Message: "invalid parameters: " + decodeError(err).Error()}
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
	for _, l := range t.Labels {
		if err := dsl.CheckLabel(l); err != nil {
			return &Error{Kind: KindInvalid, Message: fmt.Sprintf("tool %q: %v", t.Name, err)}
		}
	}
	if len(t.InputSchema) > 0 {
		var schema map[string]any
		if err := json.Unmarshal(t.InputSchema, &schema); err != nil {
			return &Error{Kind: KindInvalid, Message: fmt.Sprintf("tool %q: input schema is not a JSON object", t.Name), Err: err}
		}
	}
	if len(t.OutputSchema) > 0 {
		var schema map[string]any
		if err := json.Unmarshal(t.OutputSchema, &schema); err != nil || schema == nil {
			return &Error{Kind: KindInvalid, Message: fmt.Sprintf("tool %q: output schema is not a JSON object", t.Name)}
		}
	}
	return nil
}

// decodeError rewords encoding/json's type errors in JSON's terms: the
// param as the policy names it (items/0/sku) and the JSON type it needed,
// with no Go type names ("json: cannot unmarshal string into Go struct
// field .n of type int" becomes "n: expected integer, got string").
func decodeError(err error) error {
	var te *jsonv1.UnmarshalTypeError
	if !errors.As(err, &te) || te.Type == nil {
		return err
	}
	param := strings.ReplaceAll(te.Field, ".", "/")
	if param == "" {
		param = "params"
	}
	got, isNumber := strings.CutPrefix(te.Value, "number ")
	switch {
	case isNumber:
	case te.Value == "bool":
		got = "boolean"
	default:
		got = te.Value
	}
	want := jsonTypeName(te.Type, isNumber)
	if want == "" {
		return fmt.Errorf("%s: cannot be %s", param, got)
	}
	return fmt.Errorf("%s: expected %s, got %s", param, want, got)
}

// jsonTypeName names the JSON a Go type decodes from; for an integer type
// given a number that does not fit, with its range.
func jsonTypeName(t reflect.Type, gotNumber bool) string {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		if gotNumber {
			shift := 64 - t.Bits()
			return fmt.Sprintf("integer from %d to %d", int64(math.MinInt64)>>shift, int64(math.MaxInt64)>>shift)
		}
		return "integer"
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		if gotNumber {
			return fmt.Sprintf("integer from 0 to %d", uint64(math.MaxUint64)>>(64-t.Bits()))
		}
		return "integer"
	case reflect.Float32, reflect.Float64:
		return "number"
	case reflect.String:
		return "string"
	case reflect.Bool:
		return "boolean"
	case reflect.Slice:
		if t.Elem().Kind() == reflect.Uint8 {
			return "base64 string"
		}
		return "array"
	case reflect.Array:
		return "array"
	case reflect.Map, reflect.Struct:
		return "object"
	}
	return ""
}
