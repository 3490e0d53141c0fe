package tracing_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/cordonhq/cordon/dsl"
	"github.com/cordonhq/cordon/engine"
	"github.com/cordonhq/cordon/engine/enginetest"
	"github.com/cordonhq/cordon/fleet/tracing"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
)

func attrs(s sdktrace.ReadOnlySpan) map[attribute.Key]attribute.Value {
	m := map[attribute.Key]attribute.Value{}
	for _, kv := range s.Attributes() {
		m[kv.Key] = kv.Value
	}
	return m
}

// An execution is one span, a child of the caller's, and each handler that
// runs is a span under it; a handler's error and an execution that does
// not end well are errors.
func TestSpans(t *testing.T) {
	rec := tracetest.NewSpanRecorder()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(rec))
	t.Cleanup(func() { tp.Shutdown(context.Background()) })
	tr := tp.Tracer("cordon-test")

	tools := tracing.Tools(tr, []engine.Tool{
		enginetest.Echo("files/write"),
		enginetest.Failing("files/broken", errors.New("the disk is on fire")),
		enginetest.Echo("files/delete"),
	})
	sb := enginetest.NewSandbox(t, engine.SandboxConfig{
		ID:        "s-traced",
		Principal: "alice",
		Tools:     tools,
		Policy:    enginetest.Policy(t, dsl.Method("files/write"), dsl.Method("files/broken")),
		Limits:    engine.Limits{Timeout: enginetest.Scale(t, 10*time.Second)},
	})
	spinner := enginetest.NewSandbox(t, engine.SandboxConfig{Limits: engine.Limits{Timeout: 300 * time.Millisecond}})
	ctx, parent := tr.Start(context.Background(), "request")
	res, err := tracing.Execute(ctx, tr, sb, engine.JavaScript, `
await files.write({path: "/a"});
try { await files.broken({}) } catch (e) {}
try { await files.delete({}) } catch (e) {}
console.log("done")`)
	if err != nil || res.ExitCode != 0 {
		t.Fatalf("%v %+v", err, res)
	}
	if _, err := tracing.Execute(ctx, tr, spinner, engine.Shell, `while :; do :; done`); engine.KindOf(err) != engine.KindTimeout {
		t.Fatalf("the endless loop: %v", err)
	}
	parent.End()

	spans := rec.Ended()
	var execs, calls []sdktrace.ReadOnlySpan
	for _, s := range spans {
		switch s.Name() {
		case tracing.SpanExecution:
			execs = append(execs, s)
		case tracing.SpanToolCall:
			calls = append(calls, s)
		}
	}
	if len(execs) != 2 || len(calls) != 2 {
		t.Fatalf("%d execution spans and %d tool-call spans, want 2 and 2 (a denied call runs no handler)", len(execs), len(calls))
	}
	ok, timedOut := execs[0], execs[1]
	if ok.Parent().SpanID() != parent.SpanContext().SpanID() || ok.SpanContext().TraceID() != parent.SpanContext().TraceID() {
		t.Errorf("the execution's span is not a child of the caller's")
	}
	a := attrs(ok)
	if a[tracing.AttrOutcome].AsString() != "ok" || a[tracing.AttrToolCalls].AsInt64() != 3 || a[tracing.AttrDenied].AsInt64() != 1 ||
		a[tracing.AttrSession].AsString() != "s-traced" || a[tracing.AttrLanguage].AsString() != "js" || ok.Status().Code == codes.Error {
		t.Errorf("the execution's span: %v, status %v", a, ok.Status())
	}
	if a := attrs(timedOut); a[tracing.AttrOutcome].AsString() != "timeout" || timedOut.Status().Code != codes.Error {
		t.Errorf("the timed-out execution's span: %v, status %v", a, timedOut.Status())
	}
	for i, c := range calls {
		if c.Parent().SpanID() != ok.SpanContext().SpanID() {
			t.Errorf("tool call %d is not a child of its execution's span", i)
		}
		a := attrs(c)
		if a[tracing.AttrSession].AsString() != "s-traced" || a[tracing.AttrPrincipal].AsString() != "alice" || a[tracing.AttrCallID].AsInt64() != int64(i+1) {
			t.Errorf("tool call %d: %v", i, a)
		}
		if !c.StartTime().After(ok.StartTime()) || c.EndTime().After(ok.EndTime()) {
			t.Errorf("tool call %d is not within its execution", i)
		}
	}
	if m := attrs(calls[0])[tracing.AttrMethod].AsString(); m != "files/write" || calls[0].Status().Code == codes.Error {
		t.Errorf("the first call: %s, %v", m, calls[0].Status())
	}
	if m := attrs(calls[1])[tracing.AttrMethod].AsString(); m != "files/broken" || calls[1].Status().Code != codes.Error || len(calls[1].Events()) == 0 {
		t.Errorf("the failing call: %s, %v, events %v", m, calls[1].Status(), calls[1].Events())
	}
}
