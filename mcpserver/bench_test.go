package mcpserver_test

import (
	"context"
	"encoding/json"
	"sync/atomic"
	"testing"
	"time"

	"github.com/cordonhq/cordon/codemode"
	"github.com/cordonhq/cordon/dsl"
	"github.com/cordonhq/cordon/engine"
	"github.com/cordonhq/cordon/engine/enginetest"
	"github.com/cordonhq/cordon/mcpserver"
	"github.com/cordonhq/cordon/mcptools"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// BenchmarkSessions: concurrent MCP sessions, each a new sandbox running
// one script that makes 10 calls to an upstream MCP server's tool. It
// reports sessions/s and upstream calls/s.
func BenchmarkSessions(b *testing.B) { benchmark(b, true) }

// BenchmarkCalls: as BenchmarkSessions, but each goroutine keeps one
// session for all its scripts.
func BenchmarkCalls(b *testing.B) { benchmark(b, false) }

func benchmark(b *testing.B, newSession bool) {
	up := mcp.NewServer(&mcp.Implementation{Name: "up", Version: "1"}, nil)
	up.AddTool(&mcp.Tool{Name: "echo", InputSchema: json.RawMessage(`{"type":"object"}`)},
		func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{StructuredContent: json.RawMessage(req.Params.Arguments)}, nil
		})
	ct, st := mcp.NewInMemoryTransports()
	if _, err := up.Connect(context.Background(), st, nil); err != nil {
		b.Fatal(err)
	}
	ucs, err := mcp.NewClient(&mcp.Implementation{Name: "t", Version: "1"}, nil).Connect(context.Background(), ct, nil)
	if err != nil {
		b.Fatal(err)
	}
	defer ucs.Close()
	tools, err := mcptools.Import(context.Background(), "up", ucs, nil)
	if err != nil {
		b.Fatal(err)
	}
	// A policy without max_calls: a session makes more than the default
	// 100 calls.
	srv := serve(b, mcpserver.Options{}, engine.SandboxConfig{Tools: tools, Policy: enginetest.Policy(b, dsl.Method("up/*"))}, nil)
	const callsPerScript = 10
	code := `let n = 0; for (let i = 0; i < 10; i++) n += (await up.echo({i})).i; return n`
	var sessions atomic.Int64
	start := time.Now()
	b.ResetTimer()
	var scripts atomic.Int64
	connect := func() *mcp.ClientSession {
		ct, st := mcp.NewInMemoryTransports()
		if _, err := srv.Connect(context.Background(), st); err != nil {
			b.Error(err)
			return nil
		}
		cs, err := mcp.NewClient(&mcp.Implementation{Name: "b", Version: "1"}, nil).Connect(context.Background(), ct, nil)
		if err != nil {
			b.Error(err)
			return nil
		}
		sessions.Add(1)
		return cs
	}
	b.RunParallel(func(pb *testing.PB) {
		var cs *mcp.ClientSession
		for pb.Next() {
			if cs == nil {
				if cs = connect(); cs == nil {
					return
				}
			}
			res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: codemode.JavaScriptName, Arguments: map[string]any{"code": code}})
			if err != nil || res.IsError {
				b.Errorf("%v %v", err, res)
			}
			scripts.Add(1)
			if newSession {
				cs.Close()
				cs = nil
			}
		}
		if cs != nil {
			cs.Close()
		}
	})
	secs := time.Since(start).Seconds()
	b.ReportMetric(float64(sessions.Load())/secs, "sessions/s")
	b.ReportMetric(float64(scripts.Load()*callsPerScript)/secs, "calls/s")
}
