package textutils

import (
	"bytes"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/cordonhq/cordon/shell/command"
)

var cutLong = []string{
	"bytes=", "characters=", "fields=", "delimiter=", "only-delimited", "output-delimiter=",
	"complement", "zero-terminated", "help",
}

// cutRange is an inclusive range of 1-based positions; hi 0 means no end.
type cutRange struct{ lo, hi int }

// cutter holds cut's options.
type cutter struct {
	mode       byte // 'b', 'c' or 'f'
	ranges     []cutRange
	delim      byte
	outDelim   []byte
	outSet     bool
	onlyDelim  bool
	complement bool
	eol        byte
}

func cutUsage(env *command.Env, msg string) int {
	fmt.Fprintf(env.Stderr, "cut: %s\nTry 'cut --help' for more information.\n", msg)
	return 1
}

func cmdCut(env *command.Env) int {
	opts, operands, err := command.Getopt(env.Args[1:], "b:c:f:d:snz", cutLong, false)
	if err != nil {
		return env.Usage(1, err.Error(), "")
	}
	c := &cutter{delim: '\t', eol: '\n'}
	list := ""
	delimSet := false
	for _, o := range opts {
		switch o.Name {
		case "b", "c", "f", "bytes", "characters", "fields":
			if c.mode != 0 {
				return cutUsage(env, "only one list may be specified")
			}
			c.mode = o.Name[0]
			list = o.Value
		case "d", "delimiter":
			if len(o.Value) > 1 {
				return cutUsage(env, "the delimiter must be a single character")
			}
			c.delim = 0
			if o.Value != "" {
				c.delim = o.Value[0]
			}
			delimSet = true
		case "s", "only-delimited":
			c.onlyDelim = true
		case "output-delimiter":
			c.outDelim, c.outSet = []byte(o.Value), true
		case "complement":
			c.complement = true
		case "z", "zero-terminated":
			c.eol = 0
		case "help":
			fmt.Fprintln(env.Stdout, "Usage: cut OPTION... [FILE]...")
			return 0
		}
	}
	if c.mode == 0 {
		return cutUsage(env, "you must specify a list of bytes, characters, or fields")
	}
	if c.mode != 'f' && delimSet {
		return cutUsage(env, "an input delimiter may be specified only when operating on fields")
	}
	if c.mode != 'f' && c.onlyDelim {
		return cutUsage(env, "suppressing non-delimited lines makes sense\n\tonly when operating on fields")
	}
	if msg := c.parseList(list); msg != "" {
		return cutUsage(env, msg)
	}
	if c.complement {
		c.ranges = complementRanges(c.ranges)
	}
	if !c.outSet {
		c.outDelim = []byte{c.delim}
		if c.mode != 'f' {
			c.outDelim = nil
		}
	}
	if len(operands) == 0 {
		operands = []string{"-"}
	}
	out := newOutput(env, env.Stdout)
	defer out.Flush()
	status := 0
	for _, name := range operands {
		f, err := env.Open(name)
		if err != nil {
			out.Flush()
			env.FileError(1, name, err)
			status = 1
			continue
		}
		lr := env.NewLineReader(f, readBufSize)
		lr.Delim = c.eol
		for {
			line, _, ok := lr.Next()
			if !ok {
				break
			}
			c.line(out, line)
			if out.failed() {
				f.Close()
				return 1
			}
		}
		f.Close()
		if lr.Err() == command.ErrCanceled {
			return command.StatusCanceled
		}
		if lr.Err() != nil {
			out.Flush()
			env.FileError(1, name, lr.Err())
			status = 1
		}
	}
	return status
}

// parseList parses a list like "1,3-5,7-" into sorted, merged ranges.
func (c *cutter) parseList(list string) string {
	what := "field"
	if c.mode != 'f' {
		what = "byte/character"
	}
	for _, part := range strings.FieldsFunc(list, func(r rune) bool { return r == ',' || r == ' ' }) {
		lo, hi, isRange := strings.Cut(part, "-")
		var r cutRange
		parse := func(s string) (int, string) {
			if strings.Trim(s, "0123456789") != "" {
				return 0, fmt.Sprintf("invalid %s value '%s'", what, s)
			}
			n, err := strconv.Atoi(s)
			if err != nil || n > 1<<40 {
				return 0, fmt.Sprintf("%s offset '%s' is too large", what, s)
			}
			if n == 0 {
				if what == "field" {
					return 0, "fields are numbered from 1"
				}
				return 0, "byte/character positions are numbered from 1"
			}
			return n, ""
		}
		var msg string
		switch {
		case !isRange:
			if r.lo, msg = parse(lo); msg != "" {
				return msg
			}
			r.hi = r.lo
		case lo == "" && hi == "":
			return "invalid range with no endpoint: -"
		default:
			r.lo = 1
			if lo != "" {
				if r.lo, msg = parse(lo); msg != "" {
					return msg
				}
			}
			if hi != "" {
				if strings.Contains(hi, "-") {
					return fmt.Sprintf("invalid %s range", what)
				}
				if r.hi, msg = parse(hi); msg != "" {
					return msg
				}
				if r.hi < r.lo {
					return "invalid decreasing range"
				}
			}
		}
		c.ranges = append(c.ranges, r)
	}
	if len(c.ranges) == 0 {
		if what == "field" {
			return "fields are numbered from 1"
		}
		return "byte/character positions are numbered from 1"
	}
	slices.SortFunc(c.ranges, func(a, b cutRange) int { return a.lo - b.lo })
	merged := c.ranges[:1]
	for _, r := range c.ranges[1:] {
		last := &merged[len(merged)-1]
		if last.hi == 0 || r.lo <= last.hi+1 {
			if last.hi != 0 && (r.hi == 0 || r.hi > last.hi) {
				last.hi = r.hi
			}
			continue
		}
		merged = append(merged, r)
	}
	c.ranges = merged
	return ""
}

func complementRanges(rs []cutRange) []cutRange {
	var out []cutRange
	next := 1
	for _, r := range rs {
		if r.lo > next {
			out = append(out, cutRange{next, r.lo - 1})
		}
		if r.hi == 0 {
			return out
		}
		next = r.hi + 1
	}
	return append(out, cutRange{next, 0})
}

func (c *cutter) line(out output, line []byte) {
	if c.mode != 'f' {
		first := true
		for _, r := range c.ranges {
			if r.lo > len(line) {
				break
			}
			hi := r.hi
			if hi == 0 || hi > len(line) {
				hi = len(line)
			}
			if !first {
				out.Write(c.outDelim)
			}
			first = false
			out.Write(line[r.lo-1 : hi])
		}
		out.WriteByte(c.eol)
		return
	}
	if bytes.IndexByte(line, c.delim) < 0 {
		if !c.onlyDelim {
			out.Write(line)
			out.WriteByte(c.eol)
		}
		return
	}
	field := 1
	ri := 0
	first := true
	for start := 0; start <= len(line) && ri < len(c.ranges); field++ {
		end := bytes.IndexByte(line[start:], c.delim)
		if end < 0 {
			end = len(line)
		} else {
			end += start
		}
		for ri < len(c.ranges) && c.ranges[ri].hi != 0 && c.ranges[ri].hi < field {
			ri++
		}
		if ri < len(c.ranges) && field >= c.ranges[ri].lo {
			if !first {
				out.Write(c.outDelim)
			}
			first = false
			out.Write(line[start:end])
		}
		start = end + 1
	}
	out.WriteByte(c.eol)
}
