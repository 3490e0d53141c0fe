package mcpserver_test

import (
	"context"
	"encoding/json"
	"fmt"
	"log"

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
	tools, err := mcptools.Import(ctx, "docs", upSession, nil)
	if err != nil {
		log.Fatal(err)
	}

	eng, err := engine.New(ctx, engine.NewConfig())
	if err != nil {
		log.Fatal(err)
	}
	defer eng.Close(ctx)
	srv := mcpserver.New(codemode.New(eng, tools), mcpserver.Options{})
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
