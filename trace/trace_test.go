package trace_test

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/cordonhq/cordon/trace"
)

func TestRoundTrip(t *testing.T) {
	tr := &trace.Trace{Version: trace.Version, Language: "js", Code: "return 1", PolicyRevision: "r1",
		Calls: []trace.Call{{ID: 1, Method: "a/b", Params: []byte(`{"x":1}`), Decision: "allow", Result: []byte(`2`)}},
		Clock: []int64{1}, Random: [][]byte{{1, 2}},
		Output: trace.Output{Stdout: "1\n", Value: []byte(`1`)}}
	var b bytes.Buffer
	if err := tr.Write(&b); err != nil {
		t.Fatal(err)
	}
	written := b.String()
	got, err := trace.Read(&b)
	if err != nil {
		t.Fatal(err)
	}
	if got.Calls[0].Method != "a/b" || string(got.Random[0]) != "\x01\x02" || got.Output.Stdout != "1\n" {
		t.Fatalf("%+v", got)
	}
	// The JSON a trace holds reads back byte for byte, though Write
	// indents it.
	if !strings.Contains(written, "\"x\": 1") {
		t.Fatalf("Write did not indent the params:\n%s", written)
	}
	if string(got.Calls[0].Params) != `{"x":1}` || string(got.Calls[0].Result) != `2` || string(got.Output.Value) != `1` {
		t.Errorf("params %s, result %s, value %s", got.Calls[0].Params, got.Calls[0].Result, got.Output.Value)
	}
}

func TestReadRefuses(t *testing.T) {
	for doc, want := range map[string]error{
		`{"version": 2, "language": "js"}`:                                                             trace.ErrVersion,
		`{"version": 1, "language": "py"}`:                                                             trace.ErrInvalid,
		`{"version": 1, "language": "js", "calls": [{"id": 2, "method": "a"}]}`:                        trace.ErrInvalid,
		`{"version": 1, "language": "js", "calls": [{"id": 1, "method": "a", "decision": "maybe"}]}`:   trace.ErrInvalid,
		`{"version": 1, "language": "js", "extra": 1}`:                                                 trace.ErrInvalid,
		`{"version": 1, "language": "js"} {}`:                                                          trace.ErrInvalid,
		`not json`:                                                                                     trace.ErrInvalid,
		`{"version": 1, "language": "js", "calls": [{"id": 1, "method": "a"}], "answers": [[2]]}`:      trace.ErrInvalid,
		`{"version": 1, "language": "js", "calls": [{"id": 1, "method": "a"}], "answers": [[1], [1]]}`: trace.ErrInvalid,
		`{"version": 1, "language": "js", "tools": [{"name": "a"}, {"name": "a"}]}`:                    trace.ErrInvalid,
		`{"version": 1, "language": "js", "tools": [{"name": ""}]}`:                                    trace.ErrInvalid,
	} {
		if _, err := trace.Read(strings.NewReader(doc)); !errors.Is(err, want) {
			t.Errorf("%s: %v, want %v", doc, err, want)
		}
	}
}

// FuzzRead: a document Read accepts writes and reads back to the same
// trace; any other gives an error that matches ErrInvalid or ErrVersion.
// Read never panics.
func FuzzRead(f *testing.F) {
	f.Add([]byte(`{"version": 1, "language": "js", "code": "return 1", "policy_revision": "r",
		"calls": [{"id": 1, "method": "a/b", "params": {"x": 1}, "sent": {"u": "v"}, "decision": "allow", "result": 2, "error_reasons": ["r"]}],
		"answers": [[1]], "tools": [{"name": "a/b", "labels": ["x"]}], "clock": [1], "random": ["AQI="],
		"output": {"stdout": "1\n", "value": 1}}`))
	f.Add([]byte(`{"version": 1, "language": "sh", "calls": [], "output": {"stdout": ""}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		tr, err := trace.Read(bytes.NewReader(data))
		if err != nil {
			if !errors.Is(err, trace.ErrInvalid) && !errors.Is(err, trace.ErrVersion) {
				t.Fatalf("Read: %v matches neither ErrInvalid nor ErrVersion", err)
			}
			return
		}
		var b bytes.Buffer
		if err := tr.Write(&b); err != nil {
			t.Fatalf("a trace Read accepted does not write: %v", err)
		}
		written := b.String()
		again, err := trace.Read(&b)
		if err != nil {
			t.Fatalf("a written trace does not read: %v\n%s", err, written)
		}
		var b2 bytes.Buffer
		if err := again.Write(&b2); err != nil || b2.String() != written {
			t.Fatalf("a trace changed on a second round trip (%v):\n%s\n%s", err, written, b2.String())
		}
	})
}
