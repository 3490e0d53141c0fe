package engine

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"sync"

	"github.com/cordonhq/cordon/internal/abi"
	"github.com/cordonhq/cordon/trace"
)

// This file records executions into traces (package trace): WithRecord
// attaches a recorder to one execution, which the execution's hooks (in
// accept, answer, settleAsk and finish) and the guest's WASI functions
// (clock_time_get, random_get) feed while it runs. An execution without
// WithRecord has a nil recorder, and each hook is a nil check.

// RecordOption configures the recording that WithRecord makes.
type RecordOption func(*recordOptions)

type recordOptions struct {
	tar bool // keep the VFS's tar archive in the trace
}

// RecordVFS makes the recording keep the whole file system the execution
// started from, as a tar archive ([trace.VFS.Tar]), besides its digest: a
// trace that holds it can be replayed without the sandbox it came from.
func RecordVFS() RecordOption {
	return func(o *recordOptions) { o.tar = true }
}

// WithRecord records the execution into t, which is filled when the
// execution ends (before Execute returns, or when Next returns nil calls or
// an error): the script, the sandbox's session, labels, principal and
// limits, the policy's revision at the start, the digest of the file
// system the script started from, each tool call in the order the host
// received it with its decision and what the script saw of it, every
// clock reading and random value the guest took, and the output. t is
// overwritten whole; it must not be read before the execution ends.
//
// Recording costs a copy of the file system when the execution starts (to
// take its digest) and memory for what the execution reads; a nil t
// records nothing.
func WithRecord(t *trace.Trace, opts ...RecordOption) ExecuteOption {
	return func(o *execOptions) {
		o.record = t
		o.recordOpts = recordOptions{}
		for _, opt := range opts {
			if opt != nil {
				opt(&o.recordOpts)
			}
		}
	}
}

// recorder collects the trace of one execution. The guest's WASI
// functions append clock readings and random values on the goroutine that
// runs the guest; the execution's hooks record calls under Execution.mu.
// mu, a leaf, guards both.
type recorder struct {
	t       *trace.Trace
	lang    Language
	vfs     trace.VFS
	policy  string // the policy's revision at the start
	limits  map[string]any
	session string
	labels  map[string]string
	princ   string

	tools []trace.ToolRecord
	play  *player // the replay's, or nil

	mu      sync.Mutex
	clock   []int64
	mono    []int64
	random  [][]byte
	calls   map[*ToolCall]*recordedCall
	ids     map[uint32]*ToolCall // the guest's call ids
	answers [][]int
}

// recordedCall is what a trace keeps of a call beyond its ToolCall record,
// or before that record elides its bytes ([ToolCall.Elided]).
type recordedCall struct {
	params     json.RawMessage
	sent       json.RawMessage
	lang       string
	decision   string
	outcome    string
	reasons    []string
	decided    bool
	decisionID string
	result     json.RawMessage
	errKind    string
	errMsg     string
	errReasons []string
	answered   bool
}

// newRecorder starts the recording of an execution that is about to start:
// it takes the digest (and, with RecordVFS, the archive) of the whole VFS.
// The caller holds the sandbox's turn and has not attached the recorder yet,
// so that the export's own clock readings are not recorded.
func (sb *Sandbox) newRecorder(lang Language, o recordOptions, t *trace.Trace) (*recorder, error) {
	files, err := sb.files("/")
	if err != nil {
		return nil, fmt.Errorf("engine: record: exporting the file system: %w", err)
	}
	var buf bytes.Buffer
	if err := writeTar(&buf, "/", files); err != nil {
		return nil, fmt.Errorf("engine: record: exporting the file system: %w", err)
	}
	sum := sha256.Sum256(buf.Bytes())
	r := &recorder{
		t:       t,
		lang:    lang,
		vfs:     trace.VFS{Digest: hex.EncodeToString(sum[:])},
		policy:  "default",
		limits:  limitsByKey(sb.limits, sb.e.cfg.memoryMB),
		session: sb.id,
		labels:  sb.labels,
		princ:   sb.principal,
		calls:   map[*ToolCall]*recordedCall{},
		ids:     map[uint32]*ToolCall{},
	}
	for _, info := range sb.infos {
		t := trace.ToolRecord{Name: info.Name, Description: info.Description, InputSchema: json.RawMessage(info.Schema),
			OutputSchema: json.RawMessage(info.OutputSchema), Fetch: info.Fetch}
		if tl := sb.tools[info.Name]; tl != nil {
			t.Labels = tl.Labels
		}
		r.tools = append(r.tools, t)
	}
	if o.tar {
		r.vfs.Tar = buf.Bytes()
	}
	if sb.policy != nil {
		r.policy = sb.policy.Revision()
	}
	return r, nil
}

// limitsByKey returns l and the guest memory limit by their keys in the
// configuration file (config.Limits), the timeout as a Go duration string.
func limitsByKey(l Limits, memoryMB int) map[string]any {
	return map[string]any{
		"timeout":              l.Timeout.String(),
		"memory_mb":            memoryMB,
		"max_output_bytes":     l.MaxOutputBytes,
		"vfs_bytes":            l.VFSBytes,
		"vfs_files":            l.VFSFiles,
		"max_call_depth":       l.MaxCallDepth,
		"max_tool_calls":       l.MaxToolCalls,
		"max_param_bytes":      l.MaxParamBytes,
		"max_result_bytes":     l.MaxResultBytes,
		"max_concurrent_calls": l.MaxConcurrentCalls,
		"max_recorded_bytes":   l.MaxRecordedBytes,
	}
}

// Clock implements [wasi.Recorder]. Under a replay, the player's value is
// the one recorded.
func (r *recorder) Clock(ns int64) int64 {
	if r.play != nil {
		ns = r.play.Clock(ns)
	}
	r.mu.Lock()
	r.clock = append(r.clock, ns)
	r.mu.Unlock()
	return ns
}

// Monotonic implements [wasi.Recorder].
func (r *recorder) Monotonic(ns int64) int64 {
	if r.play != nil {
		ns = r.play.Monotonic(ns)
	}
	r.mu.Lock()
	r.mono = append(r.mono, ns)
	r.mu.Unlock()
	return ns
}

// Random implements [wasi.Recorder].
func (r *recorder) Random(p []byte) {
	if r.play != nil {
		r.play.Random(p)
	}
	r.mu.Lock()
	r.random = append(r.random, append([]byte(nil), p...))
	r.mu.Unlock()
}

// call returns the recorded call of rec, made the first time. r.mu is held.
func (r *recorder) call(rec *ToolCall) *recordedCall {
	rc := r.calls[rec]
	if rc == nil {
		rc = &recordedCall{}
		r.calls[rec] = rc
	}
	return rc
}

// received records that the guest's call id is rec, and, when the tool's
// Prepare changed the params, the canonical params the script sent.
func (r *recorder) received(id uint32, rec *ToolCall) {
	if r == nil {
		return
	}
	r.mu.Lock()
	r.ids[id] = rec
	r.mu.Unlock()
}

// prepared records the canonical params sent that the tool's Prepare
// turned into rec.Params.
func (r *recorder) prepared(rec *ToolCall, sent json.RawMessage) {
	if r == nil || bytes.Equal(sent, rec.Params) {
		return
	}
	r.mu.Lock()
	r.call(rec).sent = sent
	r.mu.Unlock()
}

// resumed records the answers the host resumes the script with.
func (r *recorder) resumed(answers []abi.CallResult) {
	if r == nil || len(answers) == 0 {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	group := make([]int, 0, len(answers))
	for _, a := range answers {
		if rec := r.ids[a.ID]; rec != nil {
			group = append(group, rec.ID)
		}
	}
	r.answers = append(r.answers, group)
}

// refused records that the host answered rec itself with an error of kind
// kind (before or after the policy decided), as the script saw it. lang is
// the language the call said it came from.
func (r *recorder) refused(rec *ToolCall, lang abi.Lang, kind abi.ToolErrorKind) {
	if r == nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	rc := r.call(rec)
	rc.params = rec.Params
	if rc.lang == "" {
		rc.lang = string(r.langOf(lang))
	}
	if !rc.decided {
		rc.reasons = rec.Reasons
	}
	rc.errKind, rc.errMsg, rc.errReasons, rc.answered = string(kind), rec.Error, rec.Reasons, true
}

// decided records the policy's decision d on rec, made for a call in
// language lang.
func (r *recorder) decided(rec *ToolCall, d decision, lang Language) {
	if r == nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	rc := r.call(rec)
	rc.params, rc.lang, rc.decided = rec.Params, string(lang), true
	switch {
	case d.Allow:
		rc.decision = "allow"
	case d.Ask:
		rc.decision = "ask"
	default:
		rc.decision = "deny"
	}
	rc.reasons, rc.decisionID = d.Reasons, d.decisionID
}

// settled records what became of an ask: approved or refused.
func (r *recorder) settled(rec *ToolCall, approved bool) {
	if r == nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	rc := r.call(rec)
	rc.outcome = "refused"
	if approved {
		rc.outcome = "approved"
	}
}

// answered records the answer res that the script gets for rec.
func (r *recorder) answered(rec *ToolCall, res abi.CallResult) {
	if r == nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	rc := r.call(rec)
	rc.answered = true
	if res.OK {
		rc.result = res.Value
		return
	}
	rc.errKind, rc.errMsg, rc.errReasons = string(res.ErrKind), res.ErrMsg, res.Reasons
}

// langOf returns the language a call came from: the one it names, or the
// execution's.
func (r *recorder) langOf(l abi.Lang) Language {
	if l.Valid() {
		return Language(l)
	}
	return r.lang
}

// attach makes the guest's clock readings and random values go to r.
func (r *recorder) attach(c *conn) {
	if r != nil {
		c.rec.Store(r)
	}
}

// finish fills the trace of execution x, which ended with res and err, and
// detaches r from the guest. The caller holds x.drive, not x.mu.
func (r *recorder) finish(x *Execution, res *Result, err error) {
	if r == nil {
		return
	}
	x.sb.conn.rec.CompareAndSwap(r, nil)
	x.mu.Lock()
	records := append([]*ToolCall(nil), x.records...)
	x.mu.Unlock()
	r.mu.Lock()
	defer r.mu.Unlock()
	t := &trace.Trace{
		Version:        trace.Version,
		Language:       string(r.lang),
		Code:           x.code,
		Name:           x.name,
		Session:        r.session,
		Labels:         r.labels,
		Principal:      r.princ,
		Limits:         r.limits,
		PolicyRevision: r.policy,
		Started:        x.start,
		Duration:       res.Duration,
		VFS:            r.vfs,
		Tools:          r.tools,
		Answers:        r.answers,
		Calls:          make([]trace.Call, 0, len(records)),
		Clock:          r.clock,
		Monotonic:      r.mono,
		Random:         r.random,
		Output: trace.Output{
			Stdout:   res.Stdout,
			Stderr:   res.Stderr,
			Value:    res.Value,
			ExitCode: res.ExitCode,
			Error:    string(KindOf(err)),
		},
	}
	for _, rec := range records {
		rc := r.calls[rec]
		if rc == nil {
			rc = &recordedCall{}
		}
		c := trace.Call{
			ID:           rec.ID,
			Method:       rec.Method,
			Params:       rc.params,
			Sent:         rc.sent,
			Language:     rc.lang,
			Decision:     rc.decision,
			Reasons:      rc.reasons,
			Capability:   rec.Capability,
			DecisionID:   rc.decisionID,
			Result:       rc.result,
			ErrorKind:    rc.errKind,
			Error:        rc.errMsg,
			ErrorReasons: rc.errReasons,
			Duration:     rec.Duration,
		}
		if rc.decision == "ask" {
			c.Outcome = rc.outcome
			if c.Outcome == "" {
				c.Outcome = "refused" // finish refuses the asks left
			}
		}
		if !rc.answered {
			// The execution ended first: the script never got an answer.
			c.Error = rec.Error
		}
		t.Calls = append(t.Calls, c)
	}
	*r.t = *t
}
