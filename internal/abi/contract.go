package abi

import "slices"

// This file holds the names that the host and the guest must spell alike:
// the host functions the guest imports, the languages, the codes with
// which an execution ends, and the kinds of a refused or failed tool call.
// Each is a typed constant, and each set has a list (HostFuncs, Langs,
// ErrCodes, ToolErrorKinds) for the tests and checks that hold both sides
// to it.

// HostModule is the name of the WebAssembly module whose functions the
// guest imports: the host ABI. The guest declares each function with a
// wasmimport directive, which must spell the names as literals; a test of
// package engine holds those directives (the embedded guest's import
// section) and the functions the host exports to HostFuncs.
const HostModule = "cordon"

// The host functions, as the guest imports them from HostModule. All
// lengths are in bytes and all pointers point into the guest's memory.
const (
	// ImportNext is next(ptr, len) -> n: answer the last request with the
	// bytes at ptr, and block until the next request; n is its length.
	ImportNext = "next"
	// ImportYield is yield(ptr, len) -> n: hand the host a batch of tool
	// calls (EncodeCalls) and block until it answers (a Resume); n is the
	// answer's length.
	ImportYield = "yield"
	// ImportRecv is recv(ptr): copy the pending request or answer, whose
	// length next or yield returned, to ptr.
	ImportRecv = "recv"
	// ImportWrite is write(fd, ptr, len): script output, fd 1 stdout and
	// 2 stderr.
	ImportWrite = "write"
	// ImportInterrupt is interrupt(ptr): the address of the running
	// interpreter's interrupt flag (0: none); the host stores 1 there to
	// stop it.
	ImportInterrupt = "interrupt"
	// ImportTick is tick(): called by the guest's loops every few thousand
	// iterations (internal/wasmtick instruments them): the host's
	// preemption point and hard stop.
	ImportTick = "tick"
)

// HostFunc describes one function of HostModule. Every parameter and
// result of the ABI is a WebAssembly i32.
type HostFunc struct {
	Name    string
	Params  int // how many i32 parameters
	Results int // how many i32 results
}

// HostFuncs returns every function of HostModule, in the order the host
// defines them. The guest imports exactly these, and the host exports
// exactly these.
func HostFuncs() []HostFunc {
	return []HostFunc{
		{Name: ImportNext, Params: 2, Results: 1},
		{Name: ImportYield, Params: 2, Results: 1},
		{Name: ImportRecv, Params: 1},
		{Name: ImportWrite, Params: 3},
		{Name: ImportInterrupt, Params: 1},
		{Name: ImportTick},
	}
}

// Lang names one of the guest's interpreters, as Exec.Lang and Call.Lang
// carry it and as the policy's input.language and engine.Language name it.
type Lang string

// The languages of the guest's interpreters.
const (
	// LangJS is JavaScript (goja): the script is the body of an async
	// function.
	LangJS Lang = "js"
	// LangShell is the bash-like shell over the sandbox's file system.
	LangShell Lang = "sh"
)

// Langs returns every language the guest runs.
func Langs() []Lang { return []Lang{LangJS, LangShell} }

// Valid reports whether l is one of Langs.
func (l Lang) Valid() bool { return slices.Contains(Langs(), l) }

// ErrCode is the short code of a Response that did not end well. After an
// OpExec it is one of ErrCodes (or empty: the script ended, whatever its
// exit status); after a file request (OpPutFiles, OpGetFiles) it is the
// errno name of the failure ("ENOENT", "EACCES", ..., as vfs.Code names
// it), and a request the guest could not serve at all is CodeInvalid.
type ErrCode string

// The codes with which an execution ends, and the code of a bad request.
const (
	// CodeException: the script threw an error it did not catch (or, for
	// the shell, could not start); ErrMsg is its summary.
	CodeException ErrCode = "exception"
	// CodeRecursion: the JavaScript call stack passed Setup.MaxCallDepth.
	CodeRecursion ErrCode = "recursion"
	// CodeInterrupted: the host stopped the script (a timeout, a cancel,
	// a limit) through the interrupt flag or a stopping Resume.
	CodeInterrupted ErrCode = "interrupted"
	// CodeInternal: the guest failed in its own code, not the script's.
	CodeInternal ErrCode = "internal"
	// CodeInvalid: the request was malformed, named an unknown op or an
	// unsupported language, or could not be served (an errno name, as a
	// file request's codes are).
	CodeInvalid ErrCode = "EINVAL"
)

// ErrCodes returns the codes an OpExec response may carry besides the
// empty one.
func ErrCodes() []ErrCode {
	return []ErrCode{CodeException, CodeRecursion, CodeInterrupted, CodeInternal, CodeInvalid}
}

// ToolErrorKind says why the host refused a tool call, or how it failed:
// the kind of the ToolError that a JavaScript script catches (err.kind),
// carried by CallResult.ErrKind.
type ToolErrorKind string

// The kinds of a ToolError.
const (
	// ToolDenied: the policy refused the call (or the approver did).
	ToolDenied ToolErrorKind = "denied"
	// ToolInvalid: the params do not match the tool's schema.
	ToolInvalid ToolErrorKind = "invalid"
	// ToolFailed: the tool's handler failed.
	ToolFailed ToolErrorKind = "failed"
	// ToolUnknown: no tool of that name is registered.
	ToolUnknown ToolErrorKind = "unknown_tool"
	// ToolTooLarge: the params or the result are over the size limit.
	ToolTooLarge ToolErrorKind = "too_large"
	// ToolTooManyCalls: the execution reached its limit of tool calls.
	ToolTooManyCalls ToolErrorKind = "tool_calls"
)

// ToolInvalidResult is the kind of the ToolError that the guest makes
// itself when it cannot parse a tool's result (JSON nested too deeply,
// say). The host never sends it, so it is not one of ToolErrorKinds.
const ToolInvalidResult ToolErrorKind = "invalid_result"

// ToolErrorKinds returns every kind of ToolError that the host sends, in
// the order the sandbox's documentation (package describe) lists them.
func ToolErrorKinds() []ToolErrorKind {
	return []ToolErrorKind{ToolDenied, ToolInvalid, ToolFailed, ToolUnknown, ToolTooLarge, ToolTooManyCalls}
}

// Valid reports whether k is one of ToolErrorKinds: a kind the host
// sends.
func (k ToolErrorKind) Valid() bool { return slices.Contains(ToolErrorKinds(), k) }
