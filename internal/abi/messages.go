package abi

import "fmt"

// Request ops: the first byte of every host-to-guest request.
const (
	// OpSetup configures a fresh guest: its tools and VFS limits. It is the
	// first request a guest receives.
	OpSetup uint8 = 1
	// OpExec runs one script.
	OpExec uint8 = 2
	// OpPutFiles writes files into the VFS (with the host's privileges).
	OpPutFiles uint8 = 3
	// OpGetFiles reads a file, or a directory tree, out of the VFS.
	OpGetFiles uint8 = 4
	// OpWarm asks a booted guest to do ahead of time the work a first
	// execution would otherwise pay for (compiling the formatter that
	// prints objects and errors). It carries nothing and changes no state
	// a script can see; the engine's pool sends it to the guests it keeps.
	OpWarm uint8 = 5
	// OpPrepare asks an idle guest to make the interpreter of its next
	// JavaScript execution ahead of time (a new one, that no script has
	// run in). It carries nothing; the engine sends it after an execution,
	// when the sandbox is not busy, so that the next script does not wait
	// for it.
	OpPrepare uint8 = 6
)

// Status codes of a Response.
const (
	StatusOK    uint8 = 0
	StatusError uint8 = 1
)

// ToolInfo describes a tool to the guest.
type ToolInfo struct {
	Name        string
	Description string
	Schema      []byte // JSON Schema of the params, or empty
	// OutputSchema is the JSON Schema of the tool's result, or empty. It
	// only describes the result to scripts (getToolInfo, listTools,
	// `tool --help`); the host does not check results against it.
	OutputSchema []byte
	// Fetch marks the tool that network requests go through: JavaScript's
	// fetch and the shell's curl and wget call it, with the request
	// described by FetchParams. At most one tool of a sandbox has it;
	// without one, fetch, curl and wget fail saying that network access
	// is not enabled.
	Fetch bool
}

// Setup is the OpSetup request.
type Setup struct {
	Tools       []ToolInfo
	VFSMaxBytes int64
	VFSMaxFiles int64
	// MaxCallDepth bounds JS call-stack depth (0: the guest's default).
	MaxCallDepth uint32
}

// Exec is the OpExec request.
type Exec struct {
	Lang Lang   // LangJS or LangShell
	Name string // file name shown in stack traces
	Code string
}

// File is one VFS entry carried by OpPutFiles and OpGetFiles.
type File struct {
	Path    string
	Mode    uint32 // io/fs.FileMode bits; fs.ModeDir for a directory
	ModTime int64  // Unix nanoseconds
	Data    []byte
}

// Request is any host-to-guest request; Op says which field is set.
type Request struct {
	Op    uint8
	Setup *Setup
	Exec  *Exec
	Files []File // OpPutFiles
	Path  string // OpGetFiles
}

// Response is the guest's answer to a Request.
type Response struct {
	Status   uint8
	ErrCode  ErrCode // empty, one of ErrCodes, or a file request's errno name
	ErrMsg   string
	ExitCode int32
	HasValue bool
	Value    []byte // JSON of the script's returned value
	Files    []File // OpGetFiles
	// QuotaHit is set when a VFS quota refused a write during an OpExec.
	QuotaHit bool
}

// Call is one tool call that the guest asks the host to make.
type Call struct {
	ID     uint32
	Method string
	// Lang is the language of the interpreter that made the call (LangJS
	// or LangShell): the JS inside `sh -c "node -e ..."` is LangJS.
	Lang   Lang
	Params []byte // JSON object
}

// CallResult is the host's answer to one Call.
type CallResult struct {
	ID      uint32
	OK      bool
	Value   []byte        // JSON result when OK
	ErrKind ToolErrorKind // when not OK: one of ToolErrorKinds
	ErrMsg  string
	Reasons []string
}

// Resume is the host's answer to a Yield: results for some of the pending
// calls, or Stop when the execution must end at once (timeout, cancel).
type Resume struct {
	Stop    bool
	Results []CallResult
}

func encodeFiles(e *Encoder, files []File) {
	e.U32(uint32(len(files)))
	for _, f := range files {
		e.String(f.Path)
		e.U32(f.Mode)
		e.I64(f.ModTime)
		e.Bytes32(f.Data)
	}
}

func decodeFiles(d *Decoder) []File {
	n := d.Count(20)
	if n == 0 {
		return nil
	}
	files := make([]File, n)
	for i := range files {
		files[i] = File{Path: d.String(), Mode: d.U32(), ModTime: d.I64(), Data: d.Bytes32()}
	}
	return files
}

// EncodeRequest encodes r.
func EncodeRequest(buf []byte, r *Request) []byte {
	e := NewEncoder(buf)
	e.U8(r.Op)
	switch r.Op {
	case OpSetup:
		s := r.Setup
		e.U32(uint32(len(s.Tools)))
		for _, t := range s.Tools {
			e.String(t.Name)
			e.String(t.Description)
			e.Bytes32(t.Schema)
			e.Bytes32(t.OutputSchema)
			e.Bool(t.Fetch)
		}
		e.I64(s.VFSMaxBytes)
		e.I64(s.VFSMaxFiles)
		e.U32(s.MaxCallDepth)
	case OpExec:
		e.String(string(r.Exec.Lang))
		e.String(r.Exec.Name)
		e.String(r.Exec.Code)
	case OpPutFiles:
		encodeFiles(e, r.Files)
	case OpGetFiles:
		e.String(r.Path)
	}
	return e.Bytes()
}

// DecodeRequest decodes a request. Byte fields alias b.
func DecodeRequest(b []byte) (*Request, error) {
	d := NewDecoder(b)
	r := &Request{Op: d.U8()}
	switch r.Op {
	case OpSetup:
		s := &Setup{}
		n := d.Count(17)
		for i := 0; i < n; i++ {
			s.Tools = append(s.Tools, ToolInfo{Name: d.String(), Description: d.String(), Schema: d.Bytes32(), OutputSchema: d.Bytes32(), Fetch: d.Bool()})
		}
		s.VFSMaxBytes = d.I64()
		s.VFSMaxFiles = d.I64()
		s.MaxCallDepth = d.U32()
		r.Setup = s
	case OpExec:
		r.Exec = &Exec{Lang: Lang(d.String()), Name: d.String(), Code: d.String()}
	case OpPutFiles:
		r.Files = decodeFiles(d)
	case OpGetFiles:
		r.Path = d.String()
	case OpWarm, OpPrepare:
	default:
		if d.Err() == nil {
			return nil, fmt.Errorf("%w: unknown request op %d", ErrMalformed, r.Op)
		}
	}
	if err := d.Finish(); err != nil {
		return nil, err
	}
	return r, nil
}

// EncodeResponse encodes r.
func EncodeResponse(buf []byte, r *Response) []byte {
	// Sized once: a response may carry the whole VFS, which must not be
	// copied again and again as the buffer doubles.
	n := 1 + 4 + len(r.ErrCode) + 4 + len(r.ErrMsg) + 4 + 1 + 4 + len(r.Value) + 4 + 1
	for _, f := range r.Files {
		n += 4 + len(f.Path) + 4 + 8 + 4 + len(f.Data)
	}
	if cap(buf) < n {
		buf = make([]byte, 0, n)
	}
	e := NewEncoder(buf)
	e.U8(r.Status)
	e.String(string(r.ErrCode))
	e.String(r.ErrMsg)
	e.U32(uint32(r.ExitCode))
	e.Bool(r.HasValue)
	e.Bytes32(r.Value)
	encodeFiles(e, r.Files)
	e.Bool(r.QuotaHit)
	return e.Bytes()
}

// DecodeResponse decodes a response. Byte fields alias b.
func DecodeResponse(b []byte) (*Response, error) {
	d := NewDecoder(b)
	r := &Response{
		Status:   d.U8(),
		ErrCode:  ErrCode(d.String()),
		ErrMsg:   d.String(),
		ExitCode: int32(d.U32()),
		HasValue: d.Bool(),
		Value:    d.Bytes32(),
	}
	r.Files = decodeFiles(d)
	r.QuotaHit = d.Bool()
	if r.Status > StatusError {
		d.fail("status %d", r.Status)
	}
	if err := d.Finish(); err != nil {
		return nil, err
	}
	return r, nil
}

// EncodeCalls encodes the tool calls of one yield.
func EncodeCalls(buf []byte, calls []Call) []byte {
	e := NewEncoder(buf)
	e.U32(uint32(len(calls)))
	for _, c := range calls {
		e.U32(c.ID)
		e.String(c.Method)
		e.String(string(c.Lang))
		e.Bytes32(c.Params)
	}
	return e.Bytes()
}

// DecodeCalls decodes the tool calls of one yield. Byte fields alias b.
func DecodeCalls(b []byte) ([]Call, error) {
	d := NewDecoder(b)
	n := d.Count(17)
	var calls []Call
	if n > 0 {
		calls = make([]Call, 0, n)
	}
	for i := 0; i < n && d.Err() == nil; i++ {
		calls = append(calls, Call{ID: d.U32(), Method: d.String(), Lang: Lang(d.String()), Params: d.Bytes32()})
	}
	if err := d.Finish(); err != nil {
		return nil, err
	}
	return calls, nil
}

// EncodeResume encodes r.
func EncodeResume(buf []byte, r *Resume) []byte {
	e := NewEncoder(buf)
	e.Bool(r.Stop)
	e.U32(uint32(len(r.Results)))
	for _, c := range r.Results {
		e.U32(c.ID)
		e.Bool(c.OK)
		e.Bytes32(c.Value)
		e.String(string(c.ErrKind))
		e.String(c.ErrMsg)
		e.U32(uint32(len(c.Reasons)))
		for _, s := range c.Reasons {
			e.String(s)
		}
	}
	return e.Bytes()
}

// DecodeResume decodes a resume message. Byte fields alias b.
func DecodeResume(b []byte) (*Resume, error) {
	d := NewDecoder(b)
	r := &Resume{Stop: d.Bool()}
	n := d.Count(21)
	for i := 0; i < n && d.Err() == nil; i++ {
		c := CallResult{ID: d.U32(), OK: d.Bool(), Value: d.Bytes32(), ErrKind: ToolErrorKind(d.String()), ErrMsg: d.String()}
		m := d.Count(4)
		for j := 0; j < m && d.Err() == nil; j++ {
			c.Reasons = append(c.Reasons, d.String())
		}
		r.Results = append(r.Results, c)
	}
	if err := d.Finish(); err != nil {
		return nil, err
	}
	return r, nil
}
