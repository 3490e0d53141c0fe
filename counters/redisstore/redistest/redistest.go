// Package redistest runs the real redis-server that tests of the Redis
// counter store need, never a mock: the one CI starts (.ci/run exports its
// URL in CORDON_TEST_REDIS_URL), or one a test starts itself from
// redis-server on PATH, on a free loopback port. Without either a test
// skips, except under CI (CI=true or CORDON_CI=1), where a missing server
// fails it. Only tests import this package.
package redistest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
)

// ServerPath returns the path of redis-server, or skips the test (fails it
// under CI) when there is none.
func ServerPath(tb testing.TB) string {
	tb.Helper()
	path, err := exec.LookPath("redis-server")
	if err != nil {
		if os.Getenv("CI") == "true" || os.Getenv("CORDON_CI") == "1" {
			tb.Fatalf("redistest: redis-server is not installed, and CI needs it: %v", err)
		}
		tb.Skipf("redistest: redis-server is not installed (apt-get install redis-server): %v", err)
	}
	return path
}

// Server is a redis-server process a test started, with its data in a
// directory of the test's.
type Server struct {
	tb   testing.TB
	path string
	dir  string
	port int
	cmd  *exec.Cmd
}

// Start starts redis-server on a free loopback port, with its data (an
// append-only file, synced on every write) in a directory of the test's,
// waits until it answers, and stops it when the test ends.
func Start(tb testing.TB) *Server {
	tb.Helper()
	s := &Server{tb: tb, path: ServerPath(tb), dir: tb.TempDir(), port: FreePort(tb)}
	s.start()
	tb.Cleanup(s.Stop)
	return s
}

// URL returns the server's URL (database 0).
func (s *Server) URL() string { return fmt.Sprintf("redis://127.0.0.1:%d/0", s.port) }

// FreePort returns a loopback TCP port that was free a moment ago.
func FreePort(tb testing.TB) int {
	tb.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		tb.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}

// start starts the server process and waits until it answers.
func (s *Server) start() {
	s.tb.Helper()
	s.cmd = exec.Command(s.path,
		"--port", fmt.Sprint(s.port), "--bind", "127.0.0.1", "--dir", s.dir,
		"--appendonly", "yes", "--appendfsync", "always", "--save", "",
		"--daemonize", "no", "--logfile", filepath.Join(s.dir, "redis.log"))
	if err := s.cmd.Start(); err != nil {
		s.tb.Fatalf("redistest: starting redis-server: %v", err)
	}
	c := redis.NewClient(&redis.Options{Addr: fmt.Sprintf("127.0.0.1:%d", s.port), MaxRetries: -1})
	defer c.Close()
	deadline := time.Now().Add(20 * time.Second)
	for {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		err := c.Ping(ctx).Err()
		cancel()
		if err == nil {
			return
		}
		if time.Now().After(deadline) {
			log, _ := os.ReadFile(filepath.Join(s.dir, "redis.log"))
			s.tb.Fatalf("redistest: redis-server on port %d does not answer: %v\n%s", s.port, err, log)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// Stop stops the server (SIGTERM, as an operator would) and waits for it
// to exit. Stopping a stopped server does nothing.
func (s *Server) Stop() {
	if s.cmd == nil {
		return
	}
	_ = s.cmd.Process.Signal(syscall.SIGTERM)
	done := make(chan struct{})
	go func() { _ = s.cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		_ = s.cmd.Process.Kill()
		<-done
	}
	s.cmd = nil
}

// Restart stops the server and starts it again on the same port and data.
func (s *Server) Restart() {
	s.tb.Helper()
	s.Stop()
	s.start()
}

// SharedURL returns the URL of the server CI started
// (CORDON_TEST_REDIS_URL), or of one this test starts.
func SharedURL(tb testing.TB) string {
	tb.Helper()
	if u := os.Getenv("CORDON_TEST_REDIS_URL"); u != "" {
		return u
	}
	return Start(tb).URL()
}

// Prefix returns a key prefix of the test's own, so that tests that share
// a server never see each other's keys.
func Prefix(tb testing.TB) string {
	var b [6]byte
	_, _ = rand.Read(b[:])
	name := strings.NewReplacer("{", "_", "}", "_").Replace(tb.Name())
	return "cordontest:" + name + ":" + hex.EncodeToString(b[:]) + ":"
}
