package egress_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"

	"github.com/cordonhq/cordon/dsl"
	"github.com/cordonhq/cordon/egress"
	"github.com/cordonhq/cordon/engine"
	"github.com/cordonhq/cordon/engine/enginetest"
	"github.com/cordonhq/cordon/policy"
)

// A sandbox whose scripts may GET one API's paths under /v1/, and nothing
// else. The API runs on loopback here, which AllowPrivate permits; a real
// one needs no AllowPrivate entry.
func ExampleNew() {
	api := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(w, "hello from %s", r.URL.Path)
	}))
	defer api.Close()

	fetch, err := egress.New(egress.Config{AllowPrivate: []string{strings.TrimPrefix(api.URL, "http://")}})
	if err != nil {
		panic(err)
	}
	pol, err := policy.New(context.Background(), policy.Config{Capabilities: []*dsl.Capability{
		dsl.Method("http/fetch").Where(
			dsl.Param("host").Eq("127.0.0.1"),
			dsl.Param("method").Eq("GET"),
			dsl.Param("path").StartsWith("/v1/")),
	}})
	if err != nil {
		panic(err)
	}
	t := &enginetest.FakeT{}
	t.Run(func(t enginetest.TB) {
		sb := enginetest.NewSandbox(t, engine.SandboxConfig{Tools: []engine.Tool{fetch}, Policy: pol})
		res := enginetest.Run(t, sb, `
const ok = await http.fetch({url: "`+api.URL+`/v1/greeting"})
console.log(ok.status, ok.body)
try { await http.fetch({url: "`+api.URL+`/admin"}) } catch (e) { console.log(e.kind) }`)
		fmt.Print(res.Stdout)
	})
	// Output:
	// 200 hello from /v1/greeting
	// denied
}
