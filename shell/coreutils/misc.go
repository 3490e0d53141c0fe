package coreutils

import (
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/cordonhq/cordon/shell/command"
)

// cmdEnv implements env [-i] [-u NAME] [NAME=VALUE]... [COMMAND [ARG]...].
// Running a command with changed variables is not supported, because
// Env.Exec cannot pass an environment.
func cmdEnv(env *command.Env) int {
	opts, rest, st, ok := env.ParseOptions("iu:0", []string{"ignore-environment", "unset=", "null"}, true)
	if !ok {
		return usageStatus(st, 125)
	}
	vars := append([]string(nil), env.Environ...)
	changed, end := false, "\n"
	for _, o := range opts {
		switch o.Name {
		case "i", "ignore-environment":
			vars, changed = nil, true
		case "u", "unset":
			vars, changed = unsetVar(vars, o.Value), true
		case "0", "null":
			end = "\x00"
		}
	}
	if len(rest) > 0 && rest[0] == "-" {
		vars, changed = nil, true
		rest = rest[1:]
	}
	for len(rest) > 0 && strings.Contains(rest[0], "=") {
		name, _, _ := strings.Cut(rest[0], "=")
		if name == "" {
			return env.Errorf(125, "cannot set '%s': Invalid argument", rest[0])
		}
		vars = setVar(vars, name, rest[0])
		changed = true
		rest = rest[1:]
	}
	if len(rest) == 0 {
		var sb strings.Builder
		for _, v := range vars {
			sb.WriteString(v + end)
		}
		if _, err := io.WriteString(env.Stdout, sb.String()); err != nil {
			return env.WriteError(err)
		}
		return 0
	}
	if env.Exec == nil {
		return env.Errorf(126, "%s: command execution is not available", rest[0])
	}
	var environ []string
	if changed {
		environ = vars
		if environ == nil {
			environ = []string{} // env -i: nothing, not "inherit"
		}
	}
	return env.Exec(env.Ctx, rest, environ, env.Stdin, env.Stdout, env.Stderr)
}

// setVar replaces the variable name in place, or appends it.
func setVar(vars []string, name, kv string) []string {
	for i, v := range vars {
		if strings.HasPrefix(v, name+"=") {
			vars[i] = kv
			return vars
		}
	}
	return append(vars, kv)
}

// unsetVar removes the variable name.
func unsetVar(vars []string, name string) []string {
	out := vars[:0:0]
	for _, v := range vars {
		if !strings.HasPrefix(v, name+"=") {
			out = append(out, v)
		}
	}
	return out
}

// cmdSleep implements sleep NUMBER[smhd]... ("infinity" sleeps until the
// context is canceled). It sleeps in slices of 10ms, checking the context.
func cmdSleep(env *command.Env) int {
	args := env.Args[1:]
	if len(args) > 0 && args[0] == "--" {
		args = args[1:]
	}
	if len(args) == 0 {
		return env.Usage(1, "missing operand", "")
	}
	var total float64
	for _, a := range args {
		if strings.HasPrefix(a, "--") {
			return env.Usage(1, fmt.Sprintf("unrecognized option '%s'", a), "")
		}
		if strings.HasPrefix(a, "-") && len(a) > 1 {
			return env.Usage(1, fmt.Sprintf("invalid option -- '%c'", a[1]), "")
		}
		d, ok := parseDuration(a)
		if !ok {
			return env.Usage(1, fmt.Sprintf("invalid time interval ‘%s’", a), "")
		}
		total += d
	}
	deadline := time.Now().Add(time.Duration(math.Min(total, 1e9) * float64(time.Second)))
	for {
		if env.Canceled() {
			return command.StatusCanceled
		}
		left := time.Until(deadline)
		if left <= 0 {
			return 0
		}
		time.Sleep(min(left, 10*time.Millisecond))
	}
}

// parseDuration parses a sleep interval in seconds.
func parseDuration(s string) (float64, bool) {
	mult := 1.0
	if s != "" {
		switch s[len(s)-1] {
		case 's':
			s = s[:len(s)-1]
		case 'm':
			mult, s = 60, s[:len(s)-1]
		case 'h':
			mult, s = 3600, s[:len(s)-1]
		case 'd':
			mult, s = 86400, s[:len(s)-1]
		}
	}
	if s == "inf" || s == "infinity" {
		return math.Inf(1), true
	}
	if s == "" || strings.ContainsAny(s, "xXpPnN_") {
		return 0, false
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || v < 0 || math.IsNaN(v) {
		return 0, false
	}
	return v * mult, true
}

// cmdYes implements yes [STRING]... It stops when the context is canceled or
// when writing fails (the reader went away).
func cmdYes(env *command.Env) int {
	_, args, st, ok := env.ParseOptions("", nil, true)
	if !ok {
		return st
	}
	line := "y\n"
	if len(args) > 0 {
		line = strings.Join(args, " ") + "\n"
	}
	var buf []byte
	for len(buf) < 8<<10 {
		buf = append(buf, line...)
	}
	for {
		if env.Canceled() {
			return command.StatusCanceled
		}
		if _, err := env.Stdout.Write(buf); err != nil {
			return env.WriteError(err)
		}
	}
}

// cmdPrintenv implements printenv [-0] [NAME]...: the exported variables, or
// the values of the named ones (status 1 when one is not set).
func cmdPrintenv(env *command.Env) int {
	opts, names, err := command.Getopt(env.Args[1:], "0", []string{"null"}, false)
	if err != nil {
		return env.Errorf(2, "%v", err)
	}
	end := "\n"
	if len(opts) > 0 {
		end = "\x00"
	}
	var b strings.Builder
	status := 0
	if len(names) == 0 {
		for _, kv := range env.Environ {
			b.WriteString(kv + end)
		}
	}
	for _, name := range names {
		if v, ok := env.Getenv(name); ok && !strings.Contains(name, "=") {
			b.WriteString(v + end)
		} else {
			status = 1
		}
	}
	if _, err := io.WriteString(env.Stdout, b.String()); err != nil {
		return env.WriteError(err)
	}
	return status
}
