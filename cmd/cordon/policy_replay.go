package main

import (
	"context"
	"io"

	"github.com/cordonhq/cordon/config"
	"github.com/cordonhq/cordon/engine"
	"github.com/cordonhq/cordon/policy/authz"
	"github.com/cordonhq/cordon/whatif"
)

// cmdPolicyReplay is `cordon policy replay`: the recorded calls of traces
// and audit logs decided again under a candidate policy (package whatif).
// It exits 0 when no decision changes, 1 when one does, and 2 for a usage
// error or a file it cannot read.
func cmdPolicyReplay(ctx context.Context, args []string, stdout, stderr io.Writer) (int, error) {
	fs := newFlagSet("policy replay")
	cfgFile := fs.String("config", "", "")
	var paths []string
	fs.Func("policy", "", func(s string) error { paths = append(paths, s); return nil })
	asJSON := fs.Bool("json", false, "")
	maxChanges := fs.Int("max-changes", whatif.DefaultMaxChanges, "")
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return 0, flagError("policy replay", err)
	}
	if len(pos) == 0 {
		return 0, usagef("policy replay: give one or more FILEs: traces or audit logs (cordon run --log)")
	}
	if *cfgFile == "" && len(paths) == 0 {
		return 0, usagef("policy replay: give the candidate policy: --config CONFIG, --policy PATH, or both")
	}
	if *maxChanges < 0 {
		return 0, usagef("policy replay: --max-changes must be 0 or more")
	}
	var records []whatif.Record
	for _, name := range pos {
		recs, err := whatif.ReadFile(name)
		if err != nil {
			return 0, usagef("policy replay: %v", err)
		}
		records = append(records, recs...)
	}
	cfg, err := config.Parse("(no config)", []byte("{}"))
	if err != nil {
		return 0, err
	}
	if *cfgFile != "" {
		if cfg, err = config.Load(*cfgFile); err != nil {
			return 0, err
		}
		if cfg.OPA != nil {
			return 0, usagef("policy replay: config %s has an opa: section: give the bundle's Rego with --policy instead (a replay must not write OPA's decision log)", cfg.File())
		}
	}
	pol, err := cfg.Policy(ctx, paths)
	if err != nil {
		return 0, err
	}
	warnPolicy(stderr, pol)
	var p engine.Policy
	if pol != nil {
		p = pol
	}
	opts := whatif.Options{Tools: configToolInfo(cfg)}
	if *maxChanges == 0 {
		opts.MaxChanges = -1
	} else {
		opts.MaxChanges = *maxChanges
	}
	report, err := whatif.Replay(ctx, p, records, opts)
	if err != nil {
		return 0, err
	}
	out := terminalSafe(stdout, false)
	if *asJSON {
		err = report.WriteJSON(out)
	} else {
		err = report.WriteText(out)
	}
	flushOutput(out)
	if err != nil {
		return 0, err
	}
	if report.Changed() {
		return 1, nil
	}
	return 0, nil
}

// configToolInfo returns what the policy sees of each tool (input.tool)
// under cfg, as far as the config says it without starting upstream
// servers: the flow labels of its tools and of tool_labels. A method the
// config does not name gets the labels of the tool_labels patterns it
// matches.
func configToolInfo(cfg *config.Config) func(string) *authz.ToolInfo {
	tools := cfg.EngineTools()
	if t, ok := cfg.FetchTool(); ok {
		tools = append(tools, t)
	}
	known := map[string]engine.Tool{}
	for _, t := range cfg.LabelTools(tools) {
		known[t.Name] = t
	}
	return func(method string) *authz.ToolInfo {
		t, ok := known[method]
		if !ok {
			t = cfg.LabelTools([]engine.Tool{{Name: method}})[0]
		}
		if len(t.Labels) == 0 {
			return t.Policy
		}
		info := authz.ToolInfo{}
		if t.Policy != nil {
			info = *t.Policy
		}
		info.Labels = append([]string(nil), t.Labels...)
		return &info
	}
}
