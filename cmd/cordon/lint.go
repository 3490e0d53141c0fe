package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/cordonhq/cordon/config"
	"github.com/cordonhq/cordon/dsl"
	"github.com/cordonhq/cordon/policy"
)

// exitLint is the status of `cordon policy lint` when it finds anything.
const exitLint = 1

// cmdPolicyLint is `cordon policy lint CONFIG`: it prints each warning of
// dsl.Lint about the config's capabilities, and each of annotationLint
// about its Rego, on stdout, one per line, prefixed with the config file,
// and exits 1 when there is any, 0 when there is none (printing nothing),
// and 2 for a usage or config error (a policy that does not load
// included).
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
	var msgs []string
	for _, w := range dsl.Lint(cfg.ParsedCapabilities()) {
		msgs = append(msgs, w.Message)
	}
	msgs = append(msgs, unmatchedLint(cfg)...)
	more, err := annotationLint(cfg)
	if err != nil {
		return 0, err
	}
	msgs = append(msgs, more...)
	for _, m := range msgs {
		fmt.Fprintf(stdout, "%s: %s\n", pos[0], m)
	}
	if len(msgs) > 0 {
		return exitLint, nil
	}
	return 0, nil
}

// annotationLint warns about each rule of the config's Rego that permits
// on a tool's MCP annotations (policy.Policy.AnnotationPermits) when some
// of the config's MCP servers are not trusted for their annotations
// (trust_annotations): the policy sees MCP's defaults for their tools
// (readOnlyHint false, destructiveHint true, ...), unless the config pins
// a tool's hints, so such a rule does not permit what those servers claim.
// It is a heuristic by name, documented in docs/upstreams.md.
func annotationLint(cfg *config.Config) ([]string, error) {
	var untrusted []string
	for _, s := range cfg.MCPServers {
		if !s.TrustAnnotations {
			untrusted = append(untrusted, s.Name)
		}
	}
	if len(untrusted) == 0 || len(cfg.Policies) == 0 {
		return nil, nil
	}
	pol, err := cfg.Policy(context.Background(), nil)
	if err != nil {
		return nil, err
	}
	servers := "server " + untrusted[0] + " does"
	if len(untrusted) > 1 {
		servers = "servers " + strings.Join(untrusted, ", ") + " do"
	}
	var out []string
	for _, r := range pol.AnnotationPermits() {
		// OPA's loader names a module by its path without the leading
		// "/" of an absolute path.
		if !filepath.IsAbs(r.File) {
			if _, err := os.Stat(r.File); err != nil {
				if _, err := os.Stat(string(filepath.Separator) + r.File); err == nil {
					r.File = string(filepath.Separator) + r.File
				}
			}
		}
		out = append(out, fmt.Sprintf("%s:%d: rule %s permits on input.tool.annotations, but MCP %s not have trust_annotations: "+
			"the policy sees MCP's defaults for their tools (readOnlyHint false, destructiveHint true, idempotentHint false, openWorldHint true) "+
			"except where annotations: pins a hint, so the rule does not permit on what they claim; "+
			"pin the hints you have checked, or trust a server you trust, and permit on more than a hint (the server, a call limit)",
			r.File, r.Row, r.Rule, servers))
	}
	return out, nil
}

// unmatchedLint warns about each capability whose method pattern matches
// none of the config's tools: it allows nothing, which is almost always a
// misspelled name or a tool that was renamed. The tools of mcp_servers are
// known only once the servers run, so a pattern whose first segment could
// name one of them ("github/**", "**") is not judged.
func unmatchedLint(cfg *config.Config) []string {
	var names []string
	for _, t := range cfg.Tools {
		names = append(names, t.Name)
	}
	if t, ok := cfg.FetchTool(); ok {
		names = append(names, t.Name)
	}
	var out []string
	for i, c := range cfg.ParsedCapabilities() {
		p := c.Pattern()
		if mayMatchUpstream(p, cfg.MCPServers) {
			continue
		}
		matched := false
		for _, n := range names {
			if ok, err := dsl.MatchMethod(p, n); err == nil && ok {
				matched = true
				break
			}
		}
		if matched {
			continue
		}
		have := "the config has no tools"
		if len(names) > 0 {
			shown := names
			if len(shown) > 5 {
				shown = shown[:5]
			}
			have = "the config's tools are " + strings.Join(shown, ", ")
			if len(names) > len(shown) {
				have += fmt.Sprintf(" and %d more", len(names)-len(shown))
			}
		}
		out = append(out, fmt.Sprintf("capability #%d %s matches no tool, so it allows nothing (%s): is the name misspelled?", i, dsl.Quote(p), have))
	}
	return out
}

// mayMatchUpstream reports whether pattern could match a tool of one of
// servers, whose tools are named SERVER/<tool>.
func mayMatchUpstream(pattern string, servers []config.MCPServer) bool {
	first, _, _ := strings.Cut(pattern, "/")
	for _, s := range servers {
		if first == "**" {
			return true
		}
		if ok, err := dsl.MatchMethod(first, s.Name); err == nil && ok {
			return true
		}
	}
	return false
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
