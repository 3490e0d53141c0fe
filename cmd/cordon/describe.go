package main

import (
	"context"
	"io"
	"strconv"

	"github.com/cordonhq/cordon/config"
	"github.com/cordonhq/cordon/describe"
	"github.com/cordonhq/cordon/engine"
	"github.com/cordonhq/cordon/internal/abi"
)

// cmdDescribe is `cordon describe [--config FILE] [--format prompt|ts|json]`:
// it prints the description of the config's tools for a model (package
// describe), the constraints of its capabilities included. The config's
// upstream MCP servers (mcp_servers) are started, as `cordon run` and
// `cordon mcp` start them, so that their tools are described as the model
// of `cordon mcp` sees them; they are stopped before it returns.
//
//	--format prompt   the whole text for the model, in Markdown (default)
//	--format ts       the TypeScript declarations alone, a .d.ts file
//	--format json     everything in machine-readable form
//	--lang js|sh      describe one language only (default: both)
//	--max-bytes N     the prompt's size above which it lists the tools in a
//	                  compact form (default 32768; 0 for no limit)
//	--no-example      leave out the example call
func cmdDescribe(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("describe")
	cfgFile := fs.String("config", "", "")
	format := fs.String("format", "prompt", "")
	lang := fs.String("lang", "", "")
	maxBytes := fs.Int("max-bytes", describe.DefaultMaxBytes, "")
	noExample := fs.Bool("no-example", false, "")
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return flagError("describe", err)
	}
	if len(pos) > 0 {
		return usagef("describe: unexpected argument %q (give the config with --config)", pos[0])
	}
	opts := describe.Options{NoExample: *noExample, MaxBytes: *maxBytes}
	switch {
	case *maxBytes == 0:
		opts.MaxBytes = -1
	case *maxBytes < 0:
		return usagef("describe: --max-bytes must be positive, or 0 for no limit")
	}
	switch *lang {
	case "":
	case string(abi.LangJS), "javascript":
		opts.Language = describe.JavaScript
	case string(abi.LangShell), "shell", "bash":
		opts.Language = describe.Shell
	default:
		return usagef("describe: --lang must be js or sh, not %q", *lang)
	}
	cfg := config.Default()
	if *cfgFile != "" {
		if cfg, err = config.Load(*cfgFile); err != nil {
			return err
		}
	}
	opts.Capabilities = cfg.ParsedCapabilities()
	engineTools, stop, err := configTools(ctx, cfg, stderr)
	if err != nil {
		return err
	}
	stop()
	tools := describeTools(engineTools)
	var out string
	switch *format {
	case "prompt", "":
		out = describe.Prompt(tools, opts)
	case "ts", "typescript", "d.ts":
		if opts.Language == describe.Shell {
			return usagef("describe: --format ts declares the JavaScript API; it takes no --lang sh")
		}
		out = describe.TypeScript(tools, opts)
	case "json":
		b, err := describe.JSON(tools, opts)
		if err != nil {
			return err
		}
		out = string(b) + "\n"
	default:
		return usagef("describe: --format must be prompt, ts or json, not %s", strconv.Quote(*format))
	}
	_, err = io.WriteString(stdout, out)
	return err
}

// describeTools returns the tools as package describe takes them: the
// config's own, whose schemas are the file's (config.Config.EngineTools),
// and the upstream servers', as package mcptools imported them.
func describeTools(tools []engine.Tool) []describe.ToolSpec {
	out := make([]describe.ToolSpec, len(tools))
	for i, t := range tools {
		out[i] = describe.ToolSpec{Name: t.Name, Description: t.Description, InputSchema: t.InputSchema, OutputSchema: t.OutputSchema}
	}
	return out
}
