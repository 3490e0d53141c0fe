package abi

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestRoundTrip(t *testing.T) {
	reqs := []*Request{
		{Op: OpSetup, Setup: &Setup{Tools: []ToolInfo{
			{Name: "a/b", Description: "d", Schema: []byte(`{}`), OutputSchema: []byte(`{"type":"object"}`)},
			{Name: "c", Schema: []byte(`{"type":"object"}`), OutputSchema: []byte{}}, // none: decodes as empty
		}, VFSMaxBytes: 10, VFSMaxFiles: 3, MaxCallDepth: 7}},
		{Op: OpExec, Exec: &Exec{Lang: LangJS, Name: "x.js", Code: "return 1"}},
		{Op: OpPutFiles, Files: []File{{Path: "/workspace/a", Mode: 0o644, ModTime: 5, Data: []byte("hi")}}},
		{Op: OpGetFiles, Path: "/workspace"},
		{Op: OpWarm},
		{Op: OpPrepare},
	}
	for _, r := range reqs {
		got, err := DecodeRequest(EncodeRequest(nil, r))
		if err != nil || !reflect.DeepEqual(got, r) {
			t.Errorf("request %d: got %+v, %v", r.Op, got, err)
		}
	}
	resp := &Response{Status: StatusError, ErrCode: "ENOENT", ErrMsg: "m", ExitCode: -1, HasValue: true, Value: []byte("1"), Files: []File{{Path: "p", Data: []byte("x")}}}
	if got, err := DecodeResponse(EncodeResponse(nil, resp)); err != nil || !reflect.DeepEqual(got, resp) {
		t.Errorf("response: %+v %v", got, err)
	}
	calls := []Call{{ID: 1, Method: "m", Params: []byte(`{}`)}, {ID: 2, Method: "n", Params: []byte(`{"a":1}`)}}
	if got, err := DecodeCalls(EncodeCalls(nil, calls)); err != nil || !reflect.DeepEqual(got, calls) {
		t.Errorf("calls: %+v %v", got, err)
	}
	res := &Resume{Stop: true, Results: []CallResult{{ID: 1, OK: true, Value: []byte("2")}, {ID: 2, ErrKind: "denied", ErrMsg: "no", Reasons: []string{"a", "b"}}}}
	if got, err := DecodeResume(EncodeResume(nil, res)); err != nil || got.Stop != res.Stop || len(got.Results) != 2 ||
		string(got.Results[0].Value) != "2" || !reflect.DeepEqual(got.Results[1].Reasons, res.Results[1].Reasons) || got.Results[1].ErrMsg != "no" {
		t.Errorf("resume: %+v %v", got, err)
	}
}

func TestMalformed(t *testing.T) {
	for _, b := range [][]byte{
		nil,
		{99},                             // unknown op
		{OpExec, 5, 0, 0, 0, 'j'},        // string longer than the rest
		{OpGetFiles, 0, 0, 0, 0, 1},      // trailing byte
		{OpPutFiles, 255, 255, 255, 255}, // forged count
	} {
		if _, err := DecodeRequest(b); !errors.Is(err, ErrMalformed) {
			t.Errorf("%v: err %v", b, err)
		}
	}
	if _, err := DecodeCalls([]byte{255, 255, 255, 15}); !errors.Is(err, ErrMalformed) {
		t.Errorf("forged call count: %v", err)
	}
	if _, err := DecodeResume([]byte{2, 0, 0, 0, 0}); !errors.Is(err, ErrMalformed) {
		t.Errorf("bad bool: %v", err)
	}
}

// FuzzDecode feeds arbitrary bytes to every decoder: they must return an
// error or a value, never panic, and what they decode must re-encode to
// the same bytes.
func FuzzDecode(f *testing.F) {
	f.Add(EncodeRequest(nil, &Request{Op: OpExec, Exec: &Exec{Lang: "js", Code: "1"}}))
	f.Add(EncodeCalls(nil, []Call{{ID: 1, Method: "m", Params: []byte("{}")}}))
	f.Add(EncodeResume(nil, &Resume{Results: []CallResult{{ID: 1, Reasons: []string{"r"}}}}))
	f.Add(EncodeResponse(nil, &Response{Files: []File{{Path: "p"}}}))
	f.Fuzz(func(t *testing.T, b []byte) {
		if r, err := DecodeRequest(b); err == nil {
			if got := EncodeRequest(nil, r); string(got) != string(b) {
				t.Errorf("request re-encodes differently")
			}
		}
		if c, err := DecodeCalls(b); err == nil {
			if got := EncodeCalls(nil, c); string(got) != string(b) {
				t.Errorf("calls re-encode differently")
			}
		}
		if r, err := DecodeResume(b); err == nil {
			if got := EncodeResume(nil, r); string(got) != string(b) {
				t.Errorf("resume re-encodes differently")
			}
		}
		if r, err := DecodeResponse(b); err == nil {
			if got := EncodeResponse(nil, r); string(got) != string(b) {
				t.Errorf("response re-encodes differently")
			}
		}
	})
}

func TestToolNames(t *testing.T) {
	for _, ok := range []string{"a", "stripe/charges/create", "db/read_x", "a-b.c:d/e"} {
		if err := ValidateToolName(ok); err != nil {
			t.Errorf("%q: %v", ok, err)
		}
	}
	for _, bad := range []string{"", "/a", "a/", "a//b", "a b", "a/é", "JSON", "console/log", "fs", "Object/x"} {
		if err := ValidateToolName(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
	if FlatName("stripe/charges.v2/create-x:y") != "stripe_charges_v2_create_x_y" || FlatName("1a/b") != "_1a_b" {
		t.Error("FlatName")
	}
}

// TestSetupOutputSchema: each tool's output schema travels after its input
// schema, and a setup written without it (the layout before) is refused
// rather than read with its fields shifted.
func TestSetupOutputSchema(t *testing.T) {
	in := &Request{Op: OpSetup, Setup: &Setup{Tools: []ToolInfo{{Name: "t", Schema: []byte(`{"type":"object"}`), OutputSchema: []byte(`{"type":"array"}`)}}}}
	got, err := DecodeRequest(EncodeRequest(nil, in))
	if err != nil || len(got.Setup.Tools) != 1 || string(got.Setup.Tools[0].Schema) != `{"type":"object"}` || string(got.Setup.Tools[0].OutputSchema) != `{"type":"array"}` {
		t.Fatalf("got %+v, %v", got, err)
	}
	e := NewEncoder(nil)
	e.U8(OpSetup)
	e.U32(1)
	e.String("t")
	e.String("")
	e.Bytes32([]byte(`{}`))
	e.I64(1)
	e.I64(2)
	e.U32(3)
	if _, err := DecodeRequest(e.Bytes()); !errors.Is(err, ErrMalformed) {
		t.Errorf("a setup without output schemas: %v", err)
	}
}

// A body goes as text when it is short, or when its JSON string is at most
// half as long again as the body; jsonStringLen agrees with encoding/json.
func TestFetchSetBody(t *testing.T) {
	for _, c := range []struct {
		body string
		text bool
	}{
		{"", false},
		{"hello, world", true},
		{`{"a": [1, 2, "x\ny"]}`, true},
		{strings.Repeat("\x00", 100), true}, // short: always text
		{strings.Repeat("\x00", 20000), false},
		{strings.Repeat("<p>&amp;</p>", 5000), false},
		{strings.Repeat("a <b> and some more plain text here", 1000), true},
		{"\xff\xfe", false},
		{"é\u2028ü", true},
	} {
		var r FetchRequest
		r.SetBody([]byte(c.body))
		if got := r.Body != ""; got != c.text || (r.Body == "" && r.BodyBase64 == "" && c.body != "") {
			t.Errorf("%q: Body %q BodyBase64 %q, want text %v", c.body, r.Body, r.BodyBase64, c.text)
		}
		if utf8.ValidString(c.body) {
			b, _ := json.Marshal(c.body)
			if n := jsonStringLen([]byte(c.body)); n != len(b) {
				t.Errorf("%q: jsonStringLen %d, encoding/json writes %d bytes", c.body, n, len(b))
			}
		}
	}
}

func FuzzJSONStringLen(f *testing.F) {
	f.Add("a\x00<\u2028\"\\")
	f.Fuzz(func(t *testing.T, s string) {
		if !utf8.ValidString(s) {
			return
		}
		b, _ := json.Marshal(s)
		if n := jsonStringLen([]byte(s)); n != len(b) {
			t.Fatalf("%q: jsonStringLen %d, encoding/json writes %d bytes", s, n, len(b))
		}
	})
}
