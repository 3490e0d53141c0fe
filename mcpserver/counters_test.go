package mcpserver_test

import (
	"strings"
	"sync"
	"testing"

	"github.com/cordonhq/cordon/counters"
	"github.com/cordonhq/cordon/dsl"
	"github.com/cordonhq/cordon/engine"
	"github.com/cordonhq/cordon/engine/enginetest"
	"github.com/cordonhq/cordon/mcpserver"
	"github.com/cordonhq/cordon/policy"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// lookups runs a script that tries n lookups over cs and returns how many
// the policy allowed.
func lookups(t *testing.T, cs *mcp.ClientSession, n string) string {
	t.Helper()
	_, r := js(t, cs, `let ok = 0
for (let i = 0; i < `+n+`; i++) { try { await inventory.lookup({sku: "A1"}); ok++ } catch (e) {} }
return ok`)
	return string(r.Value)
}

// Over HTTP the counters are the principal's: a reconnect, a second
// session at the same time, or a session whose guest died all continue
// from the same counts; another principal has its own; the policy and the
// handler see the principal.
func TestHTTPCountersHoldAcrossSessions(t *testing.T) {
	pol := enginetest.NewPolicy(t, policy.Config{
		Capabilities: []*dsl.Capability{dsl.Method("inventory/*").MaxCalls(4), dsl.Method("who/*")},
		Modules: map[string]string{"p.rego": `package cordon.authz
deny contains "only alice and bob" if not input.session.principal in {"alice", "bob"}
`},
	})
	srv := serve(t, mcpserver.Options{Verifier: twoTokens}, engine.SandboxConfig{Tools: whoTools(), Policy: pol, Counters: engine.Counters{Scope: counters.PerPrincipal}, Limits: engine.Limits{Timeout: 20 * 1e9}}, nil)
	url := serveHTTP(t, srv.HTTPHandler(nil))

	first := mustDial(t, url, tokenA)
	if got := lookups(t, first, "1"); got != "1" {
		t.Fatalf("first session: %s", got)
	}
	// The script kills its own guest; the session's next sandbox is new.
	if res, _ := js(t, first, `const a = []; while (true) a.push(new Uint8Array(32 << 20))`); !res.IsError {
		t.Fatal("the guest did not die")
	}
	if got := lookups(t, first, "1"); got != "1" {
		t.Fatalf("after the guest died: %s", got)
	}
	first.Close() // a reconnecting client
	var wg sync.WaitGroup
	var mu sync.Mutex
	total := 0
	for range 3 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			cs, err := dial(url, tokenA)
			if err != nil {
				t.Error(err)
				return
			}
			defer cs.Close()
			_, r := js(t, cs, `const rs = await Promise.allSettled([1,2,3].map(() => inventory.lookup({sku: "A1"})))
return rs.filter(r => r.status == "fulfilled").length`)
			n := 0
			for _, c := range string(r.Value) {
				n = n*10 + int(c-'0')
			}
			mu.Lock()
			total += n
			mu.Unlock()
		}()
	}
	wg.Wait()
	if total != 2 {
		t.Fatalf("alice's later sessions made %d lookups, want 2 (4 in all)", total)
	}
	bob := mustDial(t, url, tokenB)
	if got := lookups(t, bob, "9"); got != "4" {
		t.Fatalf("bob: %s lookups, want his own 4", got)
	}
	if _, r := js(t, bob, `return await who.ami({})`); !strings.Contains(string(r.Value), "bob") {
		t.Fatalf("who.ami: %s", r.Value)
	}
}
