package mcpserver_test

import (
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/cordonhq/cordon/counters"
	"github.com/cordonhq/cordon/counters/redisstore"
	"github.com/cordonhq/cordon/counters/redisstore/redistest"
	"github.com/cordonhq/cordon/dsl"
	"github.com/cordonhq/cordon/engine"
	"github.com/cordonhq/cordon/engine/enginetest"
	"github.com/cordonhq/cordon/mcpserver"
	"github.com/cordonhq/cordon/policy"
)

// Two MCP servers over HTTP, each with its own client of one Redis counter
// store (two hosts behind a load balancer): one principal, calling code
// mode on both at once, gets exactly its max_calls in all; another
// principal has its own.
func TestHTTPQuotaHoldsAcrossServersOnRedis(t *testing.T) {
	redisURL := redistest.SharedURL(t)
	prefix := redistest.Prefix(t)
	const limit, sessionsPerServer, callsPerScript = 7, 2, 5
	var urls []string
	for range 2 {
		store, err := redisstore.Open(redisURL, redisstore.Options{Prefix: prefix})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { store.Close() })
		pol := enginetest.NewPolicy(t, policy.Config{
			Capabilities: []*dsl.Capability{dsl.Method("inventory/*").MaxCalls(limit), dsl.Method("who/*")},
		})
		srv := serve(t, mcpserver.Options{Verifier: twoTokens}, engine.SandboxConfig{
			Tools:    whoTools(),
			Policy:   pol,
			Counters: engine.Counters{Store: store, Scope: counters.PerPrincipal},
			Limits:   engine.Limits{Timeout: enginetest.Scale(t, 30*time.Second)},
		}, nil)
		urls = append(urls, serveHTTP(t, srv.HTTPHandler(nil)))
	}
	script := `const rs = await Promise.allSettled(Array.from({length: ` + strconv.Itoa(callsPerScript) + `}, () => inventory.lookup({sku: "A1"})))
for (const r of rs) if (r.status == "rejected" && r.reason.kind != "denied") throw r.reason
return rs.filter(r => r.status == "fulfilled").length`
	var wg sync.WaitGroup
	var mu sync.Mutex
	perServer := make([]int, len(urls))
	for i, url := range urls {
		for range sessionsPerServer {
			wg.Add(1)
			go func() {
				defer wg.Done()
				cs, err := dial(url, tokenA)
				if err != nil {
					t.Error(err)
					return
				}
				defer cs.Close()
				res, r := js(t, cs, script)
				n, err := strconv.Atoi(string(r.Value))
				if res.IsError || err != nil {
					t.Errorf("server %d: %s %s", i, r.Value, text(res))
					return
				}
				mu.Lock()
				perServer[i] += n
				mu.Unlock()
			}()
		}
	}
	wg.Wait()
	if t.Failed() {
		t.FailNow()
	}
	if total := perServer[0] + perServer[1]; total != limit {
		t.Fatalf("alice made %d lookups (per server %v), want %d in all", total, perServer, limit)
	}
	t.Logf("alice's lookups per server: %v", perServer)
	// Her quota is spent on both; bob's is his own.
	for i, url := range urls {
		if got := lookups(t, mustDial(t, url, tokenA), "2"); got != "0" {
			t.Errorf("server %d: alice made %s more lookups", i, got)
		}
	}
	if got := lookups(t, mustDial(t, urls[1], tokenB), "9"); got != strconv.Itoa(limit) {
		t.Errorf("bob: %s lookups, want his own %d", got, limit)
	}
}
