package mcptools_test

import (
	"context"
	"encoding/json"
	"fmt"
	"log"
	"net/http"
	"net/http/httptest"

	"github.com/cordonhq/cordon/mcptools"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// An MCP server's tools become engine tools named SERVER/<tool>, whose
// handlers call the server. Here the server runs in memory; Start does
// the same for a config's command and URL servers.
func ExampleImport() {
	ctx := context.Background()
	server := mcp.NewServer(&mcp.Implementation{Name: "weather", Version: "1"}, nil)
	type in struct {
		City string `json:"city"`
	}
	mcp.AddTool(server, &mcp.Tool{Name: "current", Description: "The weather now"},
		func(_ context.Context, _ *mcp.CallToolRequest, p in) (*mcp.CallToolResult, map[string]any, error) {
			return nil, map[string]any{"city": p.City, "temp": 21}, nil
		})
	st, ct := mcp.NewInMemoryTransports()
	ss, err := server.Connect(ctx, st, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer ss.Close()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "cordon", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer cs.Close()

	tools, err := mcptools.Import(ctx, "weather", cs, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, t := range tools {
		fmt.Println(t.Name+":", t.Description)
	}
	res, err := tools[0].Handler(ctx, json.RawMessage(`{"city":"Oslo"}`))
	if err != nil {
		fmt.Println(err)
		return
	}
	b, _ := json.Marshal(res)
	fmt.Println(string(b))
	// Output:
	// weather/current: The weather now
	// {"city":"Oslo","temp":21}
}

// Start connects to the upstream servers of a config (here one
// streamable HTTP server on loopback) and imports their tools, named
// SERVER/<tool>, for a sandbox's SandboxConfig.Tools.
func ExampleStart() {
	server := mcp.NewServer(&mcp.Implementation{Name: "tickets", Version: "1"}, nil)
	type in struct {
		ID string `json:"id"`
	}
	mcp.AddTool(server, &mcp.Tool{Name: "get", Description: "A ticket by id"},
		func(_ context.Context, _ *mcp.CallToolRequest, p in) (*mcp.CallToolResult, map[string]any, error) {
			return nil, map[string]any{"id": p.ID, "status": "open"}, nil
		})
	srv := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return server }, nil))
	defer srv.Close()

	ctx := context.Background()
	ups, err := mcptools.Start(ctx, []mcptools.Upstream{{Name: "tickets", URL: srv.URL}}, mcptools.Options{})
	if err != nil {
		log.Fatal(err)
	}
	defer ups.Close()
	tools := ups.Tools()
	for _, t := range tools {
		fmt.Println(t.Name+":", t.Description)
	}
	res, err := tools[0].Handler(ctx, json.RawMessage(`{"id":"T-7"}`))
	if err != nil {
		log.Fatal(err)
	}
	b, _ := json.Marshal(res)
	fmt.Println(string(b))
	// Output:
	// tickets/get: A ticket by id
	// {"id":"T-7","status":"open"}
}
