package shellrt

import (
	"bytes"
	"fmt"
	"io"
	"strings"

	"github.com/cordonhq/cordon/guest/internal/hub"
	"github.com/cordonhq/cordon/internal/abi"
	"github.com/cordonhq/cordon/shell/command"
)

// toolCommand is the shell's `tool` command: it calls a host tool through
// the same policy, counters and audit as JavaScript does.
type toolCommand struct {
	tools []abi.ToolInfo
	hub   *hub.Hub
}

// toolUsage is what tool prints with no arguments, and for --help alone.
const toolUsage = `Usage: tool NAME [--PARAM VALUE]... [--json '{...}']
       tool --list [PREFIX]
       tool --help NAME
`

// run is the tool command. A call goes one way: the command line names
// the tool and gives its flags (parseArgs), the flags become the params
// (buildParams, by the tool's input schema), the hub calls the tool, and
// the answer is printed (printAnswer). --list and --help are answered by
// parseArgs.
func (t *toolCommand) run(env *command.Env) int {
	ti, flags, status, done := t.parseArgs(env)
	if done {
		return status
	}
	params, err := buildParams(parseSchema(ti.Schema), flags)
	if err != nil {
		return env.Errorf(2, "%s: %v", ti.Name, err)
	}
	if err := env.Ctx.Err(); err != nil {
		return 130
	}
	res, err := t.hub.Call(abi.LangShell, ti.Name, params)
	if err != nil {
		fmt.Fprintf(env.Stderr, "tool: %s: %v\n", ti.Name, err)
		return 130
	}
	return printAnswer(env, res)
}

// parseArgs reads the command line. It answers --list, --help and a
// command line it cannot read itself, and then done is true and status is
// the command's status; else it returns the tool named and its flags.
func (t *toolCommand) parseArgs(env *command.Env) (ti abi.ToolInfo, flags []string, status int, done bool) {
	args := env.Args[1:]
	if len(args) == 0 {
		io.WriteString(env.Stderr, toolUsage)
		return ti, nil, 2, true
	}
	switch args[0] {
	case "--list", "-l":
		if len(args) > 2 {
			return ti, nil, env.Errorf(2, "--list takes at most one prefix"), true
		}
		prefix := ""
		if len(args) == 2 {
			prefix = args[1]
		}
		listTools(env.Stdout, t.tools, prefix)
		return ti, nil, 0, true
	case "--help", "-h":
		if len(args) != 2 {
			io.WriteString(env.Stdout, toolUsage)
			return ti, nil, 0, true
		}
		ti, ok := findTool(t.tools, args[1])
		if !ok {
			return ti, nil, unknownTool(env, t.tools, args[1]), true
		}
		printHelp(env.Stdout, ti)
		return ti, nil, 0, true
	}
	if strings.HasPrefix(args[0], "-") {
		return ti, nil, env.Errorf(2, "expected a tool name before %s\n%s", args[0], strings.TrimSuffix(toolUsage, "\n")), true
	}
	ti, ok := findTool(t.tools, args[0])
	if !ok {
		return ti, nil, unknownTool(env, t.tools, args[0]), true
	}
	return ti, args[1:], 0, false
}

// printAnswer prints a tool's answer: its value on stdout, or its error
// and the policy's reasons on stderr (status 1).
func printAnswer(env *command.Env, res abi.CallResult) int {
	if !res.OK {
		fmt.Fprintf(env.Stderr, "tool: %s\n", res.ErrMsg)
		for _, r := range res.Reasons {
			if !strings.Contains(res.ErrMsg, r) {
				fmt.Fprintf(env.Stderr, "tool:   %s\n", r)
			}
		}
		return 1
	}
	out := bytes.TrimSpace(res.Value)
	if _, err := env.Stdout.Write(append(out, '\n')); err != nil {
		return 1
	}
	return 0
}
