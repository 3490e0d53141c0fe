// Package netutils implements the network commands of cordon's sandbox
// shell: curl and wget. They make HTTP requests only through a Fetcher,
// which the guest's shell runtime gives them when the host registered a
// fetch tool (abi.ToolInfo.Fetch): each request is that tool's call, as
// the policy decides it and the audit records it. The commands build an
// abi.FetchRequest from their options and print the abi.FetchResponse; they
// decide nothing from the URL, which the host parses.
//
// Without a Fetcher (Commands, or New(nil)), both fail with "network access
// is not enabled in this sandbox". docs/egress.md lists the options they
// take, their exit statuses and how they differ from curl's and wget's.
//
// Every command polls Env.Ctx and stops with status 130, without a
// message, once it is canceled.
package netutils

import (
	"context"
	"encoding/base64"
	"strings"

	"github.com/cordonhq/cordon/internal/abi"
	"github.com/cordonhq/cordon/shell/command"
)

// Fetcher makes one HTTP request through the host. It returns a *CallError
// when the host refused or failed the request (the policy denied it, the
// request was malformed, the network failed), and another error when the
// execution is being stopped.
type Fetcher func(ctx context.Context, req abi.FetchRequest) (abi.FetchResponse, error)

// CallError is a request that the host refused or failed: the fetch tool's
// call ended with a ToolError of this kind, message and reasons.
type CallError struct {
	// Kind is the ToolError's kind: abi.ToolDenied when the policy
	// refused the request.
	Kind abi.ToolErrorKind
	// Message is the host's message ("tool http/fetch denied: ...").
	Message string
	// Reasons say why, in plain words (the policy's reasons).
	Reasons []string
}

// Error returns the host's message.
func (e *CallError) Error() string { return e.Message }

// notEnabled is the message of a command run without a Fetcher.
const notEnabled = "network access is not enabled in this sandbox"

// Commands returns the commands of this package with no Fetcher: each
// fails saying that network access is not enabled. The shell runtime
// replaces them with New's when the host has a fetch tool.
func Commands() command.Registry { return New(nil) }

// New returns curl and wget making their requests with fetch; a nil fetch
// makes them fail saying that network access is not enabled.
func New(fetch Fetcher) command.Registry {
	return command.RecoverAll(command.Registry{
		"curl": func(env *command.Env) int { return curl(env, fetch) },
		"wget": func(env *command.Env) int { return wget(env, fetch) },
	})
}

// responseBody returns the bytes of a response's body.
func responseBody(res abi.FetchResponse) ([]byte, error) {
	if res.BodyBase64 != "" {
		return base64.StdEncoding.DecodeString(res.BodyBase64)
	}
	return []byte(res.Body), nil
}

// header returns the first value of the response header name (lower case).
func header(res abi.FetchResponse, name string) string {
	for _, h := range res.Headers {
		if strings.EqualFold(h[0], name) {
			return h[1]
		}
	}
	return ""
}

// withScheme returns the URL a command requests for an operand: curl and
// wget take a URL without a scheme as http. Anything else is the host's to
// parse and judge.
func withScheme(u string) string {
	if strings.Contains(u, "://") {
		return u
	}
	return "http://" + u
}

// remoteName returns the last segment of a URL's path, without its query
// or fragment, as curl -O and wget name the file they save; "" when the
// path has none. It names a file only: the host parses the URL.
func remoteName(u string) string {
	if i := strings.Index(u, "://"); i >= 0 {
		u = u[i+3:]
	}
	if i := strings.IndexAny(u, "?#"); i >= 0 {
		u = u[:i]
	}
	i := strings.IndexByte(u, '/')
	if i < 0 {
		return ""
	}
	p := u[i:]
	return p[strings.LastIndexByte(p, '/')+1:]
}
