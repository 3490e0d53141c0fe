package codemode

import (
	"fmt"

	"github.com/cordonhq/cordon/describe"
	"github.com/cordonhq/cordon/dsl"
	"github.com/cordonhq/cordon/engine"
)

// description is the tool's description for the model: what this tool
// does with a script and its result, then [describe.Prompt]'s rules and
// API of the sandbox for lang, with what the policy's capabilities allow
// of each tool.
func description(lang engine.Language, tools []engine.Tool, cfg config) string {
	dt := make([]describe.ToolSpec, len(tools))
	for i, t := range tools {
		dt[i] = describe.ToolSpec{Name: t.Name, Description: t.Description, InputSchema: t.InputSchema, OutputSchema: t.OutputSchema}
	}
	opts := describe.Options{Language: lang}
	if l, ok := cfg.sandbox.Policy.(interface{ Capabilities() []*dsl.Capability }); ok {
		opts.Capabilities = l.Capabilities() // nil for a nil pointer
	}
	what := "Runs a JavaScript script in a sandbox, where it can call the tools declared below."
	if lang == engine.Shell {
		what = "Runs a bash-like shell script in a sandbox, where `tool NAME --param value` calls the tools listed below."
	}
	saved := ""
	if cfg.spillDir != "" {
		saved = fmt.Sprintf("; what is cut is saved in a file under %s that the result names, for your next script to read", cfg.spillDir)
	}
	return fmt.Sprintf("%s Write one script that does the whole task (several tool calls, loops, filtering) instead of one call per step. "+
		"The result shows the script's stdout, stderr and error, the value it returned, and the tool calls that were denied or failed, with the reasons. "+
		"Files persist across the calls of this conversation. A result longer than %d bytes is cut%s.\n\n%s",
		what, cfg.budget, saved, describe.Prompt(dt, opts))
}
