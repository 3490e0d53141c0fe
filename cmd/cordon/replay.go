package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"strings"

	"github.com/cordonhq/cordon/config"
	"github.com/cordonhq/cordon/engine"
	"github.com/cordonhq/cordon/trace"
)

// Exit statuses of `cordon replay` besides the script's own.
const (
	// exitDiverged: the script left its trace (a call that differs, one
	// too many or too few).
	exitDiverged = 3
	// exitNotReproduced: the replay followed its trace but its output is
	// not the recorded output.
	exitNotReproduced = 4
)

// cmdReplay is `cordon replay TRACE`: the execution a trace records (cordon
// run --record) run again with the trace's tool answers, clock readings
// and random values (engine.Replay). It prints the replay's output as
// `cordon run` prints a run's and exits with the script's status when the
// replay reproduces the recording; 3 when the script diverged from its
// trace (the message shows both calls), 4 when it followed the trace but
// printed something else, and 2 for a usage error or a trace it cannot
// read.
func cmdReplay(ctx context.Context, args []string, stdout, stderr io.Writer) (int, error) {
	fs := newFlagSet("replay")
	cfgFile := fs.String("config", "", "")
	var policies []string
	fs.Func("policy", "", func(s string) error { policies = append(policies, s); return nil })
	live := fs.Bool("continue-live", false, "")
	asJSON := fs.Bool("json", false, "")
	rawOutput := fs.Bool("raw-output", false, "")
	maxRecord := fs.Int("max-record-bytes", engine.DefaultExcerptBytes, "")
	cacheDir := fs.String("cache-dir", "", "")
	quiet := quietFlag(fs)
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return 0, flagError("replay", err)
	}
	if len(pos) != 1 {
		return 0, usagef("replay: give one TRACE file (written by cordon run --record)")
	}
	if *maxRecord <= 0 {
		return 0, usagef("replay: --max-record-bytes must be positive")
	}
	if (*cfgFile != "" || len(policies) > 0) && !*live {
		return 0, usagef("replay: --config and --policy give the live tools and policy of --continue-live; without it no tool runs and no policy decides")
	}
	f, err := os.Open(pos[0])
	if err != nil {
		return 0, usagef("replay: cannot read %s: %v", pos[0], errors.Unwrap(err))
	}
	t, err := trace.Read(f)
	f.Close()
	if err != nil {
		return 0, usagef("replay: %s: %v", pos[0], err)
	}
	memoryMB := 0
	if v, ok := t.Limits["memory_mb"].(float64); ok && v >= engine.MinMemoryMB && v <= engine.MaxMemoryMB {
		memoryMB = int(v)
	}
	eng, err := engine.New(ctx, engineConfig(*cacheDir, memoryMB, stderr, *quiet).WithLogger(slog.New(slog.DiscardHandler)))
	if err != nil {
		return 0, err
	}
	defer eng.Close(context.Background())
	var rc engine.ReplayConfig
	if *live {
		rc.ContinueLive = true
		cfg := config.Default()
		if *cfgFile != "" {
			if cfg, err = config.Load(*cfgFile); err != nil {
				return 0, err
			}
		}
		pol, closePolicy, err := loadPolicy(ctx, cfg, policies, stderr, nil)
		if err != nil {
			return 0, err
		}
		defer closePolicy()
		tools, stopUpstreams, err := configTools(ctx, cfg, stderr)
		if err != nil {
			return 0, err
		}
		defer stopUpstreams()
		rc.Sandbox = engine.SandboxConfig{Tools: tools, Policy: pol, Audit: policyAudit(pol)}
	}
	var opts []engine.ExecuteOption
	var streamOut, streamErr io.Writer
	if !*asJSON {
		streamOut, streamErr = terminalSafe(stdout, *rawOutput), terminalSafe(stderr, *rawOutput)
		opts = append(opts, engine.WithStdout(streamOut), engine.WithStderr(streamErr))
	}
	out, err := eng.Replay(ctx, t, rc, opts...)
	flushOutput(streamOut)
	flushOutput(streamErr)
	var d *engine.DivergenceError
	switch {
	case errors.As(err, &d):
		printError(stderr, d)
		return exitDiverged, nil
	case errors.Is(err, engine.ErrReplay):
		return 0, usagef("replay: %s: %v", pos[0], strings.TrimPrefix(err.Error(), "engine: "))
	case err != nil:
		return 0, err
	}
	res, execErr := out.Result, out.Err
	exit := exitStatus(res, execErr)
	if *asJSON {
		if err := writeJSON(terminalSafe(stdout, *rawOutput), res, execErr, exit, *maxRecord); err != nil {
			return exitSandbox, err
		}
	} else if execErr != nil {
		printError(stderr, execErr)
	}
	if out.Diverged != nil {
		fmt.Fprintf(stderr, "cordon: the replay went live at call %d (--continue-live): %s\n", out.Diverged.Call, out.Diverged.Reason)
		return exit, nil
	}
	if !out.Identical() {
		fmt.Fprintf(stderr, "cordon: the replay's %s differs from the recording's\n", strings.Join(out.Differences, ", "))
		return exitNotReproduced, nil
	}
	return exit, nil
}
