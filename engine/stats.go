package engine

import (
	"time"

	"github.com/cordonhq/cordon/internal/guestmem"
)

// Stats is a snapshot of what an engine holds, for monitoring
// ([Engine.Stats]). The engine itself exports no metrics: a host turns
// these, the executions its observer sees ([Config.WithObserver]) and the
// tool calls its decision observer sees ([Config.WithDecisionObserver])
// into its own (package fleet does, for Prometheus).
type Stats struct {
	// Sandboxes is the number of live sandboxes: made by NewSandbox and
	// not closed yet (a sandbox is counted while it boots).
	Sandboxes int
	// Pooled is the number of booted guests waiting in the pool
	// ([Config.WithPool]) for a sandbox to take them.
	Pooled int
	// MemoryBytes is the size of the live sandboxes' guest memories,
	// summed: the linear memory each guest has grown to. A guest's memory
	// never shrinks while its sandbox lives; pages of the shared data image
	// that a guest has not written are counted although they are shared.
	MemoryBytes int64
}

// Stats returns a snapshot of the engine's sandboxes, pooled guests and
// guest memory. It may be called from any goroutine; it takes the
// engine's lock briefly, then each guest memory's, and waits for no
// sandbox (a guest that runs does not hold its memory's lock, except
// while it grows).
func (e *Engine) Stats() Stats {
	var st Stats
	// Engine.mu is a leaf: the memories are read once it is released.
	e.mu.Lock()
	mems := make([]*guestmem.Memory, 0, len(e.sandboxes))
	for sb := range e.sandboxes {
		st.Sandboxes++
		if m := sb.mem.Load(); m != nil {
			mems = append(mems, m)
		}
	}
	e.mu.Unlock()
	for _, m := range mems {
		st.MemoryBytes += int64(m.Size())
	}
	if e.pool != nil {
		st.Pooled = len(e.pool.ready)
	}
	return st
}

// ExecutionStats describes one execution that has ended, for the observer
// of [Config.WithObserver].
type ExecutionStats struct {
	// Session is the sandbox's ID.
	Session  string
	Language Language
	// Start is when the execution began (Start or Execute was called);
	// Duration is how long it took, to its end.
	Start    time.Time
	Duration time.Duration
	// Kind is the kind of the execution's error (KindTimeout,
	// KindCanceled, ...), and "" when the script ran to its end, whether
	// it exited 0 or not (Result.ExitCode, Result.Exception).
	Kind Kind
	// Err is the execution's error, as Execute or Next returned it.
	Err error
	// Result is the execution's result, with its tool calls. The observer
	// must not modify it: it is the one the caller gets.
	Result *Result
}

// Outcome names how the execution ended, in one word for metrics and
// traces: "ok" (the script ran to its end and exited 0), "exception" (an
// uncaught JavaScript error), "exit" (a non-zero exit status), or the
// kind of its error (Kind: "timeout", "canceled", "memory", ...).
func (s ExecutionStats) Outcome() string {
	switch {
	case s.Kind != "":
		return string(s.Kind)
	case s.Err != nil:
		return string(KindInternal)
	case s.Result != nil && s.Result.Exception != "":
		return string(KindException)
	case s.Result != nil && s.Result.ExitCode != 0:
		return "exit"
	default:
		return "ok"
	}
}

// WithObserver sets a function that the engine calls once for each
// execution of its sandboxes when the execution has ended, with its
// language, outcome, timing and result. It is called on the goroutine that
// ended the execution, before Execute (or the Next that ended it) returns,
// holding none of the engine's locks: the sandbox may already run its next
// execution. It must be safe for concurrent use and quick, and must not
// call back into the sandbox that ran the execution.
func (c Config) WithObserver(f func(ExecutionStats)) Config { c.observer = f; return c }

// observe reports an ended execution to the engine's observer, if any.
func (e *Engine) observe(x *Execution, res *Result, err error) {
	f := e.cfg.observer
	if f == nil {
		return
	}
	f(ExecutionStats{
		Session:  x.sb.id,
		Language: x.lang,
		Start:    x.start,
		Duration: res.Duration,
		Kind:     KindOf(err),
		Err:      err,
		Result:   res,
	})
}

// DecisionStats describes one policy decision on a tool call, or the
// answer to a call the policy asked about, for the observer of
// [Config.WithDecisionObserver].
type DecisionStats struct {
	// Session is the sandbox's ID.
	Session string
	// Method is the registered name of the tool called. Only calls of
	// tools the sandbox registers reach the policy: a call of any other
	// name is refused before it is decided, and is not observed, so a
	// script cannot make up the values of this field.
	Method string
	// Decision is the decision, as in its audit record
	// ([AuditRecord.Decision]): "allow", "ask" or "deny" for the policy's
	// decision, and "approved" or "refused" for the answer to an ask,
	// each observed on its own (an ask is observed twice: when it is
	// decided, and when it is answered). A call decided after its
	// execution's deadline is refused whatever its decision says.
	Decision string
	// Capability names the capability charged, or "".
	Capability string
	// PolicyRevision is the revision of the policy that decided.
	PolicyRevision string
	// DecisionID identifies the decision, as in its audit records.
	DecisionID string
	// Start is when the engine began to decide the call; Duration is how
	// long the decision took: the counter store's lock, reads and charge,
	// and the policy's evaluation, every attempt included (a call decided
	// again because its counters changed is observed once). For an
	// answer, Duration is how long the ask waited for it.
	Start    time.Time
	Duration time.Duration
	// Err is set when the call was denied because the policy or the
	// counter store failed, and on a call allowed uncounted while the
	// store failed ([CounterFreePolicy]): the error of its audit record.
	Err error
}

// Outcome names the decision in one word for metrics: "allow", "ask",
// "deny", "error" (a denial because the policy or the counter store
// failed), "approved" or "refused".
func (s DecisionStats) Outcome() string {
	if s.Decision == "deny" && s.Err != nil {
		return "error"
	}
	return s.Decision
}

// WithDecisionObserver sets a function that the engine calls once for
// each tool call its sandboxes' policies decide (the last decision of a
// call, when it was decided again because its counters changed), with
// the decision and its latency, and once more for each answer to a call
// the policy asked about. A call refused before the policy sees it (a
// tool that is not registered, invalid params, a limit) is not observed.
// The engine calls f on the goroutine that decided or answered, before
// the call runs; for a decision, while it may hold the execution's lock
// and the counter store's lock on the call's counters. f must be safe for
// concurrent use and quick, and must not call back into the sandbox.
func (c Config) WithDecisionObserver(f func(DecisionStats)) Config { c.decisions = f; return c }

// observeDecision reports a decision, or the answer to an ask, to the
// engine's decision observer, if any.
func (e *Engine) observeDecision(rec *AuditRecord, start time.Time, d time.Duration) {
	f := e.cfg.decisions
	if f == nil {
		return
	}
	f(DecisionStats{
		Session:        rec.Session,
		Method:         rec.Method,
		Decision:       rec.Decision,
		Capability:     rec.Capability,
		PolicyRevision: rec.PolicyRevision,
		DecisionID:     rec.DecisionID,
		Start:          start,
		Duration:       d,
		Err:            rec.Err,
	})
}
