//lint:file-ignore SA1019 The server speaks the protocol versions before 2026-07-28 (see legacyVersions), in which logging is not deprecated.

package mcpserver

import (
	"context"
	"fmt"
	"net/http"

	"github.com/cordonhq/cordon/codemode"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// logName is the logger name of the server's log notifications.
const logName = "cordon"

// logRun sends the client of ss the log notifications of one run, at the
// level the client chose with logging/setLevel (none until it does): a
// "warning" for each tool call the policy or the host refused, and an
// "info" summary of the run. Clients that show server logs then see
// denials as they happen, without reading the result.
func logRun(ctx context.Context, ss *mcp.ServerSession, tool string, r *codemode.Result) {
	if ss == nil || r == nil {
		return
	}
	denied := 0
	for _, c := range r.ToolCalls {
		if c.Allowed {
			continue
		}
		denied++
		_ = ss.Log(ctx, &mcp.LoggingMessageParams{Level: "warning", Logger: logName, Data: map[string]any{
			"event": "tool_call_denied", "tool": tool, "method": c.Method, "reasons": c.Reasons, "error": c.Error,
		}})
	}
	summary := map[string]any{
		"event": "run", "tool": tool, "exit_code": r.ExitCode,
		"tool_calls": len(r.ToolCalls), "denied": denied,
		"message": fmt.Sprintf("%s: exit %d, %d tool calls, %d refused", tool, r.ExitCode, len(r.ToolCalls), denied),
	}
	level := mcp.LoggingLevel("info")
	if r.Error != nil {
		summary["error"] = map[string]any{"kind": r.Error.Kind, "message": r.Error.Message}
		level = "notice"
	}
	_ = ss.Log(ctx, &mcp.LoggingMessageParams{Level: level, Logger: logName, Data: summary})
}

// DefaultSSERetry is the reconnection time, in milliseconds, that the
// server's SSE streams tell clients to wait before they resume a broken
// stream (the "retry" field).
const DefaultSSERetry = 2000

// sseRetry writes a "retry" field at the start of each SSE stream, before
// the SDK's priming event, so that a client knows how long to wait before
// it resumes a broken stream. It is a block of its own: a block with no
// data dispatches no event.
func sseRetry(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		next.ServeHTTP(&retryWriter{ResponseWriter: w}, r)
	})
}

// retryWriter is an [http.ResponseWriter] that starts an event stream's body
// with the retry field.
type retryWriter struct {
	http.ResponseWriter
	wrote bool
}

func (w *retryWriter) WriteHeader(code int) {
	if w.wrote {
		return
	}
	w.wrote = true
	w.ResponseWriter.WriteHeader(code)
	if code == http.StatusOK && w.Header().Get("Content-Type") == "text/event-stream" {
		fmt.Fprintf(w.ResponseWriter, "retry: %d\n\n", DefaultSSERetry)
	}
}

func (w *retryWriter) Write(p []byte) (int, error) {
	if !w.wrote {
		w.WriteHeader(http.StatusOK)
	}
	return w.ResponseWriter.Write(p)
}

// Flush flushes the underlying writer, as the SDK does after each event.
func (w *retryWriter) Flush() {
	if !w.wrote {
		w.WriteHeader(http.StatusOK)
	}
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// Unwrap returns the underlying writer, for [http.ResponseController].
func (w *retryWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }
