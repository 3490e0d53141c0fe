package engine

import (
	"errors"
	"fmt"
)

// Kind classifies why an execution or a sandbox operation did not complete.
// It is the one set of outcome kinds that cordon's packages publish: the
// Kind of an [Error], the kind of [codemode.Error] (code mode's results and
// the MCP server's), and the "kind" of the CLI's --json error.
type Kind string

// The outcome kinds. KindException and KindArguments are never the Kind of
// an [Error] from this package: an uncaught script error is a result
// ([Result.Exception]), and malformed arguments are code mode's.
const (
	// KindException: the script threw an error it did not catch
	// (JavaScript); [Result.Exception] has its message and stack.
	KindException Kind = "exception"
	// KindArguments: a run-code tool's arguments were malformed (package
	// codemode), so no script ran.
	KindArguments Kind = "arguments"
	// KindTimeout: the execution ran past its time limit.
	KindTimeout Kind = "timeout"
	// KindCanceled: the caller's context was canceled.
	KindCanceled Kind = "canceled"
	// KindOutput: the script wrote more than [Limits.MaxOutputBytes].
	KindOutput Kind = "output"
	// KindToolCalls: the script made more than [Limits.MaxToolCalls] calls.
	KindToolCalls Kind = "tool_calls"
	// KindQuota: the script failed after a write hit a VFS quota.
	KindQuota Kind = "quota"
	// KindRecursion: the JS call stack passed [Limits.MaxCallDepth].
	KindRecursion Kind = "recursion"
	// KindMemory: the guest ran out of memory; the sandbox is broken.
	KindMemory Kind = "memory"
	// KindCrash: the guest died (a trap, a fatal runtime error, a protocol
	// violation); the sandbox is broken.
	KindCrash Kind = "crash"
	// KindClosed: the sandbox or engine was closed, or is broken.
	KindClosed Kind = "closed"
	// KindInvalid: the request was invalid (bad language, bad tool, bad path).
	KindInvalid Kind = "invalid"
	// KindFile: a VFS operation failed (the Code field says how: ENOENT, ...).
	KindFile Kind = "file"
	// KindInternal: a bug in cordon.
	KindInternal Kind = "internal"
)

// Error is the error type of package engine. Match it with [errors.As], or
// match a kind with [errors.Is] against the sentinel errors below.
type Error struct {
	Kind    Kind
	Code    string // for KindFile: "ENOENT", "EACCES", "ENOSPC", ...
	Message string
	Err     error // the underlying cause, if any
}

// Error formats the error as "engine: KIND: MESSAGE: CAUSE", leaving out
// the parts that are empty.
func (e *Error) Error() string {
	msg := "engine: " + string(e.Kind)
	if e.Message != "" {
		msg += ": " + e.Message
	}
	if e.Err != nil {
		msg += ": " + e.Err.Error()
	}
	return msg
}

// Unwrap returns the underlying cause.
func (e *Error) Unwrap() error { return e.Err }

// Is reports whether target is an *Error of the same kind (and, when target
// has a Code, the same code), so errors.Is(err, engine.ErrTimeout) works.
func (e *Error) Is(target error) bool {
	t, ok := target.(*Error)
	if !ok {
		return false
	}
	return t.Kind == e.Kind && (t.Code == "" || t.Code == e.Code) && t.Message == "" && t.Err == nil
}

// Sentinel errors, one per kind, for [errors.Is].
var (
	ErrTimeout   = &Error{Kind: KindTimeout}
	ErrCanceled  = &Error{Kind: KindCanceled}
	ErrMemory    = &Error{Kind: KindMemory}
	ErrOutput    = &Error{Kind: KindOutput}
	ErrToolCalls = &Error{Kind: KindToolCalls}
	ErrQuota     = &Error{Kind: KindQuota}
	ErrRecursion = &Error{Kind: KindRecursion}
	ErrCrash     = &Error{Kind: KindCrash}
	ErrClosed    = &Error{Kind: KindClosed}
	ErrInvalid   = &Error{Kind: KindInvalid}
	ErrFile      = &Error{Kind: KindFile}
	ErrNotExist  = &Error{Kind: KindFile, Code: "ENOENT"}
)

func errorf(kind Kind, format string, args ...any) *Error {
	return &Error{Kind: kind, Message: fmt.Sprintf(format, args...)}
}

// KindOf returns the Kind of err, or "" when err is not an *Error.
func KindOf(err error) Kind {
	var e *Error
	if errors.As(err, &e) {
		return e.Kind
	}
	return ""
}
