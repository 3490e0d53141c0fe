package engine

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sort"
	"sync"
	"time"

	"github.com/cordonhq/cordon/internal/abi"
	"github.com/cordonhq/cordon/internal/canon"
	"github.com/cordonhq/cordon/trace"
)

// This file replays recorded executions (package trace): Replay runs a
// trace's script again in a new sandbox, with a player attached to the
// execution. The player answers each tool call from the trace, after
// checking that it is the recorded call (accept calls player.answer),
// gives the script its answers in the recorded groups and order (next
// calls player.resume), and gives the guest the recorded clock readings
// and random values (the execution's recorder asks it).

// ErrDivergence is matched (errors.Is) by a *DivergenceError.
var ErrDivergence = errors.New("engine: replay diverged from its trace")

// ErrReplay is returned (wrapped) when a trace cannot be replayed at all:
// it is invalid, or the sandbox's file system is not the one it started
// from.
var ErrReplay = errors.New("engine: cannot replay the trace")

// DivergenceError says where a replayed script left its trace: a call that
// differs from the recorded one in method, canonical params or order, a
// call the trace does not hold, or a call the trace holds that the script
// did not make.
type DivergenceError struct {
	// Call numbers the call at which the replay diverged, from 1, in the
	// order the host received the calls.
	Call int
	// Recorded is the call the trace holds at that point; nil when the
	// trace holds no more calls.
	Recorded *trace.Call
	// Method and Params are the call the script made (Params in canonical
	// form); Method is "" when the script made no call where the trace
	// holds one.
	Method string
	Params json.RawMessage
	// Reason says what differs.
	Reason string
}

// Error shows both calls.
func (e *DivergenceError) Error() string {
	got := "no call"
	if e.Method != "" {
		got = e.Method + " " + excerptJSON(e.Params)
	}
	want := "no call"
	if e.Recorded != nil {
		p := e.Recorded.Sent
		if len(p) == 0 {
			p = e.Recorded.Params
		}
		want = e.Recorded.Method + " " + excerptJSON(p)
	}
	return fmt.Sprintf("engine: replay diverged at call %d: %s\n  the script: %s\n  the trace:  %s", e.Call, e.Reason, got, want)
}

// Is makes a DivergenceError match ErrDivergence.
func (e *DivergenceError) Is(target error) bool { return target == ErrDivergence }

// excerptJSON returns params for a message, cut to a few hundred bytes.
func excerptJSON(p json.RawMessage) string {
	const max = 400
	if len(p) == 0 {
		return "(no params)"
	}
	if len(p) > max {
		return string(p[:max]) + "…"
	}
	return string(p)
}

// ReplayConfig configures [Engine.Replay].
type ReplayConfig struct {
	// Sandbox configures the sandbox the replay runs in. The replay
	// registers the tools the trace holds ([trace.Trace.Tools]), as the
	// script saw them; a tool of Sandbox.Tools with the same name gives
	// its Handler, Prepare and Policy, which only run once the replay has
	// gone live (ContinueLive). Zero limits are the trace's, and empty
	// Labels and Principal the trace's too. Policy decides the calls made
	// after the replay went live; the replayed calls are not decided
	// again (see package whatif for that).
	Sandbox SandboxConfig
	// ContinueLive lets a replay that diverges go on: the diverging call
	// and every later one are decided by Sandbox.Policy and run by the
	// tools' handlers, and ReplayResult.Diverged says where. Without it a
	// divergence stops the script, and Replay returns the
	// *DivergenceError.
	ContinueLive bool
}

// ReplayResult is what a replay produced.
type ReplayResult struct {
	// Result and Err are the replayed execution's, as Execute returns
	// them.
	Result *Result
	Err    error
	// Trace is the replay's own recording.
	Trace *trace.Trace
	// Diverged says where a replay with ContinueLive went live; nil when
	// it followed its trace to the end.
	Diverged *DivergenceError
	// Differences names what of the output differs from the recorded
	// output: "stdout", "stderr", "value", "exit code", "error"; empty
	// when the replay reproduced it byte for byte.
	Differences []string
	// MissedRandom counts the random values the script asked for that the
	// trace did not hold (they came from the real source).
	MissedRandom int
}

// Identical reports whether the replay produced the recorded stdout,
// stderr, value, exit code and error kind.
func (r *ReplayResult) Identical() bool { return len(r.Differences) == 0 }

// Replay runs the execution that t records again, in a new sandbox: the
// script gets the trace's tool answers (no handler runs and no policy
// decides), in the recorded groups and order, and the guest the trace's
// clock readings and random values, so that the replay produces the
// recorded stdout, stderr, value and exit code; ReplayResult.Differences
// says when it did not. The file system starts from the trace's archive
// ([RecordVFS]), or from Sandbox.Snapshot or what opts leave when the trace
// holds only its digest; either way it must have the recorded digest, or
// Replay fails with ErrReplay.
//
// Each call of the script is checked against the trace before it is
// answered: its method and canonical params (the params the script sent,
// before a tool's Prepare) must be those of the recorded call at the same
// place in the order. A call that differs, a call beyond the trace, a
// recorded call the script does not make, or a point where the trace
// answers a call the script has not made, is a divergence: the script is
// stopped and Replay returns a *DivergenceError (matching ErrDivergence)
// that shows both calls, with the ReplayResult of what ran; with
// ContinueLive the script goes on against the live tools instead.
//
// Clock readings and random values beyond those the trace holds come from
// the real sources (the clock keeps its recorded offset). Timers
// (setTimeout, sleep) wait for real time.
func (e *Engine) Replay(ctx context.Context, t *trace.Trace, cfg ReplayConfig, opts ...ExecuteOption) (*ReplayResult, error) {
	if t == nil {
		return nil, fmt.Errorf("%w: no trace", ErrReplay)
	}
	if err := t.Check(); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrReplay, err)
	}
	for _, c := range t.Calls {
		if k := abi.ToolErrorKind(c.ErrorKind); k != "" && !k.Valid() {
			return nil, fmt.Errorf("%w: call %d has error_kind %q, which the host never sends", ErrReplay, c.ID, c.ErrorKind)
		}
	}
	sc := cfg.Sandbox
	sc.Tools = replayTools(t, sc.Tools)
	if sc.Limits == (Limits{}) {
		sc.Limits = limitsOfKeys(t.Limits)
	}
	if sc.Labels == nil {
		sc.Labels = t.Labels
	}
	if sc.Principal == "" {
		sc.Principal = t.Principal
	}
	sb, err := e.NewSandbox(ctx, sc)
	if err != nil {
		return nil, err
	}
	defer sb.Close(context.WithoutCancel(ctx))
	if len(t.VFS.Tar) > 0 {
		files, err := readArchive(t.VFS.Tar, sb.limits, "replay: the trace's file system", ErrReplay)
		if err != nil {
			return nil, err
		}
		if err := sb.putExact(ctx, files); err != nil {
			return nil, fmt.Errorf("%w: the trace's file system: %w", ErrReplay, err)
		}
	}
	p := newPlayer(t, cfg.ContinueLive)
	var rt trace.Trace
	all := []ExecuteOption{}
	if t.Name != "" {
		all = append(all, WithScriptName(t.Name))
	}
	all = append(all, opts...)
	all = append(all, WithRecord(&rt), func(o *execOptions) { o.play = p })
	res, execErr := sb.Execute(ctx, Language(t.Language), t.Code, all...)
	if errors.Is(execErr, ErrReplay) {
		return nil, execErr
	}
	out := &ReplayResult{Result: res, Err: execErr, Trace: &rt}
	p.mu.Lock()
	out.MissedRandom = p.missedRandom
	p.mu.Unlock()
	d := p.end(len(rt.Calls))
	if d != nil && !cfg.ContinueLive {
		out.Err = nil
		out.Differences = differences(t, res, nil)
		return out, d
	}
	out.Diverged = d
	out.Differences = differences(t, res, execErr)
	return out, nil
}

// differences names what of res (and the execution's error) differs from
// the output t recorded; a nil err with checkErr unset skips the error.
func differences(t *trace.Trace, res *Result, err error) []string {
	var d []string
	if res == nil {
		res = &Result{}
	}
	if res.Stdout != t.Output.Stdout {
		d = append(d, "stdout")
	}
	if res.Stderr != t.Output.Stderr {
		d = append(d, "stderr")
	}
	if !bytes.Equal(res.Value, t.Output.Value) {
		d = append(d, "value")
	}
	if res.ExitCode != t.Output.ExitCode {
		d = append(d, "exit code")
	}
	if string(KindOf(err)) != t.Output.Error {
		d = append(d, "error")
	}
	return d
}

// replayTools returns the tools a replay registers: the trace's, as the
// script saw them, with the handler, Prepare and Policy of the live tool
// of the same name. A trace that holds no tools gets the live tools, and a
// tool without a handler for each method it called that they lack.
func replayTools(t *trace.Trace, live []Tool) []Tool {
	byName := map[string]Tool{}
	for _, tl := range live {
		byName[tl.Name] = tl
	}
	if len(t.Tools) == 0 {
		out := slices.Clone(live)
		for _, c := range t.Calls {
			if _, ok := byName[c.Method]; ok || c.ErrorKind == string(abi.ToolUnknown) {
				continue
			}
			byName[c.Method] = Tool{Name: c.Method}
			out = append(out, Tool{Name: c.Method})
		}
		return out
	}
	out := make([]Tool, 0, len(t.Tools))
	for _, rt := range t.Tools {
		tl := byName[rt.Name]
		tl.Name, tl.Description, tl.InputSchema, tl.OutputSchema = rt.Name, rt.Description, rt.InputSchema, rt.OutputSchema
		tl.Fetch, tl.Labels = rt.Fetch, rt.Labels
		out = append(out, tl)
	}
	return out
}

// limitsOfKeys is the inverse of limitsByKey: the limits a trace holds by
// their configuration keys (numbers read from JSON as float64). Keys it
// does not hold are zero, which NewSandbox takes as the defaults.
func limitsOfKeys(m map[string]any) Limits {
	num := func(k string) int64 {
		switch v := m[k].(type) {
		case float64:
			if v > 0 && v < 1<<53 {
				return int64(v)
			}
		case int:
			return int64(max(v, 0))
		case int64:
			return max(v, 0)
		}
		return 0
	}
	var l Limits
	if s, ok := m["timeout"].(string); ok {
		if d, err := time.ParseDuration(s); err == nil && d > 0 {
			l.Timeout = d
		}
	}
	l.MaxOutputBytes = int(num("max_output_bytes"))
	l.VFSBytes = num("vfs_bytes")
	l.VFSFiles = int(num("vfs_files"))
	l.MaxCallDepth = int(num("max_call_depth"))
	l.MaxToolCalls = int(num("max_tool_calls"))
	l.MaxParamBytes = int(num("max_param_bytes"))
	l.MaxResultBytes = int(num("max_result_bytes"))
	l.MaxConcurrentCalls = int(num("max_concurrent_calls"))
	l.MaxRecordedBytes = int(num("max_recorded_bytes"))
	return l
}

// player plays a trace back to one execution. The clock and random fields
// are read by the guest's WASI functions, under mu; the call fields by
// accept and next, under the execution's mu.
type player struct {
	t        *trace.Trace
	live     bool         // ContinueLive
	answered map[int]bool // the trace's calls that got an answer

	mu           sync.Mutex
	clock, mono  playedClock
	rnd          int // the next recorded random value
	missedRandom int

	next     int                    // index in t.Calls of the next call to match
	held     map[int]abi.CallResult // by trace id: answers matched, not yet given
	group    int                    // the next of t.Answers
	diverged *DivergenceError
	goneLive bool // diverged under ContinueLive: calls go to the tools
}

func newPlayer(t *trace.Trace, live bool) *player {
	p := &player{t: t, live: live, answered: map[int]bool{}, held: map[int]abi.CallResult{},
		clock: playedClock{readings: t.Clock}, mono: playedClock{readings: t.Monotonic}}
	for _, g := range t.Answers {
		for _, id := range g {
			p.answered[id] = true
		}
	}
	return p
}

// start checks, when the execution starts, that its file system is the
// one the trace started from (the recorder took its digest).
func (p *player) start(rec *recorder) error {
	if p == nil {
		return nil
	}
	if want := p.t.VFS.Digest; want != "" && rec.vfs.Digest != want {
		return fmt.Errorf("%w: the sandbox's file system (sha256 %s) is not the one the trace started from (sha256 %s)", ErrReplay, short(rec.vfs.Digest), short(want))
	}
	return nil
}

func short(digest string) string {
	if len(digest) > 12 {
		return digest[:12] + "…"
	}
	return digest
}

// Clock gives the guest the next recorded wall-clock reading, or, past
// the last one, the real clock at the last one's offset.
func (p *player) Clock(ns int64) int64 {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.clock.next(ns)
}

// Monotonic is Clock for the monotonic clock.
func (p *player) Monotonic(ns int64) int64 {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.mono.next(ns)
}

// playedClock plays one clock's recorded readings back.
type playedClock struct {
	readings []int64
	n        int   // the readings given
	off      int64 // recorded minus real, at the last recorded reading
}

// next returns the next recorded reading, or, past the last one, ns (the
// real reading) at the last one's offset.
func (c *playedClock) next(ns int64) int64 {
	if c.n < len(c.readings) {
		v := c.readings[c.n]
		c.n++
		c.off = v - ns
		return v
	}
	return ns + c.off
}

// Random fills b with the next recorded random value, when it has b's
// length; otherwise b keeps the real source's bytes.
func (p *player) Random(b []byte) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.rnd < len(p.t.Random) && len(p.t.Random[p.rnd]) == len(b) {
		copy(b, p.t.Random[p.rnd])
	} else {
		p.missedRandom++
	}
	p.rnd++
}

// answer matches the call ac, recorded as rec, with the trace's next call,
// and holds the recorded answer for the point where the trace gives it.
// It reports whether the call is taken care of: answered from the trace,
// or refused because the replay diverged and stops. The caller holds
// x.mu. A nil player answers nothing.
func (p *player) answer(x *Execution, ac abi.Call, rec *ToolCall) bool {
	if p == nil || p.goneLive {
		return false
	}
	if p.diverged != nil {
		return true // stopping: the script gets no more answers
	}
	got, err := canon.Params(ac.Params)
	if err != nil {
		got = nil
	}
	if p.next >= len(p.t.Calls) {
		return p.diverge(x, &DivergenceError{Call: rec.ID, Method: ac.Method, Params: got,
			Reason: fmt.Sprintf("the trace holds %d calls; the script made one more", len(p.t.Calls))})
	}
	want := &p.t.Calls[p.next]
	wantParams := want.Sent
	if len(wantParams) == 0 {
		wantParams = want.Params
	}
	if c, err := canon.Params(wantParams); err == nil {
		wantParams = c
	}
	switch {
	case ac.Method != want.Method:
		return p.diverge(x, &DivergenceError{Call: rec.ID, Recorded: want, Method: ac.Method, Params: got, Reason: "another method"})
	case !bytes.Equal(got, wantParams):
		return p.diverge(x, &DivergenceError{Call: rec.ID, Recorded: want, Method: ac.Method, Params: got, Reason: "other params"})
	}
	p.next++
	rec.Params, rec.Capability, rec.Reasons = want.Params, want.Capability, want.Reasons
	rec.Allowed = want.Decision == "allow" || want.Outcome == "approved"
	if !p.answered[want.ID] {
		return true // the recorded execution ended before it was answered
	}
	res := abi.CallResult{ID: ac.ID}
	if want.ErrorKind == "" {
		res.OK, res.Value = true, want.Result
		if len(res.Value) == 0 {
			res.Value = json.RawMessage("null")
		}
		rec.Result = res.Value
	} else {
		res.ErrKind, res.ErrMsg, res.Reasons = abi.ToolErrorKind(want.ErrorKind), want.Error, want.ErrorReasons
		rec.Error = want.Error
	}
	x.rec.answered(rec, res)
	x.settleRecord(rec)
	p.held[want.ID] = res
	return true
}

// diverge records the divergence d. Under ContinueLive the replay goes
// live, and the call is left to the tools (false); otherwise the execution
// stops (true). The caller holds x.mu.
func (p *player) diverge(x *Execution, d *DivergenceError) bool {
	p.diverged = d
	if p.live {
		p.goneLive = true
		return false
	}
	if x.limitStop == "" {
		x.limitStop = KindCanceled
	}
	return true
}

// resume returns the answers the script is resumed with, given those the
// host made itself (live) and the number of calls still pending. In a
// replay that follows its trace, they are the trace's next group; once
// it has gone live, every held answer and then the live ones. The caller
// holds x.mu. A nil player returns live.
func (p *player) resume(x *Execution, live []abi.CallResult, pending int) []abi.CallResult {
	if p == nil {
		return live
	}
	if p.diverged != nil && !p.goneLive {
		return nil // stopping
	}
	if p.goneLive {
		ids := make([]int, 0, len(p.held))
		for id := range p.held {
			ids = append(ids, id)
		}
		sort.Ints(ids)
		out := make([]abi.CallResult, 0, len(ids)+len(live))
		for _, id := range ids {
			out = append(out, p.held[id])
			delete(p.held, id)
		}
		return append(out, live...)
	}
	if pending > 0 || len(live) > 0 {
		return live
	}
	if p.group >= len(p.t.Answers) {
		// The script waits for answers the recording never gave: the
		// recorded execution ended here, stopped from outside.
		if p.t.Output.Error != "" {
			if x.limitStop == "" {
				x.limitStop = Kind(p.t.Output.Error)
			}
			return nil
		}
		p.diverge(x, &DivergenceError{Call: len(x.records), Reason: "the script waits for an answer the trace never gave"})
		return p.resume(x, live, pending)
	}
	group := p.t.Answers[p.group]
	for _, id := range group {
		if _, ok := p.held[id]; !ok {
			d := &DivergenceError{Call: id, Recorded: &p.t.Calls[id-1],
				Reason: fmt.Sprintf("the trace answers call %d at this point, and the script has not made it", id)}
			p.diverge(x, d)
			return p.resume(x, live, pending)
		}
	}
	p.group++
	out := make([]abi.CallResult, 0, len(group))
	for _, id := range group {
		out = append(out, p.held[id])
		delete(p.held, id)
	}
	return out
}

// end returns the divergence of the replay, if any, once its execution
// has ended after made calls: a recorded call the script did not make is
// one too.
func (p *player) end(made int) *DivergenceError {
	if p.diverged != nil {
		return p.diverged
	}
	if !p.goneLive && p.next < len(p.t.Calls) {
		return &DivergenceError{Call: made + 1, Recorded: &p.t.Calls[p.next],
			Reason: fmt.Sprintf("the script ended after %d of the trace's %d calls", p.next, len(p.t.Calls))}
	}
	return nil
}
