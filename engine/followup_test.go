package engine_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"testing"

	"github.com/cordonhq/cordon/dsl"
	"github.com/cordonhq/cordon/engine"
	"github.com/cordonhq/cordon/engine/enginetest"
)

// hopTool is a tool whose Prepare splits "to" at ":" into host and path,
// and whose handler asks FollowUp about each of the hops named in "hops"
// before answering with the hosts it was allowed to reach.
func hopTool() engine.Tool {
	return engine.Tool{
		Name:        "net/get",
		InputSchema: json.RawMessage(`{"type":"object","properties":{"to":{"type":"string"},"hops":{"type":"array","items":{"type":"string"}}},"required":["to"]}`),
		Prepare: func(ctx context.Context, raw json.RawMessage) (json.RawMessage, error) {
			var p struct {
				To   string   `json:"to"`
				Hops []string `json:"hops"`
			}
			if err := json.Unmarshal(raw, &p); err != nil {
				return nil, err
			}
			host, path, ok := strings.Cut(p.To, ":")
			if !ok {
				return nil, &engine.ToolError{Message: "to: want HOST:PATH"}
			}
			return json.Marshal(map[string]any{"host": host, "path": path, "hops": p.Hops})
		},
		Handler: func(ctx context.Context, raw json.RawMessage) (any, error) {
			var p struct {
				Host string   `json:"host"`
				Hops []string `json:"hops"`
			}
			if err := json.Unmarshal(raw, &p); err != nil {
				return nil, err
			}
			reached := []string{p.Host}
			for _, h := range p.Hops {
				next, _ := json.Marshal(map[string]any{"to": h})
				got, err := engine.FollowUp(ctx, next)
				if err != nil {
					return nil, err
				}
				var q struct{ Host string }
				if err := json.Unmarshal(got, &q); err != nil {
					return nil, err
				}
				reached = append(reached, q.Host)
			}
			return reached, nil
		},
	}
}

func TestPrepareIsWhatThePolicyAndHandlerSee(t *testing.T) {
	var mu sync.Mutex
	var audit []engine.AuditRecord
	sb := enginetest.NewSandbox(t, engine.SandboxConfig{
		Tools:  []engine.Tool{hopTool()},
		Policy: enginetest.Policy(t, dsl.Method("net/get").Where(dsl.Param("host").Eq("good"))),
		Audit:  func(r engine.AuditRecord) { mu.Lock(); audit = append(audit, r); mu.Unlock() },
	})
	res := enginetest.Run(t, sb, `
const out = []
out.push(JSON.stringify(await net.get({to: "good:/a"})))
for (const to of ["bad:/a", "nocolon", 7]) {
  try { await net.get({to}); out.push("allowed " + to) } catch (e) { out.push(e.kind + " " + e.message) }
}
console.log(out.join("\n"))`)
	want := []string{
		`["good"]`,
		`denied`,
		`invalid tool net/get: to: want HOST:PATH`,
		`invalid`,
	}
	lines := strings.Split(strings.TrimSpace(res.Stdout), "\n")
	if len(lines) != len(want) {
		t.Fatalf("stdout:\n%s", res.Stdout)
	}
	for i, w := range want {
		if !strings.HasPrefix(lines[i], w) {
			t.Errorf("line %d = %q, want prefix %q", i, lines[i], w)
		}
	}
	mu.Lock()
	defer mu.Unlock()
	if len(audit) != 2 || string(audit[0].Params) != `{"hops":null,"host":"good","path":"/a"}` {
		t.Fatalf("audit records: %+v", audit)
	}
}

func TestFollowUpIsDecidedCountedAndAudited(t *testing.T) {
	var mu sync.Mutex
	var audit []engine.AuditRecord
	sb := enginetest.NewSandbox(t, engine.SandboxConfig{
		Tools: []engine.Tool{hopTool()},
		Policy: enginetest.Policy(t,
			dsl.Method("net/get").Where(dsl.Param("host").Eq("a")).MaxCalls(5),
			dsl.Method("net/get").Where(dsl.Param("host").Eq("b")),
			dsl.Method("net/get").Where(dsl.Param("host").Eq("ask")).Ask()),
		Audit: func(r engine.AuditRecord) { mu.Lock(); audit = append(audit, r); mu.Unlock() },
	})
	res := enginetest.Run(t, sb, `
const out = []
for (const hops of [["b:/", "a:/"], ["evil:/x"], ["ask:/"], ["a:/", "a:/"]]) {
  try { out.push(JSON.stringify(await net.get({to: "a:/", hops}))) } catch (e) { out.push(e.kind + ": " + e.message) }
}
console.log(out.join("\n"))`)
	lines := strings.Split(strings.TrimSpace(res.Stdout), "\n")
	if len(lines) != 4 {
		t.Fatalf("stdout:\n%s", res.Stdout)
	}
	if lines[0] != `["a","b","a"]` {
		t.Errorf("two allowed hops: %q", lines[0])
	}
	if !strings.HasPrefix(lines[1], "denied: ") || !strings.Contains(lines[1], "follow-up of net/get denied") {
		t.Errorf("a denied hop: %q", lines[1])
	}
	if !strings.Contains(lines[2], "approval required") {
		t.Errorf("an ask with no approver: %q", lines[2])
	}
	// The limit of 5 calls to host a counts the hops: the fourth script
	// call's first hop is the sixth charge to it (calls 1, 1's second
	// hop, 2, 3, 4).
	if !strings.HasPrefix(lines[3], "denied: ") || !strings.Contains(lines[3], "max_calls 5 used up") {
		t.Errorf("hops over the call limit: %q", lines[3])
	}
	mu.Lock()
	defer mu.Unlock()
	followUps := 0
	for _, r := range audit {
		if r.FollowUpOf != "" {
			followUps++
			found := false
			for _, o := range audit {
				found = found || (o.DecisionID == r.FollowUpOf && o.FollowUpOf == "")
			}
			if !found {
				t.Errorf("follow-up %s names decision %s, which is no script call's", r.DecisionID, r.FollowUpOf)
			}
		}
	}
	if followUps < 4 {
		t.Errorf("%d follow-up audit records, want at least 4: %+v", followUps, audit)
	}
}

func TestFollowUpOutsideAHandler(t *testing.T) {
	_, err := engine.FollowUp(context.Background(), json.RawMessage(`{}`))
	var te *engine.ToolError
	if !errors.As(err, &te) || te.Kind != "denied" {
		t.Fatalf("FollowUp without a call: %v", err)
	}
}

func TestAtMostOneFetchTool(t *testing.T) {
	_, err := enginetest.Engine(t).NewSandbox(context.Background(), engine.SandboxConfig{Tools: []engine.Tool{
		{Name: "a", Fetch: true}, {Name: "b", Fetch: true},
	}})
	if err == nil || !strings.Contains(err.Error(), "both marked Fetch") {
		t.Fatalf("two Fetch tools: %v", err)
	}
}
