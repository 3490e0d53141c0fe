package redisstore

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

// The tests run against a real server, never a mock: the one CI starts
// (.ci/run exports its URL in CORDON_TEST_REDIS_URL), or one they start
// themselves from redis-server on PATH. Without either they skip, except
// under CI (CI=true or CORDON_CI=1), where a missing server fails them.

// redisServerPath returns the path of redis-server, or skips the test (fails
// it under CI) when there is none.
func redisServerPath(t *testing.T) string {
	t.Helper()
	path, err := exec.LookPath("redis-server")
	if err != nil {
		if os.Getenv("CI") == "true" || os.Getenv("CORDON_CI") == "1" {
			t.Fatalf("redis-server is not installed, and CI needs it: %v", err)
		}
		t.Skipf("redis-server is not installed (apt-get install redis-server): %v", err)
	}
	return path
}

// server is a redis-server process the test started, with its data in
// dir.
type server struct {
	t    *testing.T
	path string
	dir  string
	port int
	cmd  *exec.Cmd
}

// URL returns the server's URL.
func (s *server) URL() string { return fmt.Sprintf("redis://127.0.0.1:%d/0", s.port) }

// startServer starts redis-server on a free loopback port, with its data
// (an append-only file, synced on every write) in a directory of the
// test's, and stops it when the test ends.
func startServer(t *testing.T) *server {
	t.Helper()
	s := &server{t: t, path: redisServerPath(t), dir: t.TempDir(), port: freePort(t)}
	s.start()
	t.Cleanup(s.stop)
	return s
}

// freePort returns a loopback TCP port that was free a moment ago.
func freePort(t *testing.T) int {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}

// start starts the server process and waits until it answers.
func (s *server) start() {
	s.t.Helper()
	s.cmd = exec.Command(s.path,
		"--port", fmt.Sprint(s.port), "--bind", "127.0.0.1", "--dir", s.dir,
		"--appendonly", "yes", "--appendfsync", "always", "--save", "",
		"--daemonize", "no", "--logfile", filepath.Join(s.dir, "redis.log"))
	if err := s.cmd.Start(); err != nil {
		s.t.Fatalf("starting redis-server: %v", err)
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
			s.t.Fatalf("redis-server on port %d does not answer: %v\n%s", s.port, err, log)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// stop stops the server (SIGTERM, as an operator would) and waits for it
// to exit. Stopping a stopped server does nothing.
func (s *server) stop() {
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

// restart stops the server and starts it again on the same port and data.
func (s *server) restart() {
	s.t.Helper()
	s.stop()
	s.start()
}

// sharedURL returns the URL of the server CI started, or of one this test
// starts.
func sharedURL(t *testing.T) string {
	t.Helper()
	if u := os.Getenv("CORDON_TEST_REDIS_URL"); u != "" {
		return u
	}
	return startServer(t).URL()
}

// testPrefix returns a key prefix of the test's own, so that tests that
// share a server never see each other's keys.
func testPrefix(t *testing.T) string {
	var b [6]byte
	_, _ = rand.Read(b[:])
	name := strings.NewReplacer("{", "_", "}", "_").Replace(t.Name())
	return "cordontest:" + name + ":" + hex.EncodeToString(b[:]) + ":"
}

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
