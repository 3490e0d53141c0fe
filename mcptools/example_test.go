package mcptools_test

import (
	"context"
	"encoding/json"
	"fmt"

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
