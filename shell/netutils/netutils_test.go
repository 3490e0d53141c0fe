package netutils

import (
	"context"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/cordonhq/cordon/internal/abi"
	"github.com/cordonhq/cordon/shell/command"
	"github.com/cordonhq/cordon/shell/command/commandtest"
	"github.com/cordonhq/cordon/vfs"
)

// fakeHost answers requests by URL path and records them.
type fakeHost struct {
	reqs []abi.FetchRequest
}

func (f *fakeHost) fetch(ctx context.Context, req abi.FetchRequest) (abi.FetchResponse, error) {
	f.reqs = append(f.reqs, req)
	switch {
	case strings.Contains(req.URL, "denied"):
		return abi.FetchResponse{}, &CallError{Kind: abi.ToolDenied, Message: "tool http/fetch denied: host denied.example is not allowed", Reasons: []string{"host denied.example is not allowed"}}
	case strings.HasPrefix(req.URL, "ftp:"):
		return abi.FetchResponse{}, &CallError{Kind: abi.ToolInvalid, Message: "tool http/fetch: unsupported scheme \"ftp\""}
	case strings.Contains(req.URL, "bad"):
		return abi.FetchResponse{}, &CallError{Kind: abi.ToolInvalid, Message: "tool http/fetch: the URL has no host"}
	case strings.Contains(req.URL, "/missing"):
		return abi.FetchResponse{Status: 404, StatusText: "Not Found", URL: req.URL, Headers: [][2]string{{"content-type", "text/plain"}}, Body: "no such page\n"}, nil
	case strings.Contains(req.URL, "/relmoved"):
		return abi.FetchResponse{Status: 301, StatusText: "Moved Permanently", URL: "https://example.com/a/b", Headers: [][2]string{{"location", "new?x=1"}}}, nil
	case strings.Contains(req.URL, "/moved"):
		return abi.FetchResponse{Status: 302, StatusText: "Found", URL: req.URL, Headers: [][2]string{{"location", "https://example.com/new"}}}, nil
	case strings.Contains(req.URL, "/old"):
		return abi.FetchResponse{Status: 200, StatusText: "OK", Proto: "HTTP/1.0", URL: req.URL, Headers: [][2]string{{"Server", "SimpleHTTP/0.6"}, {"content-length", "2"}}, Body: "ok"}, nil
	case strings.Contains(req.URL, "/h2"):
		return abi.FetchResponse{Status: 204, Proto: "HTTP/2.0", URL: req.URL, Headers: [][2]string{{"date", "x"}}}, nil
	case strings.Contains(req.URL, "/bin"):
		return abi.FetchResponse{Status: 200, StatusText: "OK", URL: req.URL, BodyBase64: "AP8K"}, nil
	}
	return abi.FetchResponse{Status: 200, StatusText: "OK", URL: req.URL, Headers: [][2]string{{"Content-Type", "application/json"}, {"X-A", "1"}}, Body: `{"ok":true}`}, nil
}

func TestCurlOutput(t *testing.T) {
	f := &fakeHost{}
	r := commandtest.Runner{Commands: New(f.fetch), Files: map[string]string{"d.txt": "a=1\nb=2\n"}}
	r.RunCases(t, []commandtest.Case{
		{Args: []string{"curl", "-s", "https://example.com/api"}, Out: `{"ok":true}`},
		{Args: []string{"curl", "-i", "https://example.com/api"}, Out: "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nX-A: 1\r\n\r\n{\"ok\":true}"},
		{Args: []string{"curl", "-I", "https://example.com/api"}, Out: "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nX-A: 1\r\n\r\n"},
		// -D writes the headers to a file (or stdout), truncated by the
		// first transfer and appended to by the others.
		{Args: []string{"curl", "-s", "-D", "h.txt", "-o", "/dev/null", "http://example.com/old", "https://example.com/api"}, Check: func(t *testing.T, fsys *vfs.FS) {
			b, _ := fsys.ReadFile("/workspace/h.txt")
			if want := "HTTP/1.0 200 OK\r\nServer: SimpleHTTP/0.6\r\ncontent-length: 2\r\n\r\nHTTP/1.1 200 OK\r\nContent-Type: application/json\r\nX-A: 1\r\n\r\n"; string(b) != want {
				t.Errorf("h.txt = %q, want %q", b, want)
			}
		}, Out: `{"ok":true}`},
		{Args: []string{"curl", "-s", "-D", "-", "http://example.com/old"}, Out: "HTTP/1.0 200 OK\r\nServer: SimpleHTTP/0.6\r\ncontent-length: 2\r\n\r\nok"},
		// A data file that cannot be read is a warning (unless -s) and an
		// empty POST, as in curl 7.88.
		{Args: []string{"curl", "-d", "@missing.txt", "https://example.com/api"}, Out: `{"ok":true}`, Err: "Warning: Couldn't read data from file \"missing.txt\", this makes an empty POST.\n"},
		{Args: []string{"curl", "-sS", "-d", "@missing.txt", "https://example.com/api"}, Out: `{"ok":true}`},
		// A scheme the host does not speak is curl's unsupported protocol.
		{Args: []string{"curl", "-sS", "ftp://example.com/f"}, Status: 1, Err: "curl: (1) Protocol \"ftp\" not supported or disabled in libcurl\n"},
		// The protocol and the header lines as the host got them.
		{Args: []string{"curl", "-i", "http://example.com/old"}, Out: "HTTP/1.0 200 OK\r\nServer: SimpleHTTP/0.6\r\ncontent-length: 2\r\n\r\nok"},
		{Args: []string{"curl", "-I", "https://example.com/h2"}, Out: "HTTP/2 204 \r\ndate: x\r\n\r\n"},
		{Args: []string{"curl", "-s", "-o", "/dev/null", "-w", `%{http_code} %{content_type} %{size_download} %{url_effective}\n`, "https://example.com/api"}, Out: "200 application/json 11 https://example.com/api\n"},
		{Args: []string{"curl", "-s", "-w", `%{http_code}|%{redirect_url}`, "https://example.com/moved"}, Out: "302|https://example.com/new"},
		// curl knows \n \r \t in --write-out; any other escape, \\ too, is printed as it is.
		{Args: []string{"curl", "-s", "-o", "/dev/null", "-w", `a\\b|\q|\t|%%|\`, "https://example.com/api"}, Out: "a\\\\b|\\q|\t|%|\\"},
		{Args: []string{"curl", "-s", "-w", `%{redirect_url}`, "https://example.com/relmoved"}, Out: "https://example.com/a/new?x=1"},
		{Args: []string{"curl", "-sSf", "https://example.com/missing"}, Status: 22, Err: "curl: (22) The requested URL returned error: 404\n"},
		{Args: []string{"curl", "-sf", "https://example.com/missing"}, Status: 22},
		{Args: []string{"curl", "-s", "https://example.com/missing"}, Out: "no such page\n"},
		{Args: []string{"curl", "-s", "--fail-with-body", "https://example.com/missing"}, Out: "no such page\n", Status: 22},
		{Args: []string{"curl", "https://denied.example/"}, Status: 7, Err: "curl: (7) request denied by policy: host denied.example is not allowed\n"},
		{Args: []string{"curl", "-s", "https://denied.example/"}, Status: 7},
		{Args: []string{"curl", "https://bad/"}, Status: 3, Err: "curl: (3) request refused by the host: tool http/fetch: the URL has no host\n"},
		{Args: []string{"curl", "-s", "https://example.com/bin"}, Out: "\x00\xff\n"},
		{Args: []string{"curl", "-sO", "https://example.com/dir/file.json?x=1"}, Check: func(t *testing.T, fsys *vfs.FS) {
			if b, err := fsys.ReadFile("/workspace/file.json"); err != nil || string(b) != `{"ok":true}` {
				t.Errorf("file.json: %q, %v", b, err)
			}
		}},
		{Args: []string{"curl", "-s", "-o", "out/x", "https://example.com/api"}, Files: map[string]string{"out/": ""}, Check: func(t *testing.T, fsys *vfs.FS) {
			if b, err := fsys.ReadFile("/workspace/out/x"); err != nil || string(b) != `{"ok":true}` {
				t.Errorf("out/x: %q, %v", b, err)
			}
		}},
		{Args: []string{"curl", "-sO", "https://example.com/"}, Status: 23},
		{Args: []string{"curl"}, Status: 2, Err: "curl: (2) no URL specified\n"},
		{Args: []string{"curl", "--bogus", "x"}, Status: 2, Err: "curl: unrecognized option '--bogus'\n"},
		{Args: []string{"curl", "-u", "user", "x"}, Status: 2, Err: "give the password too"},
		{Args: []string{"curl", "-w", "%{nope}", "-s", "https://example.com/api"}, Out: `{"ok":true}`, Err: "curl: unknown --write-out variable: 'nope'\n"},
		{Args: []string{"wget", "-qO-", "https://example.com/api"}, Out: `{"ok":true}`},
		{Args: []string{"wget", "-q", "-O", "page", "https://example.com/api"}, Check: func(t *testing.T, fsys *vfs.FS) {
			if b, err := fsys.ReadFile("/workspace/page"); err != nil || string(b) != `{"ok":true}` {
				t.Errorf("page: %q, %v", b, err)
			}
		}},
		{Args: []string{"wget", "-q", "https://example.com/p/data.json"}, Files: map[string]string{"data.json": "old"}, Check: func(t *testing.T, fsys *vfs.FS) {
			if b, err := fsys.ReadFile("/workspace/data.json.1"); err != nil || string(b) != `{"ok":true}` {
				t.Errorf("data.json.1: %q, %v", b, err)
			}
		}},
		{Args: []string{"wget", "-qO-", "https://example.com/missing"}, Status: 8},
		{Args: []string{"wget", "-O-", "https://example.com/missing"}, Status: 8, Err: "ERROR 404: Not Found."},
		{Args: []string{"wget", "-O-", "https://denied.example/"}, Status: 4, Err: "wget: request denied by policy: host denied.example is not allowed\n"},
	})
}

func TestCurlRequests(t *testing.T) {
	files := map[string]string{"d.txt": "a=1\r\nb=2\n", "raw.bin": "x\ny\n", "body.json": `{"k": 1}`}
	ua := [2]string{"User-Agent", userAgent}
	accept := [2]string{"Accept", "*/*"}
	form := [2]string{"Content-Type", "application/x-www-form-urlencoded"}
	cases := []struct {
		args []string
		want abi.FetchRequest
	}{
		{[]string{"example.com/x"}, abi.FetchRequest{URL: "http://example.com/x", Method: "GET", Headers: [][2]string{ua, accept}, Redirect: "manual"}},
		{[]string{"-L", "-H", "X-One: 1", "-H", "accept: text/html", "https://e.x/"}, abi.FetchRequest{URL: "https://e.x/", Method: "GET", Headers: [][2]string{ua, {"X-One", "1"}, {"accept", "text/html"}}, Redirect: "follow"}},
		{[]string{"-d", "a=1", "-d", "@d.txt", "https://e.x/"}, abi.FetchRequest{URL: "https://e.x/", Method: "POST", Headers: [][2]string{ua, accept, form}, Body: "a=1&a=1b=2", Redirect: "manual"}},
		{[]string{"--data-binary", "@raw.bin", "-X", "PUT", "-H", "Content-Type: text/plain", "https://e.x/"}, abi.FetchRequest{URL: "https://e.x/", Method: "PUT", Headers: [][2]string{ua, accept, {"Content-Type", "text/plain"}}, Body: "x\ny\n", Redirect: "manual"}},
		{[]string{"--json", "@body.json", "https://e.x/"}, abi.FetchRequest{URL: "https://e.x/", Method: "POST", Headers: [][2]string{ua, {"Accept", "application/json"}, {"Content-Type", "application/json"}}, Body: `{"k": 1}`, Redirect: "manual"}},
		{[]string{"-G", "-d", "q=a b", "--data-urlencode", "r=a b&c", "https://e.x/s?x=1#f"}, abi.FetchRequest{URL: "https://e.x/s?x=1&q=a b&r=a+b%26c#f", Method: "GET", Headers: [][2]string{ua, accept}, Redirect: "manual"}},
		{[]string{"-u", "me:secret", "-A", "bot/1", "-H", "Accept:", "https://e.x/"}, abi.FetchRequest{URL: "https://e.x/", Method: "GET", Headers: [][2]string{{"Authorization", "Basic bWU6c2VjcmV0"}, {"User-Agent", "bot/1"}}, Redirect: "manual"}},
		{[]string{"-I", "https://e.x/"}, abi.FetchRequest{URL: "https://e.x/", Method: "HEAD", Headers: [][2]string{ua, accept}, Redirect: "manual"}},
		{[]string{"--data-binary", "\xff\x00", "https://e.x/"}, abi.FetchRequest{URL: "https://e.x/", Method: "POST", Headers: [][2]string{ua, accept, form}, BodyBase64: "/wA=", Redirect: "manual"}},
		{[]string{"-H", "Bad: a\r\nInjected: 1", "https://e.x/"}, abi.FetchRequest{URL: "https://e.x/", Method: "GET", Headers: [][2]string{ua, accept, {"Bad", "a\r\nInjected: 1"}}, Redirect: "manual"}},
		{[]string{"-sSfL", "--max-time", "5", "-k", "--compressed", "https://e.x/"}, abi.FetchRequest{URL: "https://e.x/", Method: "GET", Headers: [][2]string{ua, accept}, Redirect: "follow"}},
	}
	for _, c := range cases {
		f := &fakeHost{}
		res := commandtest.Runner{Commands: New(f.fetch)}.Run(t, nil, files, "", append([]string{"curl", "-s"}, c.args...)...)
		if res.Status != 0 {
			t.Errorf("%q: status %d, stderr %q", c.args, res.Status, res.Err)
		}
		if len(f.reqs) != 1 || !reflect.DeepEqual(f.reqs[0], c.want) {
			t.Errorf("%q: requests\n got %+v\nwant %+v", c.args, f.reqs, c.want)
		}
	}
	// wget
	f := &fakeHost{}
	res := commandtest.Runner{Commands: New(f.fetch)}.Run(t, nil, nil, "", "wget", "-qO-", "--header", "X: y", "-U", "agent/2", "--post-data", "a=1", "https://e.x/")
	want := abi.FetchRequest{URL: "https://e.x/", Method: "POST", Headers: [][2]string{{"User-Agent", "agent/2"}, {"Accept", "*/*"}, form, {"X", "y"}}, Body: "a=1", Redirect: "follow"}
	if res.Status != 0 || len(f.reqs) != 1 || !reflect.DeepEqual(f.reqs[0], want) {
		t.Errorf("wget: status %d, requests\n got %+v\nwant %+v", res.Status, f.reqs, want)
	}
}

func TestNotEnabled(t *testing.T) {
	r := commandtest.Runner{Commands: Commands()}
	r.RunCases(t, []commandtest.Case{
		{Args: []string{"curl", "-s", "https://example.com/"}, Status: 2, Err: "curl: network access is not enabled in this sandbox\n"},
		{Args: []string{"wget", "-q", "https://example.com/"}, Status: 1, Err: "wget: network access is not enabled in this sandbox\n"},
	})
}

func TestCanceled(t *testing.T) {
	f := &fakeHost{}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for _, args := range [][]string{{"curl", "https://e.x/"}, {"wget", "-qO-", "https://e.x/"}} {
		r := commandtest.RunCtx(ctx, t, New(f.fetch), commandtest.NewFS(t, nil), strings.NewReader(""), args...)
		if r.Status != command.StatusCanceled || r.Err != "" {
			t.Errorf("%q: status %d, stderr %q", args, r.Status, r.Err)
		}
	}
	if len(f.reqs) != 0 {
		t.Errorf("requests made on a canceled context: %+v", f.reqs)
	}
}

// A Fetcher error that is not a CallError means the execution is being
// stopped: status 130, with the error's message.
func TestFetcherStopped(t *testing.T) {
	stop := func(context.Context, abi.FetchRequest) (abi.FetchResponse, error) {
		return abi.FetchResponse{}, errors.New("hub: the execution is stopping")
	}
	r := commandtest.Runner{Commands: New(stop)}
	r.RunCases(t, []commandtest.Case{
		{Args: []string{"curl", "-s", "https://e.x/"}, Status: command.StatusCanceled, Err: "curl: hub: the execution is stopping\n"},
		{Args: []string{"wget", "-qO-", "https://e.x/"}, Status: command.StatusCanceled, Err: "wget: hub: the execution is stopping\n"},
	})
}
