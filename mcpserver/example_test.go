package mcpserver_test

import (
	"context"
	"encoding/json"
	"fmt"
	"log"
	"net/http"
	"net/http/httptest"
	"strings"

	"github.com/cordonhq/cordon/codemode"
	"github.com/cordonhq/cordon/engine"
	"github.com/cordonhq/cordon/mcpserver"
	"github.com/cordonhq/cordon/mcptools"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// An upstream MCP server's tools, imported as engine tools and served
// again as code mode: an MCP client sees the run-code tools and sends one
// script that calls the upstream tool twice.
func ExampleNew() {
	ctx := context.Background()
	// The upstream server: one tool, reached in memory here.
	up := mcp.NewServer(&mcp.Implementation{Name: "docs", Version: "1"}, nil)
	up.AddTool(&mcp.Tool{Name: "search", InputSchema: json.RawMessage(`{"type":"object","properties":{"q":{"type":"string"}}}`)},
		func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			var in struct{ Q string }
			if err := json.Unmarshal(req.Params.Arguments, &in); err != nil {
				return nil, err
			}
			return &mcp.CallToolResult{StructuredContent: map[string]any{"hits": len(in.Q)}}, nil
		})
	upClient, upServer := mcp.NewInMemoryTransports()
	if _, err := up.Connect(ctx, upServer, nil); err != nil {
		log.Fatal(err)
	}
	upSession, err := mcp.NewClient(&mcp.Implementation{Name: "cordon", Version: "1"}, nil).Connect(ctx, upClient, nil)
	if err != nil {
		log.Fatal(err)
	}
	defer upSession.Close()
	// region import
	tools, err := mcptools.Import(ctx, "docs", upSession, nil) // the server's tools as engine tools: docs/<tool>
	if err != nil {
		log.Fatal(err)
	}
	// endregion

	eng, err := engine.New(ctx, engine.NewConfig())
	if err != nil {
		log.Fatal(err)
	}
	defer eng.Close(ctx)
	srv := mcpserver.New(codemode.New(eng, engine.SandboxConfig{Tools: tools}, nil), mcpserver.Options{})
	defer srv.Close(ctx)

	// An MCP client of cordon.
	ct, st := mcp.NewInMemoryTransports()
	if _, err := srv.Connect(ctx, st); err != nil {
		log.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "agent", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		log.Fatal(err)
	}
	defer cs.Close()
	list, err := cs.ListTools(ctx, nil)
	if err != nil {
		log.Fatal(err)
	}
	for _, t := range list.Tools {
		fmt.Println("tool:", t.Name)
	}
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "run_javascript", Arguments: map[string]any{
		"code": `const a = await docs.search({q: "wasm"}); const b = await docs.search({q: "policy"}); return a.hits + b.hits`,
	}})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Print(res.Content[0].(*mcp.TextContent).Text)
	// Output:
	// tool: run_javascript
	// tool: run_shell
	// [returned]
	// 10
}

// bearer adds a bearer token to each request of an HTTP client.
type bearer string

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+string(b))
	return http.DefaultTransport.RoundTrip(r)
}

// Code mode over streamable HTTP, for the clients of one static bearer
// token: a client without it is refused with a 401; with it, its
// sessions belong to the principal "ci".
func ExampleServer_HTTPHandler() {
	ctx := context.Background()
	eng, err := engine.New(ctx, engine.NewConfig())
	if err != nil {
		log.Fatal(err)
	}
	defer eng.Close(ctx)
	// region http
	token, err := mcpserver.GenerateToken()
	if err != nil {
		log.Fatal(err)
	}
	verify, err := mcpserver.StaticToken(token, "ci") // or mcpserver.JWTVerifier, or one's own
	if err != nil {
		log.Fatal(err)
	}
	srv := mcpserver.New(codemode.New(eng, engine.SandboxConfig{}, nil), mcpserver.Options{Verifier: verify, MaxSessions: 16})
	defer srv.Close(ctx)
	hs := httptest.NewServer(srv.HTTPHandler(&mcp.StreamableHTTPOptions{SessionTimeout: mcpserver.DefaultSessionIdle}))
	defer hs.Close()
	// endregion

	client := mcp.NewClient(&mcp.Implementation{Name: "agent", Version: "1"}, nil)
	if _, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: hs.URL}, nil); err != nil {
		fmt.Println("without the token:", strings.Contains(err.Error(), "Unauthorized"))
	}
	cs, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: hs.URL, HTTPClient: &http.Client{Transport: bearer(token)}}, nil)
	if err != nil {
		log.Fatal(err)
	}
	defer cs.Close()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "run_shell", Arguments: map[string]any{"script": "echo hello"}})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Print(res.Content[0].(*mcp.TextContent).Text)
	// Output:
	// without the token: true
	// [stdout]
	// hello
}
