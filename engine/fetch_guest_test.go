package engine_test

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"

	"github.com/cordonhq/cordon/dsl"
	"github.com/cordonhq/cordon/engine"
	"github.com/cordonhq/cordon/engine/enginetest"
	"github.com/cordonhq/cordon/internal/abi"
)

// fakeFetch is a tool marked Fetch whose handler answers every request
// with a canned abi.FetchResponse, and records the requests it got.
type fakeFetch struct {
	mu   sync.Mutex
	reqs []abi.FetchRequest
}

func (f *fakeFetch) tool() engine.Tool {
	return engine.Tool{
		Name:        "http/fetch",
		Description: "HTTP requests.",
		Fetch:       true,
		Handler: func(ctx context.Context, params json.RawMessage) (any, error) {
			var req abi.FetchRequest
			if err := json.Unmarshal(params, &req); err != nil {
				return nil, err
			}
			f.mu.Lock()
			f.reqs = append(f.reqs, req)
			f.mu.Unlock()
			if strings.HasSuffix(req.URL, "/missing") {
				return abi.FetchResponse{Status: 404, StatusText: "Not Found", URL: req.URL, Headers: [][2]string{{"content-type", "text/plain"}}, Body: "gone\n"}, nil
			}
			return abi.FetchResponse{
				Status: 200, StatusText: "OK", URL: req.URL,
				Headers: [][2]string{{"content-type", "application/json"}, {"x-req-method", req.Method}},
				Body:    `{"items":[1,2,3]}`,
			}, nil
		},
	}
}

func (f *fakeFetch) requests() []abi.FetchRequest {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]abi.FetchRequest(nil), f.reqs...)
}

// fetchSandbox is a sandbox with the fake fetch tool and a policy that
// allows requests to https://api.example.com/ only.
func fetchSandbox(t *testing.T, f *fakeFetch) *engine.Sandbox {
	return enginetest.NewSandbox(t, engine.SandboxConfig{
		Tools:  []engine.Tool{f.tool()},
		Policy: enginetest.Policy(t, dsl.Method("http/fetch").Where(dsl.Param("url").StartsWith("https://api.example.com/"))),
	})
}

func TestFetchGuestJavaScript(t *testing.T) {
	f := &fakeFetch{}
	sb := fetchSandbox(t, f)
	res := enginetest.Run(t, sb, `
		const r = await fetch("https://api.example.com/items", {method: "POST", headers: {"X-Token": "t"}, body: JSON.stringify({q: 1})})
		const body = await r.json()
		let denied
		try { await fetch("https://evil.example/steal") } catch (e) {
			denied = {name: e.name, message: e.message, kind: e.kind, reasons: e.reasons}
		}
		return {ok: r.ok, status: r.status, method: r.headers.get("X-Req-Method"), body, denied}
	`)
	if res.ExitCode != 0 {
		t.Fatalf("exit %d: %s %s", res.ExitCode, res.Exception, res.Stderr)
	}
	var got struct {
		OK     bool
		Status int
		Method string
		Body   struct{ Items []int }
		Denied struct {
			Name, Message, Kind string
			Reasons             []string
		}
	}
	if err := json.Unmarshal(res.Value, &got); err != nil {
		t.Fatalf("value %s: %v", res.Value, err)
	}
	if !got.OK || got.Status != 200 || got.Method != "POST" || len(got.Body.Items) != 3 {
		t.Errorf("response %s", res.Value)
	}
	if got.Denied.Name != "TypeError" || got.Denied.Kind != "denied" || len(got.Denied.Reasons) == 0 ||
		!strings.HasPrefix(got.Denied.Message, "fetch failed: tool http/fetch denied: ") {
		t.Errorf("denied request: %+v", got.Denied)
	}
	reqs := f.requests()
	if len(reqs) != 1 {
		t.Fatalf("the handler got %d requests, want 1 (the denied one must not reach it): %+v", len(reqs), reqs)
	}
	want := abi.FetchRequest{URL: "https://api.example.com/items", Method: "POST", Headers: [][2]string{{"X-Token", "t"}, {"Content-Type", "text/plain;charset=UTF-8"}}, Body: `{"q":1}`, Redirect: "follow"}
	if b, w := mustJSON(t, reqs[0]), mustJSON(t, want); b != w {
		t.Errorf("request %s\nwant    %s", b, w)
	}
	// Both calls are in the audit, the denied one with its reasons.
	if len(res.ToolCalls) != 2 || !res.ToolCalls[0].Allowed || res.ToolCalls[1].Allowed || res.ToolCalls[1].Method != "http/fetch" {
		t.Errorf("tool calls %+v", res.ToolCalls)
	}
}

func TestFetchGuestShell(t *testing.T) {
	f := &fakeFetch{}
	sb := fetchSandbox(t, f)
	res := enginetest.RunShell(t, sb, `
		curl -sS https://api.example.com/items | jq -c .items
		curl -s -o /dev/null -w '%{http_code}\n' https://api.example.com/missing
		curl -sSf https://api.example.com/missing; echo "fail $?"
		curl -sS -X DELETE -H 'X-A: 1' https://api.example.com/items/1 >/dev/null
		wget -qO- https://api.example.com/w | jq -c '.items | length'
		curl -sS https://evil.example/steal; echo "denied $?"
	`)
	if res.ExitCode != 0 {
		t.Fatalf("exit %d: %s", res.ExitCode, res.Stderr)
	}
	if want := "[1,2,3]\n404\nfail 22\n3\ndenied 7\n"; res.Stdout != want {
		t.Errorf("stdout %q, want %q", res.Stdout, want)
	}
	wantErr := "curl: (22) The requested URL returned error: 404\ncurl: (7) request denied by policy: "
	if !strings.HasPrefix(res.Stderr, wantErr) || strings.Contains(res.Stderr, "connect") {
		t.Errorf("stderr %q, want it to start %q", res.Stderr, wantErr)
	}
	reqs := f.requests()
	if len(reqs) != 5 {
		t.Fatalf("the handler got %d requests, want 5: %+v", len(reqs), reqs)
	}
	want := abi.FetchRequest{URL: "https://api.example.com/items/1", Method: "DELETE", Headers: [][2]string{{"User-Agent", "curl/8.5.0"}, {"Accept", "*/*"}, {"X-A", "1"}}, Redirect: "manual"}
	if b, w := mustJSON(t, reqs[3]), mustJSON(t, want); b != w {
		t.Errorf("request %s\nwant    %s", b, w)
	}
	if reqs[4].Redirect != "follow" || reqs[4].Method != "GET" {
		t.Errorf("wget's request %+v", reqs[4])
	}
}

func TestFetchGuestNotEnabled(t *testing.T) {
	sb := enginetest.NewSandbox(t, engine.SandboxConfig{
		Tools:  []engine.Tool{enginetest.Echo("echo")},
		Policy: enginetest.Policy(t, dsl.Method("echo")),
	})
	res := enginetest.Run(t, sb, `try { await fetch("https://example.com/") } catch (e) { return e.name + ": " + e.message }`)
	if want := `"TypeError: fetch: network access is not enabled in this sandbox (the host has configured no HTTP egress)"`; string(res.Value) != want {
		t.Errorf("value %s, want %s", res.Value, want)
	}
	res = enginetest.RunShell(t, sb, `curl -s https://example.com/; echo "curl $?"; wget -q https://example.com/; echo "wget $?"`)
	if want := "curl 2\nwget 1\n"; res.Stdout != want {
		t.Errorf("stdout %q, want %q", res.Stdout, want)
	}
	if want := "curl: network access is not enabled in this sandbox\nwget: network access is not enabled in this sandbox\n"; res.Stderr != want {
		t.Errorf("stderr %q, want %q", res.Stderr, want)
	}
	if len(res.ToolCalls) != 0 {
		t.Errorf("tool calls %+v", res.ToolCalls)
	}
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
