package jsrt

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/cordonhq/cordon/guest/internal/hub/hubtest"
	"github.com/cordonhq/cordon/internal/abi"
)

// fetchTools are the tools of a sandbox with network access: the fetch
// tool under a name of the host's choosing, and another tool.
var fetchTools = []abi.ToolInfo{{Name: "other/tool"}, {Name: "http/fetch", Fetch: true}}

// fetchHost answers the fetch tool with res and records the requests.
func fetchHost(t *testing.T, res abi.FetchResponse, got *[]abi.FetchRequest) *hubtest.Host {
	return &hubtest.Host{Answer: func(c abi.Call) abi.CallResult {
		if c.Method != "http/fetch" {
			t.Errorf("call to %s, want http/fetch", c.Method)
			return hubtest.Echo(c)
		}
		var req abi.FetchRequest
		dec := json.NewDecoder(strings.NewReader(string(c.Params)))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&req); err != nil {
			t.Errorf("params %s: %v", c.Params, err)
		}
		*got = append(*got, req)
		return hubtest.Value(c, res)
	}}
}

// runFetch runs code and returns its value; the run must succeed.
func runFetch(t *testing.T, h *hubtest.Host, tools []abi.ToolInfo, code string) string {
	t.Helper()
	out := runJS(t, h, tools, code)
	if out.ErrCode != "" || out.ExitCode != 0 {
		t.Fatalf("outcome %+v, stderr %q", out, h.Stderr())
	}
	return string(out.Value)
}

func TestFetchSendsTheRequest(t *testing.T) {
	var got []abi.FetchRequest
	h := fetchHost(t, abi.FetchResponse{Status: 201, StatusText: "Created", URL: "https://api.example.com/v1/items"}, &got)
	runFetch(t, h, fetchTools, `
		await fetch("https://api.example.com/v1/items", {
			method: "post",
			headers: [["X-One", "1"], ["Authorization", "Bearer t"], ["x-one", "2"]],
			body: JSON.stringify({a: 1}),
			redirect: "manual",
		})
		await fetch(new URL("https://example.com/x?q=1"))
		await fetch("https://example.com/bin", {method: "PUT", headers: new Headers({"Content-Type": "application/octet-stream"}), body: new Uint8Array([0, 255, 1])})
		await fetch("https://example.com/ab", {method: "PATCH", body: new Uint8Array([104, 105]).buffer})
		await fetch(new Request("https://example.com/r", {method: "DELETE", headers: {A: "b"}}))
		await fetch("https://example.com/form", {method: "POST", body: new URLSearchParams({q: "a b", n: "1"})})
	`)
	want := []abi.FetchRequest{
		{URL: "https://api.example.com/v1/items", Method: "POST", Headers: [][2]string{{"X-One", "1"}, {"Authorization", "Bearer t"}, {"x-one", "2"}, {"Content-Type", "text/plain;charset=UTF-8"}}, Body: `{"a":1}`, Redirect: "manual"},
		{URL: "https://example.com/x?q=1", Method: "GET", Redirect: "follow"},
		{URL: "https://example.com/bin", Method: "PUT", Headers: [][2]string{{"Content-Type", "application/octet-stream"}}, BodyBase64: "AP8B", Redirect: "follow"},
		{URL: "https://example.com/ab", Method: "PATCH", Body: "hi", Redirect: "follow"}, // bytes that are short UTF-8 go as text,
		{URL: "https://example.com/r", Method: "DELETE", Headers: [][2]string{{"A", "b"}}, Redirect: "follow"},
		{URL: "https://example.com/form", Method: "POST", Headers: [][2]string{{"Content-Type", "application/x-www-form-urlencoded;charset=UTF-8"}}, Body: "q=a+b&n=1", Redirect: "follow"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("requests\n got %+v\nwant %+v", got, want)
	}
}

func TestFetchResponse(t *testing.T) {
	var got []abi.FetchRequest
	h := fetchHost(t, abi.FetchResponse{
		Status: 200, StatusText: "OK", URL: "https://example.com/final", Redirected: true,
		Headers: [][2]string{{"content-type", "application/json"}, {"set-cookie", "a=1"}, {"set-cookie", "b=2"}},
		Body:    `{"items":[1,2],"name":"é"}`,
	}, &got)
	v := runFetch(t, h, fetchTools, `
		const r = await fetch("https://example.com/start")
		const seen = []
		for (const [k, v] of r.headers) seen.push(k + "=" + v)
		const each = []
		r.headers.forEach((v, k) => each.push(k))
		const c = r.clone()
		const j = await r.json()
		let again
		try { await r.text() } catch (e) { again = e instanceof TypeError }
		const buf = await c.arrayBuffer()
		return {
			ok: r.ok, status: r.status, statusText: r.statusText, url: r.url, redirected: r.redirected,
			ct: r.headers.get("Content-Type"), cookie: r.headers.get("SET-COOKIE"), has: r.headers.has("content-TYPE"),
			missing: r.headers.get("x-none"), seen, each, keys: [...r.headers.keys()], j, again,
			bytes: buf.byteLength, used: r.bodyUsed, instance: r instanceof Response,
		}
	`)
	want := `{"ok":true,"status":200,"statusText":"OK","url":"https://example.com/final","redirected":true,` +
		`"ct":"application/json","cookie":"a=1, b=2","has":true,"missing":null,` +
		`"seen":["content-type=application/json","set-cookie=a=1, b=2"],"each":["content-type","set-cookie"],` +
		`"keys":["content-type","set-cookie"],"j":{"items":[1,2],"name":"é"},"again":true,"bytes":27,"used":true,"instance":true}`
	if v != want {
		t.Errorf("got  %s\nwant %s", v, want)
	}
}

func TestFetchBinaryBody(t *testing.T) {
	var got []abi.FetchRequest
	h := fetchHost(t, abi.FetchResponse{Status: 404, StatusText: "Not Found", BodyBase64: "AP9oaQ=="}, &got)
	v := runFetch(t, h, fetchTools, `
		const r = await fetch("https://example.com/f")
		const b = await r.clone().bytes()
		return [r.ok, r.status, Array.from(b), (await r.text()).length]
	`)
	if v != `[false,404,[0,255,104,105],4]` {
		t.Errorf("got %s", v)
	}
}

func TestFetchErrors(t *testing.T) {
	h := &hubtest.Host{Answer: func(c abi.Call) abi.CallResult { return hubtest.Deny(c, "host evil.example is not allowed") }}
	v := runFetch(t, h, fetchTools, `
		try { await fetch("https://evil.example/") } catch (e) {
			return [e instanceof TypeError, e.message, e.kind, e.reasons, e.cause instanceof ToolError]
		}
	`)
	want := `[true,"fetch failed: tool http/fetch denied: host evil.example is not allowed","denied",["host evil.example is not allowed"],true]`
	if v != want {
		t.Errorf("got  %s\nwant %s", v, want)
	}
	// Bad input from the script rejects with a TypeError and calls nothing.
	for _, code := range []string{
		`fetch("https://e.x/", {body: {a: 1}, method: "POST"})`,
		`fetch("https://e.x/", {body: "x"})`,
		`fetch("https://e.x/", {redirect: "sometimes"})`,
		`fetch("https://e.x/", {headers: 5})`,
		`fetch("https://e.x/", {headers: [["a"]]})`,
		`fetch("https://e.x/", 7)`,
		`fetch()`,
		`fetch("https://e.x/", {signal: {}})`,
	} {
		h := &hubtest.Host{}
		v := runFetch(t, h, fetchTools, `try { await `+code+`; return "resolved" } catch (e) { return e instanceof TypeError ? "TypeError: " + e.message : String(e) }`)
		if !strings.HasPrefix(v, `"TypeError: `) {
			t.Errorf("%s: %s", code, v)
		}
		if n := len(h.Calls()); n != 0 {
			t.Errorf("%s: %d calls", code, n)
		}
	}
}

func TestFetchNotEnabled(t *testing.T) {
	h := &hubtest.Host{}
	v := runFetch(t, h, []abi.ToolInfo{{Name: "other/tool"}}, `
		const p = fetch("https://example.com/")
		try { await p } catch (e) { return [p instanceof Promise, e instanceof TypeError, e.message, typeof Headers, typeof Response] }
	`)
	want := `[true,true,"fetch: network access is not enabled in this sandbox (the host has configured no HTTP egress)","function","function"]`
	if v != want {
		t.Errorf("got  %s\nwant %s", v, want)
	}
	if n := len(h.Calls()); n != 0 {
		t.Errorf("%d calls", n)
	}
}

func TestFetchBadResult(t *testing.T) {
	h := &hubtest.Host{Answer: func(c abi.Call) abi.CallResult { return hubtest.Value(c, []int{1}) }}
	v := runFetch(t, h, fetchTools, `try { await fetch("https://e.x/") } catch (e) { return [e.name, e.kind] }`)
	if v != `["TypeError","invalid_result"]` {
		t.Errorf("got %s", v)
	}
}

func TestHeadersAndURL(t *testing.T) {
	v := runFetch(t, &hubtest.Host{}, nil, `
		const h = new Headers([["B", "2"], ["a", "1"]])
		h.append("b", "3"); h.set("C", "x"); h.set("c", "y"); h.delete("A")
		const u = new URL("/p/a%20b?x=1&y=two+words#frag", "https://User:pw@Example.COM:8443/base")
		u.searchParams.append("z", "&")
		const d = new URL("http://example.com")
		let bad
		try { new URL("not a url") } catch (e) { bad = e instanceof TypeError }
		return {
			h: [...h], has: h.has("a"),
			href: u.href, protocol: u.protocol, host: u.host, hostname: u.hostname, port: u.port,
			pathname: u.pathname, search: u.search, hash: u.hash, y: u.searchParams.get("y"), user: u.username,
			d: String(d), dport: d.port, origin: d.origin, bad, can: URL.canParse("https://x"),
			sp: new URLSearchParams("?a=1&b=%20c&a=2").getAll("a"),
		}
	`)
	want := `{"h":[["b","2, 3"],["c","y"]],"has":false,` +
		`"href":"https://User:pw@example.com:8443/p/a%20b?x=1&y=two+words&z=%26#frag","protocol":"https:","host":"example.com:8443","hostname":"example.com","port":"8443",` +
		`"pathname":"/p/a%20b","search":"?x=1&y=two+words&z=%26","hash":"#frag","y":"two words","user":"User",` +
		`"d":"http://example.com/","dport":"","origin":"http://example.com","bad":true,"can":true,"sp":["1","2"]}`
	if v != want {
		t.Errorf("got  %s\nwant %s", v, want)
	}
}

// A hostile body, URL or headers gets an error, never a crash, and a body
// object's getters are not run.
func TestFetchHostileInput(t *testing.T) {
	h := &hubtest.Host{}
	v := runFetch(t, h, fetchTools, `
		const out = []
		let touched = false
		const body = {get x() { touched = true; return 1 }}
		for (const f of [
			() => fetch({toString() { throw new Error("no url") }}),
			() => fetch("https://e.x/", {method: "POST", body}),
			() => fetch("https://e.x/", {method: "POST", body: new Proxy({}, {get() { throw new Error("trap") }})}),
			() => fetch("https://e.x/", {headers: {get a() { throw new Error("getter") }}}),
			() => fetch("https://e.x/", {method: Symbol("m")}),
			() => new URL("http://[::1"),
			() => new URL("/p", "no-scheme"),
		]) {
			try { await f(); out.push("ok") } catch (e) { out.push(e.name) }
		}
		return [out, touched]
	`)
	if v != `[["Error","TypeError","Error","Error","ok","TypeError","TypeError"],false]` {
		t.Errorf("got %s", v)
	}
	// Only the request with a symbol for its method went out: its method
	// is the host's to refuse.
	if calls := h.Calls(); len(calls) != 1 || !strings.Contains(string(calls[0].Params), `"method":"Symbol(m)"`) {
		t.Errorf("calls %+v", calls)
	}
}
