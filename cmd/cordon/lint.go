package main

import (
	"fmt"
	"io"

	"github.com/cordonhq/cordon/config"
	"github.com/cordonhq/cordon/dsl"
	"github.com/cordonhq/cordon/policy"
)

// exitLint is the status of `cordon policy lint` when it finds anything.
const exitLint = 1

// cmdPolicyLint is `cordon policy lint CONFIG`: it prints each warning of
// dsl.Lint about the config's capabilities on stdout, one per line,
// prefixed with the config file, and exits 1 when there is any, 0 when
// there is none (printing nothing), and 2 for a usage or config error.
func cmdPolicyLint(args []string, stdout io.Writer) (int, error) {
	fs := newFlagSet("policy lint")
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return 0, flagError("policy lint", err)
	}
	if len(pos) != 1 {
		return 0, usagef("policy lint: give one CONFIG file")
	}
	cfg, err := config.Load(pos[0])
	if err != nil {
		return 0, err
	}
	ws := dsl.Lint(cfg.ParsedCapabilities())
	for _, w := range ws {
		fmt.Fprintf(stdout, "%s: %s\n", pos[0], w.Message)
	}
	if len(ws) > 0 {
		return exitLint, nil
	}
	return 0, nil
}

// warnLint writes the lint warnings about capabilities on stderr, one
// line each, as `cordon policy compile` shows them: its stdout is the Rego
// alone.
func warnLint(stderr io.Writer, file string, caps []*dsl.Capability) {
	for _, w := range dsl.Lint(caps) {
		fmt.Fprintf(stderr, "cordon: warning: %s: %s\n", file, w.Message)
	}
}

// warnPolicy writes the warnings of a loaded policy (nil for none) on
// stderr, one line each, as `cordon run` shows them.
func warnPolicy(stderr io.Writer, pol *policy.Policy) {
	if pol == nil {
		return
	}
	for _, w := range pol.Warnings() {
		fmt.Fprintln(stderr, "cordon: warning: "+w.Message)
	}
}
