package server

import (
	"errors"
	"strings"
	"testing"

	"github.com/cordonhq/cordon/guest/internal/hub/hubtest"
	"github.com/cordonhq/cordon/internal/abi"
)

// TestServe: the request loop answers each request with the contract's
// codes: a script's value, an uncaught error as abi.CodeException, an
// unknown language or op as abi.CodeInvalid, a missing file by its errno
// name; and a tool call of each language reaches the host.
func TestServe(t *testing.T) {
	exec := func(lang abi.Lang, code string) *abi.Request {
		return &abi.Request{Op: abi.OpExec, Exec: &abi.Exec{Lang: lang, Name: "s", Code: code}}
	}
	h := &hubtest.Host{Requests: []*abi.Request{
		{Op: abi.OpSetup, Setup: &abi.Setup{Tools: []abi.ToolInfo{{Name: "echo"}}}},
		exec(abi.LangJS, `return (await echo({n: 1})).n + 1`),
		exec(abi.LangShell, `tool echo --json '{"n": 3}'`),
		exec(abi.LangJS, `throw new Error("boom")`),
		exec("py", `print(1)`),
		{Op: abi.OpGetFiles, Path: "/nope"},
		{Op: 99},
	}}
	if err := Serve(h); !errors.Is(err, hubtest.ErrNoRequests) {
		t.Fatalf("Serve ended with %v", err)
	}
	r := h.Responses()
	if len(r) != 7 {
		t.Fatalf("%d responses to 7 requests", len(r))
	}
	if r[0].Status != abi.StatusOK {
		t.Errorf("setup: %+v", r[0])
	}
	if r[1].ErrCode != "" || string(r[1].Value) != "2" {
		t.Errorf("js: code %q value %s (%s)", r[1].ErrCode, r[1].Value, r[1].ErrMsg)
	}
	if r[2].ErrCode != "" || r[2].ExitCode != 0 || !strings.Contains(h.Stdout(), `"n":3`) {
		t.Errorf("sh: code %q exit %d stdout %q", r[2].ErrCode, r[2].ExitCode, h.Stdout())
	}
	if r[3].ErrCode != abi.CodeException || !strings.Contains(r[3].ErrMsg, "boom") {
		t.Errorf("throw: code %q msg %q", r[3].ErrCode, r[3].ErrMsg)
	}
	if r[4].Status != abi.StatusError || r[4].ErrCode != abi.CodeInvalid || !strings.Contains(r[4].ErrMsg, `"py"`) {
		t.Errorf("an unknown language: %+v", r[4])
	}
	if r[5].Status != abi.StatusError || r[5].ErrCode != "ENOENT" {
		t.Errorf("a missing file: %+v", r[5])
	}
	if r[6].Status != abi.StatusError || r[6].ErrCode != abi.CodeInvalid {
		t.Errorf("an unknown op: %+v", r[6])
	}
}
