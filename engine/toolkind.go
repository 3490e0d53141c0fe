package engine

import (
	"errors"
	"fmt"

	"github.com/cordonhq/cordon/internal/abi"
)

// ErrResultTooLarge, matched (errors.Is) by the error a Handler returns,
// fails the call with a ToolError of kind "too_large" instead of "failed":
// the handler could not make a result within a limit, as when a tool's
// upstream server answered with more than the connection reads
// (mcptools.ErrTooLarge). The script sees the handler's error text, as for
// any handler error.
var ErrResultTooLarge = errors.New("engine: result too large")

// rejectTooLarge answers the call with a ToolError of kind "too_large"
// carrying err's message.
func (c *Call) rejectTooLarge(err error) {
	msg := fmt.Sprintf("tool %s: %v", c.Method, err)
	c.settleAsk(false, msg)
	c.answer(abi.CallResult{ID: c.id, ErrKind: abi.ToolTooLarge, ErrMsg: msg}, func(rec *ToolCall) { rec.Error = msg })
}
