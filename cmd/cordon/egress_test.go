package main

import (
	"bytes"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// --allow-host enables network egress for one host; without it, or for
// another host, scripts reach nothing, and the default config's tools
// stay allowed.
func TestAllowHost(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, "hello "+r.URL.Path)
	}))
	defer srv.Close()
	hp := strings.TrimPrefix(srv.URL, "http://")
	script := `
const out = []
for (const url of ["` + srv.URL + `/a", "http://localhost:1/", "http://10.0.0.1/"]) {
  try { const r = await http.fetch({url}); out.push(r.status + " " + r.body) } catch (e) { out.push(e.kind) }
}
const w = await weather.current({city: "SF"})
console.log(out.join(","), w.temp)`
	code, stdout, stderr := cli(t, "", "run", "-q", "--allow-host", hp, "-e", script)
	if code != 0 || strings.TrimSpace(stdout) != "200 hello /a,denied,denied 72" {
		t.Errorf("--allow-host %s: exit %d, stdout %q, stderr %q", hp, code, stdout, stderr)
	}
	code, stdout, _ = cli(t, "", "run", "-q", "-e", `console.log(typeof http)`)
	if code != 0 || strings.TrimSpace(stdout) != "undefined" {
		t.Errorf("without --allow-host: exit %d, stdout %q", code, stdout)
	}
	if code, _, stderr := cli(t, "", "run", "-q", "--allow-host", "*.example.com", "-e", "1"); code != 2 || !strings.Contains(stderr, "literal host") {
		t.Errorf("a wildcard: exit %d, stderr %q", code, stderr)
	}
}

// A credential from the http section reaches the server and nothing else:
// not the script's output, not the audit (--log), not the trace
// (--record), not the files the script wrote (--snapshot-out); and the
// server's Set-Cookie reaches neither fetch nor curl.
func TestEgressCredentialStaysOnTheHost(t *testing.T) {
	const token = "tok_cli_0123456789abcdef"
	t.Setenv("CORDON_TEST_EGRESS_TOKEN", token)
	var seen []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		seen = append(seen, r.Method+" "+r.URL.Path+" "+r.Header.Get("Authorization"))
		w.Header().Set("Set-Cookie", "sid=cookie-value")
		fmt.Fprint(w, "ok "+r.URL.Path)
	}))
	defer srv.Close()
	hp := strings.TrimPrefix(srv.URL, "http://")
	dir := t.TempDir()
	cfg := writeFile(t, "config.yaml", `
http:
  allow_private: ["`+hp+`"]
  credentials:
    - {prefix: "`+srv.URL+`/api/", header: Authorization, env: CORDON_TEST_EGRESS_TOKEN, value_prefix: "Bearer "}
capabilities:
  - {method: http/fetch, constraints: ['host == "127.0.0.1"']}
`)
	script := `
const r = await fetch("` + srv.URL + `/api/a", {method: "POST", body: "x"})
const text = await r.text()
const headers = JSON.stringify([...r.headers])
fs.writeFileSync("/workspace/fetch.txt", text + headers)
const sh = await shell("curl -si ` + srv.URL + `/api/b -o /workspace/curl.txt; cat /workspace/curl.txt")
console.log(text, headers, sh.stdout)`
	trace := filepath.Join(dir, "run.trace")
	snap := filepath.Join(dir, "vfs.snap")
	code, stdout, stderr := cli(t, "", "run", "-q", "--config", cfg, "--log", "--record", trace, "--snapshot-out", snap, "-e", script)
	if code != 0 || !strings.Contains(stdout, "ok /api/a") || !strings.Contains(stdout, "ok /api/b") {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	want := []string{"POST /api/a Bearer " + token, "GET /api/b Bearer " + token}
	if strings.Join(seen, "\n") != strings.Join(want, "\n") {
		t.Errorf("the server saw %q, want %q", seen, want)
	}
	if !strings.Contains(stderr, `"method":"http/fetch"`) {
		t.Errorf("no audit record of the requests: %q", stderr)
	}
	for name, s := range map[string]string{"stdout": stdout, "stderr (the audit)": stderr} {
		if strings.Contains(s, token) {
			t.Errorf("the token is in %s: %q", name, s)
		}
	}
	if strings.Contains(strings.ToLower(stdout), "cookie") {
		t.Errorf("Set-Cookie reached the script: %q", stdout)
	}
	for _, f := range []string{trace, snap} {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		// Both hold what the script got (so they would hold a leak).
		if !bytes.Contains(b, []byte("ok /api/a")) || bytes.Contains(b, []byte(token)) {
			t.Errorf("%s: the response in it: %v, the token in it: %v", filepath.Base(f), bytes.Contains(b, []byte("ok /api/a")), bytes.Contains(b, []byte(token)))
		}
	}
}

// --allow-host given for one host on two ports allows both, and the run
// says nothing on stderr (not that one capability lifts the other's port).
func TestAllowHostTwoPorts(t *testing.T) {
	var urls []string
	for range 2 {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, "ok") }))
		defer srv.Close()
		urls = append(urls, srv.URL)
	}
	script := `
const out = []
for (const url of ["` + urls[0] + `", "` + urls[1] + `", "http://127.0.0.1:1/"]) {
  try { const r = await fetch(url); out.push(await r.text()) } catch (e) { out.push(e.kind) }
}
console.log(out.join(","))`
	code, stdout, stderr := cli(t, "", "run", "-q",
		"--allow-host", strings.TrimPrefix(urls[0], "http://"), "--allow-host", strings.TrimPrefix(urls[1], "http://"), "-e", script)
	if code != 0 || strings.TrimSpace(stdout) != "ok,ok,denied" || stderr != "" {
		t.Errorf("exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
}

// --allow-host with a private address and no port allows that address on
// any port, as the flag's help says, and still only that address as
// written.
func TestAllowHostPrivateAnyPort(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, "ok") }))
	defer srv.Close()
	port := srv.URL[strings.LastIndexByte(srv.URL, ':')+1:]
	script := `
const out = []
for (const url of ["` + srv.URL + `", "http://localhost:` + port + `/", "http://[::ffff:127.0.0.1]:` + port + `/"]) {
  try { const r = await fetch(url); out.push(await r.text()) } catch (e) { out.push(e.kind) }
}
console.log(out.join(","))`
	code, stdout, stderr := cli(t, "", "run", "-q", "--allow-host", "127.0.0.1", "-e", script)
	if code != 0 || strings.TrimSpace(stdout) != "ok,denied,invalid" {
		t.Errorf("exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
}
