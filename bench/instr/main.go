// Command instr runs one JavaScript snippet, in a cordon sandbox or in
// native goja, for bench/instructions to count the instructions it takes
// under valgrind. The snippet is the body of a function: `return 1`.
//
//	go run ./bench/instr [-native] [-sh] [-exit CODE] [-cache-dir DIR] [-n N] [-unlimited] [-tools N] [-pause D] [-result JSON] CODE
//
// With -n the snippet runs N times, in one sandbox (or one goja runtime);
// with -sh it is a shell script; with -exit each run must end with that exit
// code (1 for a script that throws).
//
// The sandbox has one tool, t, whose handler answers {"ok":true} (at most
// 100 calls, the default without a policy), and a logger that drops
// everything, as an embedder's would in production. With -unlimited a
// capability policy allows t without a limit instead, so that a profile
// (bench/guestprof) can take thousands of calls; each call then also pays
// for a policy decision (about 3 µs). With -tools N the sandbox also has N
// more tools, svc/tool0 to svc/tool(N-1), as a real agent's would. With
// -result every tool answers that JSON instead.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"log/slog"
	"math"
	"os"
	"time"

	"github.com/cordonhq/cordon/dsl"
	"github.com/cordonhq/cordon/engine"
	"github.com/cordonhq/cordon/policy"
	"github.com/dop251/goja"
)

func main() {
	native := flag.Bool("native", false, "run in goja on the host instead of a sandbox")
	cacheDir := flag.String("cache-dir", "", "compilation cache directory")
	n := flag.Int("n", 1, "how many times to run the snippet")
	sh := flag.Bool("sh", false, "the snippet is a shell script (sandbox only)")
	exit := flag.Int("exit", 0, "the exit code each run must end with (sandbox only)")
	unlimited := flag.Bool("unlimited", false, "a policy allows t without a call limit (sandbox only)")
	tools := flag.Int("tools", 0, "how many more tools the sandbox has (sandbox only)")
	pause := flag.Duration("pause", 0, "how long to wait before each run, as an agent's model takes its turn (sandbox only)")
	result := flag.String("result", `{"ok":true}`, "the JSON every tool answers (sandbox only)")
	flag.Parse()
	if flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: instr [-native] [-sh] [-exit CODE] [-cache-dir DIR] [-n N] [-unlimited] [-tools N] [-pause D] [-result JSON] CODE")
		os.Exit(2)
	}
	code := flag.Arg(0)
	if *native {
		rt := goja.New()
		for range *n {
			if _, err := rt.RunString("(function () {" + code + "\n})()"); err != nil {
				fmt.Fprintln(os.Stderr, "instr:", err)
				os.Exit(1)
			}
		}
		return
	}
	lang := engine.JavaScript
	if *sh {
		lang = engine.Shell
	}
	if err := inSandbox(context.Background(), *cacheDir, lang, code, *n, *exit, *unlimited, *tools, *pause, json.RawMessage(*result)); err != nil {
		fmt.Fprintln(os.Stderr, "instr:", err)
		os.Exit(1)
	}
}

func inSandbox(ctx context.Context, cacheDir string, lang engine.Language, code string, n, exit int, unlimited bool, tools int, pause time.Duration, result json.RawMessage) error {
	cfg := engine.NewConfig().WithLogger(slog.New(slog.DiscardHandler))
	if cacheDir != "" {
		cfg = cfg.WithCacheDir(cacheDir)
	}
	e, err := engine.New(ctx, cfg)
	if err != nil {
		return err
	}
	defer e.Close(ctx)
	if !json.Valid(result) {
		return fmt.Errorf("-result is not JSON")
	}
	ok := func(context.Context, json.RawMessage) (any, error) { return result, nil }
	sbc := engine.SandboxConfig{
		Limits: engine.Limits{Timeout: 10 * time.Minute, MaxToolCalls: 1000},
		Tools:  []engine.Tool{{Name: "t", Handler: ok}},
	}
	for i := range tools {
		sbc.Tools = append(sbc.Tools, engine.Tool{Name: fmt.Sprintf("svc/tool%d", i), Handler: ok})
	}
	if unlimited {
		p, err := policy.New(ctx, policy.Config{Capabilities: []*dsl.Capability{dsl.Method("t")}})
		if err != nil {
			return err
		}
		sbc.Policy = p
		sbc.Limits.MaxToolCalls = math.MaxInt32
	}
	sb, err := e.NewSandbox(ctx, sbc)
	if err != nil {
		return err
	}
	for range n {
		time.Sleep(pause)
		res, err := sb.Execute(ctx, lang, code)
		if err != nil {
			return err
		}
		if res.ExitCode != exit {
			return fmt.Errorf("exit %d: %s", res.ExitCode, res.Stderr)
		}
	}
	return nil
}
