package server

import (
	"errors"
	"io/fs"
	"strings"
	"testing"
	"time"

	"github.com/cordonhq/cordon/guest/internal/hub/hubtest"
	"github.com/cordonhq/cordon/internal/abi"
	"github.com/cordonhq/cordon/vfs"
)

func exec(lang abi.Lang, code string) *abi.Request {
	return &abi.Request{Op: abi.OpExec, Exec: &abi.Exec{Lang: lang, Name: "s", Code: code}}
}

func setup(s abi.Setup) *abi.Request { return &abi.Request{Op: abi.OpSetup, Setup: &s} }

func put(files ...abi.File) *abi.Request { return &abi.Request{Op: abi.OpPutFiles, Files: files} }

func get(path string) *abi.Request { return &abi.Request{Op: abi.OpGetFiles, Path: path} }

// serve runs the request loop over h's requests and returns the responses,
// one per request.
func serve(t *testing.T, h *hubtest.Host) []*abi.Response {
	t.Helper()
	if err := Serve(h); !errors.Is(err, hubtest.ErrNoRequests) {
		t.Fatalf("Serve ended with %v", err)
	}
	r := h.Responses()
	if len(r) != len(h.Requests) {
		t.Fatalf("%d responses to %d requests", len(r), len(h.Requests))
	}
	return r
}

// TestServe: the request loop answers each request with the contract's
// codes: a script's value, an uncaught error as abi.CodeException, an
// unknown language or op as abi.CodeInvalid, a missing file by its errno
// name; and a tool call of each language reaches the host.
func TestServe(t *testing.T) {
	h := &hubtest.Host{Requests: []*abi.Request{
		{Op: abi.OpSetup, Setup: &abi.Setup{Tools: []abi.ToolInfo{{Name: "echo"}}}},
		exec(abi.LangJS, `return (await echo({n: 1})).n + 1`),
		exec(abi.LangShell, `tool echo --json '{"n": 3}'`),
		exec(abi.LangJS, `throw new Error("boom")`),
		exec("py", `print(1)`),
		{Op: abi.OpGetFiles, Path: "/nope"},
		{Op: 99},
	}}
	r := serve(t, h)
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

// paths returns the paths of files, in order.
func paths(files []abi.File) []string {
	var p []string
	for _, f := range files {
		p = append(p, f.Path)
	}
	return p
}

// The host puts files with its privileges (a read-only area included, a
// relative path made absolute, parents created, modes and times kept) and
// gets a file, or a directory and everything below it, each directory
// before what it holds and names in lexical order. A script sees the
// files but cannot write where the host could. Errors carry the errno
// name, and a put stops at its first error.
func TestPutAndGetFiles(t *testing.T) {
	mtime := time.Date(2026, 3, 4, 5, 6, 7, 0, time.UTC).UnixNano()
	h := &hubtest.Host{Requests: []*abi.Request{
		setup(abi.Setup{}),
		put(
			abi.File{Path: "workspace/d/b.txt", Mode: 0o640, ModTime: mtime, Data: []byte("B")},
			abi.File{Path: "/etc/conf", Mode: 0o444, Data: []byte("read-only")},
			abi.File{Path: "/workspace/d/sub", Mode: uint32(fs.ModeDir | 0o750)},
			abi.File{Path: "/workspace/d/sub/../a.txt", Mode: 0o644, Data: []byte("A")},
		),
		get("/workspace/d"),
		get("etc/conf"),
		exec(abi.LangShell, `cat /etc/conf; echo; echo x > /etc/other`),
		get("/nope"),
		put(abi.File{Path: "/workspace/d/a.txt/x", Data: []byte("x")}, abi.File{Path: "/workspace/after", Data: []byte("y")}),
		get("/workspace/after"),
	}}
	r := serve(t, h)
	if r[1].Status != abi.StatusOK {
		t.Fatalf("put: %+v", r[1])
	}
	d := r[2].Files
	if got := strings.Join(paths(d), " "); got != "/workspace/d /workspace/d/a.txt /workspace/d/b.txt /workspace/d/sub" {
		t.Fatalf("get /workspace/d: %s", got)
	}
	if !fs.FileMode(d[0].Mode).IsDir() || !fs.FileMode(d[3].Mode).IsDir() || fs.FileMode(d[3].Mode).Perm() != 0o750 || len(d[0].Data) != 0 {
		t.Errorf("the directories: %+v %+v", d[0], d[3])
	}
	if string(d[1].Data) != "A" || string(d[2].Data) != "B" || fs.FileMode(d[2].Mode) != 0o640 || d[2].ModTime != mtime {
		t.Errorf("the files: %+v %+v", d[1], d[2])
	}
	if f := r[3].Files; len(f) != 1 || f[0].Path != "/etc/conf" || string(f[0].Data) != "read-only" {
		t.Errorf("get etc/conf: %+v", r[3])
	}
	if r[4].ExitCode == 0 || h.Stdout() != "read-only\n" || !strings.Contains(h.Stderr(), "/etc/other") {
		t.Errorf("the script: exit %d stdout %q stderr %q", r[4].ExitCode, h.Stdout(), h.Stderr())
	}
	if r[5].Status != abi.StatusError || r[5].ErrCode != "ENOENT" || !strings.Contains(r[5].ErrMsg, "/nope") {
		t.Errorf("get /nope: %+v", r[5])
	}
	if r[6].Status != abi.StatusError || r[6].ErrCode != "ENOTDIR" {
		t.Errorf("a put under a file: %+v", r[6])
	}
	if r[7].ErrCode != "ENOENT" {
		t.Errorf("the put went on after its first error: %+v", r[7])
	}
}

// A setup starts over: a new VFS with its limits (a script past the quota
// is told so in QuotaHit, the next one is not), the new tools, the new
// call depth.
func TestSetupStartsOver(t *testing.T) {
	deep := `function f(n) { return n ? f(n - 1) + 1 : 0 }; return f(300)`
	h := &hubtest.Host{Requests: []*abi.Request{
		setup(abi.Setup{VFSMaxBytes: 1000, MaxCallDepth: 100, Tools: []abi.ToolInfo{{Name: "old/tool"}}}),
		put(abi.File{Path: "/workspace/kept", Data: []byte("k")}),
		exec(abi.LangShell, `seq 1 1000 > /workspace/big`),
		exec(abi.LangShell, `echo small > /workspace/small`),
		exec(abi.LangJS, deep),
		exec(abi.LangJS, `return [typeof old, typeof fresh]`),
		setup(abi.Setup{Tools: []abi.ToolInfo{{Name: "fresh/tool"}}}),
		get("/workspace/kept"),
		exec(abi.LangShell, `seq 1 1000 > /workspace/big`),
		exec(abi.LangJS, deep),
		exec(abi.LangJS, `return [typeof old, typeof fresh]`),
	}}
	r := serve(t, h)
	if !r[2].QuotaHit || r[2].ExitCode == 0 {
		t.Errorf("past the quota: %+v", r[2])
	}
	if r[3].QuotaHit || r[3].ExitCode != 0 {
		t.Errorf("within the quota after a hit: %+v", r[3])
	}
	if r[4].ErrCode != abi.CodeRecursion || !strings.Contains(r[4].ErrMsg, "call stack") {
		t.Errorf("past MaxCallDepth 100: %+v", r[4])
	}
	if string(r[5].Value) != `["object","undefined"]` {
		t.Errorf("the first tools: %s (%s)", r[5].Value, r[5].ErrMsg)
	}
	if r[7].ErrCode != "ENOENT" {
		t.Errorf("a file survived the setup: %+v", r[7])
	}
	if r[8].QuotaHit || r[8].ExitCode != 0 {
		t.Errorf("the second setup kept the first's quota: %+v", r[8])
	}
	if string(r[9].Value) != "300" {
		t.Errorf("the second setup kept the first's call depth: %+v", r[9])
	}
	if string(r[10].Value) != `["undefined","object"]` {
		t.Errorf("the second setup kept the first's tools: %s (%s)", r[10].Value, r[10].ErrMsg)
	}
}

// The tools outlive the setup request's buffer, which the next request
// overwrites: their schemas still type the shell's tool command.
func TestSetupCopiesTheTools(t *testing.T) {
	schema := `{"type":"object","properties":{"customer_id":{"type":"string"},"limit":{"type":"integer"}},"required":["customer_id"]}`
	h := &hubtest.Host{ReuseBuffer: true, Requests: []*abi.Request{
		setup(abi.Setup{Tools: []abi.ToolInfo{{Name: "crm/find", Description: "Find a customer.", Schema: []byte(schema)}}}),
		exec(abi.LangShell, `tool crm/find --customer_id c7 --limit 3`),
		exec(abi.LangShell, `tool --help crm/find | head -1`),
	}}
	r := serve(t, h)
	want := `{"customer_id":"c7","limit":3}` + "\nUsage: tool crm/find --customer_id string [flags]\n"
	if r[1].ExitCode != 0 || r[2].ExitCode != 0 || h.Stdout() != want {
		t.Errorf("exit %d %d, stdout %q, stderr %q; want stdout %q", r[1].ExitCode, r[2].ExitCode, h.Stdout(), h.Stderr(), want)
	}
}

// A request that does not decode, and a warm-up, are answered; neither
// ends the loop.
func TestMalformedRequestAndWarm(t *testing.T) {
	s := &state{fs: vfs.New(vfs.Limits{})}
	if r := s.handle([]byte{abi.OpExec}); r.Status != abi.StatusError || r.ErrCode != abi.CodeInvalid {
		t.Errorf("a truncated request: %+v", r)
	}
	if r := s.handle(nil); r.Status != abi.StatusError || r.ErrCode != abi.CodeInvalid {
		t.Errorf("an empty request: %+v", r)
	}
	h := &hubtest.Host{Requests: []*abi.Request{{Op: abi.OpWarm}, setup(abi.Setup{}), exec(abi.LangJS, `return 1`)}}
	r := serve(t, h)
	if r[0].Status != abi.StatusOK || string(r[2].Value) != "1" {
		t.Errorf("warm: %+v, then %+v", r[0], r[2])
	}
}

// A prepare request is answered, and the script after it runs.
func TestPrepare(t *testing.T) {
	h := &hubtest.Host{Requests: []*abi.Request{setup(abi.Setup{}), {Op: abi.OpPrepare}, exec(abi.LangJS, `await 0; return 1`), {Op: abi.OpPrepare}, {Op: abi.OpPrepare}, exec(abi.LangJS, `return 2`)}}
	r := serve(t, h)
	if r[1].Status != abi.StatusOK || string(r[2].Value) != "1" || r[3].Status != abi.StatusOK || string(r[5].Value) != "2" {
		t.Errorf("prepare: %+v, then %+v; %+v, then %+v", r[1], r[2], r[3], r[5])
	}
}
