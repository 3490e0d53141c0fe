// Package codemodetest is a kit for tests of code mode and of what is
// built on it (the MCP server, the upstream tools, the framework
// adapters): code-mode tools on the shared engine of
// [github.com/cordonhq/cordon/engine/enginetest], closed when the test
// ends; the arguments and the runs of the two code-mode tools; and Shop,
// the fixture the adapters' tests share.
//
// Like enginetest, every function that takes an [enginetest.TB] fails the
// test on error.
package codemodetest

import (
	"context"
	"encoding/json"

	"github.com/cordonhq/cordon/codemode"
	"github.com/cordonhq/cordon/engine"
	"github.com/cordonhq/cordon/engine/enginetest"
)

// New returns a code-mode tool on the shared engine ([enginetest.Engine])
// whose sessions' sandboxes are made from sandbox, and are closed when the
// test ends. opts may be nil.
func New(tb enginetest.TB, sandbox engine.SandboxConfig, opts *codemode.Options) *codemode.Runner {
	tb.Helper()
	tool := codemode.New(enginetest.Engine(tb), sandbox, opts)
	tb.Cleanup(func() { tool.CloseAll(context.Background()) })
	return tool
}

// JS returns the arguments of the JavaScript tool that run code:
// {"code": code}.
func JS(code string) string { return arguments("code", code) }

// Shell returns the arguments of the shell tool that run script:
// {"script": script}.
func Shell(script string) string { return arguments("script", script) }

func arguments(key, code string) string {
	b, err := json.Marshal(map[string]string{key: code})
	if err != nil {
		panic(err) // a map of strings always marshals
	}
	return string(b)
}

// Run runs the tool with the JSON arguments (JS, Shell) under ctx, which
// may carry a session ([codemode.WithSession]). It fails the test when
// [codemode.Runner.Run] returns an error (ctx ended, the session or the
// engine is closed). A script that fails, or arguments the tool cannot
// read, are not errors: the Result says so, as the model would read it.
func Run(tb enginetest.TB, ctx context.Context, tool *codemode.Runner, arguments string) *codemode.Result {
	tb.Helper()
	r, err := tool.Run(ctx, arguments)
	if err != nil {
		tb.Fatalf("codemodetest: Run(%s): %v", arguments, err)
	}
	return r
}

// RunJS runs JavaScript code with the tool, in the default session.
func RunJS(tb enginetest.TB, tool *codemode.Runner, code string) *codemode.Result {
	tb.Helper()
	return Run(tb, context.Background(), tool, JS(code))
}

// Call is Run for [codemode.Runner.Call]: it returns the text a model reads.
func Call(tb enginetest.TB, ctx context.Context, tool *codemode.Runner, arguments string) string {
	tb.Helper()
	text, err := tool.Call(ctx, arguments)
	if err != nil {
		tb.Fatalf("codemodetest: Call(%s): %v", arguments, err)
	}
	return text
}
