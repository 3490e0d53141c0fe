package coreutils

import (
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"

	"github.com/cordonhq/cordon/shell/command"
)

// seqNumber is a parsed seq operand.
type seqNumber struct {
	v     float64
	prec  int  // digits after the decimal point, as written
	isInt bool // written as an integer
	width int  // length as written (for -w)
	text  string
}

// parseSeqNumber parses an operand of seq and notes how it is written.
func parseSeqNumber(s string) (seqNumber, bool) {
	t := strings.TrimSpace(s)
	if t == "" || strings.ContainsAny(t, "xXpP_") {
		return seqNumber{}, false
	}
	v, err := strconv.ParseFloat(t, 64)
	if err != nil && !strings.Contains(err.Error(), "range") {
		return seqNumber{}, false
	}
	if math.IsNaN(v) {
		return seqNumber{}, false
	}
	n := seqNumber{v: v, width: len(t), text: t}
	mant, exp, hasExp := strings.Cut(strings.ToLower(t), "e")
	if _, frac, ok := strings.Cut(mant, "."); ok {
		n.prec = len(frac)
	}
	if hasExp {
		e, err := strconv.Atoi(exp)
		if err != nil {
			e = 0
		}
		n.prec = max(n.prec-e, 0)
	}
	n.isInt = !strings.ContainsAny(strings.ToLower(t), ".e") && !strings.Contains(strings.ToLower(t), "inf")
	return n, true
}

// seqConfig is a parsed seq command line.
type seqConfig struct {
	first, incr, last seqNumber
	nums              []string // the operands as written
	sep               string
	goFormat          string // the -f format converted for fmt, or ""
	equal             bool   // -w
	width             int    // the width of -w
	prec              int    // the digits after the decimal point
}

// splitSeqArgs separates options from operands, treating negative numbers
// as operands.
func splitSeqArgs(args []string) (optArgs, nums []string) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			return optArgs, append(nums, args[i+1:]...)
		case len(a) > 1 && a[0] == '-' && (a[1] >= '0' && a[1] <= '9' || a[1] == '.'):
			nums = append(nums, a)
		case len(a) > 1 && a[0] == '-':
			optArgs = append(optArgs, a)
			if (a == "-s" || a == "-f" || a == "--separator" || a == "--format") && i+1 < len(args) {
				i++
				optArgs = append(optArgs, args[i])
			}
		default:
			nums = append(nums, a)
		}
	}
	return optArgs, nums
}

// parseSeq parses the command line; on failure it returns ok false and the
// status.
func parseSeq(env *command.Env) (*seqConfig, int, bool) {
	optArgs, nums := splitSeqArgs(env.Args[1:])
	env2 := *env
	env2.Args = append([]string{env.Args[0]}, optArgs...)
	opts, extra, st, ok := env2.ParseOptions("s:f:w", []string{"separator=", "format=", "equal-width"}, false)
	if !ok {
		return nil, st, false
	}
	c := &seqConfig{nums: append(extra, nums...), sep: "\n"}
	format := ""
	for _, o := range opts {
		switch o.Name {
		case "s", "separator":
			c.sep = o.Value
		case "f", "format":
			format = o.Value
		case "w", "equal-width":
			c.equal = true
		}
	}
	switch {
	case len(c.nums) == 0:
		return nil, env.Usage(1, "missing operand", ""), false
	case len(c.nums) > 3:
		return nil, env.Usage(1, fmt.Sprintf("extra operand ‘%s’", c.nums[3]), ""), false
	}
	parsed := make([]seqNumber, len(c.nums))
	for i, s := range c.nums {
		n, ok := parseSeqNumber(s)
		if !ok {
			return nil, env.Usage(1, fmt.Sprintf("invalid floating point argument: ‘%s’", s), ""), false
		}
		parsed[i] = n
	}
	c.first, c.incr = seqNumber{v: 1, isInt: true, width: 1}, seqNumber{v: 1, isInt: true, width: 1}
	c.last = parsed[len(parsed)-1]
	switch len(parsed) {
	case 2:
		c.first = parsed[0]
	case 3:
		c.first, c.incr = parsed[0], parsed[1]
	}
	if c.incr.v == 0 {
		return nil, env.Usage(1, fmt.Sprintf("invalid Zero increment value: ‘%s’", c.nums[1]), ""), false
	}
	if format != "" && c.equal {
		return nil, env.Usage(1, "format string may not be specified when printing equal width strings", ""), false
	}
	c.prec = min(max(c.first.prec, c.incr.prec), 4096)
	if format != "" {
		f, msg := seqFormat(format)
		if msg != "" {
			return nil, env.Errorf(1, "format ‘%s’ %s", format, msg), false
		}
		c.goFormat = f
	}
	if c.equal {
		c.width = max(c.equalWidth(c.first), c.equalWidth(c.last))
	}
	return c, 0, true
}

// equalWidth is the width -w pads to for an operand, as GNU seq computes
// it: the operand as written ("seq -w 003" pads to 3), without a leading
// '+', widened to the precision of the sequence; an operand with an
// exponent counts as printed.
func (c *seqConfig) equalWidth(n seqNumber) int {
	t := strings.TrimPrefix(n.text, "+")
	if t == "" || strings.ContainsAny(t, "eEiInN") {
		return len(strconv.FormatFloat(n.v, 'f', c.prec, 64))
	}
	w := len(t)
	if n.prec < c.prec {
		w += c.prec - n.prec
		if !strings.Contains(t, ".") {
			w++ // the decimal point
		}
	}
	return w
}

// pad applies -w's zero padding.
func (c *seqConfig) pad(s string) string {
	if !c.equal {
		return s
	}
	neg := strings.HasPrefix(s, "-")
	digits := strings.TrimPrefix(s, "-")
	if n := c.width - len(digits) - boolInt(neg); n > 0 {
		digits = strings.Repeat("0", n) + digits
	}
	if neg {
		digits = "-" + digits
	}
	return digits
}

// formatFloat formats one value of the floating-point sequence.
func (c *seqConfig) formatFloat(v float64) string {
	if c.goFormat != "" {
		return fmt.Sprintf(c.goFormat, v)
	}
	s := strconv.FormatFloat(v, 'f', c.prec, 64)
	if s == "-0" {
		s = "0"
	}
	return c.pad(s)
}

// cmdSeq implements seq [-s SEP] [-w] [-f FORMAT] [FIRST [INCR]] LAST.
func cmdSeq(env *command.Env) int {
	c, st, ok := parseSeq(env)
	if !ok {
		return st
	}
	w := env.NewOutput()
	emit := func(s string, i int64) bool {
		if i > 0 {
			w.WriteString(c.sep)
		}
		_, err := w.WriteString(s)
		return err == nil
	}
	var count int64
	integers := c.first.isInt && c.incr.isInt && c.last.isInt && c.goFormat == ""
	switch {
	case integers && math.Abs(c.first.v) < 1e18 && math.Abs(c.incr.v) < 1e18 && math.Abs(c.last.v) < 1e18:
		count, st = c.countInts(env, emit)
	case integers:
		count, st = seqBig(env, c.nums, emit)
	default:
		count, st = c.countFloats(env, emit)
	}
	if st != 0 {
		return st
	}
	if count > 0 {
		w.WriteString("\n")
	}
	if err := w.Flush(); err != nil {
		return env.WriteError(err)
	}
	if env.Canceled() {
		return command.StatusCanceled
	}
	return 0
}

// countInts prints an integer sequence that fits in int64.
func (c *seqConfig) countInts(env *command.Env, emit func(string, int64) bool) (int64, int) {
	first, _ := strconv.ParseInt(strings.TrimPrefix(strings.TrimSpace(c.nums[0]), "+"), 10, 64)
	if len(c.nums) == 1 {
		first = 1
	}
	incr := int64(1)
	if len(c.nums) == 3 {
		incr, _ = strconv.ParseInt(strings.TrimPrefix(strings.TrimSpace(c.nums[1]), "+"), 10, 64)
	}
	last, _ := strconv.ParseInt(strings.TrimPrefix(strings.TrimSpace(c.nums[len(c.nums)-1]), "+"), 10, 64)
	var count int64
	for v := first; (incr > 0 && v <= last) || (incr < 0 && v >= last); v += incr {
		if count&1023 == 0 && env.Canceled() {
			return count, command.StatusCanceled
		}
		if !emit(c.pad(strconv.FormatInt(v, 10)), count) {
			break
		}
		count++
		if (incr > 0 && v > math.MaxInt64-incr) || (incr < 0 && v < math.MinInt64-incr) {
			break
		}
	}
	return count, 0
}

// countFloats prints a floating-point sequence; it stops when the values
// no longer change (an increment too small for their magnitude).
func (c *seqConfig) countFloats(env *command.Env, emit func(string, int64) bool) (int64, int) {
	prev := math.NaN()
	var count int64
	for i := int64(0); ; i++ {
		v := c.first.v + float64(i)*c.incr.v
		if (c.incr.v > 0 && v > c.last.v) || (c.incr.v < 0 && v < c.last.v) || v == prev {
			break
		}
		prev = v
		if i&1023 == 0 && env.Canceled() {
			return count, command.StatusCanceled
		}
		if !emit(c.formatFloat(v), count) {
			break
		}
		count++
	}
	return count, 0
}

// seqHugeNumber reports whether a conversion spec holds a width or
// precision above 4096, which would let one line take gigabytes.
func seqHugeNumber(spec string) bool {
	n := 0
	for _, c := range spec {
		if c >= '0' && c <= '9' {
			n = n*10 + int(c-'0')
			if n > 4096 {
				return true
			}
		} else {
			n = 0
		}
	}
	return false
}

// seqBig counts with arbitrary-precision integers.
func seqBig(env *command.Env, nums []string, emit func(string, int64) bool) (int64, int) {
	n := len(nums)
	parse := func(s string) *big.Int {
		b, ok := new(big.Int).SetString(strings.TrimPrefix(strings.TrimSpace(s), "+"), 10)
		if !ok {
			b = new(big.Int)
		}
		return b
	}
	first, incr := big.NewInt(1), big.NewInt(1)
	last := parse(nums[n-1])
	switch n {
	case 2:
		first = parse(nums[0])
	case 3:
		first, incr = parse(nums[0]), parse(nums[1])
	}
	neg := incr.Sign() < 0
	var i int64
	for v := first; (!neg && v.Cmp(last) <= 0) || (neg && v.Cmp(last) >= 0); v = new(big.Int).Add(v, incr) {
		if i&1023 == 0 && env.Canceled() {
			return i, command.StatusCanceled
		}
		if !emit(v.String(), i) {
			break
		}
		i++
	}
	return i, 0
}

// seqFormat checks a seq -f format (exactly one %e, %f, %g, %E, %F, %G or
// %a directive, with flags, width and precision) and converts it to a Go
// format.
func seqFormat(f string) (string, string) {
	var sb strings.Builder
	found := false
	for i := 0; i < len(f); i++ {
		if f[i] != '%' {
			sb.WriteByte(f[i])
			continue
		}
		if i+1 < len(f) && f[i+1] == '%' {
			sb.WriteString("%%")
			i++
			continue
		}
		j := i + 1
		for j < len(f) && strings.IndexByte("-+ #0'123456789.", f[j]) >= 0 {
			j++
		}
		if found {
			return "", "has too many % directives"
		}
		if j >= len(f) {
			return "", "ends in %"
		}
		if strings.IndexByte("eEfFgGaA", f[j]) < 0 {
			return "", "has unknown %" + string(f[j]) + " directive"
		}
		spec := strings.ReplaceAll(f[i:j], "'", "")
		if seqHugeNumber(spec) {
			return "", "has a field width or precision that is too large"
		}
		verb := f[j]
		if (verb == 'g' || verb == 'G') && !strings.Contains(spec, ".") {
			spec += ".6"
		}
		if verb == 'F' {
			verb = 'f'
		}
		if verb == 'a' || verb == 'A' {
			verb = 'x'
		}
		sb.WriteString(spec)
		sb.WriteByte(verb)
		found = true
		i = j
	}
	if !found {
		return "", "has no % directive"
	}
	return sb.String(), ""
}

// boolInt returns 1 for true and 0 for false.
func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}
