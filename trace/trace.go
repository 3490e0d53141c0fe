// Package trace defines the record of one execution: a versioned JSON
// document that holds what the script was (its language and code), where
// it ran (the sandbox's labels, principal, limits and policy revision), what
// it asked of the host (each tool call in order, with its decision and its
// result or error), what the host gave it besides (every clock reading and
// every random value the guest took), and what came out (stdout, stderr,
// the value and the exit code).
//
// A trace is read by the replay of the execution (engine's Replay,
// `cordon replay`), which runs the script again with the tool answers,
// clock readings and random values it holds, and by the what-if replay,
// which decides its calls again under another policy (package whatif,
// `cordon policy replay`). Version names the format; a reader refuses a
// version it does not know.
package trace

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"time"
)

// Version is the format version this package writes and reads.
const Version = 1

// ErrVersion is returned (wrapped) for a trace whose version this package
// does not read.
var ErrVersion = errors.New("trace: unsupported version")

// ErrInvalid is returned (wrapped) for a document that is not a valid
// trace: not JSON, missing a required field, or inconsistent.
var ErrInvalid = errors.New("trace: invalid trace")

// Trace is the record of one execution.
type Trace struct {
	// Version is the format's version: Version.
	Version int `json:"version"`
	// Language is "js" or "sh"; Code the script; Name the file name
	// stack traces show, if one was given.
	Language string `json:"language"`
	Code     string `json:"code"`
	Name     string `json:"name,omitempty"`
	// Session, Labels and Principal are the sandbox's, as the policy saw
	// them (input.session).
	Session   string            `json:"session,omitempty"`
	Labels    map[string]string `json:"labels,omitempty"`
	Principal string            `json:"principal,omitempty"`
	// Limits are the sandbox's limits, by their config keys (timeout as a
	// Go duration string).
	Limits map[string]any `json:"limits,omitempty"`
	// PolicyRevision is the revision of the policy when the execution
	// started ("default" without a policy).
	PolicyRevision string `json:"policy_revision"`
	// Started is when the execution started, and Duration how long it
	// ran.
	Started  time.Time     `json:"started"`
	Duration time.Duration `json:"duration_ns"`
	// VFS is the file system the execution started from: its digest, and
	// its files when they were recorded.
	VFS VFS `json:"vfs"`
	// Tools are the sandbox's tools as the script saw them (listTools,
	// getToolInfo, `tool --help`), in the order they were registered: a
	// replay registers the same ones.
	Tools []ToolRecord `json:"tools,omitempty"`
	// Calls are the tool calls, in the order the script made them (the
	// order the host received them: within a Promise.all batch, the
	// order of the batch).
	Calls []Call `json:"calls"`
	// Answers holds, for each time the host resumed the script with
	// answers, the ids of the calls it answered, in the order the script
	// got them: a replay gives the script its answers in the same groups
	// and order, so that code that runs as each answer arrives runs in the
	// same order.
	Answers [][]int `json:"answers,omitempty"`
	// Clock holds every wall-clock reading the guest took, in order, as
	// Unix nanoseconds; Monotonic every monotonic reading, in
	// nanoseconds; Random every random_get the guest made, in order, each
	// as the bytes it got.
	Clock     []int64  `json:"clock,omitempty"`
	Monotonic []int64  `json:"monotonic,omitempty"`
	Random    [][]byte `json:"random,omitempty"`
	// Output is what the execution produced.
	Output Output `json:"output"`
}

// VFS describes the file system an execution started from.
type VFS struct {
	// Digest is the SHA-256, in hex, of the VFS as a tar archive in the
	// sandbox's canonical order (engine's ExportTar); "" when unknown.
	Digest string `json:"digest,omitempty"`
	// Tar is that archive, when the recording kept it.
	Tar []byte `json:"tar,omitempty"`
}

// ToolRecord is a tool of the sandbox as a trace records it: what scripts
// saw of it (no handler).
type ToolRecord struct {
	Name         string          `json:"name"`
	Description  string          `json:"description,omitempty"`
	InputSchema  json.RawMessage `json:"input_schema,omitempty"`
	OutputSchema json.RawMessage `json:"output_schema,omitempty"`
	// Fetch marks the tool that fetch, curl and wget call.
	Fetch bool `json:"fetch,omitempty"`
	// Labels are the tool's flow labels.
	Labels []string `json:"labels,omitempty"`
}

// Call is one tool call of a trace.
type Call struct {
	// ID numbers the call from 1 in the order the host received it.
	ID int `json:"id"`
	// Method is the registered tool name; Params the canonical params the
	// policy decided on (after the tool's Prepare).
	Method string          `json:"method"`
	Params json.RawMessage `json:"params,omitempty"`
	// Sent is the canonical form of the params the script sent, when the
	// tool's Prepare turned them into different Params (package egress
	// parses a URL); a replay compares the script's call with it.
	Sent json.RawMessage `json:"sent,omitempty"`
	// Language is the interpreter that made the call ("js" or "sh").
	Language string `json:"language,omitempty"`
	// Decision is "allow", "deny" or "ask" (the policy's), and Outcome
	// what became of an ask: "approved" or "refused" ("" otherwise).
	Decision string `json:"decision"`
	Outcome  string `json:"outcome,omitempty"`
	// Reasons are the policy's reasons; Capability the capability the
	// call was charged to, if any; DecisionID the audit's id.
	Reasons    []string `json:"reasons,omitempty"`
	Capability string   `json:"capability,omitempty"`
	DecisionID string   `json:"decision_id,omitempty"`
	// Result is the JSON result of a call that succeeded; ErrorKind and
	// Error what the script saw of one that failed or was refused.
	Result    json.RawMessage `json:"result,omitempty"`
	ErrorKind string          `json:"error_kind,omitempty"`
	Error     string          `json:"error,omitempty"`
	// ErrorReasons are the reasons the script's error carried.
	ErrorReasons []string `json:"error_reasons,omitempty"`
	// Duration is how long the call took, from the script's request to
	// its answer.
	Duration time.Duration `json:"duration_ns"`
}

// Output is what an execution produced.
type Output struct {
	Stdout   string          `json:"stdout"`
	Stderr   string          `json:"stderr"`
	Value    json.RawMessage `json:"value,omitempty"`
	ExitCode int             `json:"exit_code"`
	// Error is the kind of error that ended the execution early
	// ("timeout", "memory", ...), "" when it ran to its end.
	Error string `json:"error,omitempty"`
}

// Read decodes a trace and checks it: its version, its required fields
// and that its calls are numbered in order.
func Read(r io.Reader) (*Trace, error) {
	dec := json.NewDecoder(r)
	dec.DisallowUnknownFields()
	var t Trace
	if err := dec.Decode(&t); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrInvalid, err)
	}
	if dec.More() {
		return nil, fmt.Errorf("%w: data after the trace", ErrInvalid)
	}
	if err := t.Check(); err != nil {
		return nil, err
	}
	// Write indents the JSON it holds (params, results, the value) with
	// the rest of the document: compacting gives back the bytes that were
	// recorded, which are compact (canonical params, the results the
	// script got), so that a trace reads back as it was written.
	for i := range t.Calls {
		t.Calls[i].Params = compact(t.Calls[i].Params)
		t.Calls[i].Sent = compact(t.Calls[i].Sent)
		t.Calls[i].Result = compact(t.Calls[i].Result)
	}
	t.Output.Value = compact(t.Output.Value)
	return &t, nil
}

// compact returns raw without insignificant white space, or raw itself when
// it is empty or not JSON.
func compact(raw json.RawMessage) json.RawMessage {
	if len(raw) == 0 {
		return raw
	}
	var b bytes.Buffer
	if err := json.Compact(&b, raw); err != nil {
		return raw
	}
	return b.Bytes()
}

// Write encodes t, indented, after checking it.
func (t *Trace) Write(w io.Writer) error {
	if err := t.Check(); err != nil {
		return err
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(t)
}

// Check reports what is wrong with t, or nil.
func (t *Trace) Check() error {
	if t.Version != Version {
		return fmt.Errorf("%w %d (this cordon reads version %d)", ErrVersion, t.Version, Version)
	}
	switch t.Language {
	case "js", "sh":
	default:
		return fmt.Errorf("%w: language %q is not js or sh", ErrInvalid, t.Language)
	}
	for i, c := range t.Calls {
		if c.ID != i+1 {
			return fmt.Errorf("%w: call %d has id %d", ErrInvalid, i+1, c.ID)
		}
		if c.Method == "" {
			return fmt.Errorf("%w: call %d has no method", ErrInvalid, c.ID)
		}
		switch c.Decision {
		case "allow", "deny", "ask", "":
		default:
			return fmt.Errorf("%w: call %d: decision %q", ErrInvalid, c.ID, c.Decision)
		}
		if len(c.Params) > 0 && !json.Valid(c.Params) {
			return fmt.Errorf("%w: call %d: params are not JSON", ErrInvalid, c.ID)
		}
		if len(c.Sent) > 0 && !json.Valid(c.Sent) {
			return fmt.Errorf("%w: call %d: sent params are not JSON", ErrInvalid, c.ID)
		}
		if len(c.Result) > 0 && !json.Valid(c.Result) {
			return fmt.Errorf("%w: call %d: result is not JSON", ErrInvalid, c.ID)
		}
	}
	answered := make([]bool, len(t.Calls)+1)
	for i, group := range t.Answers {
		for _, id := range group {
			if id < 1 || id > len(t.Calls) {
				return fmt.Errorf("%w: answer group %d names call %d, which is not in the trace", ErrInvalid, i+1, id)
			}
			if answered[id] {
				return fmt.Errorf("%w: call %d is answered twice (answer group %d)", ErrInvalid, id, i+1)
			}
			answered[id] = true
		}
	}
	names := map[string]bool{}
	for i, tool := range t.Tools {
		if tool.Name == "" || names[tool.Name] {
			return fmt.Errorf("%w: tool %d: name %q is empty or repeated", ErrInvalid, i+1, tool.Name)
		}
		names[tool.Name] = true
	}
	if len(t.Output.Value) > 0 && !json.Valid(t.Output.Value) {
		return fmt.Errorf("%w: the output's value is not JSON", ErrInvalid)
	}
	return nil
}
