package engine

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/cordonhq/cordon/internal/abi"
)

// Handler runs a tool call on the host. params is the JSON object the script
// passed. The result is marshaled to JSON (a json.RawMessage is passed
// through after validation); an error rejects the script's promise with a
// ToolError whose message includes err's text, so do not put secrets in it.
// A panicking handler becomes a tool error too.
type Handler func(ctx context.Context, params json.RawMessage) (any, error)

// Tool is a function the host offers to scripts.
type Tool struct {
	// Name is the method name scripts call and policies see: slash-separated
	// segments of letters, digits and "_ - . :" (e.g. "stripe/charges/create").
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

// Func adapts a typed function to a Handler: params are decoded into P
// (unknown fields are ignored, a type mismatch is a tool error).
func Func[P, R any](f func(ctx context.Context, params P) (R, error)) Handler {
	return func(ctx context.Context, raw json.RawMessage) (any, error) {
		var p P
		if err := json.Unmarshal(raw, &p); err != nil {
			return nil, fmt.Errorf("invalid parameters: %w", err)
		}
		return f(ctx, p)
	}
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
