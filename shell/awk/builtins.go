package awk

import (
	"math"
	"math/rand"
	"strings"
	"time"
	"unicode/utf8"
)

func runeLen(s string) int {
	if s[0] < utf8.RuneSelf {
		return 1
	}
	_, n := utf8.DecodeRuneInString(s)
	return n
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// charLen is the length of s in characters.
func charLen(s string) int {
	if isASCII(s) {
		return len(s)
	}
	return utf8.RuneCountInString(s)
}

// charIndex converts a byte offset to a character offset.
func charIndex(s string, b int) int {
	return charLen(s[:b])
}

// byteOffset converts a character offset (0-based, clamped) to a byte offset.
func byteOffset(s string, c int) int {
	if isASCII(s) {
		return c
	}
	i := 0
	for n := 0; n < c && i < len(s); n++ {
		i += runeLen(s[i:])
	}
	return i
}

// negNaN gives a NaN result the sign that C's log and sqrt give it on
// x86 (log(-1) prints "-nan"); Go's NaN is positive.
func negNaN(x float64) float64 {
	if math.IsNaN(x) {
		return math.Copysign(x, -1)
	}
	return x
}

// roundHalfEven rounds like C's rint in the default rounding mode.
func roundHalfEven(x float64) float64 { return math.RoundToEven(x) }

func (in *interp) builtin(c *builtinCall) value {
	args := c.args
	switch c.fn {
	case bLength:
		if len(args) == 0 {
			return num(float64(charLen(in.getRecord())))
		}
		if v, ok := args[0].(*varExpr); ok && v.scope != scopeNF {
			if cl := in.cellOf(v); cl.arr != nil {
				return num(float64(cl.arr.len()))
			}
		}
		return num(float64(charLen(in.toStr(in.eval(args[0])))))
	case bSubstr:
		return str(in.substr(args))
	case bIndex:
		s := in.toStr(in.eval(args[0]))
		t := in.toStr(in.eval(args[1]))
		i := strings.Index(s, t)
		if i < 0 {
			return num(0)
		}
		// The empty string is found at 1, also in "", as in gawk and mawk.
		return num(float64(charIndex(s, i) + 1))
	case bSplit:
		return in.split(args)
	case bSub, bGsub:
		return in.sub(args, c.fn == bGsub)
	case bMatch:
		s := in.toStr(in.eval(args[0]))
		re := in.regexOf(args[1])
		loc := re.FindStringIndex(s)
		start, length := 0, -1
		if loc != nil {
			start = charIndex(s, loc[0]) + 1
			length = charLen(s[loc[0]:loc[1]])
		}
		in.globals[gRSTART].v = num(float64(start))
		in.globals[gRLENGTH].v = num(float64(length))
		return num(float64(start))
	case bSprintf:
		vals := make([]value, len(args)-1)
		format := in.toStr(in.eval(args[0]))
		for i, a := range args[1:] {
			vals[i] = in.eval(a)
		}
		return str(in.sprintf(format, vals))
	case bSin:
		return num(math.Sin(in.eval(args[0]).toNum()))
	case bCos:
		return num(math.Cos(in.eval(args[0]).toNum()))
	case bAtan2:
		y := in.eval(args[0]).toNum()
		return num(math.Atan2(y, in.eval(args[1]).toNum()))
	case bExp:
		x := in.eval(args[0]).toNum()
		r := math.Exp(x)
		if math.IsInf(r, 0) && !math.IsInf(x, 0) {
			// A warning and +inf, as in gawk and onetrueawk.
			in.warn("warning: exp result out of range: exp(%g)", x)
		}
		return num(r)
	case bLog:
		x := in.eval(args[0]).toNum()
		if x < 0 {
			// A warning and nan, as in gawk and onetrueawk.
			in.warn("warning: log argument out of domain: log(%g)", x)
		}
		return num(negNaN(math.Log(x)))
	case bSqrt:
		return num(negNaN(math.Sqrt(in.eval(args[0]).toNum())))
	case bInt:
		return num(math.Trunc(in.eval(args[0]).toNum()))
	case bRand:
		return num(in.rng.Float64())
	case bSrand:
		// The argument is evaluated first: in srand(srand()) the result
		// is the seed the inner call set.
		var seed float64
		if len(args) == 0 {
			now := time.Now
			if in.env.Now != nil {
				now = in.env.Now
			}
			seed = float64(now().Unix())
		} else {
			seed = in.eval(args[0]).toNum()
		}
		prev := in.seed
		in.seed = seed
		in.rng = rand.New(rand.NewSource(int64(in.seed)))
		return num(prev)
	case bTolower:
		return str(strings.ToLower(in.toStr(in.eval(args[0]))))
	case bToupper:
		return str(strings.ToUpper(in.toStr(in.eval(args[0]))))
	case bSystem:
		return num(float64(in.system(in.toStr(in.eval(args[0])))))
	case bClose:
		return num(float64(in.closeStream(in.toStr(in.eval(args[0])))))
	case bFflush:
		if len(args) == 0 {
			in.flushAll()
			return num(0)
		}
		name := in.toStr(in.eval(args[0]))
		if name == "" {
			// fflush("") flushes every output, as in gawk, mawk and
			// onetrueawk.
			in.flushAll()
			return num(0)
		}
		return num(float64(in.flush(name)))
	case bGensub:
		return in.gensub(args)
	case bAnd, bOr, bXor, bLshift, bRshift, bCompl:
		return in.bitFunc(c)
	case bStrftime, bSystime, bMktime:
		return in.timeFunc(c)
	case bAsort, bAsorti:
		return in.asort(c)
	}
	fatal("unknown function %s", c.name)
	return value{}
}

func (in *interp) substr(args []expr) string {
	s := in.toStr(in.eval(args[0]))
	m := in.eval(args[1]).toNum()
	n := charLen(s)
	start := roundHalfEven(m)
	if math.IsNaN(start) {
		start = 1
	}
	if start < 1 {
		// gawk and onetrueawk start at 1 and keep the length:
		// substr("abc", 0, 2) is "ab".
		start = 1
	}
	end := float64(n) + 1
	if len(args) == 3 {
		l := in.eval(args[2]).toNum()
		if math.IsNaN(l) {
			return ""
		}
		end = start + roundHalfEven(l)
		if math.IsInf(l, 1) {
			end = float64(n) + 1
		}
	}
	if start < 1 {
		start = 1
	}
	if end > float64(n)+1 {
		end = float64(n) + 1
	}
	if end <= start {
		return ""
	}
	b0 := byteOffset(s, int(start)-1)
	b1 := byteOffset(s, int(end)-1)
	return s[b0:b1]
}

func (in *interp) split(args []expr) value {
	s := in.toStr(in.eval(args[0]))
	v := args[1].(*varExpr)
	var sp splitter
	if len(args) == 3 {
		if r, ok := args[2].(*regexLit); ok {
			sp = splitter{mode: splitRegex, re: r.re}
			if r.src == "" {
				sp = splitter{mode: splitChars} // split(s, a, //), as gawk
			}
		} else {
			fs := in.toStr(in.eval(args[2]))
			saved := in.rs
			in.rs = recordSep{}
			sp = in.makeSplitter(fs)
			in.rs = saved
		}
	} else {
		sp = in.fsSplit
	}
	arr := in.arrayOf(v)
	parts := splitFields(s, sp, nil)
	arr.clear()
	for i, p := range parts {
		arr.set(formatInt(float64(i+1)), input(p.s))
	}
	return num(float64(len(parts)))
}

// sub implements sub and gsub.
func (in *interp) sub(args []expr, global bool) value {
	re := in.regexOf(args[0])
	repl := in.toStr(in.eval(args[1]))
	var target expr
	if len(args) == 3 {
		target = args[2]
	} else {
		target = &fieldExpr{index: &numLit{v: num(0)}}
	}
	lv := isLvalue(target)
	var p place
	var s string
	if lv {
		p = in.place(target)
		s = in.toStr(in.load(p))
	} else {
		s = in.toStr(in.eval(target))
	}
	n := -1
	if !global {
		n = 1
	}
	locs := re.FindAllStringIndex(s, n)
	if len(locs) == 0 {
		return num(0)
	}
	var b strings.Builder
	prev := 0
	for _, loc := range locs {
		b.WriteString(s[prev:loc[0]])
		appendRepl(&b, repl, s[loc[0]:loc[1]])
		prev = loc[1]
	}
	b.WriteString(s[prev:])
	if lv {
		in.store(p, str(b.String()))
	}
	return num(float64(len(locs)))
}

// appendRepl expands a sub/gsub replacement by POSIX's rules, as gawk and
// onetrueawk do: & is the match; in a run of backslashes before &, each
// pair is one backslash and an odd one left makes the & literal ("\\&" is
// a literal &, "\\\\&" a backslash and the match); backslashes before
// anything else stay as they are ("\\\\" stays two).
func appendRepl(b *strings.Builder, repl, match string) {
	for i := 0; i < len(repl); i++ {
		c := repl[i]
		switch c {
		case '\\':
			j := i
			for j < len(repl) && repl[j] == '\\' {
				j++
			}
			if j < len(repl) && repl[j] == '&' {
				n := j - i
				for k := 0; k < n/2; k++ {
					b.WriteByte('\\')
				}
				if n%2 == 1 {
					b.WriteByte('&')
				} else {
					b.WriteString(match)
				}
				i = j
			} else {
				b.WriteString(repl[i:j])
				i = j - 1
			}
		case '&':
			b.WriteString(match)
		default:
			b.WriteByte(c)
		}
	}
}
