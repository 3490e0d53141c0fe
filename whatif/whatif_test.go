package whatif_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cordonhq/cordon/dsl"
	"github.com/cordonhq/cordon/engine"
	"github.com/cordonhq/cordon/policy/authz"
	"github.com/cordonhq/cordon/whatif"
)

func capPolicy(t *testing.T, caps ...*dsl.Capability) *authz.CapabilityPolicy {
	t.Helper()
	p, err := authz.New(caps)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func rec(method, params, decision string) whatif.Record {
	return whatif.Record{Source: "test", Session: "s1", Method: method, Params: json.RawMessage(params), Decision: decision}
}

func replay(t *testing.T, p *authz.CapabilityPolicy, recs []whatif.Record, opts whatif.Options) *whatif.Report {
	t.Helper()
	r, err := whatif.Replay(context.Background(), p, recs, opts)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestTightened(t *testing.T) {
	recs := []whatif.Record{
		rec("pay", `{"amount":50}`, "allow"),
		rec("pay", `{"amount":500}`, "allow"),
		rec("list", `{}`, "allow"),
	}
	recs[1].Capability = "old"
	p := capPolicy(t, dsl.Method("pay").Named("small").Where(dsl.Param("amount").Le(100)), dsl.Method("list"))
	r := replay(t, p, recs, whatif.Options{})
	if r.Total.Calls != 3 || r.Total.Changed != 1 || r.Total.AllowToDeny != 1 || !r.Changed() {
		t.Fatalf("total %+v", r.Total)
	}
	if c := r.ByMethod["pay"]; c == nil || c.Calls != 2 || c.AllowToDeny != 1 {
		t.Errorf("by method pay: %+v", c)
	}
	if c := r.ByMethod["list"]; c == nil || c.Calls != 1 || c.Changed != 0 {
		t.Errorf("by method list: %+v", c)
	}
	if c := r.ByCapability["old"]; c == nil || c.AllowToDeny != 1 {
		t.Errorf("by capability old: %+v", r.ByCapability)
	}
	if len(r.Changes) != 1 {
		t.Fatalf("changes %+v", r.Changes)
	}
	c := r.Changes[0]
	if c.Kind() != "allow→deny" || c.Method != "pay" || string(c.Params.JSON) != `{"amount":500}` || c.Old.Capability != "old" {
		t.Errorf("change %+v", c)
	}
	if len(c.New.Reasons) == 0 || !strings.Contains(strings.Join(c.New.Reasons, " "), "amount") {
		t.Errorf("new reasons %q do not name the constraint", c.New.Reasons)
	}
	var buf bytes.Buffer
	if err := r.WriteText(&buf); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"3 calls decided again", "1 changed (allow→deny 1)", "test  pay  allow→deny", `params: {"amount":500}`, "new: deny: "} {
		if !strings.Contains(buf.String(), want) {
			t.Errorf("text lacks %q:\n%s", want, buf.String())
		}
	}
}

func TestLoosenedAndAsk(t *testing.T) {
	recs := []whatif.Record{
		rec("pay", `{"amount":5000}`, "deny"),
		rec("pay", `{"amount":50}`, "allow"),
		rec("wire", `{}`, "ask"),
		rec("wire", `{}`, "ask"),
	}
	recs[0].Reasons = []string{"too much"}
	p := capPolicy(t, dsl.Method("pay").Where(dsl.Param("amount").Le(10)), dsl.Method("pay").Ask(), dsl.Method("wire").Named("wire").MaxCalls(1))
	r := replay(t, p, recs, whatif.Options{})
	want := whatif.Counts{Calls: 4, Changed: 4, ToAsk: 2, AskToAllow: 1, AskToDeny: 1}
	if r.Total != want {
		t.Fatalf("total %+v, want %+v", r.Total, want)
	}
	if k := r.Changes[0].Kind(); k != "deny→ask" || r.Changes[0].Old.Reasons[0] != "too much" {
		t.Errorf("first change %s %+v", k, r.Changes[0])
	}
	if c := r.ByCapability["wire"]; c == nil || c.AskToAllow != 1 {
		t.Errorf("by capability: %+v", r.ByCapability)
	}

	loose := capPolicy(t, dsl.Method("pay"))
	r = replay(t, loose, recs[:2], whatif.Options{})
	if r.Total.DenyToAllow != 1 || r.Total.Changed != 1 {
		t.Errorf("loosened: %+v", r.Total)
	}
}

// The counters are replayed in order: with max_calls 3, the 4th call of
// the method flips, and a refused ask gives its charge back.
func TestMaxCallsInOrder(t *testing.T) {
	var recs []whatif.Record
	for i := 1; i <= 5; i++ {
		recs = append(recs, rec("pay", fmt.Sprintf(`{"n":%d}`, i), "allow"))
	}
	p := capPolicy(t, dsl.Method("pay").MaxCalls(3))
	r := replay(t, p, recs, whatif.Options{})
	if r.Total.AllowToDeny != 2 || len(r.Changes) != 2 || string(r.Changes[0].Params.JSON) != `{"n":4}` {
		t.Fatalf("total %+v changes %+v", r.Total, r.Changes)
	}
	// Another session has counters of its own.
	recs[4].Session = "s2"
	if r := replay(t, p, recs, whatif.Options{}); r.Total.AllowToDeny != 1 {
		t.Errorf("per session: %+v", r.Total)
	}
	// Refused asks release their charge: none of them counts.
	ask := capPolicy(t, dsl.Method("pay").MaxCalls(3).Ask())
	for i := range recs {
		recs[i].Session, recs[i].Decision, recs[i].Refused = "s1", "ask", true
	}
	if r := replay(t, ask, recs, whatif.Options{}); r.Total.Changed != 0 {
		t.Errorf("refused asks were charged: %+v", r.Total)
	}
	// The default policy (nil) allows each method engine.DefaultMaxCalls
	// times.
	if r, err := whatif.Replay(context.Background(), nil, recs[:1], whatif.Options{}); err != nil || r.PolicyRevision != "default" || r.Total.AskToAllow != 1 {
		t.Errorf("default policy: %+v, %v", r, err)
	}
}

// Flow labels come from WithTools: after a "private" tool, egress stops.
func TestFlowLabels(t *testing.T) {
	recs := []whatif.Record{rec("db/read", `{}`, "allow"), rec("http/post", `{}`, "allow")}
	p := capPolicy(t, dsl.Method("db/*"), dsl.Method("http/*").UnlessTouched("private"))
	if r := replay(t, p, recs, whatif.Options{}); r.Total.Changed != 0 {
		t.Fatalf("without tool labels: %+v", r.Total)
	}
	tools := whatif.Options{Tools: func(m string) *authz.ToolInfo {
		if m == "db/read" {
			return &authz.ToolInfo{Labels: []string{"private"}}
		}
		return nil
	}}
	if r := replay(t, p, recs, tools); r.Total.AllowToDeny != 1 || r.Changes[0].Method != "http/post" {
		t.Errorf("with tool labels: %+v", r.Total)
	}
}

func TestParamsCutAndMaxChanges(t *testing.T) {
	big := `{"data":"` + strings.Repeat("x", 1000) + `"}`
	recs := []whatif.Record{rec("pay", big, "deny"), rec("pay", big, "deny"), rec("pay", big, "deny")}
	p := capPolicy(t, dsl.Method("pay"))
	r := replay(t, p, recs, whatif.Options{MaxChanges: 2})
	if len(r.Changes) != 2 || r.ChangesOmitted != 1 || r.Total.DenyToAllow != 3 {
		t.Fatalf("changes %d omitted %d total %+v", len(r.Changes), r.ChangesOmitted, r.Total)
	}
	e := r.Changes[0].Params
	if !e.Truncated || len(e.Text) > whatif.DefaultParamBytes || e.Bytes != len(big) {
		t.Errorf("params not cut to %d bytes: %+v", whatif.DefaultParamBytes, e)
	}
	r = replay(t, p, recs, whatif.Options{ParamBytes: 20})
	if len(r.Changes[0].Params.Text) > 20 {
		t.Errorf("params not cut to 20 bytes: %q", r.Changes[0].Params.Text)
	}
	var buf bytes.Buffer
	if err := r.WriteJSON(&buf); err != nil {
		t.Fatal(err)
	}
	var back whatif.Report
	if err := json.Unmarshal(buf.Bytes(), &back); err != nil || back.Total != r.Total || len(back.Changes) != 3 {
		t.Errorf("JSON round trip: %v %+v", err, back.Total)
	}
}

type panicky struct{ *authz.CapabilityPolicy }

func (panicky) Decide(context.Context, *authz.Input) (authz.Decision, error) { panic("boom") }

type failing struct{ *authz.CapabilityPolicy }

func (failing) Decide(context.Context, *authz.Input) (authz.Decision, error) {
	return authz.Decision{Allow: true}, errors.New("no data")
}

// A policy that panics or fails denies the call, as in the engine.
func TestPolicyFailureDenies(t *testing.T) {
	recs := []whatif.Record{rec("pay", `{}`, "allow")}
	base := capPolicy(t, dsl.Method("pay"))
	for _, p := range []engine.Policy{panicky{base}, failing{base}} {
		r, err := whatif.Replay(context.Background(), p, recs, whatif.Options{})
		if err != nil || r.Total.AllowToDeny != 1 || r.Changes[0].New.Error == "" {
			t.Errorf("%T: %+v %v", p, r, err)
		}
	}
}

func writeFile(t *testing.T, name, text string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

const logLine = `{"time":"2026-01-01T00:00:00Z","level":"INFO","msg":"cordon: tool call decision","session":"sb1","method":%q,"decision":%q,"reasons":null,"capability":"","policy_revision":"r1","params":{"json":%s,"bytes":%d,"sha256":"%s","truncated":false}}`

func line(method, decision, params string) string {
	sum := engine.NewExcerpt([]byte(params), 0).SHA256
	return fmt.Sprintf(logLine, method, decision, params, len(params), sum)
}

func TestReadAuditLog(t *testing.T) {
	text := strings.Join([]string{
		"cordon: compiling the sandbox",
		line("pay", "ask", `{"a":1}`),
		line("pay", "refused", `{"a":1}`),
		line("pay", "ask", `{"a":2}`),
		line("pay", "approved", `{"a":2}`),
		`{"time":"x","level":"WARN","msg":"something else"}`,
		line("pay", "allow", `{"a":3}`),
		line("pay", "failed", `{"a":3}`),
		`{"time":"x","level":"INFO","msg":"cordon: tool call decision","session":"sb1","method":"big","decision":"allow","params":{"text":"{\"d\":\"xx","bytes":99999,"sha256":"00","truncated":true}}`,
		"script stderr",
	}, "\n")
	name := writeFile(t, "audit.log", text)
	recs, err := whatif.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 4 {
		t.Fatalf("%d records: %+v", len(recs), recs)
	}
	if !recs[0].Refused || recs[1].Refused || recs[0].Source != name+":2" || recs[2].Decision != "allow" || recs[3].Skip == "" {
		t.Errorf("records %+v", recs)
	}
	r, err := whatif.Replay(context.Background(), capPolicy(t, dsl.Method("pay")), recs, whatif.Options{})
	if err != nil || r.Skipped != 1 || r.Total.Calls != 3 || r.Total.AskToAllow != 2 {
		t.Errorf("replay: %+v %v", r, err)
	}
}

// Two runs' logs both have a session sb1 (a sandbox id is unique only
// within its process): their counters are kept apart.
func TestCountersPerFile(t *testing.T) {
	text := line("pay", "allow", `{}`) + "\n" + line("pay", "allow", `{}`) + "\n"
	var recs []whatif.Record
	for _, name := range []string{"a.log", "b.log"} {
		r, err := whatif.ReadFile(writeFile(t, name, text))
		if err != nil {
			t.Fatal(err)
		}
		recs = append(recs, r...)
	}
	p := capPolicy(t, dsl.Method("pay").MaxCalls(2))
	if r := replay(t, p, recs, whatif.Options{}); r.Total.Calls != 4 || r.Total.Changed != 0 {
		t.Errorf("per file: %+v", r.Total)
	}
	for i := range recs {
		recs[i].Counters = ""
	}
	if r := replay(t, p, recs, whatif.Options{}); r.Total.AllowToDeny != 2 {
		t.Errorf("one session: %+v", r.Total)
	}
}

func TestReadTrace(t *testing.T) {
	tr := `{
  "version": 1, "language": "js", "code": "x", "session": "t1", "principal": "ada",
  "policy_revision": "r", "started": "2026-01-01T00:00:00Z", "duration_ns": 1, "vfs": {},
  "calls": [
    {"id": 1, "method": "pay", "params": {"a": 1}, "decision": "allow", "duration_ns": 1},
    {"id": 2, "method": "pay", "params": {"a": 2}, "decision": "ask", "outcome": "refused", "duration_ns": 1},
    {"id": 3, "method": "pay", "decision": "", "duration_ns": 1}
  ],
  "output": {"stdout": "", "stderr": "", "exit_code": 0}
}
`
	name := writeFile(t, "run.trace.json", tr)
	recs, err := whatif.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 2 || recs[1].Source != name+"#call 2" || !recs[1].Refused || recs[0].Principal != "ada" || recs[0].Session != "t1" || recs[0].Language != "js" {
		t.Errorf("records %+v", recs)
	}
}

// Bad input files are errors that name the file and the line, never a
// panic.
func TestBadInput(t *testing.T) {
	for _, c := range []struct{ name, text, want string }{
		{"empty", "", "is neither a trace nor an audit log"},
		{"prose", "hello\nworld\n", "is neither a trace nor an audit log"},
		{"brokenline", line("pay", "allow", `{}`) + "\n{\"msg\": \n", "brokenline:2: not an audit record"},
		{"brokenfirst", "{\"msg\":\"cordon: tool call decision\", \n" + line("pay", "allow", `{}`), "brokenfirst:1: not an audit record"},
		{"nomethod", `{"msg":"cordon: tool call decision","decision":"allow"}`, "nomethod:1: audit record without a method"},
		{"baddecision", `{"msg":"cordon: tool call decision","method":"m","decision":"maybe"}`, `baddecision:1: unknown decision "maybe"`},
		{"brokentrace", "{\n  \"version\": 1,\n  \"calls\": [,]\n}\n", "brokentrace:3: not a valid trace"},
		{"newtrace", `{"version": 99, "calls": []}`, "unsupported version"},
		{"badcall", "{\n\"version\": 1, \"language\": \"js\", \"code\": \"\", \"policy_revision\": \"r\", \"started\": \"2026-01-01T00:00:00Z\", \"duration_ns\": 0, \"vfs\": {}, \"output\": {\"stdout\":\"\",\"stderr\":\"\",\"exit_code\":0},\n\"calls\": [{\"id\": 2, \"method\": \"m\", \"decision\": \"allow\", \"duration_ns\": 0}]}", "call 1 has id 2"},
	} {
		p := writeFile(t, c.name, c.text)
		_, err := whatif.ReadFile(p)
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), p) || !errors.Is(err, whatif.ErrInput) {
			t.Errorf("%s: error %v, want one with %q and the file", c.name, err, c.want)
		}
	}
	if _, err := whatif.ReadFile(filepath.Join(t.TempDir(), "missing")); err == nil || !strings.Contains(err.Error(), "missing") {
		t.Errorf("missing file: %v", err)
	}
}

// The package links no OPA.
func TestNoOPA(t *testing.T) {
	gocmd, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command")
	}
	out, err := exec.Command(gocmd, "list", "-deps", "github.com/cordonhq/cordon/whatif").Output()
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range strings.Fields(string(out)) {
		if strings.Contains(p, "open-policy-agent") || p == "github.com/cordonhq/cordon/policy" {
			t.Errorf("whatif links %s", p)
		}
	}
}

// Whatever the input, Read returns records or an error, and Replay decides
// the records, without a panic.
func FuzzRead(f *testing.F) {
	f.Add([]byte(line("pay", "allow", `{"a":1}`) + "\n" + line("pay", "refused", `{"a":1}`)))
	f.Add([]byte(`{"version": 1, "language": "js", "code": "", "policy_revision": "r", "started": "2026-01-01T00:00:00Z", "duration_ns": 0, "vfs": {}, "output": {"stdout":"","stderr":"","exit_code":0}, "calls": [{"id": 1, "method": "m", "decision": "ask", "outcome": "refused", "duration_ns": 0}]}`))
	f.Add([]byte("{\n"))
	f.Add([]byte(`{"msg":"cordon: tool call decision","method":"m","decision":"deny","params":{"text":"{","bytes":1}}`))
	p, err := authz.New([]*dsl.Capability{dsl.Method("pay").MaxCalls(1).Where(dsl.Param("a").Le(1))})
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		recs, err := whatif.Read(bytes.NewReader(b), "in")
		if err != nil {
			if !errors.Is(err, whatif.ErrInput) || !strings.Contains(err.Error(), "in") {
				t.Fatalf("error %v", err)
			}
			return
		}
		if _, err := whatif.Replay(context.Background(), p, recs, whatif.Options{}); err != nil {
			t.Fatal(err)
		}
	})
}
