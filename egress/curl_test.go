package egress_test

import (
	"bytes"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/cordonhq/cordon/dsl"
	"github.com/cordonhq/cordon/egress"
	"github.com/cordonhq/cordon/engine"
	"github.com/cordonhq/cordon/engine/enginetest"
)

// curlServer answers the requests of TestCurlAgreesWithCurl with no Date
// header, so that two runs of one request give the same bytes.
func curlServer(t *testing.T) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header()["Date"] = nil
		switch r.URL.Path {
		case "/raw", "/old":
			// Header lines in an order and a case of the server's own,
			// which curl -i prints as they came.
			conn, buf, err := w.(http.Hijacker).Hijack()
			if err != nil {
				return
			}
			defer conn.Close()
			if r.URL.Path == "/old" {
				buf.WriteString("HTTP/1.0 200 OK\r\nServer: SimpleHTTP/0.6 Python/3.11.7\r\nContent-type: text/plain\r\nContent-Length: 4\r\n\r\nbye\n")
			} else {
				buf.WriteString("HTTP/1.1 200 OK\r\nzeta: 1\r\nAlpha: 2\r\nX-Dup: a\r\nX-Dup: b\r\nConnection: close\r\nContent-Length: 3\r\n\r\nhi\n")
			}
			buf.Flush()
		case "/chunked":
			w.Header().Set("Content-Type", "text/plain")
			fmt.Fprint(w, "part one\n")
			w.(http.Flusher).Flush()
			fmt.Fprint(w, "part two\n")
		case "/json":
			w.Header().Set("Content-Type", "application/json")
			w.Header().Set("Content-Length", "21")
			fmt.Fprint(w, `{"ok":true,"n":[1,2]}`)
		case "/missing":
			w.Header().Set("Content-Type", "text/plain; charset=utf-8")
			w.WriteHeader(http.StatusNotFound)
			fmt.Fprint(w, "no such thing\n")
		case "/moved":
			w.Header().Set("Location", "/json")
			w.WriteHeader(http.StatusFound)
		case "/echo":
			body, _ := io.ReadAll(r.Body)
			w.Header().Set("Content-Type", "text/plain; charset=utf-8")
			fmt.Fprintf(w, "%s %s ct=%q accept=%q ae=%q x=%q auth=%q body=%q\n", r.Method, r.URL.RequestURI(),
				r.Header.Get("Content-Type"), r.Header.Get("Accept"), r.Header.Values("Accept-Encoding"), r.Header.Get("X-Test"), r.Header.Get("Authorization"), body)
		default:
			w.Header().Set("Content-Type", "text/plain; charset=utf-8")
			fmt.Fprint(w, "hello\n")
		}
	}))
	t.Cleanup(srv.Close)
	return srv
}

// The shell's curl prints what curl prints, exits as curl exits and writes
// the files curl writes, for the flags agents use, against the same server.
// The reference is the machine's curl; CI installs it (.ci/run), and the
// test fails there, rather than skipping, when it is missing.
func TestCurlAgreesWithCurl(t *testing.T) {
	curl, err := exec.LookPath("curl")
	if err != nil {
		if os.Getenv("CORDON_CI") != "" {
			t.Fatal("curl is not installed: .ci/run installs it, and CI needs it as the reference")
		}
		t.Skip("curl is not installed")
	}
	srv := curlServer(t)
	_, port, _ := net.SplitHostPort(strings.TrimPrefix(srv.URL, "http://"))
	tool := newTool(t, egress.Config{AllowPrivate: []string{"127.0.0.1:" + port}})
	sb := enginetest.NewSandbox(t, engine.SandboxConfig{Tools: []engine.Tool{tool},
		Policy: enginetest.Policy(t, dsl.Method("http/fetch"))})
	u := srv.URL
	cases := []string{
		`curl -s ` + u + `/`,
		`curl -s ` + u + `/json`,
		`curl -sS ` + u + `/missing; echo " exit=$?"`,
		`curl -sf ` + u + `/missing; echo "exit=$?"`,
		`curl -s -o /dev/null -w '%{http_code}\n' ` + u + `/missing`,
		`curl -s -w '%{http_code} %{content_type} %{size_download}\n' ` + u + `/json`,
		`curl -s ` + u + `/moved; echo "[$?]"`,
		`curl -sL ` + u + `/moved`,
		`curl -sL -w ' %{url_effective}\n' ` + u + `/moved`,
		`curl -s -X PUT ` + u + `/echo`,
		`curl -s -d a=1 -d b=2 ` + u + `/echo`,
		`curl -s --data-binary 'x y' -H 'Content-Type: text/plain' ` + u + `/echo`,
		`curl -s --json '{"k":1}' ` + u + `/echo`,
		`curl -s -G -d q=cats -d n=2 ` + u + `/echo`,
		`curl -s '` + u + `/echo?q=a%20b&r=c+d&s=%2B&t=%2f'`,
		`curl -s -H 'Accept-Encoding: identity' ` + u + `/echo`,
		`curl -s -H 'X-Test: yes' -A agent/1 ` + u + `/echo`,
		`curl -s -u alice:s3cret ` + u + `/echo`,
		`printf 'from a file' > body.txt; curl -s --data-binary @body.txt ` + u + `/echo`,
		`curl -s -o out.json ` + u + `/json; cat out.json; echo`,
		`curl -sO ` + u + `/json; cat json; echo`,
		`curl -s -i ` + u + `/json; echo`,
		`curl -s -I ` + u + `/json`,
		`curl -s -i ` + u + `/raw`,
		`curl -s -i ` + u + `/old`,
		`curl -s -i ` + u + `/chunked`,
		`curl -s -D - -o /dev/null ` + u + `/raw`,
		`curl -s -D h.txt ` + u + `/old ` + u + `/raw; cat h.txt`,
		`curl -s -d @missing.txt ` + u + `/echo; echo "exit=$?"`,
		`curl -s gopher2://127.0.0.1/; echo "exit=$?"`,
		`curl -s -f -w '%{http_code}' ` + u + `/missing; echo " exit=$?"`,
		`curl -s --fail-with-body ` + u + `/missing; echo "exit=$?"`,
	}
	for _, c := range cases {
		dir := t.TempDir()
		cmd := exec.Command("bash", "-c", strings.ReplaceAll(c, "curl ", curl+" "))
		cmd.Dir = dir
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		err := cmd.Run()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatalf("%s: %v", c, err)
		}
		res := enginetest.RunShell(t, sb, "mkdir -p /tmp/c && cd /tmp/c && rm -f * && "+c)
		if res.Stdout != stdout.String() || res.ExitCode != code {
			t.Errorf("%s\n  cordon: exit %d, stdout %q, stderr %q\n  curl:   exit %d, stdout %q, stderr %q",
				c, res.ExitCode, res.Stdout, res.Stderr, code, stdout.String(), stderr.String())
		}
	}
}
