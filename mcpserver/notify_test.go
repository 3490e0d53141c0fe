//lint:file-ignore SA1019 The server speaks the protocol versions before 2026-07-28, in which logging is not deprecated.

package mcpserver_test

import (
	"context"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/cordonhq/cordon/dsl"
	"github.com/cordonhq/cordon/engine"
	"github.com/cordonhq/cordon/engine/enginetest"
	"github.com/cordonhq/cordon/mcpserver"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The server advertises logging, and a client that sets a level gets each
// denial and a summary of each run as log notifications.
func TestLogNotifications(t *testing.T) {
	srv := serve(t, mcpserver.Options{Principal: "local"}, engine.SandboxConfig{Tools: whoTools(), Policy: enginetest.Policy(t, dsl.Method("who/*"))}, nil)
	var mu sync.Mutex
	var logs []*mcp.LoggingMessageParams
	c := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, &mcp.ClientOptions{
		LoggingMessageHandler: func(_ context.Context, r *mcp.LoggingMessageRequest) {
			mu.Lock()
			logs = append(logs, r.Params)
			mu.Unlock()
		},
	})
	st, ct := mcp.NewInMemoryTransports()
	go srv.Run(context.Background(), st)
	cs, err := c.Connect(context.Background(), ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	if cs.InitializeResult().Capabilities.Logging == nil {
		t.Fatal("the server does not advertise logging")
	}
	if err := cs.SetLoggingLevel(context.Background(), &mcp.SetLoggingLevelParams{Level: "info"}); err != nil {
		t.Fatal(err)
	}
	js(t, cs, `try { await inventory.lookup({sku: "A1"}) } catch (e) {} return 1`)
	deadline := time.Now().Add(5 * time.Second)
	for {
		mu.Lock()
		n := len(logs)
		mu.Unlock()
		if n >= 2 || time.Now().After(deadline) {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(logs) != 2 || logs[0].Level != "warning" || logs[1].Level != "info" {
		t.Fatalf("logs %+v", logs)
	}
	if d, _ := logs[0].Data.(map[string]any); d["method"] != "inventory/lookup" {
		t.Fatalf("denial log %+v", logs[0].Data)
	}
}

// Each SSE stream over HTTP starts with a retry field and a priming event
// with an id, as the specification recommends.
func TestSSEPrimingAndRetry(t *testing.T) {
	_, url := httpServer(t, mcpserver.Options{})
	req, _ := http.NewRequest("POST", url, strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Authorization", "Bearer "+tokenA)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	s := string(body)
	if resp.Header.Get("Content-Type") != "text/event-stream" || !strings.HasPrefix(s, "retry: ") {
		t.Fatalf("%s %q", resp.Header.Get("Content-Type"), s)
	}
	prime := strings.Index(s, "event: prime\nid: ")
	msg := strings.Index(s, `"result"`)
	if prime < 0 || msg < prime {
		t.Fatalf("no priming event before the response: %q", s)
	}
}
