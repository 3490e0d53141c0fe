package engine

import (
	"context"
	"errors"
	"fmt"

	"github.com/cordonhq/cordon/internal/abi"
)

// ToolError is an error a Handler returns (or passes to [Call.Reject]) to say
// what the script sees: the script, and so the model that wrote it, reads
// Kind and Message; Err, the full cause, stays on the host, in the
// execution's [ToolCall.Cause] and the audit record of the failure.
//
// Any other error a handler returns is shown to the script only as
// "internal error" with the call's number, so that a database password or
// an internal host name in an error message never reaches the model; the
// host still has the whole error. Errors of context (a canceled call, a
// deadline) are shown as such. Return a ToolError (ToolErrorf makes one)
// for what the script should know: "customer not found", "amount must be
// positive".
type ToolError struct {
	// Kind is the ToolError kind the script sees (e.kind in JavaScript):
	// "failed" (the default, when empty), "invalid" (the params are
	// wrong), "denied" (the host refuses) or "too_large" (the result, or
	// what the handler fetched to make it, is over a limit: an upstream
	// MCP server's answer over the frame limit, say). Any other kind is
	// "failed".
	Kind string
	// Message is what the script sees, after "tool NAME failed: ".
	Message string
	// Err is the cause, for the host only; it may be nil.
	Err error
}

// ToolErrorf returns a ToolError of kind "failed" whose message the script
// sees, formatted as by [fmt.Sprintf]. The %w verb is not special: use
// [ToolError.Err] for a cause the script must not see.
func ToolErrorf(format string, args ...any) error {
	return &ToolError{Message: fmt.Sprintf(format, args...)}
}

// Error returns the message, and the cause after it.
func (e *ToolError) Error() string {
	if e.Err != nil {
		return e.Message + ": " + e.Err.Error()
	}
	return e.Message
}

// Unwrap returns the cause.
func (e *ToolError) Unwrap() error { return e.Err }

// publicError returns the kind and the message the script sees for err, a
// handler's error or one given to [Call.Reject]; id numbers the call in the
// execution's records, so that the host can find the full error.
func publicError(err error, id int) (abi.ToolErrorKind, string) {
	var te *ToolError
	switch {
	case errors.As(err, &te):
		kind := abi.ToolFailed
		switch abi.ToolErrorKind(te.Kind) {
		case abi.ToolInvalid, abi.ToolDenied, abi.ToolTooLarge:
			kind = abi.ToolErrorKind(te.Kind)
		}
		msg := te.Message
		if msg == "" {
			msg = "the tool failed"
		}
		return kind, msg
	case errors.Is(err, context.DeadlineExceeded):
		return abi.ToolFailed, "the call ran out of time"
	case errors.Is(err, context.Canceled):
		return abi.ToolFailed, "the call was canceled"
	}
	return abi.ToolFailed, fmt.Sprintf("internal error (the host's record of call #%d has the details)", id)
}
