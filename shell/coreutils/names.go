package coreutils

import (
	"fmt"
	"io"
	"path"
	"strings"

	"github.com/cordonhq/cordon/shell/command"
)

// cmdBasename implements basename NAME [SUFFIX] and basename -a|-s SUFFIX NAME...
func cmdBasename(env *command.Env) int {
	opts, names, st, ok := env.ParseOptions("as:z", []string{"multiple", "suffix=", "zero"}, false)
	if !ok {
		return st
	}
	multiple, suffix, end := false, "", "\n"
	for _, o := range opts {
		switch o.Name {
		case "a", "multiple":
			multiple = true
		case "s", "suffix":
			multiple, suffix = true, o.Value
		case "z", "zero":
			end = "\x00"
		}
	}
	if len(names) == 0 {
		return env.Usage(1, "missing operand", "")
	}
	if !multiple {
		if len(names) > 2 {
			return env.Usage(1, fmt.Sprintf("extra operand ‘%s’", names[2]), "")
		}
		if len(names) == 2 {
			suffix = names[1]
		}
		names = names[:1]
	}
	var sb strings.Builder
	for _, n := range names {
		b := baseName(n)
		if suffix != "" && b != suffix && strings.HasSuffix(b, suffix) {
			b = strings.TrimSuffix(b, suffix)
		}
		sb.WriteString(b + end)
	}
	if _, err := io.WriteString(env.Stdout, sb.String()); err != nil {
		return env.WriteError(err)
	}
	return 0
}

// baseName is POSIX basename: "/" for "/", the last component otherwise.
func baseName(n string) string {
	t := strings.TrimRight(n, "/")
	if t == "" {
		if n == "" {
			return ""
		}
		return "/"
	}
	return path.Base(t)
}

// cmdDirname implements dirname NAME...
func cmdDirname(env *command.Env) int {
	opts, names, st, ok := env.ParseOptions("z", []string{"zero"}, false)
	if !ok {
		return st
	}
	end := "\n"
	if len(opts) > 0 {
		end = "\x00"
	}
	if len(names) == 0 {
		return env.Usage(1, "missing operand", "")
	}
	var sb strings.Builder
	for _, n := range names {
		sb.WriteString(dirName(n) + end)
	}
	if _, err := io.WriteString(env.Stdout, sb.String()); err != nil {
		return env.WriteError(err)
	}
	return 0
}

// dirName is POSIX dirname.
func dirName(n string) string {
	t := strings.TrimRight(n, "/")
	if t == "" {
		if strings.HasPrefix(n, "/") {
			return "/"
		}
		return "."
	}
	i := strings.LastIndexByte(t, '/')
	if i < 0 {
		return "."
	}
	d := strings.TrimRight(t[:i], "/")
	if d == "" {
		return "/"
	}
	return d
}
