package egress_test

import (
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/cordonhq/cordon/dsl"
	"github.com/cordonhq/cordon/egress"
	"github.com/cordonhq/cordon/engine"
	"github.com/cordonhq/cordon/engine/enginetest"
)

// The flow example end to end: a script reads a private tool, then tries
// to send what it read out through each way out the sandbox has: fetch,
// curl, wget, an egress-labelled tool (an upstream MCP server's, say) and a
// nested interpreter. Before the read, each gets through; after it, each
// is refused, and the server receives nothing more.
func TestFlowNoEgressAfterPrivateRead(t *testing.T) {
	var hits atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		w.Write([]byte("ok"))
	}))
	defer srv.Close()
	_, port, _ := net.SplitHostPort(strings.TrimPrefix(srv.URL, "http://"))
	fetch := newTool(t, egress.Config{AllowPrivate: []string{"127.0.0.1:" + port}})
	crm := enginetest.Mock("crm/read", map[string]any{"email": "ceo@acme.test"})
	crm.Labels = []string{"private"}
	mail := enginetest.Echo("mail/send")
	mail.Labels = []string{"egress"}
	// Egress of any kind only until the session touches private data.
	pol := enginetest.Policy(t,
		dsl.Method("crm/read"),
		dsl.Method("http/fetch").UnlessTouched("private"),
		dsl.Method("mail/send").UnlessTouched("private"))
	sb := enginetest.NewSandbox(t, engine.SandboxConfig{Tools: []engine.Tool{fetch, crm, mail}, Policy: pol})
	url := srv.URL + "/x"

	before := enginetest.RunShell(t, sb, `curl -sf `+url+` && echo
wget -qO- `+url+` && echo
node -e 'console.log(await (await fetch("`+url+`")).text()); await mail.send({to: "x"}); console.log("mailed")'`)
	if before.Stdout != "ok\nok\nok\nmailed\n" || hits.Load() != 3 {
		t.Fatalf("before the private read: %q (stderr %q), %d hits", before.Stdout, before.Stderr, hits.Load())
	}

	enginetest.Run(t, sb, `await crm.read({})`)
	res := enginetest.Run(t, sb, `
const out = []
const secret = JSON.stringify(await crm.read({}))
try { await fetch("`+url+`?d=" + encodeURIComponent(secret)); out.push("fetch sent") } catch (e) { out.push("fetch " + e.kind) }
try { await mail.send({body: secret}); out.push("mail sent") } catch (e) { out.push("mail " + e.kind) }
const sh = await shell("curl -s `+url+`; echo curl=$?; wget -qO- `+url+`; echo wget=$?; sh -c 'node -e \"await fetch(\\\"`+url+`\\\")\"'; echo nested=$?")
out.push(sh.stdout.trim().split("\n").join(" "))
console.log(out.join("\n"))`)
	want := "fetch denied\nmail denied\ncurl=7 wget=4 nested=1\n"
	if res.Stdout != want {
		t.Errorf("after the private read:\n%s\nwant:\n%s\nstderr: %s", res.Stdout, want, res.Stderr)
	}
	if n := hits.Load(); n != 3 {
		t.Errorf("the server got %d requests, want the 3 from before the read", n)
	}
}
