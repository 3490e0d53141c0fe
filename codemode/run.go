package codemode

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/cordonhq/cordon/approval"
	"github.com/cordonhq/cordon/engine"
)

// Call runs the script in the model's arguments (argumentsJSON, the JSON
// object InputSchema describes) in the sandbox of ctx's session, and
// returns the result as text for the model ([Result.Text]). Asks of the
// policy go to the sandbox's Approver, or are denied.
//
// The error is non-nil only when the script could not be run, or was cut
// short, for a reason the model cannot fix: ctx ended, the session or the
// engine was closed, the tools are invalid. A script that threw, a shell
// script's non-zero status, a limit it reached and malformed arguments are
// all text for the model, with a nil error.
func (t *Runner) Call(ctx context.Context, argumentsJSON string) (string, error) {
	r, err := t.Run(ctx, argumentsJSON)
	if r == nil {
		return "", err
	}
	return r.Text(), err
}

// Run is Call with the result as a Result, for hosts that send structured
// output (the MCP server's structuredContent). The Result is nil only when
// the script did not start; the error is as for Call.
func (t *Runner) Run(ctx context.Context, argumentsJSON string) (*Result, error) {
	code, bad := t.parseArgs(argumentsJSON)
	if bad != nil {
		return t.s.badArguments(bad), nil
	}
	ss, sb, err := t.s.acquire(ctx, SessionFrom(ctx))
	if err != nil {
		return nil, err
	}
	defer t.s.release(ss)
	if err := ss.lockTurn(ctx); err != nil {
		return nil, err
	}
	defer ss.unlockTurn()
	t.s.cancelPause(ctx, ss)
	er, err := sb.Execute(ctx, t.lang, code)
	return t.s.finish(ctx, ss, sb, t.lang, er, err)
}

// Start is Run, except that a call the policy asks about, with no
// Approver to answer it, pauses the script instead of being
// denied: the Result then has Pause set, listing the asks, and nothing
// else; Resume answers them and returns the result of the rest of the run.
// The paused script holds its session's sandbox, and costs no CPU, until
// Resume, until the session's next Run or Start (which abandons it, its
// asks refused), or until the session is closed.
//
// Under Start, Limits.Timeout bounds the time the script runs and,
// separately, the time the handlers of each batch of tool calls take; the
// time a pause lasts is not counted.
func (t *Runner) Start(ctx context.Context, argumentsJSON string) (*Result, error) {
	code, bad := t.parseArgs(argumentsJSON)
	if bad != nil {
		return t.s.badArguments(bad), nil
	}
	ss, sb, err := t.s.acquire(ctx, SessionFrom(ctx))
	if err != nil {
		return nil, err
	}
	defer t.s.release(ss)
	if err := ss.lockTurn(ctx); err != nil {
		return nil, err
	}
	defer ss.unlockTurn()
	t.s.cancelPause(ctx, ss)
	x, err := sb.Start(ctx, t.lang, code)
	if err != nil {
		return t.s.finish(ctx, ss, sb, t.lang, &engine.Result{ExitCode: 1}, err)
	}
	return t.s.drive(ctx, ss, sb, t.lang, x, 0)
}

// ErrNoPause is returned by Resume for an id that names no paused run: it
// was resumed already, abandoned by a later call of its session, or its
// session was closed or timed out.
var ErrNoPause = errors.New("codemode: no paused run with that id")

// Resume answers the asks of the paused run id ([Pause.ID]) as a says, and
// runs the script on, until it ends or pauses again. Any tool of the pair
// that paused it can resume it, whatever ctx's session.
func (t *Runner) Resume(ctx context.Context, id string, a Approval) (*Result, error) {
	s := t.s
	s.mu.Lock()
	p := s.pauses[id]
	if p != nil && p.ss.principal != PrincipalFrom(ctx) {
		// Another principal's pause is not theirs to answer.
		p = nil
	}
	if p != nil {
		p.ss.active++
		if p.ss.timer != nil {
			p.ss.timer.Stop()
		}
	}
	s.mu.Unlock()
	if p == nil {
		return nil, fmt.Errorf("%w: %q", ErrNoPause, id)
	}
	defer s.release(p.ss)
	if err := p.ss.lockTurn(ctx); err != nil {
		return nil, err
	}
	defer p.ss.unlockTurn()
	// The run is ours once it leaves the table; a call that took the turn
	// before us may have abandoned it.
	s.mu.Lock()
	ours := s.pauses[id] == p
	if ours {
		delete(s.pauses, id)
		if p.ss.pause == p {
			p.ss.pause = nil
		}
	}
	s.mu.Unlock()
	if !ours {
		return nil, fmt.Errorf("%w: %q", ErrNoPause, id)
	}
	hctx, cancel := context.WithTimeout(ctx, s.timeout())
	defer cancel()
	for i, c := range p.asks {
		ans := a.For(p.ids[i])
		if ans.Approve {
			c.Run(hctx)
		} else {
			c.Deny(orDefault(ans.Reason, "not approved"))
		}
	}
	return s.drive(ctx, p.ss, p.sb, p.lang, p.x, p.seq)
}

// Approval answers the asks of a paused run.
type Approval struct {
	// Approve and Reason answer every ask that Calls does not list; Reason
	// is what the script sees when it is refused (default "not approved").
	Approve bool   `json:"approve"`
	Reason  string `json:"reason,omitempty"`
	// Calls answers asks one by one, by [Ask.ID].
	Calls map[int]Answer `json:"calls,omitempty"`
}

// Answer is the answer to one ask.
type Answer struct {
	Approve bool   `json:"approve"`
	Reason  string `json:"reason,omitempty"`
}

// For returns a's answer to the ask with id.
func (a Approval) For(id int) Answer {
	if ans, ok := a.Calls[id]; ok {
		return ans
	}
	return Answer{Approve: a.Approve, Reason: a.Reason}
}

// Pause is a run that waits for approval (Start).
type Pause struct {
	// ID names the run for Resume.
	ID string `json:"id"`
	// Asks are the calls waiting for an answer, in the order the script
	// made them.
	Asks []Ask `json:"asks"`
}

// Ask is a tool call the policy asked about.
type Ask struct {
	// ID numbers the asks of one run, from 1 (across its pauses); answer
	// the call by this number in [Approval.Calls].
	ID      int             `json:"id"`
	Method  string          `json:"method"`
	Params  json.RawMessage `json:"params"`
	Reasons []string        `json:"reasons"`
	// Display is the call as a person should see it before approving
	// it: every param, constrained ones first, with the script's and the
	// policy's text quoted (package approval). Show Display.Text, not
	// Params and Reasons, to the person who decides.
	Display *approval.Request `json:"display"`
}

// paused is a run that waits for Resume.
type paused struct {
	id   string
	lang engine.Language
	ss   *session
	sb   *engine.Sandbox
	x    *engine.Execution
	asks []*engine.Call
	ids  []int // the asks' [Ask.ID]
	seq  int   // the last [Ask.ID] of the run
}

// cancelPause abandons the session's paused run, if any: it holds the
// sandbox, which the caller is about to use.
func (s *shared) cancelPause(ctx context.Context, ss *session) {
	s.mu.Lock()
	p := ss.pause
	if p != nil {
		ss.pause = nil
		delete(s.pauses, p.id)
	}
	s.mu.Unlock()
	if p != nil {
		for _, c := range p.asks {
			c.Deny("the run was abandoned before anyone answered")
		}
		_ = p.x.Cancel(ctx)
	}
}

func (s *shared) timeout() time.Duration {
	if d := s.cfg.sandbox.Limits.Timeout; d > 0 {
		return d
	}
	return engine.DefaultTimeout
}

// drive runs x through the step API: it answers the calls the policy
// allowed with their handlers, and those it asks about with the approver,
// or pauses on them. seq is the last [Ask.ID] the run gave.
func (s *shared) drive(ctx context.Context, ss *session, sb *engine.Sandbox, lang engine.Language, x *engine.Execution, seq int) (*Result, error) {
	calls, err := x.Next(ctx)
	for err == nil && calls != nil {
		asks, late := s.answer(ctx, calls)
		if late {
			_ = x.Cancel(ctx)
			er := x.Result()
			if er == nil {
				er = &engine.Result{ExitCode: 1}
			}
			return s.finish(ctx, ss, sb, lang, er, &engine.Error{Kind: engine.KindTimeout,
				Message: fmt.Sprintf("the tool handlers ran past the time limit of %v", s.timeout())})
		}
		if len(asks) > 0 {
			return s.pause(ss, sb, lang, x, asks, seq), nil
		}
		calls, err = x.Next(ctx)
	}
	er := x.Result()
	if er == nil {
		er = &engine.Result{ExitCode: 1}
	}
	return s.finish(ctx, ss, sb, lang, er, err)
}

// answer answers a batch of calls, concurrently, and returns the asks that
// nobody answered. late is set when the handlers ran past the time limit.
func (s *shared) answer(ctx context.Context, calls []*engine.Call) (asks []*engine.Call, late bool) {
	hctx, cancel := context.WithTimeout(ctx, s.timeout())
	defer cancel()
	n := s.cfg.sandbox.Limits.MaxConcurrentCalls
	if n <= 0 {
		n = engine.DefaultMaxConcurrentCalls
	}
	slots := make(chan struct{}, n)
	var wg sync.WaitGroup
	for _, c := range calls {
		if c.Ask && s.cfg.sandbox.Approve == nil {
			if _, err := approval.ForCall(c, approval.Limits{}); err != nil {
				// A call no one can be shown in full is refused, not
				// paused on.
				c.Deny(approval.DenyReason(err))
				continue
			}
			asks = append(asks, c)
			continue
		}
		select {
		case slots <- struct{}{}:
		case <-hctx.Done():
			return asks, true
		}
		wg.Add(1)
		go func() {
			defer func() { <-slots; wg.Done() }()
			if c.Ask {
				if ok, why := s.cfg.sandbox.Approve(hctx, c); !ok {
					c.Deny(orDefault(why, "not approved"))
					return
				}
			}
			c.Run(hctx)
		}()
	}
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	select {
	case <-done:
		return asks, false
	case <-hctx.Done():
		return asks, true
	}
}

// pause records x as paused on asks and returns the Result that says so.
func (s *shared) pause(ss *session, sb *engine.Sandbox, lang engine.Language, x *engine.Execution, asks []*engine.Call, seq int) *Result {
	p := &paused{id: newPauseID(), lang: lang, ss: ss, sb: sb, x: x, asks: asks}
	r := &Result{Pause: &Pause{ID: p.id}, ToolCalls: []ToolCall{}}
	for _, c := range asks {
		seq++
		p.ids = append(p.ids, seq)
		display, _ := approval.ForCall(c, approval.Limits{}) // answer refused those it cannot render
		r.Pause.Asks = append(r.Pause.Asks, Ask{ID: seq, Method: c.Method, Params: c.Params, Reasons: c.Reasons, Display: display})
	}
	p.seq = seq
	s.mu.Lock()
	if s.sessions[ss.id] == ss {
		s.pauses[p.id] = p
		ss.pause = p
	} else {
		// Closed meanwhile: the sandbox is gone, and so is the run.
		r.Pause = nil
		r.Error = &Error{Kind: engine.KindClosed, Message: "the session was closed"}
	}
	s.mu.Unlock()
	r.text = render(r)
	return r
}

// parseArgs reads the script from the model's arguments. The key may be
// "code" or "script", whichever the tool's schema names: models mix them
// up between the two tools.
func (t *Runner) parseArgs(args string) (string, *Error) {
	var in map[string]json.RawMessage
	if err := json.Unmarshal([]byte(args), &in); err != nil || in == nil {
		return "", &Error{Kind: KindArguments, Message: fmt.Sprintf(`the arguments must be a JSON object {"%s": "..."}`, t.argName())}
	}
	raw, ok := in[t.argName()]
	other := "script"
	if t.lang == engine.Shell {
		other = "code"
	}
	if alt, has := in[other]; has {
		if ok {
			return "", &Error{Kind: KindArguments, Message: fmt.Sprintf(`give the script as "%s" only, not also as "%s"`, t.argName(), other)}
		}
		raw, ok = alt, true
	}
	var code string
	if !ok || json.Unmarshal(raw, &code) != nil {
		return "", &Error{Kind: KindArguments, Message: fmt.Sprintf(`the arguments must be a JSON object {"%s": "..."} whose "%s" is a string`, t.argName(), t.argName())}
	}
	if len(bytes.TrimSpace([]byte(code))) == 0 {
		return "", &Error{Kind: KindArguments, Message: fmt.Sprintf(`"%s" is empty: there is no script to run`, t.argName())}
	}
	return code, nil
}

func (s *shared) badArguments(e *Error) *Result {
	r := &Result{ExitCode: 2, Error: e, ToolCalls: []ToolCall{}}
	r.text = render(r)
	return r
}

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}
