package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/cordonhq/cordon/engine"
)

// jsonCall is a tool call of --json, with params and result left raw.
type jsonCall struct {
	Method        string          `json:"method"`
	Params        json.RawMessage `json:"params"`
	ParamsExcerpt bool            `json:"params_excerpt"`
	Result        json.RawMessage `json:"result"`
	ResultExcerpt bool            `json:"result_excerpt"`
	Error         *string         `json:"error"`
}

func decodeCalls(t *testing.T, stdout string) []jsonCall {
	t.Helper()
	var out struct {
		ToolCalls []jsonCall `json:"tool_calls"`
	}
	if err := json.Unmarshal([]byte(stdout), &out); err != nil {
		t.Fatalf("%v: %.300s", err, stdout)
	}
	return out.ToolCalls
}

func hexSHA(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

// In --json, a tool call's params and result larger than the record size
// are replaced by an excerpt that keeps their size and SHA-256, and the
// call says so; small ones print in place. Before, 1000 calls of 1 MiB
// params printed 207 MiB.
func TestRunJSONBoundsToolCalls(t *testing.T) {
	const calls, body = 20, 200_000
	script := fmt.Sprintf(`await weather.current({city: "SF"})
for (let i = 0; i < %d; i++) await email.send({to: "a@example.com", subject: "s" + i, body: "x".repeat(%d)})`, calls, body)
	code, stdout, stderr := cli(t, "", "run", "--json", "-e", script)
	if code != 0 {
		t.Fatalf("exit %d stderr %q", code, stderr)
	}
	// Each cut value prints at most the default 4096 bytes of text (twice
	// that escaped) and a few dozen bytes of size and hash.
	if max := 2 * calls * (2*engine.DefaultExcerptBytes + 200); len(stdout) > max {
		t.Fatalf("--json printed %d bytes for %d calls of %d bytes; want at most %d", len(stdout), calls, body, max)
	}
	tcs := decodeCalls(t, stdout)
	if len(tcs) != calls+1 {
		t.Fatalf("%d tool calls", len(tcs))
	}
	if small := tcs[0]; string(small.Params) != `{"city":"SF"}` || small.ParamsExcerpt || small.ResultExcerpt || !strings.Contains(string(small.Result), `"temp":72`) {
		t.Errorf("small call %+v", small)
	}
	if strings.Contains(stdout[:strings.Index(stdout, `"email/send"`)], "_excerpt") {
		t.Errorf("a small call has an excerpt flag: %.400s", stdout)
	}
	var ex engine.Excerpt
	for _, tc := range tcs[1:] {
		if !tc.ParamsExcerpt || !tc.ResultExcerpt || tc.Error != nil {
			t.Fatalf("large call %.300s", fmt.Sprintf("%+v", tc))
		}
		for _, v := range []json.RawMessage{tc.Params, tc.Result} {
			if err := json.Unmarshal(v, &ex); err != nil || !ex.Truncated || ex.JSON != nil || len(ex.Text) > engine.DefaultExcerptBytes || ex.Bytes < body || len(ex.SHA256) != 64 {
				t.Fatalf("excerpt %.300s: %v", v, err)
			}
		}
	}
	// The excerpt's size and hash are those of the whole params, which a
	// larger --max-record-bytes prints in place.
	json.Unmarshal(tcs[1].Params, &ex)
	_, full, _ := cli(t, "", "run", "--json", "--max-record-bytes", "10000000", "-e", script)
	whole := decodeCalls(t, full)[1]
	if whole.ParamsExcerpt || len(whole.Params) != ex.Bytes || hexSHA(whole.Params) != ex.SHA256 || !strings.HasPrefix(string(whole.Params), ex.Text) {
		t.Errorf("whole params: %d bytes (excerpt said %d), excerpt flag %v", len(whole.Params), ex.Bytes, whole.ParamsExcerpt)
	}
	// A small --max-record-bytes cuts the small call too.
	_, tiny, _ := cli(t, "", "run", "--json", "--max-record-bytes", "5", "-e", `await weather.current({city: "SF"})`)
	if tc := decodeCalls(t, tiny)[0]; !tc.ParamsExcerpt || json.Unmarshal(tc.Params, &ex) != nil || ex.Text != `{"cit` || ex.Bytes != 13 || !ex.Truncated {
		t.Errorf("--max-record-bytes 5: %s", tiny)
	}
	if code, _, stderr := cli(t, "", "run", "--max-record-bytes", "-1", "-e", "1"); code != exitUsage || !strings.Contains(stderr, "--max-record-bytes") {
		t.Errorf("negative: exit %d %q", code, stderr)
	}
}

// Params refused before they were read are nil: they print as null, as a
// failed call's result does.
func TestRunJSONNilParams(t *testing.T) {
	_, stdout, stderr := cli(t, "", "run", "--json", "--max-param-bytes", "50", "-e",
		`try { await email.send({to: "a", subject: "s", body: "x".repeat(100)}) } catch (e) {}`)
	tcs := decodeCalls(t, stdout)
	if len(tcs) != 1 || string(tcs[0].Params) != "null" || tcs[0].ParamsExcerpt || string(tcs[0].Result) != "null" || tcs[0].Error == nil {
		t.Errorf("%s %s", stdout, stderr)
	}
}

// writeJSON's output is bounded by the record size whatever the calls hold
// (large, not JSON, empty), it drops each call's params and result once
// printed, and it stays one JSON line.
func TestWriteJSONBounds(t *testing.T) {
	big := []byte(`{"data":"` + strings.Repeat("\"é<", 1<<18) + `"}`)
	res := &engine.Result{Stdout: "out\n", ToolCalls: []engine.ToolCall{
		{Method: "a", Params: json.RawMessage(`{"x": 1}`), Allowed: true, Result: json.RawMessage(`[1, 2]`)},
		{Method: "b", Params: nil, Error: "params too large"},
		{Method: "c", Params: json.RawMessage("not json"), Error: "invalid"},
	}}
	for range 50 {
		res.ToolCalls = append(res.ToolCalls, engine.ToolCall{Method: "d", Params: big, Allowed: true, Result: big})
	}
	var buf bytes.Buffer
	if err := writeJSON(&buf, res, nil, 0, 256); err != nil {
		t.Fatal(err)
	}
	if max := 53 * 2 * (2*256 + 200); buf.Len() > max {
		t.Errorf("%d bytes, want at most %d", buf.Len(), max)
	}
	if bytes.Count(buf.Bytes(), []byte("\n")) != 1 || !json.Valid(buf.Bytes()) {
		t.Errorf("not one line of JSON: %.300s", buf.String())
	}
	tcs := decodeCalls(t, buf.String())
	if string(tcs[0].Params) != `{"x":1}` || string(tcs[0].Result) != `[1,2]` || tcs[0].ParamsExcerpt {
		t.Errorf("small: %+v", tcs[0])
	}
	if string(tcs[1].Params) != "null" || tcs[1].ParamsExcerpt {
		t.Errorf("nil params: %+v", tcs[1])
	}
	var ex engine.Excerpt
	if !tcs[2].ParamsExcerpt || json.Unmarshal(tcs[2].Params, &ex) != nil || ex.Text != "not json" || ex.Truncated {
		t.Errorf("invalid params: %s", tcs[2].Params)
	}
	if !tcs[3].ParamsExcerpt || json.Unmarshal(tcs[3].Params, &ex) != nil || ex.Bytes != len(big) || ex.SHA256 != hexSHA(big) || !ex.Truncated {
		t.Errorf("big params: %.300s", tcs[3].Params)
	}
	for i, tc := range res.ToolCalls {
		if tc.Params != nil || tc.Result != nil {
			t.Fatalf("call %d still holds its params or result after printing", i)
		}
	}
}

// A record the engine elided (Limits.MaxRecordedBytes) says so in --json,
// with null params and result; the others carry no "elided" key.
func TestWriteJSONElided(t *testing.T) {
	res := &engine.Result{ToolCalls: []engine.ToolCall{
		{Method: "a", Params: json.RawMessage(`{"x":1}`), Allowed: true, Result: json.RawMessage(`1`)},
		{Method: "a", Allowed: true, ParamsSize: 7, ResultSize: 1, Elided: true},
	}}
	var buf bytes.Buffer
	if err := writeJSON(&buf, res, nil, 0, 256); err != nil {
		t.Fatal(err)
	}
	if s := buf.String(); strings.Count(s, `"elided":true`) != 1 || strings.Contains(s, `"elided":false`) ||
		!strings.Contains(s, `"params":null,"allowed":true,"reasons":[],"result":null,"error":null,"elided":true`) {
		t.Errorf("%s", s)
	}
}

// --json carries the value the script returned, as the MCP result does:
// its JSON, or null when there is none (no return, undefined, a shell
// script, an uncaught error, a timeout). The object is one line, ended by
// a newline.
func TestRunJSONValue(t *testing.T) {
	for _, tc := range []struct {
		args  []string
		value string
	}{
		{[]string{"-e", `return {a: [1, "x", null], b: {c: true}}`}, `{"a":[1,"x",null],"b":{"c":true}}`},
		{[]string{"-e", `return "text <&>"`}, `"text <&>"`},
		{[]string{"-e", `console.log("no return")`}, `null`},
		{[]string{"-e", `return undefined`}, `null`},
		{[]string{"--lang", "sh", "-e", `echo hi`}, `null`},
		{[]string{"-e", `throw new Error("boom")`}, `null`},
		{[]string{"--timeout", "200ms", "-e", `while (true) {}`}, `null`},
	} {
		_, stdout, stderr := cli(t, "", append([]string{"run", "--json"}, tc.args...)...)
		var out struct {
			Value json.RawMessage `json:"value"`
		}
		if err := json.Unmarshal([]byte(stdout), &out); err != nil {
			t.Fatalf("%q: %v: %q %q", tc.args, err, stdout, stderr)
		}
		var got, want any
		if err := json.Unmarshal(out.Value, &got); err != nil || json.Unmarshal([]byte(tc.value), &want) != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("%q: value %s, want %s", tc.args, out.Value, tc.value)
		}
		if !strings.HasSuffix(stdout, "}\n") || strings.Count(stdout, "\n") != 1 {
			t.Errorf("%q: not one line ended by a newline: %q", tc.args, stdout)
		}
	}
}

// writeJSON prints the value in place, between exit_code and error, and
// null for none.
func TestWriteJSONValue(t *testing.T) {
	for value, want := range map[string]string{`[1,{"k":"v"}]`: `"exit_code":0,"value":[1,{"k":"v"}],"error":null,`, "": `"exit_code":0,"value":null,"error":null,`} {
		res := &engine.Result{}
		if value != "" {
			res.Value = json.RawMessage(value)
		}
		var buf bytes.Buffer
		if err := writeJSON(&buf, res, nil, 0, 256); err != nil {
			t.Fatal(err)
		}
		if s := buf.String(); !strings.Contains(s, want) || !strings.HasSuffix(s, "]}\n") {
			t.Errorf("value %q: %s", value, s)
		}
	}
}
