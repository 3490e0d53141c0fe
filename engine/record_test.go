package engine_test

import (
	"archive/tar"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/cordonhq/cordon/config"
	"github.com/cordonhq/cordon/dsl"
	"github.com/cordonhq/cordon/engine"
	"github.com/cordonhq/cordon/engine/enginetest"
	"github.com/cordonhq/cordon/trace"
)

// recordSandbox is a sandbox with an allowed tool, a tool the policy
// denies, a failing tool and a tool that asks, under a policy of
// capabilities, with the session, labels and principal a trace keeps.
func recordSandbox(t *testing.T, eng *engine.Engine, audit func(engine.AuditRecord)) *engine.Sandbox {
	t.Helper()
	return enginetest.NewSandboxOf(t, eng, engine.SandboxConfig{
		ID:        "rec-session",
		Labels:    map[string]string{"team": "payments"},
		Principal: "alice",
		Tools: []engine.Tool{
			enginetest.Echo("files/read"),
			enginetest.Echo("files/delete"),
			enginetest.Failing("net/fetch", engine.ToolErrorf("upstream is down")),
			enginetest.Echo("orders/refund"),
		},
		Policy: enginetest.Policy(t,
			dsl.Method("files/read"),
			dsl.Method("net/fetch"),
			dsl.Method("orders/refund").Ask(),
		),
		Approve: func(_ context.Context, c *engine.Call) (bool, string) {
			var p struct{ Amount int }
			_ = json.Unmarshal(c.Params, &p)
			if p.Amount > 100 {
				return false, "too much"
			}
			return true, ""
		},
		Audit: audit,
	})
}

// roundTrip writes tr and reads it back, as a trace file would be.
func roundTrip(t *testing.T, tr *trace.Trace) *trace.Trace {
	t.Helper()
	var buf bytes.Buffer
	if err := tr.Write(&buf); err != nil {
		t.Fatalf("Write: %v", err)
	}
	got, err := trace.Read(&buf)
	if err != nil {
		t.Fatalf("Read: %v\n%s", err, buf.String())
	}
	return got
}

func TestRecordJSCalls(t *testing.T) {
	var mu sync.Mutex
	var audits []engine.AuditRecord
	sb := recordSandbox(t, enginetest.Engine(t), func(r engine.AuditRecord) {
		mu.Lock()
		audits = append(audits, r)
		mu.Unlock()
	})
	if err := sb.WriteFile(context.Background(), "/workspace/in.txt", []byte("hello")); err != nil {
		t.Fatal(err)
	}
	var tr trace.Trace
	code := `const r = await files.read({path: "/a", n: 1})
let denied, failed
try { await files.delete({path: "/a"}) } catch (e) { denied = e.kind }
try { await net.fetch({url: "https://x"}) } catch (e) { failed = e.kind + ": " + e.message }
const ok = await orders.refund({amount: 5})
let refused
try { await orders.refund({amount: 500}) } catch (e) { refused = e.kind }
console.log("done")
console.error("warn")
return {r: r.params.n, denied, failed, ok: ok.params.amount, refused}`
	res := enginetest.Run(t, sb, code, engine.WithRecord(&tr), engine.WithScriptName("calls.js"))
	if res.ExitCode != 0 {
		t.Fatalf("exit %d: %s", res.ExitCode, res.Stderr)
	}
	got := roundTrip(t, &tr)
	if got.Language != "js" || got.Code != code || got.Name != "calls.js" {
		t.Errorf("language %q, name %q, code %q", got.Language, got.Name, got.Code)
	}
	if got.Session != "rec-session" || got.Principal != "alice" || got.Labels["team"] != "payments" {
		t.Errorf("session %q, principal %q, labels %v", got.Session, got.Principal, got.Labels)
	}
	if got.PolicyRevision == "" || got.PolicyRevision == "default" || got.PolicyRevision != audits[0].PolicyRevision {
		t.Errorf("policy revision %q, audit's %q", got.PolicyRevision, audits[0].PolicyRevision)
	}
	if got.Limits["timeout"] != engine.DefaultTimeout.String() || got.Limits["max_tool_calls"] != float64(engine.DefaultMaxToolCalls) ||
		got.Limits["memory_mb"] != float64(engine.DefaultMemoryMB) {
		t.Errorf("limits %v", got.Limits)
	}
	if got.Started.IsZero() || time.Since(got.Started) > time.Hour || got.Duration <= 0 || got.Duration != res.Duration {
		t.Errorf("started %v, duration %v (result's %v)", got.Started, got.Duration, res.Duration)
	}
	if got.Output.Stdout != res.Stdout || !strings.HasPrefix(res.Stdout, "done\n") || got.Output.Stderr != "warn\n" || got.Output.ExitCode != 0 || got.Output.Error != "" ||
		string(got.Output.Value) != string(res.Value) || len(res.Value) == 0 {
		t.Errorf("output %+v, result value %s", got.Output, res.Value)
	}
	// The digest is that of the VFS exported whole, before the script ran.
	var buf bytes.Buffer
	if err := sb.ExportTar(context.Background(), &buf, "/"); err != nil {
		t.Fatal(err)
	}
	if sum := sha256.Sum256(buf.Bytes()); got.VFS.Digest != hex.EncodeToString(sum[:]) || got.VFS.Tar != nil {
		t.Errorf("vfs digest %q, want %x (tar of %d bytes kept)", got.VFS.Digest, sum, len(got.VFS.Tar))
	}

	type want struct {
		method, decision, outcome, errKind, errSub, result string
	}
	wants := []want{
		{"files/read", "allow", "", "", "", `"n":1`},
		{"files/delete", "deny", "", "denied", "denied", ""},
		{"net/fetch", "allow", "", "failed", "upstream is down", ""},
		{"orders/refund", "ask", "approved", "", "", `"amount":5`},
		{"orders/refund", "ask", "refused", "denied", "too much", ""},
	}
	if len(got.Calls) != len(wants) {
		t.Fatalf("%d calls recorded, want %d: %+v", len(got.Calls), len(wants), got.Calls)
	}
	decisions := map[string]string{} // decision id -> decision, from the audit
	mu.Lock()
	for _, a := range audits {
		if a.Decision == "allow" || a.Decision == "deny" || a.Decision == "ask" {
			decisions[a.DecisionID] = a.Decision
		}
	}
	mu.Unlock()
	for i, w := range wants {
		c := got.Calls[i]
		if c.ID != i+1 || c.Method != w.method || c.Decision != w.decision || c.Outcome != w.outcome || c.ErrorKind != w.errKind || c.Language != "js" {
			t.Errorf("call %d: %+v, want %+v", i+1, c, w)
		}
		if !strings.Contains(c.Error, w.errSub) || (w.errSub == "") != (c.Error == "") {
			t.Errorf("call %d: error %q, want one with %q", i+1, c.Error, w.errSub)
		}
		if !strings.Contains(string(c.Result), w.result) || (w.result == "") != (len(c.Result) == 0) {
			t.Errorf("call %d: result %s, want one with %s", i+1, c.Result, w.result)
		}
		if len(c.Params) == 0 || decisions[c.DecisionID] != c.Decision {
			t.Errorf("call %d: params %s, decision id %q (audit says %q)", i+1, c.Params, c.DecisionID, decisions[c.DecisionID])
		}
		if string(c.Params) != string(res.ToolCalls[i].Params) {
			t.Errorf("call %d: params %s, the result's record has %s", i+1, c.Params, res.ToolCalls[i].Params)
		}
	}
	if got.Calls[1].Reasons == nil || got.Calls[0].Capability == "" {
		t.Errorf("denied call's reasons %q, allowed call's capability %q", got.Calls[1].Reasons, got.Calls[0].Capability)
	}
	if got.Calls[0].Duration <= 0 {
		t.Errorf("an answered call lasted %v", got.Calls[0].Duration)
	}

	// The VFS the next execution starts from is what this one left: the
	// file the host wrote is in the archive that RecordVFS keeps.
	var tr2 trace.Trace
	enginetest.Run(t, sb, `return 1`, engine.WithRecord(&tr2, engine.RecordVFS()))
	if tr2.VFS.Digest != got.VFS.Digest || len(tr2.VFS.Tar) == 0 {
		t.Fatalf("second digest %q (first %q), tar of %d bytes", tr2.VFS.Digest, got.VFS.Digest, len(tr2.VFS.Tar))
	}
	if sum := sha256.Sum256(tr2.VFS.Tar); hex.EncodeToString(sum[:]) != tr2.VFS.Digest {
		t.Errorf("the kept archive does not have the digest")
	}
	tarNames := map[string]string{}
	rd := tar.NewReader(bytes.NewReader(tr2.VFS.Tar))
	for {
		h, err := rd.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(rd)
		tarNames[h.Name] = string(b)
	}
	if tarNames["workspace/in.txt"] != "hello" {
		t.Errorf("the archive holds %v", tarNames)
	}
}

// The calls of a Promise.all batch are recorded in the order the host
// received them: the order of the batch, whatever order their handlers end
// in.
func TestRecordBatchOrder(t *testing.T) {
	slow := enginetest.Slow("slow/op", 50*time.Millisecond)
	sb := enginetest.NewSandbox(t, engine.SandboxConfig{Tools: []engine.Tool{slow, enginetest.Echo("fast/op")}})
	var tr trace.Trace
	enginetest.Run(t, sb, `await Promise.all([slow.op({i: 1}), fast.op({i: 2}), slow.op({i: 3}), fast.op({i: 4})])`, engine.WithRecord(&tr))
	var order []string
	for _, c := range tr.Calls {
		order = append(order, c.Method+":"+string(c.Params))
	}
	want := []string{`slow/op:{"i":1}`, `fast/op:{"i":2}`, `slow/op:{"i":3}`, `fast/op:{"i":4}`}
	if !slices.Equal(order, want) {
		t.Fatalf("calls %q, want %q", order, want)
	}
	for _, c := range tr.Calls {
		if c.Decision != "allow" || len(c.Result) == 0 || tr.PolicyRevision != "default" {
			t.Errorf("call %+v under policy %q", c, tr.PolicyRevision)
		}
	}
}

// Every wall-clock reading the script takes is in the trace, in order,
// with the monotonic readings, and the random bytes the guest got.
func TestRecordClockAndRandom(t *testing.T) {
	var mu sync.Mutex
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	eng := enginetest.NewEngine(t, enginetest.Config().WithPool(0).WithClock(func() time.Time {
		mu.Lock()
		defer mu.Unlock()
		now = now.Add(time.Millisecond)
		return now
	}))
	sb := enginetest.NewSandboxOf(t, eng, engine.SandboxConfig{})
	var tr trace.Trace
	res := enginetest.Run(t, sb, `const a = Date.now(); const b = new Date().getTime(); const c = Date.now()
const r = [Math.random(), Math.random()]
return [a, b, c, r[0] !== r[1]]`, engine.WithRecord(&tr))
	var out []any
	if err := json.Unmarshal(res.Value, &out); err != nil || len(out) != 4 || out[3] != true {
		t.Fatalf("value %s: %v", res.Value, err)
	}
	if len(tr.Clock) < 3 {
		t.Fatalf("%d wall-clock readings recorded, want at least 3", len(tr.Clock))
	}
	for i := 1; i < len(tr.Clock); i++ {
		if tr.Clock[i] <= tr.Clock[i-1] {
			t.Errorf("clock readings do not increase: %v", tr.Clock)
			break
		}
	}
	// Each time the script read is the millisecond of a reading, in order.
	next := 0
	for _, v := range out[:3] {
		ms := int64(v.(float64))
		for next < len(tr.Clock) && tr.Clock[next]/1e6 != ms {
			next++
		}
		if next == len(tr.Clock) {
			t.Fatalf("the script read %d ms, not among the recorded readings %v in order", ms, tr.Clock)
		}
		next++
	}
	if len(tr.Monotonic) == 0 {
		t.Fatal("no monotonic reading recorded")
	}
	for i := 1; i < len(tr.Monotonic); i++ {
		if tr.Monotonic[i] < tr.Monotonic[i-1] {
			t.Errorf("monotonic readings go back: %v", tr.Monotonic)
			break
		}
	}
	// Math.random is seeded, at its first use in the execution, from
	// random_get: the trace holds that seed, once, however many numbers
	// the script draws.
	if len(tr.Random) != 1 || len(tr.Random[0]) != 32 {
		t.Errorf("the trace holds %d random values (%v), want one seed of 32 bytes", len(tr.Random), tr.Random)
	}

	// Readings taken outside the execution are not recorded: a second
	// execution's trace starts from its own.
	var tr2 trace.Trace
	enginetest.Run(t, sb, `return Date.now()`, engine.WithRecord(&tr2))
	if len(tr2.Clock) == 0 || tr2.Clock[0] <= tr.Clock[len(tr.Clock)-1] {
		t.Errorf("second execution's clock %v after the first's %v", tr2.Clock, tr.Clock)
	}
	// An execution that is not recorded leaves the earlier trace alone.
	n := len(tr2.Clock)
	enginetest.Run(t, sb, `return Date.now()`)
	if len(tr2.Clock) != n {
		t.Errorf("an unrecorded execution changed a trace")
	}
}

func TestRecordShell(t *testing.T) {
	sb := recordSandbox(t, enginetest.Engine(t), nil)
	var tr trace.Trace
	script := `tool files/read --path /a
tool files/delete --path /a || echo "denied $?"
tool net/fetch --url https://x || echo "failed $?"
node -e 'await files.read({path: "/b"})'
echo "random $RANDOM $RANDOM"
date +%s
exit 3`
	res, err := sb.Execute(context.Background(), engine.Shell, script, engine.WithRecord(&tr))
	if err != nil {
		t.Fatal(err)
	}
	got := roundTrip(t, &tr)
	if got.Language != "sh" || got.Output.ExitCode != 3 || res.ExitCode != 3 || got.Output.Stdout != res.Stdout {
		t.Fatalf("language %q, exit %d (%d), stdout %q, stderr %q", got.Language, got.Output.ExitCode, res.ExitCode, got.Output.Stdout, res.Stderr)
	}
	if !strings.Contains(got.Output.Stdout, "random ") || !strings.Contains(got.Output.Stdout, strconv.FormatInt(enginetest.Now.Unix(), 10)) {
		t.Errorf("stdout %q", got.Output.Stdout)
	}
	var methods []string
	for _, c := range got.Calls {
		methods = append(methods, c.Method+" "+c.Decision+" "+c.ErrorKind+" "+c.Language)
	}
	// node -e in the shell makes a JavaScript call.
	if want := []string{"files/read allow  sh", "files/delete deny denied sh", "net/fetch allow failed sh", "files/read allow  js"}; !slices.Equal(methods, want) {
		t.Errorf("calls %q, want %q", methods, want)
	}
	// date read the wall clock: the engine's, fixed at enginetest.Now.
	if !slices.Contains(got.Clock, enginetest.Now.UnixNano()) {
		t.Errorf("clock readings %v do not hold the date", got.Clock)
	}
}

// An execution cut short is recorded with its error kind and the call
// that was left unanswered.
func TestRecordTimeout(t *testing.T) {
	limit := enginetest.Scale(t, 300*time.Millisecond)
	sb := enginetest.NewSandbox(t, engine.SandboxConfig{
		Tools:  []engine.Tool{enginetest.Slow("slow/op", time.Hour)},
		Limits: engine.Limits{Timeout: limit},
	})
	var tr trace.Trace
	_, err := sb.Execute(context.Background(), engine.JavaScript, `console.log("before"); await slow.op({})`, engine.WithRecord(&tr))
	if engine.KindOf(err) != engine.KindTimeout {
		t.Fatalf("err %v", err)
	}
	got := roundTrip(t, &tr)
	if got.Output.Error != "timeout" || got.Output.Stdout != "before\n" || len(got.Calls) != 1 || got.Calls[0].Error == "" || got.Limits["timeout"] != limit.String() {
		t.Errorf("output %+v, calls %+v, limits %v", got.Output, got.Calls, got.Limits)
	}
}

// The limits of a trace are named by the keys of the configuration file.
func TestRecordLimitKeys(t *testing.T) {
	sb := enginetest.NewSandbox(t, engine.SandboxConfig{})
	var tr trace.Trace
	enginetest.Run(t, sb, `1`, engine.WithRecord(&tr))
	var keys []string
	ty := reflect.TypeFor[config.Limits]()
	for i := range ty.NumField() {
		keys = append(keys, strings.Split(ty.Field(i).Tag.Get("json"), ",")[0])
	}
	var got []string
	for k := range tr.Limits {
		got = append(got, k)
	}
	slices.Sort(keys)
	slices.Sort(got)
	if !slices.Equal(keys, got) {
		t.Errorf("trace limits %q, config keys %q", got, keys)
	}
}

// A trace keeps every call's params and result whole, also those that
// Result.ToolCalls elides past Limits.MaxRecordedBytes: a replay needs
// them.
func TestRecordKeepsElidedCalls(t *testing.T) {
	sb := enginetest.NewSandbox(t, engine.SandboxConfig{
		Tools:  []engine.Tool{enginetest.Echo("big/op")},
		Limits: engine.Limits{MaxRecordedBytes: 64},
	})
	var tr trace.Trace
	res := enginetest.Run(t, sb, `await big.op({text: "x".repeat(100)}); await big.op({text: "y".repeat(100)})`, engine.WithRecord(&tr))
	if len(res.ToolCalls) != 2 || !res.ToolCalls[1].Elided {
		t.Fatalf("the result's records were not elided: %+v", res.ToolCalls)
	}
	for i, c := range tr.Calls {
		text := strings.Repeat(string(rune('x'+i)), 100)
		if !strings.Contains(string(c.Params), text) || !strings.Contains(string(c.Result), text) {
			t.Errorf("call %d: params %d bytes, result %d bytes", c.ID, len(c.Params), len(c.Result))
		}
	}
}

// An execution canceled before its script started is recorded too, with
// the kind of its end.
func TestRecordCanceledBeforeStart(t *testing.T) {
	sb := enginetest.NewSandbox(t, engine.SandboxConfig{})
	var tr trace.Trace
	x, err := sb.Start(context.Background(), engine.JavaScript, `return 1`, engine.WithRecord(&tr))
	if err != nil {
		t.Fatal(err)
	}
	if err := x.Cancel(context.Background()); engine.KindOf(err) != engine.KindCanceled {
		t.Fatalf("Cancel: %v", err)
	}
	got := roundTrip(t, &tr)
	if got.Output.Error != "canceled" || got.Output.ExitCode != 1 || len(got.Calls) != 0 || got.Code != "return 1" {
		t.Errorf("trace %+v", got)
	}
}
