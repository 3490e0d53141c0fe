package shellrt

import (
	"fmt"
	goruntime "runtime"
	"strings"
	"testing"
	"time"

	"github.com/cordonhq/cordon/guest/internal/hub"
	"github.com/cordonhq/cordon/guest/internal/hub/hubtest"
	"github.com/cordonhq/cordon/guest/internal/jsrt"
	"github.com/cordonhq/cordon/internal/abi"
	"github.com/cordonhq/cordon/internal/slack"
	"github.com/cordonhq/cordon/vfs"
)

// newHost returns the fake host of the shell's tests, which answers each
// call at once (answer).
func newHost() *hubtest.Host { return &hubtest.Host{Answer: answer} }

// answer denies "deny/*" and answers every other call with {"method":
// ..., "params": ...}.
func answer(c abi.Call) abi.CallResult {
	if strings.HasPrefix(c.Method, "deny/") {
		return hubtest.Deny(c, "not today")
	}
	return hubtest.EchoCall(c)
}

var testTools = []abi.ToolInfo{
	{Name: "weather/current", Description: "Current weather.\nMore text.", Schema: []byte(`{"type":"object","properties":{"city":{"type":"string","description":"City name"},"days":{"type":"integer"},"metric":{"type":"boolean"},"tags":{"type":"array","items":{"type":"string"}},"temp":{"type":"number"}},"required":["city"]}`)},
	{Name: "deny/me", Description: "Always denied."},
}

func runSh(t *testing.T, script string) (*hubtest.Host, Outcome) {
	t.Helper()
	h := newHost()
	out := Run(Options{Common: jsrt.Common{Host: h, FS: vfs.New(vfs.Limits{}), Tools: testTools}}, "script.sh", script)
	return h, out
}

func TestToolCommand(t *testing.T) {
	cases := []struct {
		script, stdout, stderr string
		code                   int
	}{
		{script: `tool weather/current --city Paris --days 3 --metric --temp 1.5 --tags a,b`, stdout: `{"method":"weather/current","params":{"city":"Paris","days":3,"metric":true,"tags":["a","b"],"temp":1.5}}` + "\n"},
		{script: `tool weather_current --city=Oslo --metric false`, stdout: `{"method":"weather/current","params":{"city":"Oslo","metric":false}}` + "\n"},
		{script: `tool weather/current --json '{"city": "Rome", "x": [1]}' --days 2`, stdout: `{"method":"weather/current","params":{"city":"Rome","days":2,"x":[1]}}` + "\n"},
		{script: `tool weather/current --tags a --tags b --city c`, stdout: `{"method":"weather/current","params":{"city":"c","tags":["a","b"]}}` + "\n"},
		{script: `tool weather/current --days 3`, code: 2, stderr: "missing required parameter --city"},
		{script: `tool weather/current --city x --days soon`, code: 2, stderr: `--days: "soon" is not an integer`},
		{script: `tool nope/x`, code: 2, stderr: `unknown tool "nope/x"`},
		{script: `tool deny/me`, code: 1, stderr: "tool deny/me denied: not today"},
		{script: `tool deny/me || echo "status $?"`, stdout: "status 1\n", stderr: "denied"},
		{script: `tool --list`, stdout: "deny/me\tAlways denied.\nweather/current\tCurrent weather.\n"},
		{script: `tool --list weather`, stdout: "weather/current\tCurrent weather.\n"},
		{script: `tool --help weather/current | head -1`, stdout: "Usage: tool weather/current --city string [flags]\n"},
		{script: `tool weather/current --city Paris | jq -r .params.city`, stdout: "Paris\n"},
		{script: `tool`, code: 2, stderr: "Usage: tool NAME"},
	}
	for _, c := range cases {
		h, out := runSh(t, c.script)
		if out.ExitCode != c.code || h.Stdout() != c.stdout || !strings.Contains(h.Stderr(), c.stderr) {
			t.Errorf("%s:\n got %d %q %q\nwant %d %q %q", c.script, out.ExitCode, h.Stdout(), h.Stderr(), c.code, c.stdout, c.stderr)
		}
	}
}

func TestNodeFromShellAndShellFromJS(t *testing.T) {
	h, out := runSh(t, `echo hi > /workspace/a.txt
node -e 'const r = await shell("cat a.txt; tool weather/current --city X | jq -c .params"); console.log(JSON.stringify(r)); const w = await weather.current({city: "Y"}); console.log(w.params.city)' | tr a-z A-Z
node -p '1 + 2'
echo 'console.log(fs.readFileSync("a.txt", "utf8").trim())' > s.js && node s.js`)
	want := `{"STDOUT":"HI\N{\"CITY\":\"X\"}\N","STDERR":"","EXITCODE":0}` + "\nY\n3\nhi\n"
	if out.ExitCode != 0 || h.Stdout() != want {
		t.Fatalf("got %d %q (stderr %q), want %q", out.ExitCode, h.Stdout(), h.Stderr(), want)
	}
	if len(h.ReusedIDs()) > 0 {
		t.Error("a tool-call id was used twice")
	}
}

// A JS script whose own call is in flight when shell() makes another gets
// both answers, and the ids never repeat.
func TestJSCallsInFlightDuringShell(t *testing.T) {
	h := newHost()
	fs := vfs.New(vfs.Limits{})
	hb := hub.New(h)
	sh := Options{Common: jsrt.Common{Host: h, Hub: hb, FS: fs, Tools: testTools}}
	out := jsrt.Run(jsrt.Options{Common: jsrt.Common{Host: h, Hub: hb, FS: fs, Tools: testTools}, Shell: Capture(sh)}, "t.js", `
const p = weather.current({city: "A"});
const r = await shell("tool weather/current --city B | jq -r .params.city; node -e 'console.log((await weather_current({city: \"C\"})).params.city)'");
console.log(r.stdout.trim().split("\n").join(","), (await p).params.city, r.exitCode);`)
	if out.ExitCode != 0 || h.Stdout() != "B,C A 0\n" {
		t.Fatalf("got %+v %q %q", out, h.Stdout(), h.Stderr())
	}
	if len(h.ReusedIDs()) > 0 || len(h.Calls()) != 3 {
		t.Errorf("calls %v, ids used twice %v", h.Calls(), h.ReusedIDs())
	}
}

func TestInterruptStopsShellLoops(t *testing.T) {
	for _, script := range []string{
		`while true; do :; done`,
		`yes | cat > /dev/null`,
		`node -e 'while (true) {}'`,
		`i=0; while :; do i=$((i+1)); done`,
		`f() { f; }; while :; do echo x; done | tail -1`,
	} {
		bound := slack.Scale(t, 3*time.Second)
		h := newHost()
		done := make(chan Outcome, 1)
		go func() {
			done <- Run(Options{Common: jsrt.Common{Host: h, FS: vfs.New(vfs.Limits{}), Tools: testTools}}, "script.sh", script)
		}()
		time.Sleep(100 * time.Millisecond)
		out, stopped := hubtest.InterruptUntil(h, done, bound)
		if !stopped {
			t.Fatalf("%s: not stopped %v after the interrupt", script, bound)
		}
		if out.ErrCode != "interrupted" {
			t.Errorf("%s: %+v, want interrupted", script, out)
		}
	}
}

func TestNestingIsBounded(t *testing.T) {
	h, out := runSh(t, `echo 'node -e "const r = await shell(\"sh /workspace/r.sh\"); console.error(r.stderr)"' > /workspace/r.sh; sh r.sh; echo 'sh /workspace/s.sh' > s.sh; sh s.sh; echo done`)
	if !strings.HasSuffix(h.Stdout(), "done\n") || out.ExitCode != 0 {
		t.Fatalf("%+v %q %q", out, h.Stdout(), h.Stderr())
	}
	if !strings.Contains(h.Stderr(), "nested more than") || !strings.Contains(h.Stderr(), "maximum function nesting level exceeded") {
		t.Errorf("stderr %q", h.Stderr())
	}
}

// A short script does not pay for the large blocks that make big pipelines
// fast: each command's buffers come back to a pool when it returns
// (command.Env.Release), and a pipe's buffer grows with what goes through
// it (BENCHMARKS.md has the allocations measured).
func TestShortScriptsAllocateLittle(t *testing.T) {
	fs := vfs.New(vfs.Limits{})
	fs.WriteFile("/workspace/a.txt", []byte("b\na\nc\na\n"), 0o644)
	script := `for f in *.txt; do sort "$f" | uniq -c | head -2; done; x=$(cat a.txt | wc -l); grep -c a a.txt; tr a-z A-Z < a.txt | cut -c1; echo "$x lines"`
	least := uint64(1 << 62)
	var ms goruntime.MemStats
	for range 20 {
		goruntime.ReadMemStats(&ms)
		before := ms.TotalAlloc
		h := newHost()
		if out := Run(Options{Common: jsrt.Common{Host: h, FS: fs}}, "s.sh", script); out.ExitCode != 0 {
			t.Fatal(out, h.Stderr())
		}
		goruntime.ReadMemStats(&ms)
		// The least of several runs: the race detector's sync.Pool drops
		// some of what it is given back.
		least = min(least, ms.TotalAlloc-before)
	}
	bound := uint64(150 << 10)
	if raceEnabled {
		bound = 300 << 10
	}
	if least > bound {
		t.Errorf("a short pipeline script allocates %d KiB a run, want at most %d", least>>10, bound>>10)
	}
}

// A run does not rebuild what every run shares: the registry of built-in
// commands and the shell's default variables (echo took 176 allocations
// when they were built per run, and 117 when each word's expansion built
// its own configuration; about 85 now).
func TestEchoStaysCheap(t *testing.T) {
	fs := vfs.New(vfs.Limits{})
	h := newHost()
	n := testing.AllocsPerRun(20, func() {
		if out := Run(Options{Common: jsrt.Common{Host: h, FS: fs}}, "s.sh", "echo hi"); out.ExitCode != 0 {
			t.Fatal(out)
		}
	})
	if n > 110 {
		t.Errorf("echo hi allocates %v times a run, want at most 110", n)
	}
}

// TestLoopIterationsStayCheap holds the allocations of one iteration of
// common loops, measured as the difference between 200 and 100
// iterations. Before the shell expanded plain words without walking and
// splitting them, reused its expansion configurations and copied a
// subshell's variables in one block, they were 114, 43 and 149; before it
// cached the expressions of =~ and ${x//pat/rep}, 58 and 44.
func TestLoopIterationsStayCheap(t *testing.T) {
	fs := vfs.New(vfs.Limits{})
	for _, c := range []struct {
		script string
		max    float64
	}{
		{`x=0; while [ $x -lt %d ]; do x=$((x+1)); done`, 40},
		{`s=""; for i in $(seq 1 %d); do s="$s$i"; done`, 20},
		{`for i in $(seq 1 %d); do echo "$i" | tr 1 A; done`, 130},
		{`for i in $(seq 1 %d); do [[ $i =~ ^[0-9]+5$ ]] && c=$((c+1)) || :; done`, 35},
		{`x="hello world"; for i in $(seq 1 %d); do y=${x//o/0}; done`, 38},
	} {
		var allocs [2]float64
		for k, n := range []int{100, 200} {
			h := newHost()
			allocs[k] = testing.AllocsPerRun(3, func() {
				if out := Run(Options{Common: jsrt.Common{Host: h, FS: fs}}, "s.sh", fmt.Sprintf(c.script, n)); out.ExitCode != 0 {
					t.Fatal(out, h.Stderr())
				}
			})
		}
		if per := (allocs[1] - allocs[0]) / 100; per > c.max {
			t.Errorf("%s: %.1f allocations an iteration, want at most %v", c.script, per, c.max)
		}
	}
}

// curl and wget call the tool the host marked Fetch, with the request as
// an abi.FetchRequest, through the hub like the tool command.
func TestCurlCallsTheFetchTool(t *testing.T) {
	tools := append([]abi.ToolInfo{{Name: "net/get", Fetch: true}}, testTools...)
	h := &hubtest.Host{Answer: func(c abi.Call) abi.CallResult {
		if c.Method != "net/get" {
			return hubtest.EchoCall(c)
		}
		if strings.Contains(string(c.Params), "denied.example") {
			return hubtest.Deny(c, "host denied.example is not allowed")
		}
		return hubtest.Value(c, abi.FetchResponse{Status: 200, StatusText: "OK", URL: "https://example.com/a", Headers: [][2]string{{"content-type", "text/plain"}}, Body: "hello\n"})
	}}
	out := Run(Options{Common: jsrt.Common{Host: h, FS: vfs.New(vfs.Limits{}), Tools: tools}}, "script.sh",
		`curl -sS -X POST -H 'X-A: 1' -d 'k=v' https://example.com/a; wget -qO- https://example.com/a; curl -s https://denied.example/ || echo "status $?"; curl https://denied.example/`)
	if out.ExitCode != 7 {
		t.Errorf("exit %d, stderr %q", out.ExitCode, h.Stderr())
	}
	if got, want := h.Stdout(), "hello\nhello\nstatus 7\n"; got != want {
		t.Errorf("stdout %q, want %q", got, want)
	}
	if got, want := h.Stderr(), "curl: (7) request denied by policy: host denied.example is not allowed\n"; got != want {
		t.Errorf("stderr %q, want %q", got, want)
	}
	calls := h.Calls()
	if len(calls) != 4 {
		t.Fatalf("calls %v", h.Methods())
	}
	want := `{"url":"https://example.com/a","method":"POST","headers":[["User-Agent","curl/8.5.0"],["Accept","*/*"],["Content-Type","application/x-www-form-urlencoded"],["X-A","1"]],"body":"k=v","redirect":"manual"}`
	if calls[0].Method != "net/get" || calls[0].Lang != abi.LangShell || string(calls[0].Params) != want {
		t.Errorf("call %s %v %s\nwant %s", calls[0].Method, calls[0].Lang, calls[0].Params, want)
	}
	want = `{"url":"https://example.com/a","method":"GET","headers":[["User-Agent","Wget/1.21.4"],["Accept","*/*"]],"redirect":"follow"}`
	if string(calls[1].Params) != want {
		t.Errorf("wget's call %s\nwant %s", calls[1].Params, want)
	}
}

func TestCurlWithoutFetchTool(t *testing.T) {
	h, out := runSh(t, `curl -s https://example.com/; echo "status $?"; wget -qO- https://example.com/; echo "status $?"`)
	if got, want := h.Stdout(), "status 2\nstatus 1\n"; got != want || out.ExitCode != 0 {
		t.Errorf("stdout %q, want %q (exit %d)", got, want, out.ExitCode)
	}
	if got, want := h.Stderr(), "curl: network access is not enabled in this sandbox\nwget: network access is not enabled in this sandbox\n"; got != want {
		t.Errorf("stderr %q, want %q", got, want)
	}
	if n := len(h.Calls()); n != 0 {
		t.Errorf("%d calls", n)
	}
}
