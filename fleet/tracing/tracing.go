// Package tracing makes OpenTelemetry spans of a host's script executions
// and of their tool calls, with OpenTelemetry's API alone: the embedder
// gives a trace.Tracer, from the TracerProvider and exporter of its
// choice, and nothing here picks or links an exporter. Package engine
// does not import it (nor OpenTelemetry).
//
// The spans:
//
//   - "cordon.execution" ([Execute]), around one execution, a child of
//     the span in the caller's context: its language, session, outcome
//     (engine.ExecutionStats.Outcome), exit code and number of tool
//     calls;
//   - "cordon.tool_call" ([Tools]), around each call of a tool's handler,
//     a child of the span in the handler's context, which is the
//     execution's (or, for a call the host runs itself with Call.Run, the
//     context it passes): the method, the call's id in its execution, the
//     session, principal, language and capability, and the handler's
//     error, if any.
//
// A call the policy denied runs no handler, so it has no span of its own;
// the execution's span counts it, and the audit and the decision log
// (package fleet) have it.
package tracing

import (
	"context"
	"encoding/json"
	"time"

	"github.com/cordonhq/cordon/engine"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"
)

// Span names.
const (
	SpanExecution = "cordon.execution"
	SpanToolCall  = "cordon.tool_call"
)

// Attribute keys.
const (
	AttrSession    = attribute.Key("cordon.session")
	AttrPrincipal  = attribute.Key("cordon.principal")
	AttrLanguage   = attribute.Key("cordon.language")
	AttrOutcome    = attribute.Key("cordon.outcome")
	AttrExitCode   = attribute.Key("cordon.exit_code")
	AttrToolCalls  = attribute.Key("cordon.tool_calls")
	AttrDenied     = attribute.Key("cordon.tool_calls.denied")
	AttrMethod     = attribute.Key("cordon.method")
	AttrCallID     = attribute.Key("cordon.call_id")
	AttrCapability = attribute.Key("cordon.capability")
)

// Tools returns copies of tools whose handlers each run in a span
// "cordon.tool_call", a child of the span in the handler's context. A tool
// without a handler is copied as it is.
func Tools(tr trace.Tracer, tools []engine.Tool) []engine.Tool {
	out := make([]engine.Tool, len(tools))
	for i, t := range tools {
		if h := t.Handler; h != nil {
			t.Handler = func(ctx context.Context, params json.RawMessage) (any, error) {
				ctx, span := tr.Start(ctx, SpanToolCall, trace.WithSpanKind(trace.SpanKindInternal))
				defer span.End()
				if c, ok := engine.CallFrom(ctx); ok {
					span.SetAttributes(
						AttrMethod.String(c.Method),
						AttrCallID.Int(c.ID),
						AttrSession.String(c.Session),
						AttrPrincipal.String(c.Principal),
						AttrLanguage.String(string(c.Language)),
						AttrCapability.String(c.Capability),
					)
				} else {
					span.SetAttributes(AttrMethod.String(t.Name))
				}
				res, err := h(ctx, params)
				if err != nil {
					span.RecordError(err)
					span.SetStatus(codes.Error, err.Error())
				}
				return res, err
			}
		}
		out[i] = t
	}
	return out
}

// Execute runs code in sb, as sb.Execute does, in a span
// "cordon.execution" that is the parent of its tool calls' spans (with
// handlers wrapped by [Tools]).
func Execute(ctx context.Context, tr trace.Tracer, sb *engine.Sandbox, lang engine.Language, code string, opts ...engine.ExecuteOption) (*engine.Result, error) {
	start := time.Now()
	ctx, span := tr.Start(ctx, SpanExecution, trace.WithTimestamp(start), trace.WithAttributes(
		AttrSession.String(sb.ID()),
		AttrLanguage.String(string(lang)),
	))
	res, err := sb.Execute(ctx, lang, code, opts...)
	st := engine.ExecutionStats{Session: sb.ID(), Language: lang, Start: start, Kind: engine.KindOf(err), Err: err, Result: res}
	End(span, st)
	return res, err
}

// End sets the attributes of an execution's span from what the engine
// says of the execution (its observer's [engine.ExecutionStats], or
// Execute's result), and ends it: for a host that starts the span itself,
// around the step API (Sandbox.Start, Execution.Next) or code mode.
func End(span trace.Span, s engine.ExecutionStats) {
	outcome := s.Outcome()
	span.SetAttributes(AttrOutcome.String(outcome))
	if r := s.Result; r != nil {
		denied := 0
		for _, c := range r.ToolCalls {
			if !c.Allowed {
				denied++
			}
		}
		span.SetAttributes(AttrExitCode.Int(r.ExitCode), AttrToolCalls.Int(len(r.ToolCalls)), AttrDenied.Int(denied))
	}
	switch {
	case s.Err != nil:
		span.RecordError(s.Err)
		span.SetStatus(codes.Error, s.Err.Error())
	case outcome != "ok":
		span.SetStatus(codes.Error, outcome)
	}
	span.End()
}
