package trace_test

import (
	"errors"
	"fmt"
	"log"
	"strings"

	"github.com/cordonhq/cordon/trace"
)

// A trace as `cordon run --record` writes it, read back: the script, its
// one tool call with the policy's decision, and what came out.
func ExampleRead() {
	doc := `{
  "version": 1,
  "language": "js",
  "code": "return (await crm.customers.list({limit: 2})).length",
  "calls": [
    {"id": 1, "method": "crm/customers/list", "params": {"limit": 2},
     "decision": "allow", "result": [{"id": "c1"}, {"id": "c2"}]}
  ],
  "output": {"value": 2}
}`
	t, err := trace.Read(strings.NewReader(doc))
	if err != nil {
		log.Fatal(err)
	}
	for _, c := range t.Calls {
		fmt.Println(c.ID, c.Method, string(c.Params), c.Decision, string(c.Result))
	}
	fmt.Println("value", string(t.Output.Value))

	// A version this package does not know is refused.
	_, err = trace.Read(strings.NewReader(`{"version": 99, "language": "js", "code": ""}`))
	fmt.Println(errors.Is(err, trace.ErrVersion))
	// Output:
	// 1 crm/customers/list {"limit":2} allow [{"id":"c1"},{"id":"c2"}]
	// value 2
	// true
}
