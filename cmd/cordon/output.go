package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"io"

	"github.com/cordonhq/cordon/engine"
)

type jsonError struct {
	Kind    string `json:"kind"`
	Message string `json:"message"`
}

// jsonHead is the --json object without its tool calls, which are written
// one at a time after it. Its keys are those of the MCP tool's result
// (codemode.Result), in the same order.
type jsonHead struct {
	Stdout   string `json:"stdout"`
	Stderr   string `json:"stderr"`
	ExitCode int    `json:"exit_code"`
	// Value is the JSON of the value a JavaScript script returned, or
	// null when it returned nothing (a shell script, an error, a value
	// JSON cannot represent). Unlike the MCP result's stdout, Stdout
	// keeps the line the value printed.
	Value json.RawMessage `json:"value"`
	Error *jsonError      `json:"error"`
}

// jsonToolCall is one tool call in --json. Params and Result are the
// value, printed in place, when it is valid JSON of at most the record
// size; else an engine.Excerpt object, and ParamsExcerpt or ResultExcerpt
// is true. Only the flag tells the two apart: the script chooses its params
// and may send an object that looks like an excerpt.
type jsonToolCall struct {
	Method        string   `json:"method"`
	Params        any      `json:"params"`
	ParamsExcerpt bool     `json:"params_excerpt,omitempty"`
	Allowed       bool     `json:"allowed"`
	Reasons       []string `json:"reasons"`
	Result        any      `json:"result"`
	ResultExcerpt bool     `json:"result_excerpt,omitempty"`
	Error         *string  `json:"error"`
	// Elided: the engine dropped params and result past
	// Limits.MaxRecordBytes (both are then null).
	Elided bool `json:"elided,omitempty"`
}

// bounded returns doc as it is when it is valid JSON of at most max bytes,
// JSON null when it is empty, and else its excerpt, with excerpt true.
func bounded(doc json.RawMessage, max int) (v any, excerpt bool) {
	switch {
	case len(doc) == 0:
		return json.RawMessage("null"), false
	case len(doc) <= max && json.Valid(doc):
		return doc, false
	}
	return engine.NewExcerpt(doc, max), true
}

// writeJSON prints the result of `cordon run --json` as one line, ended by a
// newline. Each tool
// call's params and result are bounded to maxRecord bytes (see bounded),
// so that the output stays within about twice maxRecord per value however
// large the calls were. The calls are encoded one at a time, and each
// call's params and result are dropped from res once printed, so that no
// second copy of them is built.
func writeJSON(w io.Writer, res *engine.Result, execErr error, exit, maxRecord int) error {
	head := jsonHead{Stdout: res.Stdout, Stderr: res.Stderr, ExitCode: exit, Value: res.Value}
	var ee *engine.Error
	switch {
	case errors.As(execErr, &ee):
		head.Error = &jsonError{Kind: string(ee.Kind), Message: oneLine(execErr.Error())}
	case execErr != nil:
		head.Error = &jsonError{Kind: string(engine.KindInternal), Message: execErr.Error()}
	case res.Exception != "":
		head.Error = &jsonError{Kind: string(engine.KindException), Message: res.Exception}
	}
	bw := bufio.NewWriter(w)
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	encode := func(v any) ([]byte, error) {
		buf.Reset()
		if err := enc.Encode(v); err != nil {
			return nil, err
		}
		return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
	}
	b, err := encode(head)
	if err != nil {
		return err
	}
	bw.Write(b[:len(b)-1]) // without its closing brace
	bw.WriteString(`,"tool_calls":[`)
	for i := range res.ToolCalls {
		tc := &res.ToolCalls[i]
		jc := jsonToolCall{Method: tc.Method, Allowed: tc.Allowed, Reasons: tc.Reasons, Elided: tc.Elided}
		jc.Params, jc.ParamsExcerpt = bounded(tc.Params, maxRecord)
		jc.Result, jc.ResultExcerpt = bounded(tc.Result, maxRecord)
		if jc.Reasons == nil {
			jc.Reasons = []string{}
		}
		if tc.Error != "" {
			e := tc.Error
			jc.Error = &e
		}
		b, err := encode(jc)
		if err != nil {
			return err
		}
		if i > 0 {
			bw.WriteByte(',')
		}
		bw.Write(b)
		tc.Params, tc.Result = nil, nil
	}
	bw.WriteString("]}\n")
	return bw.Flush()
}
