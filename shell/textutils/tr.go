package textutils

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/cordonhq/cordon/shell/command"
	"github.com/cordonhq/cordon/shell/internal/escape"
)

var trLong = []string{"complement", "delete", "squeeze-repeats", "truncate-set1", "help"}

func trUsage(env *command.Env, msg string) int {
	fmt.Fprintf(env.Stderr, "tr: %s\nTry 'tr --help' for more information.\n", msg)
	return 1
}

// trElem is one parsed element of a tr set.
type trElem struct {
	chars  []byte
	class  string // "upper" or "lower" when the element is that class
	repeat bool   // [c*] with no count: fill to the length of set1
}

func cmdTr(env *command.Env) int {
	opts, operands, err := command.Getopt(env.Args[1:], "cCdst", trLong, false)
	if err != nil {
		return env.Usage(1, err.Error(), "")
	}
	var comp, del, squeeze, trunc bool
	for _, o := range opts {
		switch o.Name {
		case "c", "C", "complement":
			comp = true
		case "d", "delete":
			del = true
		case "s", "squeeze-repeats":
			squeeze = true
		case "t", "truncate-set1":
			trunc = true
		case "help":
			fmt.Fprintln(env.Stdout, "Usage: tr [OPTION]... STRING1 [STRING2]")
			return 0
		}
	}
	translating := !del && len(operands) > 1
	switch {
	case len(operands) == 0:
		return trUsage(env, "missing operand")
	case del && squeeze && len(operands) < 2:
		return trUsage(env, fmt.Sprintf("missing operand after '%s'\nTwo strings must be given when both deleting and squeezing repeats.", operands[0]))
	case !del && !squeeze && len(operands) < 2:
		return trUsage(env, fmt.Sprintf("missing operand after '%s'\nTwo strings must be given when translating.", operands[0]))
	case del && !squeeze && len(operands) > 1:
		return trUsage(env, fmt.Sprintf("extra operand '%s'\nOnly one string may be given when deleting without squeezing repeats.", operands[1]))
	case len(operands) > 2:
		return trUsage(env, fmt.Sprintf("extra operand '%s'", operands[2]))
	}
	e1, msg := parseTrSet(operands[0])
	if msg != "" {
		return env.Errorf(1, "%s", msg)
	}
	set1 := flatten(e1, 0)
	var in1 [256]bool
	for _, c := range set1 {
		in1[c] = true
	}
	if comp {
		set1 = set1[:0]
		for c := 0; c < 256; c++ {
			if !in1[c] {
				set1 = append(set1, byte(c))
			}
		}
		for c := range in1 {
			in1[c] = !in1[c]
		}
	}
	var set2 []byte
	var in2 [256]bool
	if len(operands) > 1 {
		e2, msg := parseTrSet(operands[1])
		if msg != "" {
			return env.Errorf(1, "%s", msg)
		}
		if translating {
			if msg := checkClasses(e1, e2, comp); msg != "" {
				return env.Errorf(1, "%s", msg)
			}
		}
		set2 = flatten(e2, len(set1))
		if translating && len(set2) == 0 && len(set1) > 0 && !trunc {
			return env.Errorf(1, "when not truncating set1, string2 must be non-empty")
		}
		if squeeze && !translating && len(set2) == 0 {
			return env.Errorf(1, "when not truncating set1, string2 must be non-empty")
		}
		for _, c := range set2 {
			in2[c] = true
		}
	}
	var table [256]byte
	for i := range table {
		table[i] = byte(i)
	}
	if translating {
		if trunc && len(set1) > len(set2) {
			set1 = set1[:len(set2)]
		}
		for len(set2) < len(set1) {
			set2 = append(set2, set2[len(set2)-1])
		}
		for i, c := range set1 {
			table[c] = set2[i]
		}
	}
	sq := in1
	if translating || del {
		sq = in2
	}
	return trRun(env, table, in1, sq, del, squeeze)
}

// checkClasses validates [:upper:] and [:lower:] in set2.
func checkClasses(e1, e2 []trElem, comp bool) string {
	pos := 0
	for i, e := range e2 {
		if e.class == "" {
			pos += len(e.chars)
			continue
		}
		if e.class != "upper" && e.class != "lower" {
			return "when translating, the only character classes that may appear in\nstring2 are 'upper' and 'lower'"
		}
		ok := false
		if !comp && i < len(e1) && (e1[i].class == "upper" || e1[i].class == "lower") {
			ok = true
		}
		if !ok {
			return "misaligned [:upper:] and/or [:lower:] construct"
		}
	}
	return ""
}

func trRun(env *command.Env, table [256]byte, del1, sq [256]bool, del, squeeze bool) int {
	out := newOutput(env, env.Stdout)
	defer out.Flush()
	buf := env.Buffer(ctxBytes)
	res := env.Buffer(ctxBytes)[:0]
	last := -1
	for {
		if command.Done(env.Ctx) {
			return command.StatusCanceled
		}
		n, err := env.Stdin.Read(buf)
		res = res[:0]
		for _, c := range buf[:n] {
			if del && del1[c] {
				continue
			}
			if !del {
				c = table[c]
			}
			if squeeze && sq[c] && int(c) == last {
				continue
			}
			last = int(c)
			res = append(res, c)
		}
		out.Write(res)
		if out.failed() {
			return 1
		}
		if err == io.EOF {
			return 0
		}
		if err != nil {
			return env.Errorf(1, "read error: %s", command.Strerror(err))
		}
	}
}

var trClasses = map[string]func(c byte) bool{
	"alpha": func(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' },
	"upper": func(c byte) bool { return c >= 'A' && c <= 'Z' },
	"lower": func(c byte) bool { return c >= 'a' && c <= 'z' },
	"digit": func(c byte) bool { return c >= '0' && c <= '9' },
	"alnum": func(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' },
	"space": func(c byte) bool { return c == ' ' || c >= '\t' && c <= '\r' },
	"blank": func(c byte) bool { return c == ' ' || c == '\t' },
	"punct": func(c byte) bool {
		return c > ' ' && c < 127 && !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9')
	},
	"print":  func(c byte) bool { return c >= ' ' && c < 127 },
	"graph":  func(c byte) bool { return c > ' ' && c < 127 },
	"cntrl":  func(c byte) bool { return c < ' ' || c == 127 },
	"xdigit": func(c byte) bool { return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F' },
}

// trChar reads one possibly escaped character at s[i:].
func trChar(s string, i int) (byte, int) {
	if s[i] != '\\' {
		return s[i], i + 1
	}
	var buf [1]byte
	b, j, _ := escape.Append(escape.Tr, buf[:0], s, i)
	return b[0], j
}

// parseTrSet parses a tr operand into elements.
func parseTrSet(s string) ([]trElem, string) {
	var out []trElem
	for i := 0; i < len(s); {
		if s[i] == '[' && i+1 < len(s) && s[i+1] == ':' {
			if end := strings.Index(s[i+2:], ":]"); end >= 0 {
				name := s[i+2 : i+2+end]
				f, ok := trClasses[name]
				if !ok {
					return nil, fmt.Sprintf("invalid character class '%s'", name)
				}
				var e trElem
				for c := 0; c < 256; c++ {
					if f(byte(c)) {
						e.chars = append(e.chars, byte(c))
					}
				}
				e.class = name
				out = append(out, e)
				i += 2 + end + 2
				continue
			}
		}
		if s[i] == '[' && i+1 < len(s) && s[i+1] == '=' {
			if end := strings.Index(s[i+2:], "=]"); end == 1 {
				out = append(out, trElem{chars: []byte{s[i+2]}})
				i += 5
				continue
			}
		}
		if s[i] == '[' && i+2 < len(s) {
			c, j := trChar(s, i+1)
			if j < len(s) && s[j] == '*' {
				if end := strings.IndexByte(s[j+1:], ']'); end >= 0 {
					cnt := s[j+1 : j+1+end]
					n := int64(0)
					var err error
					if cnt != "" {
						base := 10
						if cnt[0] == '0' {
							base = 8
						}
						n, err = strconv.ParseInt(cnt, base, 64)
						if err != nil {
							return nil, fmt.Sprintf("invalid repeat count '%s' in [c*n] construct", cnt)
						}
					}
					e := trElem{repeat: n == 0}
					if n > 0 {
						e.chars = []byte(strings.Repeat(string(c), int(min(n, 1<<20))))
					} else {
						e.chars = []byte{c}
					}
					out = append(out, e)
					i = j + 1 + end + 1
					continue
				}
			}
		}
		c, j := trChar(s, i)
		if j < len(s) && s[j] == '-' && j+1 < len(s) {
			hi, k := trChar(s, j+1)
			if hi < c {
				return nil, fmt.Sprintf("range-endpoints of '%s' are in reverse collating sequence order", s[i:k])
			}
			var e trElem
			for x := int(c); x <= int(hi); x++ {
				e.chars = append(e.chars, byte(x))
			}
			out = append(out, e)
			i = k
			continue
		}
		out = append(out, trElem{chars: []byte{c}})
		i = j
	}
	return out, ""
}

// flatten expands the elements; a [c*] element fills up to target.
func flatten(es []trElem, target int) []byte {
	fixed := 0
	for _, e := range es {
		if !e.repeat {
			fixed += len(e.chars)
		}
	}
	var out []byte
	for _, e := range es {
		if e.repeat {
			for n := target - fixed; n > 0; n-- {
				out = append(out, e.chars[0])
			}
			fixed = target
			continue
		}
		out = append(out, e.chars...)
	}
	return out
}
