package egress_test

import (
	"bufio"
	"io"
	"net"
	"net/http"
	"reflect"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/cordonhq/cordon/egress"
	"github.com/cordonhq/cordon/internal/abi"
)

// rawServer answers each request on a connection with the next of the
// canned responses, written byte for byte; requests on one connection are
// answered in turn, so keep-alive reuses it. It counts the connections.
func rawServer(t *testing.T, responses map[string]string) (addr string, conns *atomic.Int64) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	conns = new(atomic.Int64)
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			conns.Add(1)
			go func() {
				defer c.Close()
				br := bufio.NewReader(c)
				for {
					req, err := http.ReadRequest(br)
					if err != nil {
						return
					}
					io.Copy(io.Discard, req.Body)
					resp, ok := responses[req.URL.Path]
					if !ok {
						resp = "HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n"
					}
					if _, err := io.WriteString(c, resp); err != nil {
						return
					}
					if strings.HasPrefix(resp, "HTTP/1.0") {
						return
					}
				}
			}()
		}
	}()
	return ln.Addr().String(), conns
}

// The headers of a response over HTTP/1.x are the lines the server wrote,
// in its order and its case, framing headers included and Set-Cookie left
// out; interim responses are skipped; each response on a reused
// connection has its own.
func TestFetchHeadersAsWritten(t *testing.T) {
	addr, conns := rawServer(t, map[string]string{
		"/chunked": "HTTP/1.1 200 OK\r\nServer: raw\r\nx-lower: a\r\nContent-Type: text/plain\r\nSet-Cookie: s=1\r\nX-Multi: 1\r\nX-Multi:  2 \r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n",
		"/interim": "HTTP/1.1 102 Processing\r\nX-Interim: yes\r\n\r\nHTTP/1.1 201 Created\r\nzeta: z\r\nAlpha: a\r\nContent-Length: 2\r\n\r\nok",
		"/folded":  "HTTP/1.1 200 OK\r\nX-Folded: a\r\n b\r\nContent-Length: 0\r\n\r\n",
		"/old":     "HTTP/1.0 200 OK\r\nZ-Last: 1\r\nA-First: 2\r\n\r\nbye",
	})
	tool := newTool(t, egress.Config{AllowPrivate: []string{addr}})
	cases := []struct {
		path, proto string
		headers     [][2]string
		body        string
	}{
		{"/chunked", "HTTP/1.1", [][2]string{{"Server", "raw"}, {"x-lower", "a"}, {"Content-Type", "text/plain"}, {"X-Multi", "1"}, {"X-Multi", "2"}, {"Transfer-Encoding", "chunked"}}, "hello"},
		{"/interim", "HTTP/1.1", [][2]string{{"zeta", "z"}, {"Alpha", "a"}, {"Content-Length", "2"}}, "ok"},
		{"/chunked", "HTTP/1.1", [][2]string{{"Server", "raw"}, {"x-lower", "a"}, {"Content-Type", "text/plain"}, {"X-Multi", "1"}, {"X-Multi", "2"}, {"Transfer-Encoding", "chunked"}}, "hello"},
		{"/folded", "HTTP/1.1", [][2]string{{"X-Folded", "a b"}, {"Content-Length", "0"}}, ""},
		{"/old", "HTTP/1.0", [][2]string{{"Z-Last", "1"}, {"A-First", "2"}}, "bye"},
	}
	for _, c := range cases {
		resp, err := call(t, tool, abi.FetchRequest{URL: "http://" + addr + c.path})
		if err != nil {
			t.Fatalf("%s: %v", c.path, err)
		}
		if resp.Proto != c.proto || !reflect.DeepEqual(resp.Headers, c.headers) || resp.Body != c.body {
			t.Errorf("%s: proto %q headers %q body %q; want %q %q %q", c.path, resp.Proto, resp.Headers, resp.Body, c.proto, c.headers, c.body)
		}
	}
	if n := conns.Load(); n != 1 {
		// The first four share one connection; the HTTP/1.0 answer was on
		// it too, and closed it.
		t.Errorf("%d connections, want 1 (the test means to cover reuse)", n)
	}
}

// A response that a transport of the host's own read (not the tool's) has
// the headers net/http parsed, sorted by name.
func TestFetchHeadersFromAHostClient(t *testing.T) {
	addr, _ := rawServer(t, map[string]string{
		"/": "HTTP/1.1 200 OK\r\nZeta: z\r\nalpha: a\r\nContent-Length: 0\r\n\r\n",
	})
	client := &http.Client{Transport: &http.Transport{}}
	tool := newTool(t, egress.Config{AllowPrivate: []string{addr}, Client: client})
	resp, err := call(t, tool, abi.FetchRequest{URL: "http://" + addr + "/"})
	if err != nil {
		t.Fatal(err)
	}
	want := [][2]string{{"Alpha", "a"}, {"Content-Length", "0"}, {"Zeta", "z"}}
	if !reflect.DeepEqual(resp.Headers, want) || resp.Proto != "HTTP/1.1" {
		t.Errorf("headers %q proto %q, want %q", resp.Headers, resp.Proto, want)
	}
}
