package main

import (
	"fmt"
	"net/http"
	"net/http/httptest"
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
