package jsrt

import (
	_ "embed"
	"encoding/base64"
	"encoding/json"
	"net/url"
	"reflect"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/cordonhq/cordon/internal/abi"
	"github.com/dop251/goja"
)

// The Fetch API (fetch, Headers, Request, Response, URL, URLSearchParams)
// is written in JavaScript (fetch.js) over a few native functions, and
// made once per execution, the first time a script reads one of its
// globals. A request is a call to the tool the host marked Fetch
// (abi.ToolInfo.Fetch), with an abi.FetchRequest as its params: it goes
// through the same hub, policy, counters and audit as every tool call. The
// guest decides nothing from the URL; the host parses it and the policy
// decides. Without a fetch tool, fetch rejects with a TypeError that says
// network access is not enabled.

//go:embed fetch.js
var fetchSource string

// fetchProgram is fetch.js compiled, once per process.
var fetchProgram = sync.OnceValues(func() (*goja.Program, error) {
	return goja.Compile("fetch.js", fetchSource, true)
})

// webGlobals are the globals fetch.js defines.
var webGlobals = []string{"fetch", "Headers", "Request", "Response", "URL", "URLSearchParams"}

func init() {
	for _, name := range webGlobals {
		apiBuilders[name] = func(r *run) goja.Value { return r.webAPI().Get(name) }
	}
}

// fetchTool returns the name of the tool marked Fetch, if there is one.
func fetchTool(tools []abi.ToolInfo) (string, bool) {
	for _, t := range tools {
		if t.Fetch {
			return t.Name, true
		}
	}
	return "", false
}

// webAPI returns the object that holds fetch.js's globals, running it the
// first time. It is called from JS (reading a global), where a failure
// throws.
func (r *run) webAPI() *goja.Object {
	if r.web != nil {
		return r.web
	}
	prog, err := fetchProgram()
	if err != nil {
		panic(r.rt.NewTypeError("fetch: the Fetch API does not compile: " + err.Error()))
	}
	fv, err := r.rt.RunProgram(prog)
	if err != nil {
		panic(err)
	}
	f, ok := goja.AssertFunction(fv)
	if !ok {
		panic(r.rt.NewTypeError("fetch: the Fetch API did not load"))
	}
	native := r.rt.NewObject()
	if name, ok := fetchTool(r.opts.Tools); ok {
		_ = native.Set("tool", name)
	} else {
		_ = native.Set("tool", goja.Null())
	}
	_ = native.Set("send", r.fn("send", r.fetchSend))
	_ = native.Set("bytesOf", r.fn("bytesOf", r.bytesOf))
	_ = native.Set("utf8Decode", r.fn("utf8Decode", r.utf8Decode))
	_ = native.Set("utf8Encode", r.fn("utf8Encode", func(call goja.FunctionCall) goja.Value {
		return r.rt.ToValue(r.rt.NewArrayBuffer([]byte(call.Argument(0).String())))
	}))
	_ = native.Set("parseURL", r.fn("parseURL", r.parseURL))
	v, err := f(goja.Undefined(), native)
	if err != nil {
		panic(err)
	}
	obj, ok := v.(*goja.Object)
	if !ok {
		panic(r.rt.NewTypeError("fetch: the Fetch API did not load"))
	}
	r.web = obj
	return obj
}

// bytesOf returns a copy of the bytes of an ArrayBuffer or a Uint8Array
// as a new ArrayBuffer, or null for any other value.
func (r *run) bytesOf(call goja.FunctionCall) goja.Value {
	b, ok := exportBytes(call.Argument(0))
	if !ok {
		return goja.Null()
	}
	return r.rt.ToValue(r.rt.NewArrayBuffer(append([]byte{}, b...)))
}

var (
	typeArrayBuffer = reflect.TypeOf(goja.ArrayBuffer{})
	typeBytes       = reflect.TypeOf([]byte(nil))
)

// exportBytes returns the bytes of an ArrayBuffer, a Uint8Array or a
// Uint8ClampedArray (not a copy).
func exportBytes(v goja.Value) ([]byte, bool) {
	obj, ok := v.(*goja.Object)
	if !ok {
		return nil, false
	}
	// The type first: exporting an ordinary object would copy all of it,
	// calling its getters.
	if t := obj.ExportType(); t != typeArrayBuffer && t != typeBytes {
		return nil, false
	}
	switch x := obj.Export().(type) {
	case goja.ArrayBuffer:
		return x.Bytes(), true
	case []byte:
		return x, true
	}
	return nil, false
}

// utf8Decode decodes an ArrayBuffer as UTF-8, invalid sequences replaced
// with U+FFFD as TextDecoder does.
func (r *run) utf8Decode(call goja.FunctionCall) goja.Value {
	b, _ := exportBytes(call.Argument(0))
	return r.rt.ToValue(strings.ToValidUTF8(string(b), "\uFFFD"))
}

// fetchSend calls the fetch tool: send(url, method, [name, value, ...],
// body, redirect), body a string, an ArrayBuffer or null. The promise it
// returns resolves with the host's abi.FetchResponse as fetch.js reads it
// ({status, statusText, url, redirected, headers: [[name, value]...],
// body: a string, an ArrayBuffer or null}), or rejects with the call's
// ToolError.
func (r *run) fetchSend(call goja.FunctionCall) goja.Value {
	rt := r.rt
	method, ok := fetchTool(r.opts.Tools)
	if !ok {
		panic(rt.NewTypeError("fetch: network access is not enabled in this sandbox (the host has configured no HTTP egress)"))
	}
	req := abi.FetchRequest{
		URL:      call.Argument(0).String(),
		Method:   call.Argument(1).String(),
		Redirect: call.Argument(4).String(),
	}
	var flat []string
	if err := rt.ExportTo(call.Argument(2), &flat); err != nil || len(flat)%2 != 0 {
		panic(rt.NewTypeError("fetch: the headers are not a list of names and values"))
	}
	for i := 0; i < len(flat); i += 2 {
		req.Headers = append(req.Headers, [2]string{flat[i], flat[i+1]})
	}
	switch body := call.Argument(3); {
	case goja.IsNull(body) || goja.IsUndefined(body):
	default:
		if b, ok := exportBytes(body); ok {
			req.SetBody(b)
		} else {
			// A string body is a USVString: a lone surrogate is U+FFFD.
			req.SetBody([]byte(strings.ToValidUTF8(body.String(), "\uFFFD")))
		}
	}
	params, err := json.Marshal(req)
	if err != nil {
		panic(rt.NewTypeError("fetch: " + err.Error()))
	}
	pc := &pendingCall{r: r, method: method, fetch: true}
	pc.site = rt.CaptureCallStack(len(pc.sites), pc.sites[:0])
	p := r.newCallPromise(pc)
	r.inflight++
	r.hub.Enqueue(abi.LangJS, method, params, pc)
	return rt.ToValue(p)
}

// fetchOutcome is the value a fetch call's promise resolves with: the
// host's abi.FetchResponse, as fetchSend describes it.
func (r *run) fetchOutcome(pc *pendingCall, result []byte) (goja.Value, bool) {
	var res abi.FetchResponse
	if err := json.Unmarshal(result, &res); err != nil {
		return r.newToolError(pc.method, abi.ToolInvalidResult, "tool "+pc.method+" returned a result that is not a fetch response: "+err.Error(), nil, pc.site), false
	}
	rt := r.rt
	o := rt.NewObject()
	_ = o.Set("status", res.Status)
	_ = o.Set("statusText", res.StatusText)
	_ = o.Set("url", res.URL)
	_ = o.Set("redirected", res.Redirected)
	pairs := make([]any, len(res.Headers))
	for i, h := range res.Headers {
		pairs[i] = rt.NewArray(h[0], h[1])
	}
	_ = o.Set("headers", rt.NewArray(pairs...))
	switch {
	case res.BodyBase64 != "":
		b, err := base64.StdEncoding.DecodeString(res.BodyBase64)
		if err != nil {
			return r.newToolError(pc.method, abi.ToolInvalidResult, "tool "+pc.method+" returned a body that is not base64: "+err.Error(), nil, pc.site), false
		}
		_ = o.Set("body", rt.NewArrayBuffer(b))
	case res.Body != "":
		_ = o.Set("body", res.Body)
	default:
		_ = o.Set("body", goja.Null())
	}
	return o, true
}

// parseURL parses url (against base, when given) with net/url for the URL
// class, or throws a TypeError "Invalid URL". It returns the parts
// fetch.js's URL reads.
func (r *run) parseURL(call goja.FunctionCall) goja.Value {
	rt := r.rt
	raw := call.Argument(0).String()
	invalid := func() {
		panic(rt.NewTypeError("Invalid URL: " + quoteJS(raw)))
	}
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil {
		invalid()
	}
	if b := call.Argument(1); !goja.IsUndefined(b) {
		base, err := url.Parse(strings.TrimSpace(b.String()))
		if err != nil || base.Scheme == "" {
			panic(rt.NewTypeError("Invalid base URL: " + quoteJS(b.String())))
		}
		u = base.ResolveReference(u)
	}
	if u.Scheme == "" {
		invalid()
	}
	scheme := strings.ToLower(u.Scheme)
	special := scheme == "http" || scheme == "https" || scheme == "ws" || scheme == "wss" || scheme == "ftp" || scheme == "file"
	o := rt.NewObject()
	host := strings.ToLower(u.Host)
	port := u.Port()
	if (scheme == "http" || scheme == "ws") && port == "80" || (scheme == "https" || scheme == "wss") && port == "443" {
		host = strings.TrimSuffix(host, ":"+port)
		port = ""
	}
	path := u.EscapedPath()
	if u.Opaque != "" {
		path = u.Opaque
	}
	if special && path == "" {
		path = "/"
	}
	search := ""
	if u.RawQuery != "" || u.ForceQuery {
		search = "?" + u.RawQuery
	}
	hash := ""
	if f := u.EscapedFragment(); f != "" {
		hash = "#" + f
	}
	pass, _ := u.User.Password()
	_ = o.Set("protocol", scheme+":")
	_ = o.Set("slashes", u.Opaque == "" && (special || u.Host != ""))
	_ = o.Set("username", u.User.Username())
	_ = o.Set("password", pass)
	_ = o.Set("host", host)
	_ = o.Set("hostname", strings.ToLower(u.Hostname()))
	_ = o.Set("port", port)
	_ = o.Set("pathname", path)
	_ = o.Set("search", search)
	_ = o.Set("hash", hash)
	return o
}

// quoteJS quotes s for a message, valid UTF-8 only.
func quoteJS(s string) string {
	if !utf8.ValidString(s) {
		s = strings.ToValidUTF8(s, "\uFFFD")
	}
	b, _ := json.Marshal(s)
	return string(b)
}
