package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"net"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
)

// testRedisURL returns the URL of the Redis server CI started
// (CORDON_TEST_REDIS_URL), or of one the test starts from redis-server on
// PATH; without either it skips, or fails under CI.
func testRedisURL(t *testing.T) string {
	t.Helper()
	if u := os.Getenv("CORDON_TEST_REDIS_URL"); u != "" {
		return u
	}
	path, err := exec.LookPath("redis-server")
	if err != nil {
		if os.Getenv("CI") == "true" || os.Getenv("CORDON_CI") == "1" {
			t.Fatalf("redis-server is not installed, and CI needs it: %v", err)
		}
		t.Skipf("redis-server is not installed: %v", err)
	}
	port := freeTCPPort(t)
	dir := t.TempDir()
	cmd := exec.Command(path, "--port", fmt.Sprint(port), "--bind", "127.0.0.1", "--dir", dir, "--save", "", "--appendonly", "no")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	url := fmt.Sprintf("redis://127.0.0.1:%d/0", port)
	opt, _ := redis.ParseURL(url)
	c := redis.NewClient(opt)
	defer c.Close()
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		if c.Ping(context.Background()).Err() == nil {
			return url
		}
		if time.Now().After(deadline) {
			t.Fatalf("redis-server on port %d does not answer", port)
		}
	}
}

func freeTCPPort(t *testing.T) int {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}

// counterConfig writes a config whose counters live in the Redis store at
// url, with pay limited to two calls per principal.
func counterConfig(t *testing.T, url string) string {
	return writeFile(t, "c.yaml", `tools: [{name: pay, echo: true}]
capabilities: [{method: pay, max_calls: 2}]
counters: {store: redis, url: "`+url+`", scope: principal}
`)
}

const payTwice = `const out = []
for (const i of [1, 2]) { try { await pay({}); out.push("ok") } catch (e) { out.push(e.message) } }
return out.join(" | ")`

// With counters.store redis, two runs (two engines, as two hosts would
// be) share a principal's counters: the second finds the first's call.
func TestRunCountersInRedis(t *testing.T) {
	cfg := counterConfig(t, testRedisURL(t))
	var b [6]byte
	_, _ = rand.Read(b[:])
	principal := "cli-test-" + hex.EncodeToString(b[:])
	if code, stdout, stderr := cli(t, "", "run", "--config", cfg, "--principal", principal, "-e", `await pay({}); return "ok"`); code != 0 || stdout != "ok\n" {
		t.Fatalf("first run: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	code, stdout, stderr := cli(t, "", "run", "--config", cfg, "--principal", principal, "-e", payTwice)
	if code != 0 || !strings.HasPrefix(stdout, "ok | ") || !strings.Contains(stdout, "denied") {
		t.Fatalf("second run: exit %d, stdout %q, stderr %q: want one call left of max_calls 2", code, stdout, stderr)
	}
}

// A Redis store that cannot be reached is a warning when the CLI starts,
// and a denial of each call with a reason that says why.
func TestRunCountersStoreDown(t *testing.T) {
	cfg := counterConfig(t, fmt.Sprintf("redis://127.0.0.1:%d/0", freeTCPPort(t)))
	code, stdout, stderr := cli(t, "", "run", "--config", cfg, "-e", payTwice)
	if code != 0 || strings.Count(stdout, "the call counters could not be read") != 2 {
		t.Fatalf("exit %d, stdout %q, stderr %q: want both calls denied", code, stdout, stderr)
	}
	if !strings.Contains(stderr, "counters.url") || !strings.Contains(stderr, "are denied while the counter store cannot be reached") {
		t.Errorf("stderr %q: want a warning that names counters.url", stderr)
	}
}
