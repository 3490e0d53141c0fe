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
}

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
	n := seqNumber{v: v, width: len(t)}
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

// cmdSeq implements seq [-s SEP] [-w] [-f FORMAT] [FIRST [INCR]] LAST.
func cmdSeq(env *command.Env) int {
	// Negative numbers are operands, not options.
	var optArgs, nums []string
	args := env.Args[1:]
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			nums = append(nums, args[i+1:]...)
			break
		}
		if len(a) > 1 && a[0] == '-' && (a[1] >= '0' && a[1] <= '9' || a[1] == '.') {
			nums = append(nums, a)
			continue
		}
		if strings.HasPrefix(a, "-") && len(a) > 1 {
			optArgs = append(optArgs, a)
			if (a == "-s" || a == "-f" || a == "--separator" || a == "--format") && i+1 < len(args) {
				i++
				optArgs = append(optArgs, args[i])
			}
			continue
		}
		nums = append(nums, a)
	}
	env2 := *env
	env2.Args = append([]string{env.Args[0]}, optArgs...)
	opts, extra, st, ok := getopt(&env2, "s:f:w", []string{"separator=", "format=", "equal-width"}, false)
	if !ok {
		return st
	}
	nums = append(extra, nums...)
	sep, format, equal := "\n", "", false
	for _, o := range opts {
		switch o.Name {
		case "s", "separator":
			sep = o.Value
		case "f", "format":
			format = o.Value
		case "w", "equal-width":
			equal = true
		}
	}
	switch {
	case len(nums) == 0:
		return usage(env, 1, "missing operand")
	case len(nums) > 3:
		return usage(env, 1, fmt.Sprintf("extra operand ‘%s’", nums[3]))
	}
	parsed := make([]seqNumber, len(nums))
	for i, s := range nums {
		n, ok := parseSeqNumber(s)
		if !ok {
			return usage(env, 1, fmt.Sprintf("invalid floating point argument: ‘%s’", s))
		}
		parsed[i] = n
	}
	first, incr := seqNumber{v: 1, isInt: true, width: 1}, seqNumber{v: 1, isInt: true, width: 1}
	last := parsed[len(parsed)-1]
	switch len(parsed) {
	case 2:
		first = parsed[0]
	case 3:
		first, incr = parsed[0], parsed[1]
	}
	if incr.v == 0 {
		return usage(env, 1, fmt.Sprintf("invalid Zero increment value: ‘%s’", nums[1]))
	}
	if format != "" && equal {
		return usage(env, 1, "format string may not be specified when printing equal width strings")
	}
	prec := max(first.prec, incr.prec)
	var goFormat string
	if format != "" {
		f, msg := seqFormat(format)
		if msg != "" {
			return env.Errorf(1, "format ‘%s’ %s", format, msg)
		}
		goFormat = f
	}
	width := 0
	if equal {
		width = max(len(strconv.FormatFloat(first.v, 'f', prec, 64)), len(strconv.FormatFloat(last.v, 'f', prec, 64)))
	}
	w := newWriter(env)
	emit := func(s string, i int64) bool {
		if i > 0 {
			w.WriteString(sep)
		}
		_, err := w.WriteString(s)
		return err == nil
	}
	fmtFloat := func(v float64) string {
		if goFormat != "" {
			return fmt.Sprintf(goFormat, v)
		}
		s := strconv.FormatFloat(v, 'f', prec, 64)
		if s == "-0" {
			s = "0"
		}
		if equal {
			neg := strings.HasPrefix(s, "-")
			digits := strings.TrimPrefix(s, "-")
			for len(digits)+boolInt(neg) < width {
				digits = "0" + digits
			}
			if neg {
				digits = "-" + digits
			}
			s = digits
		}
		return s
	}
	var count int64
	if first.isInt && incr.isInt && last.isInt && goFormat == "" && math.Abs(first.v) < 1e18 && math.Abs(incr.v) < 1e18 && math.Abs(last.v) < 1e18 {
		i0, s0, l0 := int64(first.v), int64(incr.v), int64(last.v)
		for v := i0; (s0 > 0 && v <= l0) || (s0 < 0 && v >= l0); v += s0 {
			if count&1023 == 0 && canceled(env) {
				return canceledStatus
			}
			if !emit(fmtFloat(float64(v)), count) {
				break
			}
			count++
			if (s0 > 0 && v > math.MaxInt64-s0) || (s0 < 0 && v < math.MinInt64-s0) {
				break
			}
		}
	} else if first.isInt && incr.isInt && last.isInt && goFormat == "" {
		c, st := seqBig(env, nums, len(parsed), emit)
		if st != 0 {
			return st
		}
		count = c
	} else {
		prev := math.NaN()
		for i := int64(0); ; i++ {
			v := first.v + float64(i)*incr.v
			if (incr.v > 0 && v > last.v) || (incr.v < 0 && v < last.v) || v == prev {
				break
			}
			prev = v
			if i&1023 == 0 && canceled(env) {
				return canceledStatus
			}
			if !emit(fmtFloat(v), count) {
				break
			}
			count++
		}
	}
	if count > 0 {
		w.WriteString("\n")
	}
	if err := w.Flush(); err != nil {
		return writeError(env, err)
	}
	if canceled(env) {
		return canceledStatus
	}
	return 0
}

// seqBig counts with arbitrary-precision integers.
func seqBig(env *command.Env, nums []string, n int, emit func(string, int64) bool) (int64, int) {
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
		if i&1023 == 0 && canceled(env) {
			return i, canceledStatus
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
