package engine

import (
	"bytes"
	"encoding/json"
	"log/slog"
	"strings"
	"testing"
)

// Every decision is logged at Info (Warn for a denial), and costs nothing
// when the logger would drop it: a tool call pays for its audit line only
// when someone reads it.
func TestAuditLogging(t *testing.T) {
	rec := AuditRecord{Session: "sb-1", Method: "t", Decision: "allow", Reasons: []string{}, Params: json.RawMessage(`{"a":1}`)}
	var buf bytes.Buffer
	sb := &Sandbox{e: &Engine{cfg: Config{logger: slog.New(slog.NewTextHandler(&buf, nil))}}}
	sb.audit(rec)
	if got := buf.String(); !strings.Contains(got, "level=INFO") || !strings.Contains(got, "method=t") || !strings.Contains(got, "decision=allow") {
		t.Errorf("audit line %q", got)
	}
	buf.Reset()
	deny := rec
	deny.Decision = "deny"
	sb.audit(deny)
	if !strings.Contains(buf.String(), "level=WARN") {
		t.Errorf("denial logged as %q", buf.String())
	}
	quiet := &Sandbox{e: &Engine{cfg: Config{logger: slog.New(slog.DiscardHandler)}}}
	if n := testing.AllocsPerRun(100, func() { quiet.audit(rec) }); n != 0 {
		t.Errorf("a dropped audit line allocated %v times", n)
	}
}
