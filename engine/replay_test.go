package engine_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/cordonhq/cordon/dsl"
	"github.com/cordonhq/cordon/engine"
	"github.com/cordonhq/cordon/engine/enginetest"
	"github.com/cordonhq/cordon/trace"
)

// replayTools are tools whose answers change from call to call and whose
// handlers take different times, so that a live re-run differs from a
// recording and a batch's answers come back out of order.
func replayTools(ran *atomic.Int64) []engine.Tool {
	var n atomic.Int64
	return []engine.Tool{
		{Name: "counter/next", Description: "The next number.", Handler: func(ctx context.Context, _ json.RawMessage) (any, error) {
			ran.Add(1)
			return map[string]any{"n": n.Add(1), "at": time.Now().UnixNano()}, nil
		}},
		{Name: "slow/echo", Description: "Echoes after delay_ms.", Handler: func(ctx context.Context, p json.RawMessage) (any, error) {
			ran.Add(1)
			var in struct {
				Name  string `json:"name"`
				Delay int    `json:"delay_ms"`
			}
			_ = json.Unmarshal(p, &in)
			time.Sleep(time.Duration(in.Delay) * time.Millisecond)
			return map[string]any{"name": in.Name, "at": time.Now().UnixNano()}, nil
		}},
		{Name: "files/delete", Description: "Refused by the policy.", Handler: func(ctx context.Context, _ json.RawMessage) (any, error) {
			ran.Add(1)
			return "deleted", nil
		}},
		{Name: "net/fail", Description: "Always fails.", Handler: func(ctx context.Context, _ json.RawMessage) (any, error) {
			ran.Add(1)
			return nil, engine.ToolErrorf("upstream is down at %d", time.Now().UnixNano())
		}},
	}
}

// replayEngine is an engine whose wall clock moves (a millisecond at each
// reading), unlike the shared test engine's, so that a replay that did
// not give the recorded readings back would show it.
func replayEngine(t *testing.T) *engine.Engine {
	var ticks atomic.Int64
	base := time.Date(2026, 3, 4, 5, 6, 7, 0, time.UTC)
	return enginetest.NewEngine(t, enginetest.Config().WithClock(func() time.Time {
		return base.Add(time.Duration(ticks.Add(1)) * time.Millisecond)
	}))
}

func replayPolicy(t *testing.T) engine.Policy {
	return enginetest.Policy(t, dsl.Method("counter/*"), dsl.Method("slow/*"), dsl.Method("net/*"))
}

// record runs code in a new sandbox of eng, after writing a file, and
// returns its trace, read back from its file form, and its result.
func record(t *testing.T, eng *engine.Engine, lang engine.Language, code string) (*trace.Trace, *engine.Result) {
	t.Helper()
	var ran atomic.Int64
	sb := enginetest.NewSandboxOf(t, eng, engine.SandboxConfig{Tools: replayTools(&ran), Policy: replayPolicy(t)})
	ctx := context.Background()
	if err := sb.WriteFile(ctx, "/workspace/notes.txt", []byte("first line\nsecond line\n")); err != nil {
		t.Fatal(err)
	}
	// A script before the recorded one, so that the recorded execution
	// is not the sandbox's first: the replay's is.
	if _, err := sb.Execute(ctx, engine.JavaScript, `Math.random(); Date.now(); await counter.next({})`); err != nil {
		t.Fatal(err)
	}
	var tr trace.Trace
	res, err := sb.Execute(ctx, lang, code, engine.WithRecord(&tr, engine.RecordVFS()))
	if err != nil {
		t.Fatalf("recorded execution: %v\n%s", err, res.Stderr)
	}
	return roundTrip(t, &tr), res
}

// replay replays tr in a new sandbox whose handlers must not run.
func replay(t *testing.T, eng *engine.Engine, tr *trace.Trace, cfg engine.ReplayConfig) (*engine.ReplayResult, error) {
	t.Helper()
	var ran atomic.Int64
	if cfg.Sandbox.Tools == nil {
		cfg.Sandbox.Tools = replayTools(&ran)
	}
	out, err := eng.Replay(context.Background(), tr, cfg)
	if !cfg.ContinueLive && ran.Load() != 0 {
		t.Errorf("a handler ran %d times during a replay", ran.Load())
	}
	return out, err
}

// checkReplay replays tr and checks that it reproduces the recording
// byte for byte, and that running the script live again does not: the
// script's output depends on what the replay gives back.
func checkReplay(t *testing.T, eng *engine.Engine, tr *trace.Trace, rec *engine.Result) {
	t.Helper()
	out, err := replay(t, eng, tr, engine.ReplayConfig{})
	if err != nil {
		t.Fatalf("Replay: %v", err)
	}
	if !out.Identical() || out.Result.Stdout != rec.Stdout || out.Result.Stderr != rec.Stderr ||
		string(out.Result.Value) != string(rec.Value) || out.Result.ExitCode != rec.ExitCode {
		t.Fatalf("the replay differs in %v\nrecorded stdout:\n%s\nreplayed stdout:\n%s\nrecorded stderr:\n%s\nreplayed stderr:\n%s\nvalues %s / %s",
			out.Differences, rec.Stdout, out.Result.Stdout, rec.Stderr, out.Result.Stderr, rec.Value, out.Result.Value)
	}
	if out.MissedRandom != 0 {
		t.Errorf("the replay missed %d random values", out.MissedRandom)
	}
	if len(out.Trace.Calls) != len(tr.Calls) {
		t.Errorf("the replay's own trace has %d calls, the recording %d", len(out.Trace.Calls), len(tr.Calls))
	}
	// Live again: the clock, the random values and the tools' answers
	// are new, so the output is not the recording's.
	var ran atomic.Int64
	sb := enginetest.NewSandboxOf(t, eng, engine.SandboxConfig{Tools: replayTools(&ran), Policy: replayPolicy(t)})
	if err := sb.WriteFile(context.Background(), "/workspace/notes.txt", []byte("first line\nsecond line\n")); err != nil {
		t.Fatal(err)
	}
	live, _ := sb.Execute(context.Background(), engine.Language(tr.Language), tr.Code)
	if live.Stdout == rec.Stdout {
		t.Errorf("a live re-run printed what the recording did, so the test shows nothing:\n%s", live.Stdout)
	}
}

const replayJS = `
const t0 = Date.now()
const d = new Date()
console.log("now", t0, d.toISOString(), d.getTimezoneOffset())
console.log("random", Math.random(), Math.random())
const a = await counter.next({})
const b = await counter_next({})
console.log("calls", JSON.stringify(a), JSON.stringify(b))
// A batch whose answers come back out of order: each prints as it arrives.
const order = []
await Promise.all([
  slow.echo({name: "a", delay_ms: 60}).then(r => { order.push(r.name); console.log("got", JSON.stringify(r)) }),
  slow.echo({name: "b", delay_ms: 30}).then(r => { order.push(r.name); console.log("got", JSON.stringify(r)) }),
  slow.echo({name: "c", delay_ms: 0}).then(r => { order.push(r.name); console.log("got", JSON.stringify(r)) }),
])
console.log("order", order.join(""))
try { await files.delete({path: "/etc"}) } catch (e) { console.log("denied", e.kind, e.message) }
try { await net.fail({}) } catch (e) { console.log("failed", e.kind, e.message) }
console.log(fs.readFileSync("/workspace/notes.txt", "utf8").split("\n")[1])
fs.writeFileSync("/workspace/out.txt", "written at " + Date.now())
console.error("stderr", Date.now() - t0 >= 0, Math.random())
return {sum: a.n + b.n, at: Date.now(), r: Math.random()}
`

func TestReplayJS(t *testing.T) {
	eng := replayEngine(t)
	tr, rec := record(t, eng, engine.JavaScript, replayJS)
	if len(tr.Calls) != 7 {
		t.Fatalf("recorded %d calls, want 7\n%s%s", len(tr.Calls), rec.Stdout, rec.Stderr)
	}
	if !strings.Contains(rec.Stdout, "order cba") {
		t.Fatalf("the batch's answers did not come back out of order in the recording:\n%s", rec.Stdout)
	}
	checkReplay(t, eng, tr, rec)
}

func TestReplayShell(t *testing.T) {
	eng := replayEngine(t)
	tr, rec := record(t, eng, engine.Shell, `
echo "date $(date +%s%N) $(date -u)"
echo "random $RANDOM $RANDOM"
tmp=$(mktemp)
echo "mktemp $tmp"
tool counter/next
tool counter/next | jq -c .
tool files/delete --path /etc || echo "denied $?"
sed -n 2p /workspace/notes.txt
echo "awk $(awk 'BEGIN { srand(); print rand() }')"
echo "at $(date +%N)" >&2
ls -l /workspace | wc -l
`)
	checkReplay(t, eng, tr, rec)
}

// A JavaScript script that runs a shell that runs JavaScript: the calls
// of every level come back in order.
func TestReplayNested(t *testing.T) {
	eng := replayEngine(t)
	tr, rec := record(t, eng, engine.JavaScript, `
console.log("outer", Math.random(), JSON.stringify(await counter.next({})))
const r = shell("echo shell $(date +%s%N); tool counter/next; node -e 'console.log(\"inner\", Math.random(), Date.now(), JSON.stringify(await counter.next({})))'")
console.log(r.stdout, r.exitCode)
console.log("outer again", JSON.stringify(await counter.next({})), Date.now())
`)
	var langs []string
	for _, c := range tr.Calls {
		langs = append(langs, c.Language)
	}
	if got := strings.Join(langs, ","); got != "js,sh,js,js" {
		t.Fatalf("recorded calls from %s, want js,sh,js,js", got)
	}
	checkReplay(t, eng, tr, rec)
}

// tamper returns a copy of tr (read back from its file form) changed by f.
func tamper(t *testing.T, tr *trace.Trace, f func(*trace.Trace)) *trace.Trace {
	t.Helper()
	c := roundTrip(t, tr)
	f(c)
	return c
}

func TestReplayDivergence(t *testing.T) {
	eng := replayEngine(t)
	tr, _ := record(t, eng, engine.JavaScript, `
const a = await counter.next({})
const b = await slow.echo({name: "x", delay_ms: 0})
console.log(a.n, b.name)
`)
	cases := []struct {
		name, reason, want string
		f                  func(*trace.Trace)
	}{
		{"params", "other params", `{"delay_ms":0,"name":"y"}`, func(t *trace.Trace) {
			t.Calls[1].Params = json.RawMessage(`{"delay_ms":0,"name":"y"}`)
		}},
		{"method", "another method", "counter/next", func(t *trace.Trace) { t.Calls[0].Method = "slow/echo" }},
		{"one more call", "the trace holds 1 calls", "slow/echo", func(t *trace.Trace) {
			t.Calls = t.Calls[:1]
			t.Answers = t.Answers[:1]
		}},
		{"a call fewer", "the script ended after 2 of the trace's 3 calls", "files/delete", func(t *trace.Trace) {
			t.Calls = append(t.Calls, trace.Call{ID: 3, Method: "files/delete", Params: json.RawMessage(`{}`), Decision: "deny"})
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			bad := tamper(t, tr, c.f)
			out, err := replay(t, eng, bad, engine.ReplayConfig{})
			var d *engine.DivergenceError
			if !errors.As(err, &d) || !errors.Is(err, engine.ErrDivergence) {
				t.Fatalf("Replay of a tampered trace: %v, want a *DivergenceError", err)
			}
			if !strings.Contains(d.Error(), c.reason) || !strings.Contains(d.Error(), c.want) {
				t.Errorf("divergence %q does not say %q and show %q", d.Error(), c.reason, c.want)
			}
			if out == nil || out.Result == nil {
				t.Fatalf("no result of what ran")
			}
		})
	}
	t.Run("continue live", func(t *testing.T) {
		bad := tamper(t, tr, func(t *trace.Trace) { t.Calls[1].Params = json.RawMessage(`{"delay_ms":0,"name":"y"}`) })
		var ran atomic.Int64
		out, err := eng.Replay(context.Background(), bad, engine.ReplayConfig{
			ContinueLive: true,
			Sandbox:      engine.SandboxConfig{Tools: replayTools(&ran), Policy: replayPolicy(t)},
		})
		if err != nil {
			t.Fatalf("Replay with ContinueLive: %v", err)
		}
		if out.Diverged == nil || out.Diverged.Call != 2 {
			t.Fatalf("Diverged = %v, want call 2", out.Diverged)
		}
		if ran.Load() != 1 {
			t.Errorf("%d handlers ran live, want 1 (the diverging call)", ran.Load())
		}
		// The first call's answer is the recorded one (n from the
		// recording), the second is live.
		var first struct{ N int }
		_ = json.Unmarshal(tr.Calls[0].Result, &first)
		if want := fmt.Sprintf("%d x\n", first.N); out.Result.Stdout != want {
			t.Errorf("stdout %q, want %q", out.Result.Stdout, want)
		}
	})
	t.Run("file system", func(t *testing.T) {
		bad := tamper(t, tr, func(t *trace.Trace) { t.VFS.Tar = nil })
		_, err := replay(t, eng, bad, engine.ReplayConfig{})
		if !errors.Is(err, engine.ErrReplay) || !strings.Contains(err.Error(), "file system") {
			t.Fatalf("Replay without the recorded files: %v, want ErrReplay about the file system", err)
		}
	})
}

// An execution that hit its time limit while a call was running replays
// to the same end: the trace gives that call no answer, and the replay
// stops where the recording did, with the same error.
func TestReplayTimeout(t *testing.T) {
	eng := replayEngine(t)
	var ran atomic.Int64
	sb := enginetest.NewSandboxOf(t, eng, engine.SandboxConfig{Tools: replayTools(&ran), Policy: replayPolicy(t),
		Limits: engine.Limits{Timeout: 300 * time.Millisecond}})
	var tr trace.Trace
	res, err := sb.Execute(context.Background(), engine.JavaScript, `console.log("before", Math.random())
await slow.echo({name: "late", delay_ms: 2000})
console.log("never")`, engine.WithRecord(&tr, engine.RecordVFS()))
	if engine.KindOf(err) != engine.KindTimeout {
		t.Fatalf("recorded execution: %v, want a timeout", err)
	}
	out, rerr := replay(t, eng, roundTrip(t, &tr), engine.ReplayConfig{})
	if rerr != nil {
		t.Fatalf("Replay: %v", rerr)
	}
	if engine.KindOf(out.Err) != engine.KindTimeout || !out.Identical() || out.Result.Stdout != res.Stdout {
		t.Fatalf("replay: %v, differences %v, stdout %q (recorded %q)", out.Err, out.Differences, out.Result.Stdout, res.Stdout)
	}
}

// A trace whose call claims an error kind the host never sends is refused
// before anything runs.
func TestReplayRefusesBadKinds(t *testing.T) {
	eng := replayEngine(t)
	tr, _ := record(t, eng, engine.JavaScript, `await counter.next({})`)
	bad := tamper(t, tr, func(t *trace.Trace) { t.Calls[0].ErrorKind = "pwned" })
	if _, err := replay(t, eng, bad, engine.ReplayConfig{}); !errors.Is(err, engine.ErrReplay) || !strings.Contains(err.Error(), "pwned") {
		t.Fatalf("Replay: %v, want ErrReplay naming the kind", err)
	}
}
