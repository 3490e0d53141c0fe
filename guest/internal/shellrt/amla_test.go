package shellrt

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/cordonhq/cordon/guest/internal/hub"
	"github.com/cordonhq/cordon/guest/internal/hub/hubtest"
	"github.com/cordonhq/cordon/guest/internal/jsrt"
	"github.com/cordonhq/cordon/internal/abi"
	"github.com/cordonhq/cordon/vfs"
)

var amlaTools = []abi.ToolInfo{
	{Name: "stripe/listTransactions"}, {Name: "stripe/charges/create"}, {Name: "get_weather"},
	{Name: "transfer"}, {Name: "expensive_computation"},
}

// amlaAnswer answers the tools of amla-sandbox's README as its examples
// describe them.
func amlaAnswer(c abi.Call) abi.CallResult {
	var params map[string]any
	_ = json.Unmarshal(c.Params, &params)
	var v any
	switch c.Method {
	case "stripe/listTransactions":
		v = []map[string]any{
			{"id": "txn_1", "customer": params["customer"], "amount": 500, "disputed": false},
			{"id": "txn_2", "customer": params["customer"], "amount": 1200, "disputed": true},
		}
	case "stripe/charges/create":
		v = map[string]any{"id": "ch_1", "amount": params["amount"], "status": "succeeded"}
	case "get_weather":
		v = map[string]any{"city": params["city"], "temp": 72}
	case "transfer":
		v = map[string]any{"ok": true}
	case "expensive_computation":
		v = []int{1, 2, 3}
	}
	return hubtest.Value(c, v)
}

// runAmlaJS runs JavaScript as the guest's server does, with shell() wired
// to this package, in fs.
func runAmlaJS(h *hubtest.Host, fs *vfs.FS, code string) jsrt.Outcome {
	common := jsrt.Common{Host: h, Hub: hub.New(h), FS: fs, Tools: amlaTools}
	return jsrt.Run(jsrt.Options{Common: common, Shell: Capture(Options{Common: common})}, "amla.js", code)
}

// Every JavaScript example of amla-sandbox's README, past and present,
// runs unchanged and prints what the README says it prints. The snippets
// are copied from the README; each "// -> output" line is one example.
func TestAmlaReadmeJavaScriptExamples(t *testing.T) {
	for _, c := range []struct {
		name, code string
		stdout     string // what it prints
		exit       int
		stderr     string // a substring of stderr
		calls      string
	}{
		{
			name: "one script instead of ten tool calls, shell() from JavaScript",
			code: `
    const txns = await stripe.listTransactions({customer: "cus_123"});
    await fs.writeFile('/workspace/txns.json', JSON.stringify(txns));
    const disputed = shell("grep 'disputed' /workspace/txns.json | head -1");
    console.log(disputed);
`,
			stdout: `[{"amount":500,"customer":"cus_123","disputed":false,"id":"txn_1"},{"amount":1200,"customer":"cus_123","disputed":true,"id":"txn_2"}]` + "\n\n",
			calls:  "stripe/listTransactions",
		},
		{
			name: "one script instead of ten tool calls",
			code: `
    const txns = await stripe.listTransactions({customer: "cus_123"});
    const disputed = txns.filter(t => t.disputed);
    console.log(disputed[0]);
`,
			stdout: "{ amount: 1200, customer: 'cus_123', disputed: true, id: 'txn_2' }\n",
			calls:  "stripe/listTransactions",
		},
		{name: "capabilities: this works", code: `await stripe.charges.create({amount: 500, currency: "USD"})`, calls: "stripe/charges/create"},
		{name: "quick start", code: `console.log('hello'.toUpperCase())`, stdout: "HELLO\n"},
		{name: "with tools", code: `const w = await get_weather({city: 'SF'}); console.log(w);`, stdout: "{ city: 'SF', temp: 72 }\n", calls: "get_weather"},
		{
			name:  "tools take an object",
			code:  "await get_weather({city: \"SF\"});\nawait transfer({to: \"alice\", amount: 500});",
			calls: "get_weather transfer",
		},
		{name: "positional arguments fail", code: `await get_weather("SF");`, exit: 1, stderr: "get_weather: takes one object argument"},
		{name: "return a tool's result", code: `return await get_weather({city: "SF"});`, stdout: `{"city":"SF","temp":72}` + "\n", calls: "get_weather"},
		{name: "return an object", code: `return {a: 1, b: 2};`, stdout: `{"a":1,"b":2}` + "\n"},
		{name: "return a string", code: `return "hello";`, stdout: "hello\n"},
		{name: "console.log", code: `console.log(JSON.stringify({a: 1}));`, stdout: `{"a":1}` + "\n"},
		{name: "no return, no output", code: `const x = 42;`},
		{name: "vfs: writable", code: "await fs.writeFile('/workspace/data.json', '{}');\nawait fs.mkdir('/tmp/cache');"},
		{name: "vfs: root is read-only", code: `await fs.mkdir('/mydir');`, exit: 1, stderr: "EACCES"},
		{
			name: "state across executions",
			code: `
// First execution - save state
const result = await expensive_computation();
await fs.writeFile('/workspace/cache.json', JSON.stringify(result));
console.log("Computed");

// Second execution - restore state
const cached = JSON.parse(await fs.readFile('/workspace/cache.json'));
console.log("Using cached:", cached.length, "items");
`,
			stdout: "Computed\nUsing cached: 3 items\n",
			calls:  "expensive_computation",
		},
	} {
		h := &hubtest.Host{Answer: amlaAnswer}
		out := runAmlaJS(h, vfs.New(vfs.Limits{}), c.code)
		if out.ExitCode != c.exit || h.Stdout() != c.stdout || !strings.Contains(h.Stderr(), c.stderr) {
			t.Errorf("%s:\n got %d %q %q\nwant %d %q %q", c.name, out.ExitCode, h.Stdout(), h.Stderr(), c.exit, c.stdout, c.stderr)
		}
		if got := strings.Join(h.Methods(), " "); got != c.calls {
			t.Errorf("%s: called %q, want %q", c.name, got, c.calls)
		}
	}
}

// shell() returns at once a result that reads as the command's output
// (amla-sandbox's examples use it as a string) and holds stdout, stderr
// and exitCode (amla-sandbox's tests and prompts, and cordon's scripts,
// await it and read those).
func TestShellResultIsStringAndObject(t *testing.T) {
	fs := vfs.New(vfs.Limits{})
	for _, c := range []struct{ name, code, want string }{
		// amla's examples and tests, unchanged.
		{"sync string", `const completedJson = shell('printf "a\\nb\\n"').trim(); return completedJson.split('\n')`, `["a","b"]`},
		{"awaited object", `const r = await shell('echo hello'); console.log('stdout:', r.stdout.trim()); console.log('exitCode:', r.exitCode)`, ""},
		{"destructured", `const { stdout: count } = await shell('echo "[1,2]" | jq length'); return count.trim()`, `"2"`},
		// cordon's scripts, unchanged.
		{"fields", `const r = await shell("echo out; echo err >&2; exit 3"); return [r.stdout, r.stderr, r.exitCode]`, `["out\n","err\n",3]`},
		{"JSON keeps the object", `return JSON.stringify(await shell("echo hi"))`, `"{\"stdout\":\"hi\\n\",\"stderr\":\"\",\"exitCode\":0}"`},
		{"returned as JSON", `return shell("echo hi")`, `{"stdout":"hi\n","stderr":"","exitCode":0}`},
		// A string in every other way.
		{"string forms", `const r = shell("echo hi"); return [String(r), r + "", ` + "`${r}`" + `, r.length, r == "hi\n", r instanceof String, JSON.parse(shell("echo '{\"a\":1}'")).a, typeof r.then]`,
			`["hi\n","hi\n","hi\n",3,true,true,1,"undefined"]`},
		{"empty output", `const r = shell("true"); return [r.length, r.stdout === "", r.trim() === ""]`, `[0,true,true]`},
		{"keys", `return Object.keys(shell("echo")).join()`, `"0,stdout,stderr,exitCode"`},
		{"await is the same value", `const p = shell("echo"); return (await p) === p`, `true`},
		{"not a thenable", `return await Promise.resolve(shell("echo x")).then(r => r.exitCode)`, `0`},
	} {
		h := &hubtest.Host{Answer: amlaAnswer}
		out := runAmlaJS(h, fs, c.code)
		if out.ExitCode != 0 || string(out.Value) != c.want {
			t.Errorf("%s: got %d %s %q, want %s", c.name, out.ExitCode, out.Value, h.Stderr(), c.want)
		}
		if c.name == "awaited object" && h.Stdout() != "stdout: hello\nexitCode: 0\n" {
			t.Errorf("%s: printed %q", c.name, h.Stdout())
		}
	}
	// console.log prints it as its output, alone or among other values;
	// inside another value it is a String object.
	h := &hubtest.Host{Answer: amlaAnswer}
	out := runAmlaJS(h, fs, `const r = shell("echo hi"); console.log(r); console.log("got", r, 1); console.log("%s!", shell("printf x")); console.log([shell("printf y")].length)`)
	if want := "hi\n\ngot hi\n 1\nx!\n1\n"; out.ExitCode != 0 || h.Stdout() != want {
		t.Errorf("console.log: got %d %q %q, want %q", out.ExitCode, h.Stdout(), h.Stderr(), want)
	}
	// A String object of the script's own, or one whose toJSON the script
	// replaced, prints as Node prints it.
	h = &hubtest.Host{Answer: amlaAnswer}
	runAmlaJS(h, fs, `console.log(new String("s")); const r = shell("echo"); r.toJSON = () => 1; console.log(r.stdout.length)`)
	if want := "[String: 's']\n1\n"; h.Stdout() != want {
		t.Errorf("other strings: got %q, want %q", h.Stdout(), want)
	}
}
