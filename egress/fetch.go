package egress

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptrace"
	"net/url"
	"sort"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/cordonhq/cordon/engine"
	"github.com/cordonhq/cordon/internal/abi"
)

// crossOriginDropped are the headers a script sent that a redirect to
// another origin does not carry.
var crossOriginDropped = []string{"authorization", "cookie", "cookie2", "proxy-authorization"}

// handle is the tool's Handler: it makes the request the params describe
// and follows its redirects, each decided by the policy.
func (t *fetchTool) handle(ctx context.Context, raw json.RawMessage) (any, error) {
	p, err := decodeParams(raw)
	if err != nil {
		return nil, scriptError(err)
	}
	select {
	case t.slots <- struct{}{}:
	case <-ctx.Done():
		return nil, &engine.ToolError{Message: "waiting for a free request slot: " + context.Cause(ctx).Error(), Err: ctx.Err()}
	}
	defer func() { <-t.slots }()
	ctx, cancel := context.WithTimeoutCause(ctx, t.cfg.Timeout, fmt.Errorf("the request took longer than %s", t.cfg.Timeout))
	defer cancel()

	for hop := 0; ; hop++ {
		resp, wc, err := t.do(ctx, p)
		if err != nil {
			return nil, err
		}
		next, err := t.redirect(ctx, p, resp, hop)
		if err != nil || next == nil {
			if err != nil {
				resp.Body.Close()
				return nil, err
			}
			out, err := t.response(ctx, p, resp, wc, hop > 0)
			resp.Body.Close()
			return out, err
		}
		io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
		resp.Body.Close()
		p = next
	}
}

// decodeParams reads params made by Prepare, and checks them.
func decodeParams(raw json.RawMessage) (*Params, error) {
	var p Params
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&p); err != nil {
		return nil, reqErr(ErrInvalidRequest, "params were not made by the fetch tool's Prepare: %v", err)
	}
	if err := p.check(); err != nil {
		return nil, err
	}
	return &p, nil
}

// do makes one request, with the credentials that match it. It returns the
// response and the tool's own connection it came over (which saw its header
// lines as the server wrote them), or nil for another transport's.
func (t *fetchTool) do(ctx context.Context, p *Params) (*http.Response, *wireConn, error) {
	body, err := p.body()
	if err != nil {
		return nil, nil, scriptError(reqErr(ErrInvalidRequest, "body_base64: %v", err))
	}
	if len(body) > t.cfg.MaxRequestBytes {
		return nil, nil, &engine.ToolError{Kind: string(abi.ToolTooLarge), Message: fmt.Sprintf("request body of %d bytes is over the limit of %d bytes", len(body), t.cfg.MaxRequestBytes), Err: ErrTooLarge}
	}
	var rd io.Reader
	if len(body) > 0 || p.BodySize > 0 {
		rd = bytes.NewReader(body)
	}
	u := p.destination()
	req, err := http.NewRequestWithContext(ctx, p.Method, u.String(), rd)
	if err != nil {
		return nil, nil, fmt.Errorf("egress: making the request: %w", err)
	}
	// The URL net/http sends is the one built from the parsed parts.
	req.URL = u
	req.Host = ""
	for name, value := range p.Headers {
		req.Header[http.CanonicalHeaderKey(name)] = []string{value}
	}
	if err := t.addCredentials(ctx, p, req); err != nil {
		return nil, nil, err
	}
	// The connection the response came over, for its headers as the
	// server wrote them (wireConn).
	var mu sync.Mutex
	var conn net.Conn
	req = req.WithContext(httptrace.WithClientTrace(req.Context(), &httptrace.ClientTrace{
		GotConn: func(info httptrace.GotConnInfo) {
			mu.Lock()
			conn = info.Conn
			mu.Unlock()
		},
	}))
	resp, err := t.client.Do(req)
	if err != nil {
		return nil, nil, t.transportError(ctx, p, err)
	}
	mu.Lock()
	wc, _ := conn.(*wireConn)
	mu.Unlock()
	return resp, wc, nil
}

// transportError is the error the script sees for a request that got no
// response.
func (t *fetchTool) transportError(ctx context.Context, p *Params, err error) error {
	var ae *AddressError
	if errors.As(err, &ae) {
		return &engine.ToolError{Kind: string(abi.ToolDenied), Message: ae.Error(), Err: ae}
	}
	if errors.Is(err, ErrNonCanonicalIP) {
		return &engine.ToolError{Kind: string(abi.ToolDenied), Message: fmt.Sprintf("%s %s: non-canonical IPv4 address refused", p.Method, p.URL), Err: err}
	}
	if ctx.Err() != nil {
		return &engine.ToolError{Message: fmt.Sprintf("%s %s: %v", p.Method, p.URL, context.Cause(ctx)), Err: err}
	}
	var ue *url.Error
	if errors.As(err, &ue) {
		err = ue.Err
	}
	return &engine.ToolError{Message: fmt.Sprintf("%s %s failed: %v", p.Method, p.URL, err), Err: err}
}

// isRedirect says whether a status is a redirect that has a next hop.
func isRedirect(code int) bool {
	switch code {
	case http.StatusMovedPermanently, http.StatusFound, http.StatusSeeOther,
		http.StatusTemporaryRedirect, http.StatusPermanentRedirect:
		return true
	}
	return false
}

// redirect returns the next hop's params for a redirect response that the
// request follows, decided by the policy; nil when resp is the answer.
func (t *fetchTool) redirect(ctx context.Context, p *Params, resp *http.Response, hop int) (*Params, error) {
	if !isRedirect(resp.StatusCode) || p.Redirect == "manual" {
		return nil, nil
	}
	loc := resp.Header.Get("Location")
	if p.Redirect == "error" {
		return nil, &engine.ToolError{Message: fmt.Sprintf("%s %s: redirected (%d) to %q, and the request's redirect mode is \"error\"", p.Method, p.URL, resp.StatusCode, loc), Err: ErrRedirect}
	}
	if loc == "" {
		return nil, nil
	}
	if hop >= t.cfg.MaxRedirects {
		return nil, &engine.ToolError{Message: fmt.Sprintf("%s %s: more than %d redirects", p.Method, p.URL, t.cfg.MaxRedirects), Err: ErrRedirect}
	}
	cur := p.destination()
	ref, err := url.Parse(loc)
	if err != nil {
		return nil, &engine.ToolError{Message: fmt.Sprintf("%s %s: redirected to an invalid location %q", p.Method, p.URL, loc), Err: ErrRedirect}
	}
	target := cur.ResolveReference(ref)
	method, keepBody := p.Method, true
	switch {
	case resp.StatusCode == http.StatusSeeOther && p.Method != "HEAD":
		method, keepBody = "GET", false
	case (resp.StatusCode == http.StatusMovedPermanently || resp.StatusCode == http.StatusFound) && p.Method == "POST":
		method, keepBody = "GET", false
	}
	headers := map[string]string{}
	for k, v := range p.Headers {
		headers[k] = v
	}
	if !keepBody {
		for k := range headers {
			if strings.HasPrefix(k, "content-") {
				delete(headers, k)
			}
		}
	}
	req := p.toRequest(target, method, keepBody, headers)
	rawNext, err := json.Marshal(req)
	if err != nil {
		return nil, fmt.Errorf("egress: redirect: %w", err)
	}
	// The parsed form of the hop decides whether it is cross-origin: the
	// script's authorization and cookies go only to the same origin.
	parsed, err := t.parseRequest(rawNext)
	if err != nil {
		return nil, &engine.ToolError{Kind: string(abi.ToolInvalid), Message: fmt.Sprintf("%s %s: redirect to %q refused: %s", p.Method, p.URL, loc, strings.TrimPrefix(err.Error(), "egress: ")), Err: err}
	}
	if parsed.Scheme != p.Scheme || parsed.Host != p.Host || parsed.Port != p.Port {
		for _, h := range crossOriginDropped {
			delete(headers, h)
		}
		req = p.toRequest(target, method, keepBody, headers)
		if rawNext, err = json.Marshal(req); err != nil {
			return nil, fmt.Errorf("egress: redirect: %w", err)
		}
	}
	decided, err := engine.FollowUp(ctx, rawNext)
	if err != nil {
		return nil, err
	}
	next, err := decodeParams(decided)
	if err != nil {
		return nil, scriptError(err)
	}
	return next, nil
}

// response reads resp into the tool's result. Its headers are the lines
// the server wrote, when wc (the connection it came over, or nil) saw them
// and they agree with what net/http parsed; else net/http's, sorted by name.
func (t *fetchTool) response(ctx context.Context, p *Params, resp *http.Response, wc *wireConn, redirected bool) (json.RawMessage, error) {
	limit := int64(t.cfg.MaxResponseBytes)
	if resp.ContentLength > limit {
		return nil, tooLarge(p, t.cfg.MaxResponseBytes)
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, limit+1))
	if err != nil {
		if ctx.Err() != nil {
			return nil, &engine.ToolError{Message: fmt.Sprintf("%s %s: reading the response: %v", p.Method, p.URL, context.Cause(ctx)), Err: err}
		}
		return nil, &engine.ToolError{Message: fmt.Sprintf("%s %s: reading the response: %v", p.Method, p.URL, err), Err: err}
	}
	if int64(len(body)) > limit {
		return nil, tooLarge(p, t.cfg.MaxResponseBytes)
	}
	out := abi.FetchResponse{
		Status:     resp.StatusCode,
		StatusText: strings.TrimSpace(strings.TrimPrefix(resp.Status, fmt.Sprint(resp.StatusCode))),
		Proto:      resp.Proto,
		URL:        p.URL,
		Redirected: redirected,
		Headers:    [][2]string{},
	}
	if out.StatusText == "" {
		out.StatusText = http.StatusText(resp.StatusCode)
	}
	var lines []headerLine
	if wc != nil {
		if l, proto := wc.final(); l != nil && proto == resp.Proto && matches(l, resp.Header) {
			lines = l
		}
	}
	if lines == nil {
		names := make([]string, 0, len(resp.Header))
		for k := range resp.Header {
			names = append(names, k)
		}
		sort.Strings(names)
		for _, k := range names {
			for _, v := range resp.Header[k] {
				lines = append(lines, headerLine{k, v})
			}
		}
	}
	for _, l := range lines {
		if !t.cfg.KeepSetCookie && (strings.EqualFold(l.name, "set-cookie") || strings.EqualFold(l.name, "set-cookie2")) {
			continue
		}
		name, v := l.name, l.value
		if !utf8.ValidString(name) {
			name = strings.ToValidUTF8(name, "\uFFFD")
		}
		if !utf8.ValidString(v) {
			v = strings.ToValidUTF8(v, "\uFFFD")
		}
		out.Headers = append(out.Headers, [2]string{name, v})
	}
	if utf8.Valid(body) {
		out.Body = string(body)
	} else {
		out.BodyBase64 = base64.StdEncoding.EncodeToString(body)
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(out); err != nil {
		return nil, fmt.Errorf("egress: encoding the response: %w", err)
	}
	return bytes.TrimRight(buf.Bytes(), "\n"), nil
}

func tooLarge(p *Params, limit int) error {
	return &engine.ToolError{Kind: string(abi.ToolTooLarge), Message: fmt.Sprintf("%s %s: the response body is over the limit of %d bytes", p.Method, p.URL, limit), Err: ErrTooLarge}
}

// scriptError turns a RequestError into the ToolError the script sees.
func scriptError(err error) error {
	var re *RequestError
	if errors.As(err, &re) {
		kind := abi.ToolInvalid
		if errors.Is(err, ErrTooLarge) {
			kind = abi.ToolTooLarge
		}
		return &engine.ToolError{Kind: string(kind), Message: re.Message, Err: err}
	}
	return err
}
