package redisstore

import (
	"testing"

	"github.com/cordonhq/cordon/counters/redisstore/redistest"
)

// The tests run against a real server, never a mock (package redistest):
// the one CI starts, or one they start themselves.

// startServer starts a redis-server of the test's own.
func startServer(t *testing.T) *redistest.Server { return redistest.Start(t) }

// freePort returns a loopback TCP port that was free a moment ago.
func freePort(t *testing.T) int { return redistest.FreePort(t) }

// sharedURL returns the URL of the server CI started, or of one this test
// starts.
func sharedURL(t *testing.T) string { return redistest.SharedURL(t) }

// testPrefix returns a key prefix of the test's own.
func testPrefix(t *testing.T) string { return redistest.Prefix(t) }

// openStore returns a store on url with the test's prefix, closed when the
// test ends.
func openStore(t *testing.T, url string, opts Options) *Store {
	t.Helper()
	if opts.Prefix == "" {
		opts.Prefix = testPrefix(t)
	}
	s, err := Open(url, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}
