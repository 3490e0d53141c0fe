package engine

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/cordonhq/cordon/counters"
	"github.com/cordonhq/cordon/internal/abi"
	"github.com/cordonhq/cordon/internal/canon"
	"github.com/cordonhq/cordon/trace"
)

// Result is what an execution produced.
type Result struct {
	Stdout   string
	Stderr   string
	ExitCode int
	// Value is the JSON of the value the script returned, or nil when it
	// returned nothing (or something JSON cannot represent).
	Value json.RawMessage
	// Exception is "TypeError: message" when an uncaught error ended the
	// script (ExitCode is then 1 and Stderr has the details).
	Exception string
	// ToolCalls lists every tool call the script made, allowed or not, in
	// the order the script made them.
	ToolCalls []ToolCall
	// OutputTruncated is set when stdout or stderr hit MaxOutputBytes.
	OutputTruncated bool
	Duration        time.Duration
}

// ToolCall is the record of one tool call.
type ToolCall struct {
	ID     int
	Method string
	// Params is the call's params in the canonical form the policy
	// decided on and the handler received (see Handler). It is nil when
	// the params were refused before any decision: too large, or not
	// representable in canonical form (Error then says why).
	Params  json.RawMessage
	Allowed bool
	Reasons []string
	// Capability names the capability the call was charged to, if any.
	Capability string
	// Result is the JSON result of a call that succeeded.
	Result json.RawMessage
	// Error is the message the script saw when the call failed or was denied.
	Error string
	// Cause is the whole error of a call that failed (the handler's, or
	// the one given to [Call.Reject]), for the host only: the script saw
	// Error, which for an error that is not a *ToolError does not carry
	// its text (see ToolError).
	Cause    error `json:"-"`
	Duration time.Duration
	// ParamsSize and ResultSize are the sizes of Params and Result in
	// bytes, also when they were elided.
	ParamsSize, ResultSize int
	// Elided is true when Params and Result were dropped from this record
	// because the execution's records had reached [Limits.MaxRecordedBytes];
	// the sizes stay. The audit log (WithLogger) still has an excerpt and
	// the SHA-256 of the params.
	Elided bool
}

// Execute runs code in the sandbox and returns its result. Tool calls are
// checked and run by their handlers, the calls of one batch concurrently;
// each handler's context carries the call's CallInfo (CallFrom).
//
// The returned error is nil when the script ran to its end, even if it threw
// (see [Result.ExitCode] and [Result.Exception]). It is an *Error when the
// sandbox cut the execution short (KindTimeout, KindCanceled, KindMemory,
// KindCrash, KindClosed); the Result is then still returned, with the output
// produced before the end.
//
// The Result is never nil. When the script could not start at all (ctx
// ended while waiting for the sandbox, which is KindCanceled; the sandbox
// is closed or broken, KindClosed; the language is unknown, KindInvalid),
// it is empty, with ExitCode 1.
//
// A sandbox runs one execution at a time, and Execute waits for its turn
// for as long as ctx allows. [Limits.Timeout] counts from when the script
// starts, not from when Execute was called: a caller that waited behind
// others still gets the whole limit. Reaching it is always KindTimeout.
//
// Options (WithScriptName, WithStdout, WithStderr, WithRecord) apply to
// this execution only.
func (sb *Sandbox) Execute(ctx context.Context, lang Language, code string, opts ...ExecuteOption) (*Result, error) {
	x, err := sb.Start(ctx, lang, code, opts...)
	if err != nil {
		return &Result{ExitCode: 1}, err
	}
	x.deadline = time.Now().Add(sb.limits.Timeout)
	ctx, cancel := context.WithDeadlineCause(ctx, x.deadline, errTimeoutCause)
	defer cancel()
	calls, err := x.Next(ctx)
	if err != nil || calls == nil {
		return x.resultOrEmpty(), err
	}
	// The script waits on tool calls. A controller goroutine answers them
	// and resumes the script until it ends, while this one watches the
	// deadline: a handler that ignores its context must not hold the
	// script past its limit.
	served := make(chan struct{})
	go func() {
		defer close(served)
		x.serve(ctx, calls)
	}()
	select {
	case <-served:
	case <-ctx.Done():
	case <-sb.conn.done: // closed (or crashed) while a handler runs
	}
	x.drive.Lock()
	defer x.drive.Unlock()
	if !x.done {
		// Handlers were still running at the deadline, or when the
		// sandbox closed: end the script now; late answers are dropped.
		kind := KindCanceled
		if errors.Is(context.Cause(ctx), errTimeoutCause) {
			kind = KindTimeout
		}
		x.requestForceStop(kind)
		_, _ = x.next(context.WithoutCancel(ctx))
	}
	return x.resultOrEmpty(), x.Err()
}

// resultOrEmpty is Result, never nil: Execute's contract.
func (x *Execution) resultOrEmpty() *Result {
	if r := x.Result(); r != nil {
		return r
	}
	return &Result{ExitCode: 1, Duration: time.Since(x.start)}
}

// serve answers calls with their tools' handlers, resumes the script, and
// repeats until the script ends or ctx does. It holds x.drive while the
// script runs, not while handlers do. A batch of one call is answered on
// this goroutine, so that a script awaiting its calls one by one switches
// only between this goroutine and its guest, with no goroutine to start or
// wake per call; the calls of a larger batch run concurrently.
func (x *Execution) serve(ctx context.Context, calls []*Call) {
	handle := func(c *Call) {
		ctx := withCall(ctx, c) // CallFrom, for the approver and the handler
		if c.Ask && !x.sb.approve(ctx, c) {
			return
		}
		c.run(ctx)
	}
	for {
		// Past the deadline, or once the sandbox is closing, the caller
		// takes the script over: no handler starts then.
		if ctx.Err() != nil || x.sb.conn.closing.Load() {
			return
		}
		if len(calls) == 1 {
			handle(calls[0])
		} else {
			// A buffered channel, so that a late handler never blocks.
			// At most MaxConcurrentCalls handlers run at once; the rest
			// wait, in order, for a slot, and none starts past the
			// deadline.
			handled := make(chan struct{}, len(calls))
			slots := make(chan struct{}, x.sb.limits.MaxConcurrentCalls)
			started := 0
		batch:
			for _, c := range calls {
				select {
				case slots <- struct{}{}:
				case <-ctx.Done():
					break batch
				}
				started++
				go func() {
					defer func() { <-slots; handled <- struct{}{} }()
					handle(c)
				}()
			}
			for range started {
				select {
				case <-handled:
				case <-ctx.Done():
					return
				}
			}
			if ctx.Err() != nil {
				return
			}
		}
		x.drive.Lock()
		var err error
		if !x.done && ctx.Err() == nil {
			calls, err = x.next(ctx)
		}
		done := x.done
		x.drive.Unlock()
		if err != nil || done || calls == nil {
			return
		}
	}
}

var errTimeoutCause = errors.New("execution time limit reached")

// Execution is a script run that the caller drives: Next runs the script
// until it waits on tool calls and returns them; the caller answers each
// (Resolve, Reject, or Run to use the tool's handler) and calls Next again.
// A call may be left unanswered across Next calls; the script goes on as
// long as something it waits for was answered. Between calls to Next the
// guest is paused and costs no CPU, so a host can wait for a human.
//
// The time limit counts the time the script runs, not the time it sits
// paused between Next calls; bound that with the context given to Next.
//
// Every method may be called from any goroutine (ARCHITECTURE.md,
// "Concurrency"). Next and Cancel drive the script, one at a time: a call
// that comes while another drives it waits until the guest is back (Next
// holds the execution while the script runs and while the policy decides
// the calls it made, never while the caller answers them). Cancel does not
// wait for the script: it stops it first, as a time limit does, so a
// Cancel from another goroutine ends a Next that is running the script.
// Pending, Result and Err only read, and return at once, except while the
// policy decides, which they wait for. A program normally calls Next from
// one goroutine, answers calls from any, and cancels from any.
type Execution struct {
	// Set by Start, then read-only.
	sb    *Sandbox
	lang  Language
	code  string
	name  string // the script's name (WithScriptName)
	start time.Time
	out   *output
	rec   *recorder // WithRecord's, or nil
	play  *player   // the replay's (Engine.Replay), or nil
	// counterKey names the execution's call counters in the sandbox's
	// counter store.
	counterKey string
	// deadline is when Execute's time limit (script and handlers) ends;
	// zero under the step API. Execute sets it before its first Next.
	deadline time.Time

	// drive is held by the goroutine that runs the script (Next, Cancel,
	// Execute's controller) while the guest runs and the policy decides;
	// it guards the fields below it. Lock order: drive, then conn.own
	// (while the guest runs), then mu.
	drive   sync.Mutex
	budget  time.Duration // the script's time left ([Limits.Timeout])
	started bool          // the script was sent to the guest

	mu sync.Mutex
	// forceStop, set by Cancel (and by Execute at its deadline), ends the
	// execution: the running turn is stopped (interrupt) and the next
	// resume tells the guest to stop.
	forceStop Kind
	interrupt func(Kind) // stops the turn in progress; nil between turns
	// done is set when the execution ends (under drive and mu, so either
	// lock reads it): no answer counts after it. result and err are set
	// when finish is complete.
	done    bool
	result  *Result
	err     error
	pending map[uint32]*Call // allowed, unanswered
	order   []uint32         // pending ids in arrival order
	answers []abi.CallResult // answered since the guest last ran
	records []*ToolCall
	// kept is how many bytes of params and results the settled records
	// keep ([Limits.MaxRecordedBytes]); settled holds the records counted.
	kept    int
	settled map[*ToolCall]bool
	seen    map[uint32]bool
	// limitStop is the limit that stopped the script (KindOutput,
	// KindToolCalls), set from the guest's goroutine.
	limitStop Kind
}

// Call is a tool call waiting for an answer.
//
// A call is answered once: by Resolve, Reject, Deny, or Run (which answers
// with what the handler returns). The first answer counts; a later one,
// or one after the execution has ended, is dropped (Resolve returns an
// error then, and Run does not run the handler). The methods may be called
// from any goroutine, for the same call at once too, and the exported
// fields never change, so reading them needs no lock. Answering does not
// wait for the script: the answers are handed to it at the next Next.
type Call struct {
	// Method is the tool name; Params the JSON object the script passed,
	// in the canonical form the policy decided on (see Handler).
	Method string
	Params json.RawMessage
	// Ask is set when the policy asks for approval before the call runs;
	// Reasons then says why. Approve with Run or Resolve, refuse with Deny.
	Ask     bool
	Reasons []string

	// Set by accept, then read-only.
	x       *Execution
	id      uint32
	rec     *ToolCall // written under x.mu
	started time.Time
	// For an ask: the charge it reserved, the policy's revision and the
	// call's language, for the audit record of its answer.
	capability int
	revision   string
	lang       string
	decisionID string

	// Guarded by x.mu.
	answered bool
	settled  bool // the ask was approved or refused (settleAsk)
	refused  bool // it was refused
}

// supportedLanguages lists the languages a sandbox runs, for an error
// message: "js, sh".
func supportedLanguages() string {
	var names []string
	for _, l := range abi.Langs() {
		names = append(names, string(l))
	}
	return strings.Join(names, ", ")
}

// Start begins an execution that the caller drives with Next. It holds the
// sandbox until the execution ends; call Cancel to abandon it. Options
// apply as for Execute.
func (sb *Sandbox) Start(ctx context.Context, lang Language, code string, opts ...ExecuteOption) (*Execution, error) {
	if !abi.Lang(lang).Valid() {
		return nil, errorf(KindInvalid, "unsupported language %q (supported: %s)", lang, supportedLanguages())
	}
	eo, err := sb.execOptionsOf(lang, opts)
	if err != nil {
		return nil, err
	}
	sb.runs.Add(1) // the sandbox is not idle: a recycle armed before waits
	if err := sb.acquire(ctx); err != nil {
		return nil, err
	}
	var rec *recorder
	if eo.play != nil && eo.record == nil {
		// A replay records itself: its recorder plays the clocks and
		// the random values back.
		eo.record = &trace.Trace{}
	}
	if eo.record != nil {
		if rec, err = sb.newRecorder(lang, eo.recordOpts, eo.record); err != nil {
			sb.release()
			return nil, err
		}
		rec.play = eo.play
	}
	if err := eo.play.start(rec); err != nil {
		sb.release()
		return nil, err
	}
	x := &Execution{
		sb:      sb,
		lang:    lang,
		code:    code,
		start:   time.Now(),
		name:    eo.name,
		out:     newOutput(sb.limits.MaxOutputBytes, newStreamer(eo.stdout, eo.stderr)),
		budget:  sb.limits.Timeout,
		pending: map[uint32]*Call{},
		seen:    map[uint32]bool{},
		rec:     rec,
		play:    eo.play,
	}
	rec.attach(sb.conn)
	x.counterKey = sb.key
	if sb.scope == counters.PerExecution {
		x.counterKey = counters.Key(counters.PerExecution, sb.id+"/"+randomID())
	}
	x.out.onOverflow = func() { x.stopWith(KindOutput) }
	sb.conn.setOutput(x.out)
	return x, nil
}

// stopWith ends the execution because a limit was reached: the guest is
// asked to stop now, and Next reports an error of kind k.
func (x *Execution) stopWith(k Kind) {
	x.mu.Lock()
	if x.limitStop == "" {
		x.limitStop = k
	}
	x.mu.Unlock()
	x.sb.conn.requestStop()
}

// stopKind returns the stop requested by Cancel or a limit, if any.
func (x *Execution) stopKind() Kind {
	x.mu.Lock()
	defer x.mu.Unlock()
	if x.forceStop != "" {
		return x.forceStop
	}
	return x.limitStop
}

// requestForceStop asks the execution to end with an error of kind k (the
// first such request counts): the turn in progress, if any, is stopped now,
// and the next resume tells the guest to stop. It returns false when the
// execution has already ended.
func (x *Execution) requestForceStop(k Kind) bool {
	x.mu.Lock()
	if x.done {
		x.mu.Unlock()
		return false
	}
	if x.forceStop == "" {
		x.forceStop = k
	}
	stop := x.interrupt
	x.mu.Unlock()
	if stop != nil {
		stop(k) // a no-op once that turn is back
	}
	return true
}

// Next resumes the script with the answers given since the last Next and
// returns the tool calls it waits on, or nil when it has finished (then see
// Result). If nothing was answered, Next returns the calls still pending
// without resuming the script. The error is the execution's error, as for
// Execute.
//
// Next may be called from any goroutine; calls made at once run one after
// the other, and one that finds nothing new answered returns the calls
// still pending. Once the execution has ended, Next returns nil and its
// error.
func (x *Execution) Next(ctx context.Context) ([]*Call, error) {
	x.drive.Lock()
	defer x.drive.Unlock()
	return x.next(ctx)
}

// next is Next; the caller holds x.drive.
func (x *Execution) next(ctx context.Context) ([]*Call, error) {
	if x.done {
		return nil, x.err
	}
	var msg []byte
	if !x.started {
		x.started = true
		msg = abi.EncodeRequest(nil, &abi.Request{Op: abi.OpExec, Exec: &abi.Exec{Lang: abi.Lang(x.lang), Name: x.name, Code: x.code}})
	} else if x.stopKind() != "" {
		msg = abi.EncodeResume(nil, &abi.Resume{Stop: true})
	} else {
		x.mu.Lock()
		answers := x.play.resume(x, x.answers, len(x.pending))
		x.answers = nil
		x.mu.Unlock()
		switch {
		case x.stopKind() != "": // a replay that diverged
			msg = abi.EncodeResume(nil, &abi.Resume{Stop: true})
		case len(answers) == 0:
			return x.Pending(), nil
		default:
			x.rec.resumed(answers)
			msg = abi.EncodeResume(nil, &abi.Resume{Results: answers})
		}
		if x.budget <= 0 {
			// The time limit ran out while the host worked (the policy,
			// an approver): the guest does not run again.
			x.mu.Lock()
			if x.limitStop == "" {
				x.limitStop = KindTimeout
			}
			x.mu.Unlock()
			msg = abi.EncodeResume(nil, &abi.Resume{Stop: true})
		}
	}
	for {
		ev, stopKind, err := x.turn(ctx, msg)
		if stopKind == "" {
			stopKind = x.stopKind()
		}
		if err != nil && stopKind != "" && KindOf(err) == KindCrash {
			// The guest ignored the stop and was killed.
			err = &Error{Kind: stopKind, Message: x.stopError(stopKind).(*Error).Message + fmt.Sprintf("; the guest did not stop within %v and was killed, so the sandbox is broken", stopGrace)}
		}
		if err != nil {
			return nil, x.finish(nil, err)
		}
		switch ev.kind {
		case evResponse:
			resp, err := abi.DecodeResponse(ev.data)
			if err != nil {
				return nil, x.finish(nil, x.sb.protocolError(err.Error()))
			}
			if stopKind == "" {
				// The script finished, but perhaps only after its time
				// ran out, before the stop request reached it: the result
				// must not depend on that race.
				stopKind = x.expired(ctx)
			}
			return nil, x.finish(resp, x.stopError(stopKind))
		case evYield:
			calls, err := abi.DecodeCalls(ev.data)
			if err != nil {
				return nil, x.finish(nil, x.sb.protocolError(err.Error()))
			}
			if stopKind != "" {
				// Stopping: tell the guest to end instead of answering.
				msg = abi.EncodeResume(nil, &abi.Resume{Stop: true})
				continue
			}
			if err := x.accept(ctx, calls); err != nil {
				return nil, x.finish(nil, err)
			}
			if x.stopKind() != "" {
				msg = abi.EncodeResume(nil, &abi.Resume{Stop: true})
				continue
			}
			x.mu.Lock()
			npending, answers := len(x.pending), x.answers
			if npending == 0 {
				answers = x.play.resume(x, answers, 0)
				x.answers = nil
			}
			x.mu.Unlock()
			if x.stopKind() != "" {
				msg = abi.EncodeResume(nil, &abi.Resume{Stop: true})
				continue
			}
			if npending == 0 {
				// Every call was answered by the host itself (denied, unknown)
				// or by a replay: resume at once.
				x.rec.resumed(answers)
				msg = abi.EncodeResume(nil, &abi.Resume{Results: answers})
				continue
			}
			return x.Pending(), nil
		}
	}
}

// turn resumes the guest with msg and runs it until it comes back,
// stopping it when the budget runs out or ctx ends: the interrupt flag is
// set, and a guest that has not come back stopGrace later (stuck in code
// that never checks the flag: a pathological regular expression, say) is
// killed, which breaks the sandbox. It returns the kind of stop that was
// requested, if any.
func (x *Execution) turn(ctx context.Context, msg []byte) (event, Kind, error) {
	c := x.sb.conn
	var mu sync.Mutex
	var kind Kind
	var grace *time.Timer
	back, killed := false, false
	fire := func(k Kind) {
		mu.Lock()
		defer mu.Unlock()
		if kind != "" || back {
			return
		}
		kind = k
		c.requestStop()
		x.out.abandon() // a write in progress no longer holds the guest
		grace = time.AfterFunc(stopGrace, func() {
			mu.Lock()
			defer mu.Unlock()
			if back {
				return
			}
			killed = true
			x.sb.setBroken(errorf(KindClosed, "sandbox is broken: the guest did not stop within %v of a stop request and was killed", stopGrace))
			c.kill()
		})
	}
	began := time.Now()
	// Cancel stops the turn through x.interrupt; a Cancel that came before
	// the turn began is seen here.
	x.mu.Lock()
	x.interrupt = fire
	forced := x.forceStop
	x.mu.Unlock()
	defer func() {
		x.mu.Lock()
		x.interrupt = nil
		x.mu.Unlock()
	}()
	if forced != "" {
		fire(forced)
	}
	if x.budget <= 0 {
		fire(KindTimeout)
	}
	timer := time.AfterFunc(max(x.budget, 0), func() { fire(KindTimeout) })
	unregister := context.AfterFunc(ctx, func() {
		if errors.Is(context.Cause(ctx), errTimeoutCause) {
			fire(KindTimeout)
		} else {
			fire(KindCanceled)
		}
	})
	ev, err := x.sb.resume(msg)
	timer.Stop()
	unregister()
	x.budget -= time.Since(began)
	mu.Lock()
	defer mu.Unlock()
	back = true
	if grace != nil {
		grace.Stop()
	}
	if killed && err != nil {
		err = errorf(KindCrash, "the guest did not stop within %v of a stop request and was killed", stopGrace)
	}
	return ev, kind, err
}

// expired returns KindTimeout when the execution's time has run out (the
// script's own budget, or ctx's deadline of the time limit), KindCanceled
// when ctx was canceled, and "" otherwise. It is checked when the script
// finishes, so that a script that ends after its deadline is a timeout
// every time, whichever of the two came first.
func (x *Execution) expired(ctx context.Context) Kind {
	switch {
	case x.budget <= 0:
		return KindTimeout
	case !x.deadline.IsZero() && !time.Now().Before(x.deadline):
		// ctx's timer may not have fired yet on a busy machine: the
		// clock, not the timer, says whether the time is up.
		return KindTimeout
	case ctx.Err() == nil:
		return ""
	case errors.Is(context.Cause(ctx), errTimeoutCause):
		return KindTimeout
	}
	return KindCanceled
}

func (x *Execution) stopError(k Kind) error {
	l := x.sb.limits
	switch k {
	case "":
		return nil
	case KindTimeout:
		return &Error{Kind: KindTimeout, Message: fmt.Sprintf("the script ran past its time limit of %v", l.Timeout)}
	case KindOutput:
		return &Error{Kind: KindOutput, Message: fmt.Sprintf("the script wrote more than %d bytes of output (write large data to a file in /workspace instead)", l.MaxOutputBytes)}
	case KindToolCalls:
		return &Error{Kind: KindToolCalls, Message: fmt.Sprintf("the script made more than %d tool calls", l.MaxToolCalls)}
	default:
		return &Error{Kind: KindCanceled, Message: "the execution was canceled"}
	}
}

// accept records a batch of calls from the guest and answers at once those
// the host refuses. The policy decides under the execution's deadline: the
// time it takes counts against the time limit, a decision cut short by the
// deadline denies its call, the deadline is checked between the decisions
// of a batch, and once it has passed the rest of the batch is denied and
// the execution ends with KindTimeout (KindCanceled when ctx was
// canceled).
func (x *Execution) accept(ctx context.Context, calls []abi.Call) error {
	began := time.Now()
	dctx, cancel := context.WithTimeoutCause(ctx, max(x.budget, 0), errTimeoutCause)
	defer cancel()
	defer func() { x.budget -= time.Since(began) }()
	x.mu.Lock()
	defer x.mu.Unlock()
	late := func() (string, bool) {
		if dctx.Err() == nil {
			return "", false
		}
		kind := KindCanceled
		if errors.Is(context.Cause(dctx), errTimeoutCause) {
			kind = KindTimeout
		}
		if x.limitStop == "" {
			x.limitStop = kind
		}
		if kind == KindTimeout {
			return fmt.Sprintf("the execution reached its time limit of %v before the policy decided", x.sb.limits.Timeout), true
		}
		return "the execution was canceled before the policy decided", true
	}
	for _, ac := range calls {
		if ac.ID == 0 || x.seen[ac.ID] {
			return x.sb.protocolError(fmt.Sprintf("tool call id %d reused", ac.ID))
		}
		x.seen[ac.ID] = true
		rec := &ToolCall{ID: len(x.records) + 1, Method: ac.Method}
		x.records = append(x.records, rec)
		x.rec.received(ac.ID, rec)
		if x.play.answer(x, ac, rec) {
			continue // the replay answers it from the trace
		}
		refuse := func(kind abi.ToolErrorKind, msg string, reasons ...string) {
			rec.Reasons = reasons
			rec.Error = msg
			x.rec.refused(rec, ac.Lang, kind)
			x.answers = append(x.answers, abi.CallResult{ID: ac.ID, ErrKind: kind, ErrMsg: msg, Reasons: reasons})
			x.settleRecord(rec)
		}
		if len(x.records) > x.sb.limits.MaxToolCalls {
			refuse(abi.ToolTooManyCalls, fmt.Sprintf("tool %s: the execution reached its limit of %d tool calls", ac.Method, x.sb.limits.MaxToolCalls), "too many tool calls")
			x.limitStop = KindToolCalls
			continue
		}
		if len(ac.Params) > x.sb.limits.MaxParamBytes {
			refuse(abi.ToolTooLarge, fmt.Sprintf("tool %s: params of %d bytes are over the limit of %d", ac.Method, len(ac.Params), x.sb.limits.MaxParamBytes), "params too large")
			continue
		}
		// One canonical form of the params, before anything reads them:
		// the policy decides on it, the audit records it, the handler
		// receives it (see internal/canon).
		params, perr := canon.Params(ac.Params)
		if perr == nil {
			rec.Params = params
		}
		t, ok := x.sb.tools[ac.Method]
		if !ok {
			refuse(abi.ToolUnknown, fmt.Sprintf("tool %q is not registered (listTools() shows the tools)", ac.Method), "unknown tool")
			continue
		}
		if perr != nil {
			refuse(abi.ToolInvalid, fmt.Sprintf("tool %s: invalid params: %v", ac.Method, perr), perr.Error())
			continue
		}
		// The tool's input schema, on the canonical params: the host is
		// the authority, whichever interpreter made the call.
		if t.schema != nil {
			if reasons := validateParams(t.schema, rec.Params); reasons != nil {
				refuse(abi.ToolInvalid, fmt.Sprintf("tool %s: invalid params: %s", ac.Method, strings.Join(reasons, "; ")), reasons...)
				continue
			}
		}
		if t.Prepare != nil {
			prepared, err := prepare(dctx, t, rec.Params)
			if err != nil {
				refuse(abi.ToolInvalid, fmt.Sprintf("tool %s: %v", ac.Method, err), err.Error())
				continue
			}
			sent := rec.Params
			rec.Params = prepared
			x.rec.prepared(rec, sent)
		}
		lang := Language(ac.Lang)
		if !ac.Lang.Valid() {
			lang = x.lang
		}
		if reason, stop := late(); stop {
			refuse(abi.ToolDenied, fmt.Sprintf("tool %s denied: %s", ac.Method, reason), reason)
			continue
		}
		d := x.sb.decide(dctx, x.counterKey, ac.Method, rec.Params, lang, "")
		x.rec.decided(rec, d, lang)
		if reason, stop := late(); stop {
			// The decision may have been cut short: whatever it said, the
			// call does not run.
			if d.charged {
				x.sb.unreserve(x.counterKey, ac.Method, d.Capability)
			}
			refuse(abi.ToolDenied, fmt.Sprintf("tool %s denied: %s", ac.Method, reason), reason)
			continue
		}
		switch {
		case d.Allow:
			rec.Allowed = true
			rec.Reasons = []string{}
		case d.Ask:
			rec.Reasons = d.Reasons
		default:
			refuse(abi.ToolDenied, fmt.Sprintf("tool %s denied: %s", ac.Method, strings.Join(d.Reasons, "; ")), d.Reasons...)
			continue
		}
		rec.Capability = d.capabilityName
		c := &Call{Method: ac.Method, Params: rec.Params, x: x, id: ac.ID, rec: rec, started: time.Now(),
			capability: d.Capability, revision: d.revision, lang: string(lang), decisionID: d.decisionID}
		if d.Ask {
			c.Ask, c.Reasons = true, d.Reasons
		}
		x.pending[ac.ID] = c
		x.order = append(x.order, ac.ID)
	}
	return nil
}

// Pending returns the calls that wait for an answer, in the order the script
// made them.
func (x *Execution) Pending() []*Call {
	x.mu.Lock()
	defer x.mu.Unlock()
	// Answered ids leave the order here, so that a long execution does
	// not walk every call it ever made each time it waits.
	out := make([]*Call, 0, len(x.pending))
	keep := x.order[:0]
	for _, id := range x.order {
		if c := x.pending[id]; c != nil {
			out = append(out, c)
			keep = append(keep, id)
		}
	}
	x.order = keep
	return out
}

// Resolve answers the call with a result, marshaled to JSON. For a call
// the policy asked about, answering it with Resolve or Run approves it.
// It returns an error when the result cannot be sent (the script then
// gets a ToolError saying so) or when the call was answered already or
// its execution has ended (the result is dropped).
func (c *Call) Resolve(result any) error {
	c.settleAsk(true, "")
	b, err := json.Marshal(result)
	if err != nil {
		return fmt.Errorf("engine: resolve %s: result is not JSON: %w", c.Method, err)
	}
	if max := c.x.sb.limits.MaxResultBytes; len(b) > max {
		msg := fmt.Sprintf("tool %s: its result of %d bytes is over the limit of %d", c.Method, len(b), max)
		c.answer(abi.CallResult{ID: c.id, ErrKind: abi.ToolTooLarge, ErrMsg: msg}, func(rec *ToolCall) { rec.Error = msg })
		return fmt.Errorf("engine: resolve %s: result of %d bytes is over Limits.MaxResultBytes (%d); the script got a too_large error", c.Method, len(b), max)
	}
	if !c.answer(abi.CallResult{ID: c.id, OK: true, Value: b}, func(rec *ToolCall) { rec.Result, rec.Allowed = b, true }) {
		return fmt.Errorf("engine: resolve %s: the call was already answered", c.Method)
	}
	return nil
}

// Reject answers the call with an error; the script's promise rejects with a
// ToolError. What the script sees of err follows the rule of Handler's
// errors: a *ToolError's kind and message, else "internal error" (see
// ToolError); the whole of err stays in the call's record ([ToolCall.Cause])
// and in an audit record of decision "failed". For a call the policy asked
// about and that was not approved, Reject is a refusal, as Deny is.
func (c *Call) Reject(err error) {
	if err == nil {
		err = errors.New("rejected with a nil error")
	}
	kind, public := publicError(err, c.rec.ID)
	verb := "failed"
	if kind == abi.ToolDenied {
		verb = "denied"
	}
	msg := fmt.Sprintf("tool %s %s: %s", c.Method, verb, public)
	refused := c.settleAsk(false, msg)
	if c.answer(abi.CallResult{ID: c.id, ErrKind: kind, ErrMsg: msg}, func(rec *ToolCall) { rec.Error, rec.Cause = msg, err }) && !refused {
		c.x.sb.auditFailure(c, msg, err)
	}
}

// Deny answers the call as refused by the host (an operator said no): the
// audit records it as not allowed, with the reason.
func (c *Call) Deny(reason string) {
	c.settleAsk(false, reason)
	msg := fmt.Sprintf("tool %s denied: %s", c.Method, reason)
	c.answer(abi.CallResult{ID: c.id, ErrKind: abi.ToolDenied, ErrMsg: msg, Reasons: []string{reason}}, func(rec *ToolCall) {
		rec.Allowed, rec.Reasons, rec.Error = false, []string{reason}, msg
	})
}

// Run answers the call by running the tool's handler, with the call's
// CallInfo in the handler's context (CallFrom). For a call the policy asked
// about, Run approves it. Run does nothing when the call was answered
// already, when its execution has ended (an ask is then refused), or when
// it is an ask that was refused: the handler runs only for a call that may
// still run.
func (c *Call) Run(ctx context.Context) {
	c.run(withCall(ctx, c))
}

// run is Run with ctx already carrying the call.
func (c *Call) run(ctx context.Context) {
	c.settleAsk(true, "")
	if !c.runnable() {
		return
	}
	t := c.x.sb.tools[c.Method]
	if t == nil || t.Handler == nil {
		c.Reject(&ToolError{Message: "the tool has no handler"})
		return
	}
	res, err := safeCall(ctx, t.Handler, c.Params)
	if err != nil {
		c.Reject(err)
		return
	}
	if raw, ok := res.(json.RawMessage); ok && !json.Valid(raw) {
		c.Reject(&ToolError{Message: "the handler returned invalid JSON"})
		return
	}
	if err := c.Resolve(res); err != nil {
		c.Reject(&ToolError{Message: "the handler's result cannot be converted to JSON", Err: err})
	}
}

// runnable reports whether the call's handler may run: the call is not
// answered, its execution has not ended, and, for an ask, it was approved.
func (c *Call) runnable() bool {
	x := c.x
	x.mu.Lock()
	defer x.mu.Unlock()
	return !c.answered && !x.done && (!c.Ask || (c.settled && !c.refused))
}

func safeCall(ctx context.Context, h Handler, params json.RawMessage) (res any, err error) {
	defer func() {
		if p := recover(); p != nil {
			res, err = nil, &ToolError{Message: "the handler panicked", Err: fmt.Errorf("panic: %v", p)}
		}
	}()
	return h(ctx, params)
}

func (c *Call) answer(r abi.CallResult, audit func(*ToolCall)) bool {
	x := c.x
	x.mu.Lock()
	defer x.mu.Unlock()
	if c.answered || x.done {
		return false
	}
	c.answered = true
	delete(x.pending, c.id)
	audit(c.rec)
	c.rec.Duration = time.Since(c.started)
	x.rec.answered(c.rec, r)
	x.settleRecord(c.rec)
	x.answers = append(x.answers, r)
	return true
}

// Cancel abandons the execution: the script is stopped and the sandbox is
// free for the next one. It returns the execution's error (of
// KindCanceled when Cancel ended it), and nil when the execution had
// already finished. Cancel may be called from any goroutine, also while
// another is in Next: the script is stopped at once, as at a time limit
// (its interrupt flag, then, if it does not come back within a grace
// period, the guest is killed and the sandbox broken), and that Next
// returns the error of KindCanceled. Cancel returns when the execution
// has ended.
func (x *Execution) Cancel(ctx context.Context) error {
	if !x.requestForceStop(KindCanceled) {
		return nil
	}
	x.drive.Lock()
	defer x.drive.Unlock()
	if x.done {
		return x.err
	}
	if !x.started {
		return x.finish(nil, &Error{Kind: KindCanceled, Message: "the execution was canceled before it started"})
	}
	_, err := x.next(ctx)
	return err
}

// Result returns the execution's result once Next has returned nil calls or
// an error; before that it returns nil.
func (x *Execution) Result() *Result {
	x.mu.Lock()
	defer x.mu.Unlock()
	return x.result
}

// Err returns the execution's error once it has finished (nil while it
// runs, and when the script ran to its end).
func (x *Execution) Err() error {
	x.mu.Lock()
	defer x.mu.Unlock()
	return x.err
}

// finish ends the execution with the guest's response (nil when the guest
// did not answer) and err. The caller holds x.drive.
func (x *Execution) finish(resp *abi.Response, err error) error {
	if x.done {
		return x.err
	}
	sb := x.sb
	sb.conn.setOutput(nil)
	x.out.closeStream()
	sb.conn.clearStop()
	x.mu.Lock()
	x.done = true
	var unsettled []*Call
	for _, id := range x.order {
		if c := x.pending[id]; c != nil && c.rec.Error == "" && c.rec.Result == nil {
			c.rec.Error = "the execution ended before the call was answered"
		}
		if c := x.pending[id]; c != nil && c.Ask && !c.settled {
			unsettled = append(unsettled, c)
		}
	}
	res := &Result{Duration: time.Since(x.start), ExitCode: 1}
	for _, r := range x.records {
		x.settleRecord(r)
		res.ToolCalls = append(res.ToolCalls, *r)
	}
	x.mu.Unlock()
	for _, c := range unsettled {
		// An ask nobody answered is not approved: its charge is released.
		c.settleAsk(false, "the execution ended before the call was approved")
	}
	if sb.scope == counters.PerExecution {
		if derr := sb.store.Delete(context.Background(), x.counterKey); derr != nil {
			sb.e.cfg.logger.Warn("cordon: counter store: deleting an execution's counters", "session", sb.id, "err", derr)
		}
	}
	res.Stdout, res.Stderr, res.OutputTruncated = x.out.strings()
	if resp != nil {
		res.ExitCode = int(resp.ExitCode)
		if resp.HasValue && json.Valid(resp.Value) {
			// The guest writes the value with its own encoder; the host
			// checks it anyway, so that Value is always valid JSON.
			res.Value = json.RawMessage(append([]byte(nil), resp.Value...))
		}
		switch resp.ErrCode {
		case "", abi.CodeInterrupted:
		case abi.CodeException:
			res.Exception = resp.ErrMsg
		case abi.CodeRecursion:
			res.Exception = resp.ErrMsg
			if err == nil {
				err = &Error{Kind: KindRecursion, Message: fmt.Sprintf("the JavaScript call stack passed its limit of %d frames", sb.limits.MaxCallDepth)}
			}
		default:
			if err == nil {
				err = &Error{Kind: KindInternal, Message: string(resp.ErrCode) + ": " + resp.ErrMsg}
			}
		}
		if resp.ErrCode == abi.CodeInterrupted && err == nil {
			err = &Error{Kind: KindInternal, Message: "the guest reported an interrupt nobody asked for"}
		}
		if resp.Status != abi.StatusOK && err == nil {
			err = &Error{Kind: KindInvalid, Message: resp.ErrMsg}
		}
		if resp.QuotaHit && err == nil && res.ExitCode != 0 {
			l := sb.limits
			err = &Error{Kind: KindQuota, Message: fmt.Sprintf("the script failed after a write hit a file-system quota (%d bytes, %d files)", l.VFSBytes, l.VFSFiles)}
		}
	}
	x.mu.Lock()
	x.result, x.err = res, err
	x.mu.Unlock()
	x.rec.finish(x, res, err)
	sb.release()
	sb.recycleLater()
	if x.lang == JavaScript {
		sb.prepareLater()
	}
	sb.e.observe(x, res, err)
	return err
}

// output collects a script's stdout and stderr, each up to max bytes, and
// streams what it keeps to the host's writers, if any.
type output struct {
	mu             sync.Mutex
	max            int
	stdout, stderr bytes.Buffer
	truncated      bool
	onOverflow     func()    // called once, when a write first overflows
	stream         *streamer // nil: nothing streams
}

func newOutput(max int, stream *streamer) *output { return &output{max: max, stream: stream} }

// write keeps p, or what fits of it and a marker line, and streams what it
// kept. It is called on the guest's goroutine, so the writes stream in the
// order the guest made them.
func (o *output) write(fd int, p []byte) {
	o.mu.Lock()
	buf := &o.stdout
	if fd == 2 {
		buf = &o.stderr
	}
	room := o.max - buf.Len()
	if o.truncated || len(p) <= room {
		if o.truncated {
			p = nil
		}
		buf.Write(p)
		o.mu.Unlock()
		if o.stream != nil {
			o.stream.write(fd, p)
		}
		return
	}
	n := buf.Len()
	buf.Write(p[:max(room, 0)])
	fmt.Fprintf(buf, "\n[cordon: output limit of %d bytes reached; the script was stopped]\n", o.max)
	kept := append([]byte(nil), buf.Bytes()[n:]...)
	o.truncated = true
	overflow := o.onOverflow
	o.mu.Unlock()
	if o.stream != nil {
		o.stream.write(fd, kept)
	}
	if overflow != nil {
		overflow()
	}
}

// abandon stops waiting for the host's writers (streamer.abandon).
func (o *output) abandon() {
	if o != nil && o.stream != nil {
		o.stream.abandon()
	}
}

// closeStream ends the streaming once the execution has finished.
func (o *output) closeStream() {
	if o.stream != nil {
		o.stream.close()
	}
}

func (o *output) strings() (string, string, bool) {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.stdout.String(), o.stderr.String(), o.truncated
}

// settleRecord counts a record whose params and result are final against
// [Limits.MaxRecordedBytes], once, and elides its bytes when they would pass
// it. x.mu is held.
func (x *Execution) settleRecord(rec *ToolCall) {
	if x.settled[rec] {
		return
	}
	if x.settled == nil {
		x.settled = map[*ToolCall]bool{}
	}
	x.settled[rec] = true
	rec.ParamsSize, rec.ResultSize = len(rec.Params), len(rec.Result)
	size := rec.ParamsSize + rec.ResultSize
	if x.kept+size > x.sb.limits.MaxRecordedBytes {
		rec.Params, rec.Result, rec.Elided = nil, nil, true
		return
	}
	x.kept += size
}
