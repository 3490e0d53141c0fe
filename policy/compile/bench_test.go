package compile_test

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/cordonhq/cordon/dsl"
	"github.com/cordonhq/cordon/policy/compile"
	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/rego"
)

// guardLine matches the startswith/endswith lines added for the rule
// index, to measure what they buy.
var guardLine = regexp.MustCompile(`(?m)^\t(startswith|endswith)\(input\.method, .*# for the rule index\n`)

// BenchmarkDecision evaluates data.cordon.capabilities.allowed for 1, 10
// and 100 capabilities with distinct literal prefixes, each with two
// constraints and max_calls, the call matching the last one:
//
//   - literal: "svcN/charges/*", which glob.match indexes;
//   - bare: the same patterns without constraints or max_calls;
//   - superglob: "svcN/**", expanded to "svcN" and "svcN/**", the second
//     indexed through its startswith hint;
//   - superglob-nohint: the same without the hints, as a "{a,b}"
//     alternation or a bare "**" glob would be (no index: every rule is
//     evaluated);
//   - insegment: "svcN/read_*", indexed through its startswith hint.
func BenchmarkDecision(b *testing.B) {
	for _, kind := range []string{"literal", "bare", "superglob", "superglob-nohint", "insegment"} {
		for _, n := range []int{1, 10, 100} {
			b.Run(fmt.Sprintf("%s/caps=%d", kind, n), func(b *testing.B) {
				var caps []*dsl.Capability
				var method string
				for i := 0; i < n; i++ {
					var pattern string
					switch kind {
					case "literal", "bare":
						pattern, method = fmt.Sprintf("svc%d/charges/*", i), fmt.Sprintf("svc%d/charges/create", i)
					case "superglob", "superglob-nohint":
						pattern, method = fmt.Sprintf("svc%d/**", i), fmt.Sprintf("svc%d/charges/create", i)
					case "insegment":
						pattern, method = fmt.Sprintf("svc%d/read_*", i), fmt.Sprintf("svc%d/read_rows", i)
					}
					if kind == "bare" {
						caps = append(caps, dsl.Method(pattern))
						continue
					}
					caps = append(caps, dsl.Method(pattern).
						Where(dsl.Param("amount").Le(10000), dsl.Param("currency").In("USD", "EUR")).
						MaxCalls(100))
				}
				src, err := compile.Rego(caps)
				if err != nil {
					b.Fatal(err)
				}
				if kind == "superglob-nohint" {
					src = guardLine.ReplaceAllString(src, "")
				}
				pq, err := rego.New(
					rego.Query("data.cordon.capabilities.allowed"),
					rego.Module("capabilities.rego", src),
				).PrepareForEval(context.Background())
				if err != nil {
					b.Fatal(err)
				}
				input, err := ast.ValueFromReader(strings.NewReader(fmt.Sprintf(
					`{"method": %q, "params": {"amount": 500, "currency": "EUR"}, "capability_calls": {"%d": 3}}`, method, n-1)))
				if err != nil {
					b.Fatal(err)
				}
				ctx := context.Background()
				want := fmt.Sprintf("[%d]", n-1)
				rs, err := pq.Eval(ctx, rego.EvalParsedInput(input))
				if err != nil || len(rs) != 1 || fmt.Sprint(rs[0].Expressions[0].Value) != want {
					b.Fatalf("allowed = %v, %v; want %s", rs, err, want)
				}
				b.ReportAllocs()
				b.ResetTimer()
				for b.Loop() {
					if _, err := pq.Eval(ctx, rego.EvalParsedInput(input)); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
