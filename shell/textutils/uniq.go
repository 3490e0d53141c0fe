package textutils

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"

	"github.com/cordonhq/cordon/shell/command"
)

var uniqLong = []string{
	"count", "repeated", "all-repeated", "all-repeated-method=", "group", "group-method=", "unique", "ignore-case", "skip-fields=",
	"skip-chars=", "check-chars=", "zero-terminated", "help",
}

// uniqOpts holds uniq's options.
type uniqOpts struct {
	count, repeated, all, unique, icase bool
	fields, chars, width                int
	method                              string // -D or --group delimiting method
	group                               bool
}

// uniqPreprocess rewrites --all-repeated=M and --group=M, whose argument is
// optional.
func uniqPreprocess(args []string) []string {
	out := make([]string, 0, len(args))
	for i, a := range args {
		if a == "--" {
			return append(out, args[i:]...)
		}
		if v, ok := strings.CutPrefix(a, "--all-repeated="); ok {
			a = "--all-repeated-method=" + v
		} else if v, ok := strings.CutPrefix(a, "--group="); ok {
			a = "--group-method=" + v
		}
		out = append(out, a)
	}
	return out
}

func cmdUniq(env *command.Env) int {
	opts, operands, err := command.Getopt(uniqPreprocess(env.Args[1:]), "cdDuif:s:w:z", uniqLong, false)
	if err != nil {
		return env.Usage(1, err.Error(), "")
	}
	o := uniqOpts{width: -1}
	delim := byte('\n')
	num := func(v, what string) (int, bool) {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil || n < 0 {
			env.Errorf(1, "%s: invalid number of %s", v, what)
			return 0, false
		}
		return int(min(n, 1<<40)), true
	}
	var ok bool
	for _, op := range opts {
		switch op.Name {
		case "c", "count":
			o.count = true
		case "d", "repeated":
			o.repeated = true
		case "D", "all-repeated":
			o.all, o.method = true, "none"
		case "all-repeated-method":
			if o.method = op.Value; o.method != "none" && o.method != "prepend" && o.method != "separate" {
				return env.Usage(1, fmt.Sprintf("invalid argument '%s' for '--all-repeated'", op.Value), "")
			}
			o.all = true
		case "group", "group-method":
			o.group, o.method = true, op.Value
			if op.Value == "" {
				o.method = "separate"
			}
			if o.method != "separate" && o.method != "prepend" && o.method != "append" && o.method != "both" {
				return env.Usage(1, fmt.Sprintf("invalid argument '%s' for '--group'", op.Value), "")
			}
		case "u", "unique":
			o.unique = true
		case "i", "ignore-case":
			o.icase = true
		case "z", "zero-terminated":
			delim = 0
		case "f", "skip-fields":
			if o.fields, ok = num(op.Value, "fields to skip"); !ok {
				return 1
			}
		case "s", "skip-chars":
			if o.chars, ok = num(op.Value, "bytes to skip"); !ok {
				return 1
			}
		case "w", "check-chars":
			if o.width, ok = num(op.Value, "bytes to compare"); !ok {
				return 1
			}
		case "help":
			fmt.Fprintln(env.Stdout, "Usage: uniq [OPTION]... [INPUT [OUTPUT]]")
			return 0
		}
	}
	if o.group && (o.count || o.repeated || o.all || o.unique) {
		fmt.Fprintf(env.Stderr, "uniq: --group is mutually exclusive with -c/-d/-D/-u\nTry 'uniq --help' for more information.\n")
		return 1
	}
	if o.all && o.count {
		fmt.Fprintf(env.Stderr, "uniq: printing all duplicated lines and repeat counts is meaningless\nTry 'uniq --help' for more information.\n")
		return 1
	}
	if len(operands) > 2 {
		return env.Usage(1, fmt.Sprintf("extra operand '%s'", operands[2]), "")
	}
	in := "-"
	if len(operands) > 0 {
		in = operands[0]
	}
	f, err := env.Open(in)
	if err != nil {
		return env.FileError(1, in, err)
	}
	defer f.Close()
	var dst *bytes.Buffer
	out := newOutput(env, env.Stdout)
	if len(operands) == 2 && operands[1] != "-" {
		dst = &bytes.Buffer{}
		out = newOutput(env, dst)
	}
	lr := env.NewLineReader(f, readBufSize)
	lr.Delim = delim
	if o.group {
		if st := uniqGroups(lr, out, &o, delim); st != 0 {
			return st
		}
	} else if st := uniqLines(lr, out, &o, delim); st != 0 {
		return st
	}
	if lr.Err() == command.ErrCanceled {
		return command.StatusCanceled
	}
	if lr.Err() != nil {
		return env.FileError(1, in, lr.Err())
	}
	if err := out.Flush(); err != nil {
		return 1
	}
	if dst != nil {
		if err := writeFile(env, operands[1], dst.Bytes()); err != nil {
			return env.FileError(1, operands[1], err)
		}
	}
	return 0
}

// key returns the part of line that uniq compares.
func (o *uniqOpts) key(line []byte) []byte {
	p := 0
	for f := 0; f < o.fields && p < len(line); f++ {
		for p < len(line) && isBlank(line[p]) {
			p++
		}
		for p < len(line) && !isBlank(line[p]) {
			p++
		}
	}
	p = min(len(line), p+o.chars)
	k := line[p:]
	if o.width >= 0 && len(k) > o.width {
		k = k[:o.width]
	}
	return k
}

func (o *uniqOpts) equal(a, b []byte) bool {
	ka, kb := o.key(a), o.key(b)
	if o.icase {
		return bytes.EqualFold(ka, kb)
	}
	return bytes.Equal(ka, kb)
}

// uniqLines is uniq's main loop, with GNU's rules for which lines -d, -u
// and -D print: the first line of a group of one (unique), the first line of
// a larger group, and its later lines.
func uniqLines(lr *command.LineReader, out output, o *uniqOpts, delim byte) int {
	outUnique := !o.repeated && !o.all
	outFirst := !o.unique
	outLater := o.all
	firstDelim := true
	var prev []byte
	have := false
	count := int64(0) // lines equal to prev after it
	write := func(line []byte, match bool, n int64) {
		switch {
		case n == 0 && !outUnique, n > 0 && !match && !outFirst, match && !outLater:
			return
		}
		if o.count {
			fmt.Fprintf(out, "%7d ", n+1)
		}
		out.Write(line)
		out.WriteByte(delim)
	}
	for {
		line, _, ok := lr.Next()
		if !ok {
			break
		}
		if !have {
			prev, have = append(prev[:0], line...), true
			continue
		}
		match := o.equal(prev, line)
		if match {
			count++
		}
		if o.all && o.method != "none" {
			if !match && count > 0 {
				firstDelim = false
			} else if match && count == 1 && (o.method == "prepend" || o.method == "separate" && !firstDelim) {
				out.WriteByte(delim)
			}
		}
		if !match || outLater {
			write(prev, match, count)
			prev = append(prev[:0], line...)
			if !match {
				count = 0
			}
		}
		if out.failed() {
			return 1
		}
	}
	if have {
		write(prev, false, count)
	}
	return 0
}

// uniqGroups implements --group: every line, with a delimiter line
// between (or around) the groups.
func uniqGroups(lr *command.LineReader, out output, o *uniqOpts, delim byte) int {
	var prev []byte
	have := false
	m := o.method
	for {
		line, _, ok := lr.Next()
		if !ok {
			break
		}
		if !have && (m == "prepend" || m == "both") || have && !o.equal(prev, line) {
			out.WriteByte(delim)
		}
		out.Write(line)
		out.WriteByte(delim)
		prev, have = append(prev[:0], line...), true
		if out.failed() {
			return 1
		}
	}
	if have && (m == "append" || m == "both") {
		out.WriteByte(delim)
	}
	return 0
}
