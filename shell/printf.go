package shell

import (
	"fmt"

	"mvdan.cc/sh/v3/syntax"

	"github.com/cordonhq/cordon/shell/command"
	"github.com/cordonhq/cordon/shell/internal/escape"
	"github.com/cordonhq/cordon/shell/internal/timefmt"
	"math"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/cordonhq/cordon/shell/internal/expansion"
)

// echoBuiltin implements echo with -n, -e and -E.
func echoBuiltin(r *runner, args []string) int {
	a := args[1:]
	newline, escapes := true, r.opts.xpgEcho
	for len(a) > 0 {
		f := a[0]
		if len(f) < 2 || f[0] != '-' || strings.Trim(f[1:], "neE") != "" {
			break
		}
		for _, c := range f[1:] {
			switch c {
			case 'n':
				newline = false
			case 'e':
				escapes = true
			case 'E':
				escapes = false
			}
		}
		a = a[1:]
	}
	var b strings.Builder
	for i, s := range a {
		if i > 0 {
			b.WriteByte(' ')
		}
		if escapes {
			out, stop := escape.Decode(escape.Echo, s)
			b.WriteString(out)
			if stop {
				newline = false
				break
			}
		} else {
			b.WriteString(s)
		}
	}
	if newline {
		b.WriteByte('\n')
	}
	if _, err := r.stdout().Write([]byte(b.String())); err != nil {
		if err != errBrokenPipe {
			r.builtinErr(1, "echo", "write error: %s", command.Strerror(err))
		}
		return 1
	}
	return 0
}

// printfState holds the arguments of one printf call.
type printfState struct {
	r      *runner
	args   []string
	used   int
	status int
	out    *strings.Builder // output not yet written
	toVar  bool             // -v: the output goes to a variable
	werr   error            // the first write error
}

// flush writes the pending output, so that output and error messages
// reach their streams in the order they were made.
func (p *printfState) flush() {
	if p.toVar || p.out.Len() == 0 {
		return
	}
	if _, err := p.r.stdout().Write([]byte(p.out.String())); err != nil && p.werr == nil {
		p.werr = err
	}
	p.out.Reset()
}

// errorf reports an error of printf after the output written before it.
func (p *printfState) errorf(format string, args ...any) {
	p.flush()
	p.r.builtinErr(1, "printf", format, args...)
}

// next returns the next argument, or "" when none is left.
func (p *printfState) next() (string, bool) {
	if p.used < len(p.args) {
		p.used++
		return p.args[p.used-1], true
	}
	return "", false
}

// charConst reads a numeric argument written as a quote and a character
// ('a or "a), whose value is the character's code; a lone quote is 0.
func charConst(t string) (rune, bool) {
	if t == "" || (t[0] != '\'' && t[0] != '"') {
		return 0, false
	}
	rn, _ := utf8.DecodeRuneInString(t[1:])
	if len(t) < 2 {
		rn = 0
	}
	return rn, true
}

// parseNum parses a printf numeric argument like strtol.
func (p *printfState) parseInt(s string) int64 {
	t := strings.TrimLeft(s, " \t\n")
	if t == "" {
		return 0
	}
	if c, ok := charConst(t); ok {
		return int64(c)
	}
	neg := false
	u := t
	if u[0] == '+' || u[0] == '-' {
		neg = u[0] == '-'
		u = u[1:]
	}
	base := 10
	digits := u
	switch {
	case strings.HasPrefix(u, "0x") || strings.HasPrefix(u, "0X"):
		base = 16
		digits = u[2:]
	case strings.HasPrefix(u, "0") && len(u) > 1:
		base = 8
		digits = u[1:]
	}
	end := 0
	for end < len(digits) {
		c := digits[end]
		var d int
		switch {
		case c >= '0' && c <= '9':
			d = int(c - '0')
		case c >= 'a' && c <= 'z':
			d = int(c-'a') + 10
		case c >= 'A' && c <= 'Z':
			d = int(c-'A') + 10
		default:
			d = 99
		}
		if d >= base {
			break
		}
		end++
	}
	n, err := strconv.ParseUint(digits[:end], base, 64)
	if end == 0 && !(base == 8) {
		p.errorf("%s: invalid number", s)
		p.status = 1
		return 0
	}
	if end < len(digits) {
		p.errorf("%s: invalid number", s)
		p.status = 1
	}
	if err != nil || (!neg && n > math.MaxInt64) || (neg && n > 1<<63) {
		p.errorf("%s: Numerical result out of range", s)
		if neg {
			return math.MinInt64
		}
		return math.MaxInt64
	}
	v := int64(n)
	if neg {
		v = -v
	}
	return v
}

// parseUint parses an argument of %u %o %x %X, which may use the whole
// unsigned range.
func (p *printfState) parseUint(s string) uint64 {
	t := strings.TrimSpace(s)
	if t != "" && t[0] != '-' && t[0] != '\'' && t[0] != '"' {
		if n, err := strconv.ParseUint(strings.TrimPrefix(t, "+"), 0, 64); err == nil {
			if !(len(t) > 1 && t[0] == '0' && t[1] != 'x' && t[1] != 'X') {
				return n
			}
		} else if ne, ok := err.(*strconv.NumError); ok && ne.Err == strconv.ErrRange {
			p.errorf("%s: Numerical result out of range", s)
			return math.MaxUint64
		}
	}
	return uint64(p.parseInt(s))
}

// noZero removes the 0 flag, which does not apply to strings.
// maxPrintfWidth is the largest field width or precision printf accepts.
const maxPrintfWidth = 1_000_000

func noZero(spec string) string {
	i := 1
	for i < len(spec) && strings.IndexByte("-+ #0", spec[i]) >= 0 {
		i++
	}
	return "%" + strings.ReplaceAll(spec[1:i], "0", "") + spec[i:]
}

// parseFloat parses an argument of the floating-point conversions.
func (p *printfState) parseFloat(s string) float64 {
	t := strings.TrimSpace(s)
	if t == "" {
		return 0
	}
	if c, ok := charConst(t); ok {
		return float64(c)
	}
	f, err := strconv.ParseFloat(t, 64)
	if err != nil {
		if n, err2 := strconv.ParseInt(t, 0, 64); err2 == nil {
			return float64(n)
		}
		p.errorf("%s: invalid number", s)
		p.status = 1
		return 0
	}
	return f
}

// printfBuiltin implements printf, reusing the format for extra arguments.
func printfBuiltin(r *runner, args []string) int {
	a := args[1:]
	varName := ""
	for len(a) > 0 && strings.HasPrefix(a[0], "-") && len(a[0]) > 1 {
		if a[0] == "--" {
			a = a[1:]
			break
		}
		if a[0] == "-v" {
			if len(a) < 2 {
				r.builtinErr(2, "printf", "-v: option requires an argument")
				fmt.Fprintln(r.stderr(), "printf: usage: printf [-v var] format [arguments]")
				return 2
			}
			varName = a[1]
			a = a[2:]
			continue
		}
		if strings.HasPrefix(a[0], "-v") {
			varName = a[0][2:]
			a = a[1:]
			continue
		}
		r.builtinErr(2, "printf", "%s: invalid option", a[0][:2])
		fmt.Fprintln(r.stderr(), "printf: usage: printf [-v var] format [arguments]")
		return 2
	}
	if len(a) == 0 {
		fmt.Fprintln(r.stderr(), "printf: usage: printf [-v var] format [arguments]")
		return 2
	}
	format := a[0]
	var out strings.Builder
	p := &printfState{r: r, args: a[1:], out: &out, toVar: varName != ""}
	for {
		before := p.used
		stop, bad := p.format(&out, format)
		if bad {
			p.status = 1
			break
		}
		if stop || p.used >= len(p.args) || p.used == before {
			break
		}
		if out.Len() > maxCaptured {
			break
		}
		if r.ctxErr() != nil {
			break
		}
	}
	if varName != "" {
		base := varName
		if i := strings.IndexByte(varName, '['); i > 0 && strings.HasSuffix(varName, "]") {
			base = varName[:i]
		}
		if !syntax.ValidName(base) {
			return r.builtinErr(2, "printf", "`%s': not a valid identifier", varName)
		}
		if base != varName {
			r.assignIndexString(base, varName[len(base)+1:len(varName)-1], out.String(), false)
		} else if err := r.assign(varName, vstr(out.String()), false); err != nil {
			return r.builtinErr(1, "printf", "%s", err)
		}
		return p.status
	}
	if p.flush(); p.werr != nil {
		if err := p.werr; err != errBrokenPipe {
			r.builtinErr(1, "printf", "write error: %s", command.Strerror(err))
		}
		return 1
	}
	return p.status
}

// format runs the format once. It reports whether \c stopped the output,
// and whether the format was invalid.
func (p *printfState) format(out *strings.Builder, f string) (stop, bad bool) {
	for i := 0; i < len(f); {
		c := f[i]
		if c == '\\' {
			// "\c" in the format is not special (bash's builtin prints it
			// as it is); only %b's argument stops the output with it.
			var buf [8]byte
			s, j, _ := escape.Append(escape.PrintfFormat, buf[:0], f, i)
			out.Write(s)
			i = j
			continue
		}
		if c != '%' {
			out.WriteByte(c)
			i++
			continue
		}
		if i+1 < len(f) && f[i+1] == '%' {
			out.WriteByte('%')
			i += 2
			continue
		}
		j := i + 1
		flags := ""
		for j < len(f) && strings.IndexByte("-+ #0'", f[j]) >= 0 {
			flags += string(f[j])
			j++
		}
		width := ""
		if j < len(f) && f[j] == '*' {
			s, _ := p.next()
			width = strconv.FormatInt(p.parseInt(s), 10)
			j++
		} else {
			for j < len(f) && f[j] >= '0' && f[j] <= '9' {
				width += string(f[j])
				j++
			}
		}
		prec := ""
		hasPrec := false
		if j < len(f) && f[j] == '.' {
			hasPrec = true
			j++
			if j < len(f) && f[j] == '*' {
				s, _ := p.next()
				prec = strconv.FormatInt(p.parseInt(s), 10)
				j++
			} else {
				for j < len(f) && f[j] >= '0' && f[j] <= '9' {
					prec += string(f[j])
					j++
				}
			}
		}
		for j < len(f) && strings.IndexByte("hlLjzt", f[j]) >= 0 {
			j++
		}
		if j >= len(f) {
			p.errorf("`%s': missing format character", f[i:])
			return false, true
		}
		conv := f[j]
		j++
		// Go's fmt refuses widths and precisions above a million (it prints
		// %!(NOVERB)); refuse them clearly instead of printing that, or a
		// gigabyte of padding.
		for _, n := range []string{strings.TrimPrefix(width, "-"), strings.TrimPrefix(prec, "-")} {
			if v, err := strconv.ParseInt(n, 10, 64); (err != nil && n != "") || v > maxPrintfWidth {
				p.errorf("%s: field width or precision too large (at most %d)", n, maxPrintfWidth)
				return false, true
			}
		}
		if strings.HasPrefix(width, "-") {
			flags += "-"
			width = width[1:]
		}
		spec := "%" + strings.ReplaceAll(flags, "'", "") + width
		if hasPrec {
			if strings.HasPrefix(prec, "-") {
				hasPrec = false
			} else {
				spec += "." + prec
			}
		}
		switch conv {
		case 's':
			s, _ := p.next()
			fmt.Fprintf(out, noZero(spec)+"s", s)
		case 'b':
			s, _ := p.next()
			e, st := escape.Decode(escape.PrintfArg, s)
			fmt.Fprintf(out, noZero(spec)+"s", e)
			if st {
				return true, false
			}
		case 'q':
			s, _ := p.next()
			fmt.Fprintf(out, noZero(spec)+"s", expansion.Quote(s))
		case 'c':
			s, _ := p.next()
			if s != "" {
				s = s[:1]
			} else {
				s = "\x00" // bash prints a NUL for an empty or missing argument
			}
			fmt.Fprintf(out, strings.Split(spec, ".")[0]+"s", s)
		case 'd', 'i':
			s, _ := p.next()
			fmt.Fprintf(out, spec+"d", p.parseInt(s))
		case 'u', 'o', 'x', 'X':
			s, _ := p.next()
			n := p.parseUint(s)
			verb := string(conv)
			if conv == 'u' {
				verb = "d"
			}
			fs := spec
			if n == 0 {
				fs = strings.ReplaceAll(fs, "#", "")
			}
			fmt.Fprintf(out, fs+verb, n)
		case 'f', 'F', 'e', 'E', 'g', 'G', 'a', 'A':
			s, _ := p.next()
			v := p.parseFloat(s)
			verb := string(conv)
			if conv == 'F' {
				verb = "f"
			}
			if conv == 'a' || conv == 'A' {
				verb = "x"
				if conv == 'A' {
					verb = "X"
				}
			}
			str := fmt.Sprintf(spec+verb, v)
			if math.IsInf(v, 0) || math.IsNaN(v) {
				str = strings.ToLower(str)
				if conv == 'F' || conv == 'E' || conv == 'G' {
					str = strings.ToUpper(str)
				}
			}
			out.WriteString(str)
		case '(':
			end := strings.Index(f[j-1:], ")T")
			if end < 0 {
				p.errorf("`%c': invalid format character", conv)
				return false, true
			}
			tf := f[j : j-1+end]
			s, _ := p.next()
			j = j - 1 + end + 2
			t := p.r.sh.now()
			if s != "" && s != "-1" && s != "-2" {
				t = time.Unix(p.parseInt(s), 0)
			}
			if tz, ok := p.r.exportedVar("TZ"); ok {
				if loc, err := time.LoadLocation(tz); err == nil {
					t = t.In(loc)
				}
			} else {
				t = t.In(time.UTC)
			}
			fmt.Fprintf(out, noZero(spec)+"s", timefmt.Format(tf, t, timefmt.Options{}))
		default:
			p.errorf("`%c': invalid format character", conv)
			return false, true
		}
		i = j
	}
	return false, false
}
