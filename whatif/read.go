package whatif

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"

	"github.com/cordonhq/cordon/engine"
	"github.com/cordonhq/cordon/trace"
)

// ErrInput is returned (wrapped) for a file that is neither a trace nor an
// audit log, or that holds a record this package cannot read; the message
// names the file and, for an audit log, the line.
var ErrInput = errors.New("whatif: bad input")

// maxInputBytes bounds the size of one input file.
const maxInputBytes = 1 << 30

// auditMsg is the message of the engine's audit log lines (`cordon run
// --log`).
const auditMsg = "cordon: tool call decision"

// ReadFile reads the recorded decisions of a trace or an audit log (see
// [Read]).
func ReadFile(name string) ([]Record, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, fmt.Errorf("whatif: %w", err)
	}
	defer f.Close()
	return Read(f, name)
}

// Read reads the recorded decisions of a trace (package trace) or of an
// audit log (the JSON lines `cordon run --log` writes), telling them apart
// by their content; name names the input in sources and errors.
//
// In an audit log, a line that does not start with "{" is other output
// (the script's stderr, the compile progress) and is passed over, as is a
// JSON line with another message; a decision line that cannot be read is
// an error that names its line. Only the policy's decisions (allow, deny,
// ask) become records: an approval keeps an ask as it is, a refusal marks
// the ask it answers (the last one of the session with the same method
// and params) refused, and failed and superseded records are context. A
// log excerpts params larger than 4 KiB (engine.Excerpt): such a call is
// kept, marked to be skipped. Each record's counters are those of its
// file and session ([Record.Counters]). A log records neither the session's labels
// and principal nor the script's language.
func Read(r io.Reader, name string) ([]Record, error) {
	b, err := io.ReadAll(io.LimitReader(r, maxInputBytes+1))
	if err != nil {
		return nil, fmt.Errorf("whatif: reading %s: %w", name, err)
	}
	if len(b) > maxInputBytes {
		return nil, fmt.Errorf("%w: %s is larger than %d bytes", ErrInput, name, maxInputBytes)
	}
	if isTrace(b) {
		return readTrace(b, name)
	}
	return readLog(b, name)
}

// isTrace reports whether b looks like a trace: a JSON object that does
// not fit on its first line (traces are written indented), or a one-line
// object with a version and calls.
func isTrace(b []byte) bool {
	b = bytes.TrimLeft(b, " \t\r\n")
	if len(b) == 0 || b[0] != '{' {
		return false
	}
	first, _, _ := bytes.Cut(b, []byte("\n"))
	var probe map[string]json.RawMessage
	if err := json.Unmarshal(first, &probe); err != nil {
		// Not a whole object on the first line: an indented document,
		// unless the line is a broken audit record.
		return !json.Valid(first) && !bytes.Contains(first, []byte(`"msg":`))
	}
	_, hasMsg := probe["msg"]
	_, hasVersion := probe["version"]
	_, hasCalls := probe["calls"]
	return !hasMsg && hasVersion && hasCalls
}

func readTrace(b []byte, name string) ([]Record, error) {
	var syn *json.SyntaxError
	var v any
	if err := json.Unmarshal(b, &v); errors.As(err, &syn) {
		return nil, fmt.Errorf("%w: %s:%d: not a valid trace: %v", ErrInput, name, lineAt(b, syn.Offset), err)
	}
	t, err := trace.Read(bytes.NewReader(b))
	if err != nil {
		return nil, fmt.Errorf("%w: %s: %w", ErrInput, name, err)
	}
	var out []Record
	for _, c := range t.Calls {
		if c.Decision == "" {
			continue // refused before the policy saw it
		}
		out = append(out, Record{
			Source:   name + "#call " + strconv.Itoa(c.ID),
			Session:  t.Session,
			Counters: name + "\x00" + t.Session,
			// The revision when the execution started: a policy
			// swapped in meanwhile (package fleet) is not told.
			PolicyRevision: t.PolicyRevision,
			Labels:         t.Labels,
			Principal:      t.Principal,
			Language:       orString(c.Language, t.Language),
			Method:         c.Method,
			Params:         c.Params,
			Decision:       c.Decision,
			Refused:        c.Decision == Ask && c.Outcome == "refused",
			Reasons:        c.Reasons,
			Capability:     c.Capability,
		})
	}
	return out, nil
}

func orString(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// lineAt returns the line, from 1, of offset off in b.
func lineAt(b []byte, off int64) int {
	if off > int64(len(b)) {
		off = int64(len(b))
	}
	return bytes.Count(b[:max(off, 0)], []byte("\n")) + 1
}

// logLine is the part of an audit log line that a replay reads.
type logLine struct {
	Msg        string          `json:"msg"`
	Session    string          `json:"session"`
	Method     string          `json:"method"`
	Decision   string          `json:"decision"`
	Reasons    []string        `json:"reasons"`
	Capability string          `json:"capability"`
	Params     *engine.Excerpt `json:"params"`
	Revision   string          `json:"policy_revision"`
}

func readLog(b []byte, name string) ([]Record, error) {
	var out []Record
	lines := 0
	for n := 1; len(b) > 0; n++ {
		var line []byte
		line, b, _ = bytes.Cut(b, []byte("\n"))
		line = bytes.TrimSpace(line)
		if len(line) == 0 || line[0] != '{' {
			continue
		}
		var l logLine
		if err := json.Unmarshal(line, &l); err != nil {
			return nil, fmt.Errorf("%w: %s:%d: not an audit record: %v", ErrInput, name, n, err)
		}
		if l.Msg != auditMsg {
			continue
		}
		lines++
		src := name + ":" + strconv.Itoa(n)
		if l.Method == "" {
			return nil, fmt.Errorf("%w: %s: audit record without a method", ErrInput, src)
		}
		switch l.Decision {
		case Allow, Deny, Ask:
		case "refused":
			for i := len(out) - 1; i >= 0; i-- {
				o := &out[i]
				if o.Session == l.Session && o.Method == l.Method && o.Decision == Ask && !o.Refused && sameParams(o, l.Params) {
					o.Refused = true
					break
				}
			}
			continue
		case "approved", "failed", "superseded":
			continue
		default:
			return nil, fmt.Errorf("%w: %s: unknown decision %q (want allow, deny, ask, approved, refused, failed or superseded)", ErrInput, src, l.Decision)
		}
		rec := Record{Source: src, Session: l.Session, Counters: name + "\x00" + l.Session, PolicyRevision: l.Revision, Method: l.Method, Decision: l.Decision, Reasons: l.Reasons, Capability: l.Capability}
		if e := l.Params; e != nil && e.Bytes > 0 {
			switch {
			case len(e.JSON) > 0 && json.Valid(e.JSON):
				rec.Params = e.JSON
			default:
				rec.Skip = "params not recorded whole"
			}
		}
		out = append(out, rec)
	}
	if lines == 0 {
		return nil, fmt.Errorf("%w: %s is neither a trace nor an audit log (no line with \"msg\":%q)", ErrInput, name, auditMsg)
	}
	return out, nil
}

// sameParams reports whether a record's params are those a log line's
// excerpt describes.
func sameParams(r *Record, e *engine.Excerpt) bool {
	if e == nil || e.Bytes == 0 {
		return len(r.Params) == 0
	}
	if r.Skip != "" {
		return true // both excerpted: the method must do
	}
	return engine.NewExcerpt(r.Params, 1).SHA256 == e.SHA256
}
