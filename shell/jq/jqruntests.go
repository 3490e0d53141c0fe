package jq

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"math/big"
	"strconv"
	"strings"

	"github.com/cordonhq/cordon/shell/command"
)

// jq --run-tests [FILE] runs a test file in jq's format (tests/jq.test in
// the jq repository): a program, an input and the expected outputs; or
// %%FAIL (or %%FAIL IGNORE MSG), a program that must fail to compile and
// its error message. Outputs compare as values, as jq's runner compares
// them (objects regardless of key order, numbers as decimals when both are
// literals, else as doubles); a case passes when the outputs match,
// whether an error follows them or not. It prints jq's report and exits 1
// when a case fails.

// jqTestCase is one case of a jq test file.
type jqTestCase struct {
	line     int
	prog     string
	input    string
	expected []string
	mustFail bool
	checkMsg bool
	message  string
}

// parseJqTests reads a test file like jq's run_jq_tests.
func parseJqTests(data []byte) []jqTestCase {
	var cases []jqTestCase
	lines := strings.SplitAfter(string(data), "\n")
	skip := func(s string) bool {
		s = strings.TrimLeft(s, " \t")
		return s == "" || s[0] == '#' || s[0] == '\n'
	}
	mustFail, checkMsg := false, false
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		if skip(l) {
			continue
		}
		if l == "%%FAIL\n" || l == "%%FAIL IGNORE MSG\n" {
			mustFail, checkMsg = true, l == "%%FAIL\n"
			continue
		}
		c := jqTestCase{line: i + 1, prog: strings.TrimSuffix(l, "\n"), mustFail: mustFail, checkMsg: checkMsg}
		mustFail, checkMsg = false, false
		if i+1 >= len(lines) {
			break
		}
		i++
		if c.mustFail {
			c.message = strings.TrimSuffix(lines[i], "\n")
			cases = append(cases, c)
			continue
		}
		c.input = strings.TrimSuffix(lines[i], "\n")
		for i+1 < len(lines) {
			i++
			if skip(lines[i]) {
				break
			}
			c.expected = append(c.expected, strings.TrimSuffix(lines[i], "\n"))
		}
		cases = append(cases, c)
	}
	return cases
}

// jqTestEqual compares two values the way jq's test runner does.
func jqTestEqual(a, b any) bool {
	switch a := a.(type) {
	case []any:
		b, ok := b.([]any)
		if !ok || len(a) != len(b) {
			return false
		}
		for i := range a {
			if !jqTestEqual(a[i], b[i]) {
				return false
			}
		}
		return true
	case map[string]any:
		b, ok := b.(map[string]any)
		if !ok || len(a) != len(b) {
			return false
		}
		for k, v := range a {
			w, ok := b[k]
			if !ok || !jqTestEqual(v, w) {
				return false
			}
		}
		return true
	case nil, bool, string:
		return a == b
	}
	x, ok1 := jqTestDecimal(a)
	y, ok2 := jqTestDecimal(b)
	if !ok1 || !ok2 {
		return false
	}
	if x == y {
		return true
	}
	return jqTestFloat(a) == jqTestFloat(b)
}

// jqTestDecimal returns the canonical decimal form of a number value.
func jqTestDecimal(v any) (string, bool) {
	var s string
	switch v := v.(type) {
	case int:
		s = strconv.Itoa(v)
	case float64:
		if math.IsNaN(v) {
			return "NaN", true
		}
		s = strconv.FormatFloat(v, 'e', -1, 64)
	case *big.Int:
		s = v.String()
	case json.Number:
		s = string(v)
	default:
		return "", false
	}
	return canonicalDecimal(s), true
}

// canonicalDecimal returns a decimal literal as sign, digits without
// leading or trailing zeros, and exponent.
func canonicalDecimal(s string) string {
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	mant, expPart, _ := strings.Cut(strings.ToLower(s), "e")
	exp, _ := strconv.Atoi(expPart)
	ip, fp, _ := strings.Cut(mant, ".")
	digits := strings.TrimLeft(ip+fp, "0")
	exp -= len(fp)
	n := len(digits)
	digits = strings.TrimRight(digits, "0")
	exp += n - len(digits)
	if digits == "" {
		return "0"
	}
	if neg {
		digits = "-" + digits
	}
	return digits + "e" + strconv.Itoa(exp)
}

// jqTestFloat returns a number value as a double.
func jqTestFloat(v any) float64 {
	switch v := v.(type) {
	case int:
		return float64(v)
	case float64:
		return v
	case *big.Int:
		f, _ := new(big.Float).SetInt(v).Float64()
		return f
	case json.Number:
		f, _ := strconv.ParseFloat(string(v), 64)
		return f
	}
	return math.NaN()
}

// jqRunTests implements --run-tests: it runs the cases of the test file
// (standard input for "-") and returns the exit status.
func jqRunTests(env *command.Env, o *jqOptions) int {
	var data []byte
	var err error
	if len(o.files) == 0 || o.files[0] == "-" {
		data, err = io.ReadAll(env.Stdin)
	} else {
		data, err = env.FS.ReadFile(env.Abs(o.files[0]))
	}
	if err != nil {
		fmt.Fprintf(env.Stderr, "jq: error: Could not open %s: %s\n", o.files[0], command.Strerror(err))
		return jqExitUsage
	}
	var libArgs []string
	for _, d := range o.libDirs {
		libArgs = append(libArgs, "-L", d)
	}
	cases := parseJqTests(data)
	passed, invalid := 0, 0
	w := env.NewOutput()
	defer w.Flush()
	for i, c := range cases {
		if env.Canceled() {
			return command.StatusCanceled
		}
		fmt.Fprintf(w, "Test #%d: '%s' at line number %d\n", i+1, c.prog, c.line)
		ok, bad, msg := runJqTestCase(env, libArgs, c)
		if msg != "" {
			fmt.Fprintf(w, "*** %s\n", msg)
		}
		if ok {
			passed++
		}
		if bad {
			invalid++
		}
	}
	fmt.Fprintf(w, "%d of %d tests passed (%d malformed, 0 skipped)\n", passed, len(cases), invalid)
	if passed != len(cases) {
		return 1
	}
	return 0
}

// runJqTestCase runs one case with this jq; it reports whether it passed,
// whether it was malformed, and what went wrong.
func runJqTestCase(env *command.Env, libArgs []string, c jqTestCase) (ok, malformed bool, msg string) {
	args := append(append([]string{"jq", "-c"}, libArgs...), c.prog)
	stdin := c.input + "\n"
	if c.mustFail {
		args = append(args, "-n")
		stdin = ""
	}
	var out, errb bytes.Buffer
	sub := *env
	sub.Args, sub.Stdin, sub.Stdout, sub.Stderr = args, strings.NewReader(stdin), &out, &errb
	status := cmdJq(&sub)
	if c.mustFail {
		if status != jqExitCompile {
			return false, true, fmt.Sprintf("Test program compiled that should not have at line %d: %s", c.line, c.prog)
		}
		if c.checkMsg {
			last := ""
			for _, l := range strings.Split(errb.String(), "\n") {
				if strings.HasPrefix(l, "jq: error") {
					last = l
				}
			}
			if last != c.message {
				return false, true, fmt.Sprintf("Erroneous test program failed with wrong message (%s) at line %d: %s", last, c.line, c.prog)
			}
		}
		return true, false, ""
	}
	if status == jqExitCompile || status == jqExitUsage {
		return false, true, fmt.Sprintf("Test program failed to compile at line %d: %s", c.line, c.prog)
	}
	got, err := parseJSONStream(out.Bytes(), nil)
	if err != nil {
		return false, false, fmt.Sprintf("Output is invalid at line %d: %s", c.line, c.prog)
	}
	for i, e := range c.expected {
		want, err := parseJSONText(e, nil)
		if err != nil {
			return false, true, fmt.Sprintf("Expected result is invalid on line %d: %s", c.line, e)
		}
		if i >= len(got) {
			return false, false, fmt.Sprintf("Insufficient results for test at line number %d: %s", c.line, c.prog)
		}
		if !jqTestEqual(want, got[i]) {
			return false, false, fmt.Sprintf("Expected %s, but got %s for test at line number %d: %s", e, jqCompact(got[i]), c.line, c.prog)
		}
	}
	if len(got) > len(c.expected) {
		return false, false, fmt.Sprintf("Superfluous result: %s for test at line number %d, %s", jqCompact(got[len(c.expected)]), c.line, c.prog)
	}
	return true, false, ""
}
