package codemode

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/cordonhq/cordon/engine"
)

// Result is the outcome of one run, as the model sees it. Its JSON form
// is what the MCP server sends as structured content; Text is the same
// for a model that reads text.
type Result struct {
	// Stdout and Stderr are the script's output, each cut as Text cuts it.
	// Stdout leaves out the line a JavaScript script's return value
	// printed at its end: that is Value.
	Stdout string `json:"stdout"`
	Stderr string `json:"stderr"`
	// ExitCode is 0 when the script ended well: 1 for an uncaught
	// JavaScript error, a shell script's status, 2 for malformed
	// arguments.
	ExitCode int `json:"exit_code"`
	// Value is the JSON of the value a JavaScript script returned, or nil
	// (JSON null) when it returned nothing, or when the value was longer
	// than the budget allowed (Cut then names the file that holds it).
	Value json.RawMessage `json:"value"`
	// Error says why the script failed or was stopped, or is nil. Kind is
	// "exception" for an uncaught JavaScript error, KindArguments for
	// malformed arguments, and otherwise an [engine.Kind]: "timeout",
	// "output", "tool_calls", "quota", "recursion", "memory", "crash",
	// "canceled", "closed".
	Error *Error `json:"error,omitempty"`
	// ToolCalls lists every tool call the script made, allowed or not, in
	// the order it made them.
	ToolCalls []ToolCall `json:"tool_calls"`
	// Cut is set when Stdout, Stderr or Value was cut to the budget.
	Cut *Cut `json:"cut,omitempty"`
	// Notes tell the model about its session: that its sandbox was
	// replaced, say.
	Notes []string `json:"notes,omitempty"`
	// Pause is set when the run waits for approval (Start); the other
	// fields are then empty.
	Pause *Pause `json:"pause,omitempty"`

	valueText string // Value as the text shows it (as it was printed)
	budget    int    // the budget the parts that are not streams keep to
	text      string
}

// KindArguments is the [Error.Kind] of malformed arguments
// ([engine.KindArguments]).
const KindArguments = engine.KindArguments

// Error is why a run failed.
type Error struct {
	Kind    engine.Kind `json:"kind"`
	Message string      `json:"message"`
}

// Error returns the kind and the message, so that an *Error is an error.
func (e *Error) Error() string { return "codemode: " + string(e.Kind) + ": " + e.Message }

// ToolCall is one tool call of a run, in brief.
type ToolCall struct {
	Method  string `json:"method"`
	Allowed bool   `json:"allowed"`
	// Reasons say why a call was denied (or, for an allowed call, what
	// the policy noted).
	Reasons []string `json:"reasons"`
	// Error is the message the script saw when the call failed or was
	// denied.
	Error string `json:"error,omitempty"`
}

// Cut says what was cut from a Result.
type Cut struct {
	// Bytes is how many bytes were left out, in all.
	Bytes int `json:"bytes"`
	// Files are the files of the session's sandbox that hold the whole
	// stdout, stderr or value; empty when nothing could be saved.
	Files []string `json:"files,omitempty"`
}

// IsError reports whether the run failed: an uncaught error, a non-zero
// exit status, a limit that stopped the script, malformed arguments. A run
// whose tool calls were denied or failed is not an error unless the script
// then failed. A paused run is not an error.
func (r *Result) IsError() bool { return r.Error != nil || r.ExitCode != 0 }

// Text returns the result written for a model to read, within the
// budget: stdout, then stderr and the error, if any, the returned value,
// and the tool calls that were denied or failed, with their reasons. Each
// part has a header line in brackets ("[stdout]"); a run that printed
// nothing and returned nothing reads "[no output]".
func (r *Result) Text() string {
	if r.text == "" {
		r.text = render(r)
	}
	return r.text
}

// Limits on the parts of a text that are not cut like a stream.
const (
	maxListedCalls = 10
	maxCallLine    = 300
	maxParamsShown = 200
)

// render writes r as text; its streams are already cut.
func render(r *Result) string {
	var b strings.Builder
	section := func(header, body string) {
		if body == "" {
			return
		}
		b.WriteString(header)
		b.WriteByte('\n')
		b.WriteString(body)
		if !strings.HasSuffix(body, "\n") {
			b.WriteByte('\n')
		}
	}
	section("[stdout]", r.Stdout)
	section("[stderr]", r.Stderr)
	b.WriteString(r.fixedText())
	value := r.valueText
	if value == "" && r.Value != nil {
		value = printedValue(r.Value)
	}
	section("[returned]", value)
	b.WriteString(r.listText())
	if b.Len() == 0 {
		return "[no output]\n"
	}
	return b.String()
}

// fixedText is the error, the exit status, the notes and the pause.
func (r *Result) fixedText() string {
	var b strings.Builder
	if r.Error != nil {
		fmt.Fprintf(&b, "[error] %s: %s\n", r.Error.Kind, clip(r.Error.Message, r.partBudget()))
	}
	if r.ExitCode != 0 && r.Error == nil {
		fmt.Fprintf(&b, "[exit status] %d\n", r.ExitCode)
	}
	for _, n := range r.Notes {
		fmt.Fprintf(&b, "[note] %s\n", n)
	}
	if p := r.Pause; p != nil {
		fmt.Fprintf(&b, "[paused] the script waits for approval of %d tool call(s):\n", len(p.Asks))
		for _, a := range p.Asks {
			line := fmt.Sprintf("- %s %s: %s", a.Method, clip(string(a.Params), maxParamsShown), strings.Join(a.Reasons, "; "))
			b.WriteString(clip(line, maxCallLine))
			b.WriteByte('\n')
		}
	}
	return b.String()
}

// listText is the compact list of denied and failed calls.
func (r *Result) listText() string {
	var bad []ToolCall
	for _, c := range r.ToolCalls {
		if !c.Allowed || c.Error != "" {
			bad = append(bad, c)
		}
	}
	if len(bad) == 0 {
		return ""
	}
	var b strings.Builder
	fmt.Fprintf(&b, "[tool calls denied or failed: %d of %d]\n", len(bad), len(r.ToolCalls))
	for i, c := range bad {
		var line string
		switch {
		case !c.Allowed && len(c.Reasons) > 0:
			line = fmt.Sprintf("- %s denied: %s", c.Method, strings.Join(c.Reasons, "; "))
		case !c.Allowed:
			line = fmt.Sprintf("- %s denied: %s", c.Method, c.Error)
		default:
			line = fmt.Sprintf("- %s failed: %s", c.Method, c.Error)
		}
		line = clip(line, maxCallLine) + "\n"
		if i == maxListedCalls || b.Len()+len(line) > r.partBudget() {
			fmt.Fprintf(&b, "- and %d more\n", len(bad)-i)
			break
		}
		b.WriteString(line)
	}
	return b.String()
}

// partBudget is the most bytes the error message, and the list of calls,
// may take: a fifth of the budget each.
func (r *Result) partBudget() int {
	if r.budget <= 0 {
		return DefaultBudget / 5
	}
	return r.budget / 5
}

// clip cuts s to at most n bytes, at a rune boundary, ending with "…".
func clip(s string, n int) string {
	s = strings.ReplaceAll(s, "\n", " ")
	if len(s) <= n {
		return s
	}
	cut := n - len("…")
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}

// finish turns the engine's result into the model's: it classifies err,
// leaves the printed value out of stdout, cuts the streams to the budget
// and saves what it cut in the sandbox.
func (s *shared) finish(ctx context.Context, ss *session, sb *engine.Sandbox, lang engine.Language, er *engine.Result, err error) (*Result, error) {
	if er == nil {
		er = &engine.Result{ExitCode: 1}
	}
	r := &Result{Stdout: er.Stdout, Stderr: er.Stderr, ExitCode: er.ExitCode, Value: er.Value, ToolCalls: make([]ToolCall, 0, len(er.ToolCalls))}
	for _, c := range er.ToolCalls {
		tc := ToolCall{Method: c.Method, Allowed: c.Allowed, Reasons: c.Reasons, Error: c.Error}
		if tc.Reasons == nil {
			tc.Reasons = []string{}
		}
		r.ToolCalls = append(r.ToolCalls, tc)
	}
	var goErr error
	var ee *engine.Error
	switch {
	case err == nil:
		if er.Exception != "" {
			r.Error = &Error{Kind: engine.KindException, Message: er.Exception}
		}
	case errors.As(err, &ee):
		msg := ee.Message
		if ee.Err != nil {
			msg += ": " + ee.Err.Error()
		}
		r.Error = &Error{Kind: ee.Kind, Message: msg}
		switch ee.Kind {
		case engine.KindCanceled, engine.KindClosed, engine.KindInvalid, engine.KindInternal:
			goErr = err
		}
	default:
		r.Error = &Error{Kind: engine.KindInternal, Message: err.Error()}
		goErr = err
	}
	if r.Error != nil && r.ExitCode == 0 {
		r.ExitCode = 1
	}

	ss.mu.Lock()
	if ss.closed && goErr != nil {
		goErr = fmt.Errorf("%w: %w", errSessionClosed, goErr)
	}
	if ss.reset != "" {
		r.Notes = append(r.Notes, ss.reset)
		ss.reset = ""
	}
	broken := false
	if ss.sb == sb && sb.Err() != nil && !ss.closed {
		// Out of memory, say: the next call gets a new sandbox.
		broken = true
		ss.sb = nil
		r.Notes = append(r.Notes, "the sandbox broke and was closed: the next call runs in a new, empty sandbox, and the files written so far are gone")
	}
	ss.mu.Unlock()
	if broken {
		_ = sb.Close(ctx)
	}

	printed := ""
	if lang == engine.JavaScript && r.Value != nil {
		printed = printedValue(r.Value)
		r.Stdout = strings.TrimSuffix(r.Stdout, printed+"\n")
	}
	r.valueText = printed
	r.budget = s.cfg.budget
	s.fit(ctx, ss, sb, r)
	r.text = render(r)
	return r, goErr
}

// printedValue is how the guest printed a returned value: a string raw,
// anything else as its JSON.
func printedValue(v json.RawMessage) string {
	var str string
	if len(v) > 0 && v[0] == '"' && json.Unmarshal(v, &str) == nil {
		return str
	}
	return string(v)
}

// stream is one part of a Result that may be cut.
type stream struct {
	name string  // "stdout", "stderr", "value"
	ext  string  // the spill file's extension
	text *string // the part, in place
}

// fit cuts r's stdout, stderr and value so that its text fits the budget,
// and saves each part it cuts to a file of the session's sandbox.
func (s *shared) fit(ctx context.Context, ss *session, sb *engine.Sandbox, r *Result) {
	valueExt := ".value.json"
	if len(r.Value) > 0 && r.Value[0] == '"' {
		valueExt = ".value.txt"
	}
	streams := []stream{
		{"stdout", ".stdout.txt", &r.Stdout},
		{"stderr", ".stderr.txt", &r.Stderr},
		{"value", valueExt, &r.valueText},
	}
	// What is not cut: the error, the notes, the list of calls, and a
	// header and a newline for each stream.
	fixed := len(r.fixedText()) + len(r.listText())
	for _, st := range streams {
		if *st.text != "" {
			fixed += len(st.header()) + 2
		}
	}
	avail := max(s.cfg.budget-fixed, 0)
	sizes := make([]int, len(streams))
	for i, st := range streams {
		sizes[i] = len(*st.text)
	}
	allot := waterfill(sizes, avail)

	var cutIdx []int
	for i := range streams {
		if sizes[i] > allot[i] {
			cutIdx = append(cutIdx, i)
		}
	}
	if len(cutIdx) == 0 {
		return
	}
	// Save the whole of each part that is cut, then cut it.
	where := make([]string, len(streams))
	saved := make([]string, len(streams))
	switch {
	case s.cfg.spillDir == "":
		for _, i := range cutIdx {
			where[i] = "it was not kept"
		}
	case sb.Err() != nil:
		for _, i := range cutIdx {
			where[i] = "it could not be saved, as the sandbox broke"
		}
	default:
		ss.mu.Lock()
		slot := ss.spill%spillSlots + 1
		ss.spill++
		ss.mu.Unlock()
		var files []engine.File
		for _, i := range cutIdx {
			p := path.Join(s.cfg.spillDir, "out-"+strconv.Itoa(slot)+streams[i].ext)
			files = append(files, engine.File{Path: p, Mode: 0o644, Data: []byte(*streams[i].text)})
			saved[i] = p
		}
		if err := sb.PutFiles(ctx, files); err != nil {
			for _, i := range cutIdx {
				where[i] = "it could not be saved: " + clip(err.Error(), 200)
				saved[i] = ""
			}
		} else {
			for _, i := range cutIdx {
				where[i] = "all of it is in " + saved[i]
			}
		}
	}
	r.Cut = &Cut{}
	for _, i := range cutIdx {
		kept, n := cutText(*streams[i].text, allot[i], streams[i].name, where[i])
		r.Cut.Bytes += n
		*streams[i].text = kept
		if saved[i] != "" {
			r.Cut.Files = append(r.Cut.Files, saved[i])
		}
		if streams[i].name == "value" {
			r.Value = nil // a cut value is no longer JSON
		}
	}
}

func (st stream) header() string {
	if st.name == "value" {
		return "[returned]"
	}
	return "[" + st.name + "]"
}

// waterfill shares avail bytes among parts of the given sizes: parts that
// fit in an equal share keep their size, and the rest share what is left.
func waterfill(sizes []int, avail int) []int {
	allot := make([]int, len(sizes))
	open := 0
	for _, n := range sizes {
		if n > 0 {
			open++
		}
	}
	done := make([]bool, len(sizes))
	for open > 0 {
		share := avail / open
		progressed := false
		for i, n := range sizes {
			if done[i] || n == 0 {
				continue
			}
			if n <= share {
				allot[i], done[i] = n, true
				avail -= n
				open--
				progressed = true
			}
		}
		if !progressed {
			for i, n := range sizes {
				if !done[i] && n > 0 {
					allot[i], done[i] = share, true
				}
			}
			break
		}
	}
	return allot
}

// marker is the line that stands where bytes were cut.
func marker(name string, cut, total int, where string) string {
	return fmt.Sprintf("\n[cordon cut %d of the %d bytes of %s here; %s]\n", cut, total, name, where)
}

// cutText cuts s to at most n bytes, marker included: the start and the
// end of s, each ending or starting at a line break where one is near,
// around a marker that says how much was cut and where the whole is. It
// returns the text and how many bytes of s it left out.
func cutText(s string, n int, name, where string) (string, int) {
	m := marker(name, len(s), len(s), where)
	keep := n - len(m)
	if keep <= 0 {
		return strings.TrimPrefix(m, "\n"), len(s)
	}
	head, tail := keep/2, keep-keep/2
	h := s[:head]
	if i := strings.LastIndexByte(h, '\n'); i >= 0 && i >= head*3/4 {
		h = h[:i+1]
	}
	for len(h) > 0 && !utf8.RuneStart(s[len(h)]) {
		h = h[:len(h)-1]
	}
	t := s[len(s)-tail:]
	if i := strings.IndexByte(t, '\n'); i >= 0 && i < tail/4 {
		t = t[i+1:]
	}
	for len(t) > 0 && !utf8.RuneStart(t[0]) {
		t = t[1:]
	}
	cut := len(s) - len(h) - len(t)
	mm := marker(name, cut, len(s), where)
	if strings.HasSuffix(h, "\n") || h == "" {
		mm = strings.TrimPrefix(mm, "\n")
	}
	return h + mm + t, cut
}
