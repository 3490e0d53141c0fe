package egress_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"

	"github.com/cordonhq/cordon/dsl"
	"github.com/cordonhq/cordon/egress"
	"github.com/cordonhq/cordon/engine"
	"github.com/cordonhq/cordon/engine/enginetest"
	"github.com/cordonhq/cordon/trace"
)

// A recorded fetch and curl replay from the trace: the server is not asked
// again, and the script's calls are compared with what it sent (the URL),
// not with the parsed request the policy saw.
func TestReplayFetch(t *testing.T) {
	var hits atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(w, "hit %d %s", hits.Add(1), r.URL.RequestURI())
	}))
	defer srv.Close()
	tool := newTool(t, egress.Config{AllowPrivate: []string{hostPort(srv)}})
	sb := enginetest.NewSandbox(t, engine.SandboxConfig{Tools: []engine.Tool{tool},
		Policy: enginetest.Policy(t, dsl.Method("http/fetch"))})
	var tr trace.Trace
	code := fmt.Sprintf(`const r = await fetch(%q)
console.log(r.status, await r.text())
console.log(shell("curl -s '%s/b?x=1'").stdout)`, srv.URL+"/a?z=2&y=1", srv.URL)
	res, err := sb.Execute(context.Background(), engine.JavaScript, code, engine.WithRecord(&tr, engine.RecordVFS()))
	if err != nil || hits.Load() != 2 {
		t.Fatalf("recorded run: %v, %d hits\n%s%s", err, hits.Load(), res.Stdout, res.Stderr)
	}
	if len(tr.Calls) != 2 || len(tr.Calls[0].Sent) == 0 || string(tr.Calls[0].Sent) == string(tr.Calls[0].Params) {
		t.Fatalf("the trace does not keep what the script sent beside the parsed params: %+v", tr.Calls)
	}
	out, err := enginetest.Engine(t).Replay(context.Background(), &tr, engine.ReplayConfig{})
	if err != nil {
		t.Fatalf("Replay: %v", err)
	}
	if hits.Load() != 2 {
		t.Errorf("the replay reached the server (%d hits)", hits.Load())
	}
	if !out.Identical() || out.Result.Stdout != res.Stdout {
		t.Errorf("replay differs in %v: %q, recorded %q", out.Differences, out.Result.Stdout, res.Stdout)
	}
}
