package fleet_test

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"sort"
	"sync"
	"testing"

	"github.com/open-policy-agent/opa/v1/bundle"
)

// bundleServer serves one bundle at /bundles/cordon.tar.gz, with ETags,
// that the test replaces; down makes it answer 503.
type bundleServer struct {
	*httptest.Server
	mu   sync.Mutex
	body []byte
	etag string
	down bool
	n    int
	hang chan struct{} // when set, requests wait for it
}

func newBundleServer(t testing.TB) *bundleServer {
	s := &bundleServer{}
	s.Server = httptest.NewServer(http.HandlerFunc(s.serve))
	t.Cleanup(s.Close)
	return s
}

func (s *bundleServer) serve(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	body, etag, down, hang := s.body, s.etag, s.down, s.hang
	s.mu.Unlock()
	if hang != nil {
		select {
		case <-hang:
		case <-r.Context().Done():
		}
		http.Error(w, "was hanging", http.StatusServiceUnavailable)
		return
	}
	if down || body == nil || r.URL.Path != "/bundles/cordon.tar.gz" {
		http.Error(w, "unavailable", http.StatusServiceUnavailable)
		return
	}
	if r.Header.Get("If-None-Match") == etag {
		w.WriteHeader(http.StatusNotModified)
		return
	}
	w.Header().Set("ETag", etag)
	w.Header().Set("Content-Type", "application/gzip")
	_, _ = w.Write(body)
}

// set serves a new bundle.
func (s *bundleServer) set(body []byte) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.n++
	s.body, s.etag = body, fmt.Sprintf(`"v%d"`, s.n)
}

func (s *bundleServer) setDown(down bool) {
	s.mu.Lock()
	s.down = down
	s.mu.Unlock()
}

// makeBundle builds a bundle tarball of revision rev with one module,
// signed with secret under key id "k1" when secret is not "".
func makeBundle(t testing.TB, rev, rego, secret string) []byte {
	t.Helper()
	return makeSigned(t, rev, map[string]string{"/policy/authz.rego": rego}, secret)
}

// makeBundleModules builds an unsigned bundle of these modules, by path.
func makeBundleModules(t testing.TB, rev string, modules map[string]string) []byte {
	t.Helper()
	return makeSigned(t, rev, modules, "")
}

func makeSigned(t testing.TB, rev string, modules map[string]string, secret string) []byte {
	t.Helper()
	b := bundle.Bundle{
		Manifest: bundle.Manifest{Revision: rev, Roots: &[]string{""}},
		Data:     map[string]any{},
	}
	paths := make([]string, 0, len(modules))
	for p := range modules {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	for _, p := range paths {
		b.Modules = append(b.Modules, bundle.ModuleFile{URL: p, Path: p, Raw: []byte(modules[p])})
	}
	if secret != "" {
		if err := b.GenerateSignature(bundle.NewSigningConfig(secret, "HS256", ""), "k1", false); err != nil {
			t.Fatal(err)
		}
	}
	var buf bytes.Buffer
	if err := bundle.NewWriter(&buf).Write(b); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// collector is a decision-log and status service: it decompresses and
// records every upload. failLogs makes the next uploads of decision logs
// fail with 500; hang makes every request wait.
type collector struct {
	*httptest.Server
	mu       sync.Mutex
	events   []map[string]any
	statuses []map[string]any
	failLogs int
	failed   int
	hang     chan struct{}
}

func newCollector(t testing.TB) *collector {
	c := &collector{}
	c.Server = httptest.NewServer(http.HandlerFunc(c.serve))
	t.Cleanup(c.Close)
	return c
}

func (c *collector) serve(w http.ResponseWriter, r *http.Request) {
	c.mu.Lock()
	hang := c.hang
	c.mu.Unlock()
	if hang != nil {
		select {
		case <-hang:
		case <-r.Context().Done():
		}
		http.Error(w, "was hanging", http.StatusServiceUnavailable)
		return
	}
	body, err := io.ReadAll(r.Body)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	if r.Header.Get("Content-Encoding") == "gzip" {
		zr, err := gzip.NewReader(bytes.NewReader(body))
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		if body, err = io.ReadAll(zr); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	switch r.URL.Path {
	case "/logs":
		if c.failLogs > 0 {
			c.failLogs--
			c.failed++
			http.Error(w, "try again", http.StatusInternalServerError)
			return
		}
		var events []map[string]any
		if err := json.Unmarshal(body, &events); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		c.events = append(c.events, events...)
	case "/status":
		var st map[string]any
		if err := json.Unmarshal(body, &st); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		c.statuses = append(c.statuses, st)
	default:
		http.NotFound(w, r)
		return
	}
	w.WriteHeader(http.StatusOK)
}

func (c *collector) snapshot() (events, statuses []map[string]any) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]map[string]any(nil), c.events...), append([]map[string]any(nil), c.statuses...)
}
