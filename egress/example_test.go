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

// A fetch tool that adds a GitHub token to the requests under one
// organization's repositories, after the policy allows them: the script,
// the policy's input and the audit never see it.
func ExampleCredential() {
	ctx := context.Background()
	eng, err := engine.New(ctx, engine.Config{})
	if err != nil {
		panic(err)
	}
	defer eng.Close(ctx)
	pol, err := policy.New(ctx, policy.Config{Capabilities: []*dsl.Capability{
		dsl.Method("http/fetch").Where(dsl.Param("host").Eq("api.github.com"), dsl.Param("path").StartsWith("/repos/acme/")),
	}})
	if err != nil {
		panic(err)
	}
	// region credentials
	fetch, err := egress.New(egress.Config{
		Credentials: []egress.Credential{{
			Prefix: "https://api.github.com/repos/acme/",
			Header: "Authorization", Env: "GITHUB_TOKEN", ValuePrefix: "Bearer ",
		}},
	})
	if err != nil {
		panic(err)
	}
	sb, err := eng.NewSandbox(ctx, engine.SandboxConfig{
		Tools:  []engine.Tool{fetch},
		Policy: pol, // decides input.params.host, .path, .method, ...
	})
	// endregion
	if err != nil {
		panic(err)
	}
	defer sb.Close(ctx)
}
