package shellrt

import (
	"encoding/json"
	"errors"
	"fmt"
	goruntime "runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/cordonhq/cordon/guest/internal/hub"
	"github.com/cordonhq/cordon/guest/internal/jsrt"
	"github.com/cordonhq/cordon/internal/abi"
	"github.com/cordonhq/cordon/vfs"
)

// fakeHost answers each call at once: "deny/*" is denied, everything else
// returns {"method": ..., "params": ...}.
type fakeHost struct {
	mu     sync.Mutex
	stdout strings.Builder
	stderr strings.Builder
	calls  []abi.Call
	ids    map[uint32]bool
	flag   atomic.Pointer[uint32]
	dupID  bool
}

func (h *fakeHost) Yield(calls []abi.Call) (*abi.Resume, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.ids == nil {
		h.ids = map[uint32]bool{}
	}
	res := &abi.Resume{}
	for _, c := range calls {
		if h.ids[c.ID] {
			h.dupID = true
		}
		h.ids[c.ID] = true
		h.calls = append(h.calls, abi.Call{ID: c.ID, Method: c.Method, Params: append([]byte(nil), c.Params...)})
		if strings.HasPrefix(c.Method, "deny/") {
			res.Results = append(res.Results, abi.CallResult{ID: c.ID, ErrKind: "denied", ErrMsg: "tool " + c.Method + " denied: not today", Reasons: []string{"not today"}})
			continue
		}
		v, _ := json.Marshal(map[string]any{"method": c.Method, "params": json.RawMessage(c.Params)})
		res.Results = append(res.Results, abi.CallResult{ID: c.ID, OK: true, Value: v})
	}
	return res, nil
}

func (h *fakeHost) Write(fd int, p []byte) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if fd == 1 {
		h.stdout.Write(p)
	} else {
		h.stderr.Write(p)
	}
}

func (h *fakeHost) WatchInterrupt(flag *uint32) { h.flag.Store(flag) }

// Next is never called: the tests run scripts, not the request loop.
func (h *fakeHost) Next([]byte) ([]byte, error) {
	return nil, errors.New("the test host serves no requests")
}

var testTools = []abi.ToolInfo{
	{Name: "weather/current", Description: "Current weather.\nMore text.", Schema: []byte(`{"type":"object","properties":{"city":{"type":"string","description":"City name"},"days":{"type":"integer"},"metric":{"type":"boolean"},"tags":{"type":"array","items":{"type":"string"}},"temp":{"type":"number"}},"required":["city"]}`)},
	{Name: "deny/me", Description: "Always denied."},
}

func runSh(t *testing.T, script string) (*fakeHost, Outcome) {
	t.Helper()
	h := &fakeHost{}
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
		if out.ExitCode != c.code || h.stdout.String() != c.stdout || !strings.Contains(h.stderr.String(), c.stderr) {
			t.Errorf("%s:\n got %d %q %q\nwant %d %q %q", c.script, out.ExitCode, h.stdout.String(), h.stderr.String(), c.code, c.stdout, c.stderr)
		}
	}
}

func TestNodeFromShellAndShellFromJS(t *testing.T) {
	h, out := runSh(t, `echo hi > /workspace/a.txt
node -e 'const r = await shell("cat a.txt; tool weather/current --city X | jq -c .params"); console.log(JSON.stringify(r)); const w = await weather.current({city: "Y"}); console.log(w.params.city)' | tr a-z A-Z
node -p '1 + 2'
echo 'console.log(fs.readFileSync("a.txt", "utf8").trim())' > s.js && node s.js`)
	want := `{"STDOUT":"HI\N{\"CITY\":\"X\"}\N","STDERR":"","EXITCODE":0}` + "\nY\n3\nhi\n"
	if out.ExitCode != 0 || h.stdout.String() != want {
		t.Fatalf("got %d %q (stderr %q), want %q", out.ExitCode, h.stdout.String(), h.stderr.String(), want)
	}
	if h.dupID {
		t.Error("a tool-call id was used twice")
	}
}

// A JS script whose own call is in flight when shell() makes another gets
// both answers, and the ids never repeat.
func TestJSCallsInFlightDuringShell(t *testing.T) {
	h := &fakeHost{}
	fs := vfs.New(vfs.Limits{})
	hb := hub.New(h)
	sh := Options{Common: jsrt.Common{Host: h, Hub: hb, FS: fs, Tools: testTools}}
	out := jsrt.Run(jsrt.Options{Common: jsrt.Common{Host: h, Hub: hb, FS: fs, Tools: testTools}, Shell: Capture(sh)}, "t.js", `
const p = weather.current({city: "A"});
const r = await shell("tool weather/current --city B | jq -r .params.city; node -e 'console.log((await weather_current({city: \"C\"})).params.city)'");
console.log(r.stdout.trim().split("\n").join(","), (await p).params.city, r.exitCode);`)
	if out.ExitCode != 0 || h.stdout.String() != "B,C A 0\n" {
		t.Fatalf("got %+v %q %q", out, h.stdout.String(), h.stderr.String())
	}
	if h.dupID || len(h.calls) != 3 {
		t.Errorf("calls %v dup %v", h.calls, h.dupID)
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
		h := &fakeHost{}
		done := make(chan Outcome, 1)
		go func() {
			done <- Run(Options{Common: jsrt.Common{Host: h, FS: vfs.New(vfs.Limits{}), Tools: testTools}}, "script.sh", script)
		}()
		time.Sleep(100 * time.Millisecond)
		stop := time.Now()
		// Like the host: keep writing the current flag.
		var out Outcome
	loop:
		for {
			if f := h.flag.Load(); f != nil {
				atomic.StoreUint32(f, 1)
			}
			select {
			case out = <-done:
				break loop
			case <-time.After(5 * time.Millisecond):
			}
			if time.Since(stop) > 3*time.Second {
				t.Fatalf("%s: not stopped after 3 s", script)
			}
		}
		if out.ErrCode != "interrupted" {
			t.Errorf("%s: %+v, want interrupted", script, out)
		}
	}
}

func TestNestingIsBounded(t *testing.T) {
	h, out := runSh(t, `echo 'node -e "const r = await shell(\"sh /workspace/r.sh\"); console.error(r.stderr)"' > /workspace/r.sh; sh r.sh; echo 'sh /workspace/s.sh' > s.sh; sh s.sh; echo done`)
	if !strings.HasSuffix(h.stdout.String(), "done\n") || out.ExitCode != 0 {
		t.Fatalf("%+v %q %q", out, h.stdout.String(), h.stderr.String())
	}
	if !strings.Contains(h.stderr.String(), "nested more than") || !strings.Contains(h.stderr.String(), "maximum function nesting level exceeded") {
		t.Errorf("stderr %q", h.stderr.String())
	}
}

// A short script does not pay for the large blocks that make big pipelines
// fast: each command's buffers come back to a pool when it returns
// (command.Env.Release), and a pipe's buffer grows with what goes through
// it. It allocated about 1 MB a run before, 190 KB with fixed 32 KiB pipe
// buffers, about 80 KB now.
func TestShortScriptsAllocateLittle(t *testing.T) {
	fs := vfs.New(vfs.Limits{})
	fs.WriteFile("/workspace/a.txt", []byte("b\na\nc\na\n"), 0o644)
	script := `for f in *.txt; do sort "$f" | uniq -c | head -2; done; x=$(cat a.txt | wc -l); grep -c a a.txt; tr a-z A-Z < a.txt | cut -c1; echo "$x lines"`
	least := uint64(1 << 62)
	var ms goruntime.MemStats
	for range 20 {
		goruntime.ReadMemStats(&ms)
		before := ms.TotalAlloc
		h := &fakeHost{}
		if out := Run(Options{Common: jsrt.Common{Host: h, FS: fs}}, "s.sh", script); out.ExitCode != 0 {
			t.Fatal(out, h.stderr.String())
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
	h := &fakeHost{}
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
			h := &fakeHost{}
			allocs[k] = testing.AllocsPerRun(3, func() {
				if out := Run(Options{Common: jsrt.Common{Host: h, FS: fs}}, "s.sh", fmt.Sprintf(c.script, n)); out.ExitCode != 0 {
					t.Fatal(out, h.stderr.String())
				}
			})
		}
		if per := (allocs[1] - allocs[0]) / 100; per > c.max {
			t.Errorf("%s: %.1f allocations an iteration, want at most %v", c.script, per, c.max)
		}
	}
}
