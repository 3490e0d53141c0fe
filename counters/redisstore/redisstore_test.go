package redisstore

import (
	"context"
	"errors"
	"net"
	"strconv"
	"testing"
	"time"

	"github.com/cordonhq/cordon/counters"
	"github.com/cordonhq/cordon/counters/counterstest"
)

// The contract of counters.Store, as counters.Memory keeps it, through two
// clients of one server; then what is the Redis store's own: the version
// starts at 0, and Delete and a Sub of an unknown scope leave no key.
func TestStoreContract(t *testing.T) {
	url := sharedURL(t)
	counterstest.Run(t, func(t *testing.T) (counters.Store, counters.Store) {
		a := openStore(t, url, Options{})
		b, err := Open(url, Options{Prefix: a.prefix})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { b.Close() })
		return a, b
	})
	ctx := context.Background()
	m := openStore(t, url, Options{})
	snap, err := m.Load(ctx, "k", 0)
	if err != nil || snap.Version != 0 {
		t.Fatalf("empty load: %+v %v", snap, err)
	}
	if ok, _ := m.Add(ctx, "k", 0, snap.Version, []string{"method:a"}); !ok {
		t.Fatal("add")
	}
	if err := m.Delete(ctx, "k"); err != nil {
		t.Fatal(err)
	}
	if n := keysOf(t, m, "k"); n != 0 {
		t.Fatalf("%d keys of k after Delete", n)
	}
	if err := m.Sub(ctx, "none", time.Second, []string{"method:a"}); err != nil || keysOf(t, m, "none") != 0 {
		t.Fatalf("Sub of an unknown scope: %v, %d keys", err, keysOf(t, m, "none"))
	}
}

// keysOf returns how many of the keys of scope key exist.
func keysOf(t *testing.T, s *Store, key string) int {
	t.Helper()
	vk, ck, nk, wp := s.keys(key)
	ks, err := s.c.Keys(context.Background(), wp+"*").Result()
	if err != nil {
		t.Fatal(err)
	}
	n, err := s.c.Exists(context.Background(), append(ks, vk, ck, nk)...).Result()
	if err != nil {
		t.Fatal(err)
	}
	return int(n)
}

// Scope keys are escaped, so keys that hold the hash tag's braces, or
// that look like another scope's key with a counter's suffix, never share
// a key.
func TestKeysDoNotCollide(t *testing.T) {
	ctx := context.Background()
	m := openStore(t, sharedURL(t), Options{})
	keys := []string{"a", "a}:w:b", "{a}", "a%7D", "principal:x}", ""}
	for _, k := range keys {
		snap, err := m.Load(ctx, k, time.Minute)
		if err != nil {
			t.Fatal(err)
		}
		if ok, err := m.Add(ctx, k, time.Minute, snap.Version, []string{"b"}); !ok || err != nil {
			t.Fatalf("add %q: %v %v", k, ok, err)
		}
	}
	for _, k := range keys {
		if snap, _ := m.Load(ctx, k, time.Minute); snap.Counts["b"] != 1 || len(snap.Counts) != 1 {
			t.Errorf("key %q: counts %v, want b:1", k, snap.Counts)
		}
	}
	if _, err := New(m.c, Options{Prefix: "x{"}); err == nil {
		t.Error("a prefix with a brace was accepted")
	}
}

func TestVersionsNeverRepeatAfterDeleteOrExpiry(t *testing.T) {
	ctx := context.Background()
	m := openStore(t, sharedURL(t), Options{})
	for _, window := range []time.Duration{0, 150 * time.Millisecond} {
		key := "k" + window.String()
		snap, _ := m.Load(ctx, key, window)
		m.Add(ctx, key, window, snap.Version, []string{"n"})
		stale, _ := m.Load(ctx, key, window)
		if window == 0 {
			if err := m.Delete(ctx, key); err != nil {
				t.Fatal(err)
			}
		} else {
			time.Sleep(3 * window) // every key expires
			if n := keysOf(t, m, key); n != 0 {
				t.Fatalf("%d keys left a window after the last charge", n)
			}
		}
		fresh, _ := m.Load(ctx, key, window)
		if fresh.Version != 0 || len(fresh.Counts) != 0 {
			t.Fatalf("window %v: after delete or expiry %+v", window, fresh)
		}
		if ok, _ := m.Add(ctx, key, window, fresh.Version, []string{"n"}); !ok {
			t.Fatal("add on the fresh scope")
		}
		if ok, _ := m.Add(ctx, key, window, stale.Version, []string{"n"}); ok {
			t.Fatalf("window %v: a snapshot from before the scope was gone matched a later version", window)
		}
	}
}

func TestWindowSlides(t *testing.T) {
	ctx := context.Background()
	m := openStore(t, sharedURL(t), Options{})
	const window = 600 * time.Millisecond
	add := func() {
		t.Helper()
		snap, err := m.Load(ctx, "p", window)
		if err != nil {
			t.Fatal(err)
		}
		if ok, err := m.Add(ctx, "p", window, snap.Version, []string{"method:pay"}); !ok || err != nil {
			t.Fatalf("add: %v %v", ok, err)
		}
	}
	count := func() int {
		t.Helper()
		snap, err := m.Load(ctx, "p", window)
		if err != nil {
			t.Fatal(err)
		}
		return snap.Counts["method:pay"]
	}
	start := time.Now()
	add()
	firstDone := time.Now()
	time.Sleep(window / 2)
	secondStart := time.Now()
	add()
	add()
	if n := count(); n != 3 && time.Since(start) < window {
		t.Fatalf("count %d, want 3", n)
	}
	// Once the first charge is older than the window, it no longer counts.
	time.Sleep(time.Until(firstDone.Add(window + 50*time.Millisecond)))
	if n := count(); time.Since(secondStart) < window && n != 2 {
		t.Fatalf("count %d after the first charge left the window, want 2", n)
	}
	// Sub takes back the newest charge.
	if err := m.Sub(ctx, "p", window, []string{"method:pay"}); err != nil {
		t.Fatal(err)
	}
	if n := count(); time.Since(secondStart) < window && n != 1 {
		t.Fatalf("count %d after Sub, want 1", n)
	}
	time.Sleep(window + 100*time.Millisecond)
	if n := count(); n != 0 {
		t.Fatalf("count %d once every charge left the window", n)
	}
	if n := keysOf(t, m, "p"); n != 0 {
		t.Fatalf("%d keys left once every charge left the window", n)
	}
}

// Counts survive a restart of a server that persists its data, and the
// store reloads its scripts into the restarted server.
func TestCountsSurviveARestart(t *testing.T) {
	ctx := context.Background()
	srv := startServer(t)
	m := openStore(t, srv.URL(), Options{})
	for _, window := range []time.Duration{0, time.Hour} {
		if ok, err := m.Add(ctx, "p"+window.String(), window, 0, []string{"method:pay", "capability:pay"}); !ok || err != nil {
			t.Fatalf("add: %v %v", ok, err)
		}
	}
	before, _ := m.Load(ctx, "p0s", 0)
	srv.Restart()
	for _, window := range []time.Duration{0, time.Hour} {
		snap, err := m.Load(ctx, "p"+window.String(), window)
		if err != nil {
			t.Fatalf("load after the restart: %v", err)
		}
		if snap.Counts["method:pay"] != 1 || snap.Counts["capability:pay"] != 1 {
			t.Fatalf("window %v: counts after the restart %v", window, snap.Counts)
		}
	}
	after, _ := m.Load(ctx, "p0s", 0)
	if after.Version != before.Version {
		t.Fatalf("version %d after the restart, %d before", after.Version, before.Version)
	}
	if ok, err := m.Add(ctx, "p0s", 0, after.Version, []string{"method:pay"}); !ok || err != nil {
		t.Fatalf("add after the restart: %v %v", ok, err)
	}
}

// A server that is down, or that never answers, is an error that matches
// ErrUnavailable within the context's deadline, not a hang.
func TestUnavailableServer(t *testing.T) {
	// A port where nothing listens.
	down := openStore(t, "redis://127.0.0.1:"+strconv.Itoa(freePort(t))+"/0", Options{})
	// A server that accepts connections and never answers.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			defer c.Close()
		}
	}()
	silent := openStore(t, "redis://"+ln.Addr().String()+"/0", Options{Timeout: 10 * time.Second})
	for name, s := range map[string]*Store{"down": down, "silent": silent} {
		ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
		start := time.Now()
		_, err := s.Load(ctx, "k", 0)
		if !errors.Is(err, ErrUnavailable) {
			t.Errorf("%s: Load: %v, want ErrUnavailable", name, err)
		}
		if _, err := s.Add(ctx, "k", 0, 0, []string{"n"}); !errors.Is(err, ErrUnavailable) {
			t.Errorf("%s: Add: %v, want ErrUnavailable", name, err)
		}
		if err := s.Sub(ctx, "k", 0, []string{"n"}); !errors.Is(err, ErrUnavailable) {
			t.Errorf("%s: Sub: %v, want ErrUnavailable", name, err)
		}
		if err := s.Delete(ctx, "k"); !errors.Is(err, ErrUnavailable) {
			t.Errorf("%s: Delete: %v, want ErrUnavailable", name, err)
		}
		if d := time.Since(start); d > 3*time.Second {
			t.Errorf("%s: the calls took %v past a 300ms deadline", name, d)
		}
		cancel()
	}
	// Without a deadline of its own, a call is bounded by the store's
	// timeout.
	short := openStore(t, "redis://"+ln.Addr().String()+"/0", Options{Timeout: 200 * time.Millisecond})
	start := time.Now()
	if err := short.Sub(context.Background(), "k", 0, []string{"n"}); !errors.Is(err, ErrUnavailable) {
		t.Errorf("Sub without a deadline: %v", err)
	}
	if d := time.Since(start); d > 3*time.Second {
		t.Errorf("Sub without a deadline took %v, the store's timeout is 200ms", d)
	}
}

// A server that answers nonsense is an error (ErrUnavailable), never a
// panic or a hang.
func TestGarbageAnswers(t *testing.T) {
	replies := map[string]string{
		"not RESP":      "hello there\r\n",
		"binary":        "\x00\xff\xfe garbage \x01\r\n",
		"wrong type":    ":42\r\n",
		"bad array":     "*3\r\n$1\r\nx\r\n",
		"error":         "-ERR nope\r\n",
		"huge bulk":     "$99999999999\r\n",
		"bad load":      "*2\r\n$1\r\n7\r\n$1\r\nx\r\n",
		"bad integer":   "*3\r\n$2\r\n12\r\n$1\r\nn\r\n:-5\r\n",
		"bad version":   "*1\r\n$3\r\nabc\r\n",
		"nested arrays": "*1\r\n*1\r\n*1\r\n:1\r\n",
	}
	for name, reply := range replies {
		t.Run(name, func(t *testing.T) {
			ln, err := net.Listen("tcp", "127.0.0.1:0")
			if err != nil {
				t.Fatal(err)
			}
			defer ln.Close()
			go func() {
				for {
					c, err := ln.Accept()
					if err != nil {
						return
					}
					go func() {
						defer c.Close()
						buf := make([]byte, 4096)
						for {
							// Answer every read with the same nonsense.
							if _, err := c.Read(buf); err != nil {
								return
							}
							if _, err := c.Write([]byte(reply)); err != nil {
								return
							}
						}
					}()
				}
			}()
			s := openStore(t, "redis://"+ln.Addr().String()+"/0", Options{Timeout: time.Second})
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
			defer cancel()
			start := time.Now()
			if _, err := s.Load(ctx, "k", 0); !errors.Is(err, ErrUnavailable) {
				t.Errorf("Load: %v, want ErrUnavailable", err)
			}
			if ok, err := s.Add(ctx, "k", 0, 0, []string{"n"}); ok || !errors.Is(err, ErrUnavailable) {
				t.Errorf("Add: %v %v, want ErrUnavailable", ok, err)
			}
			if err := s.Sub(ctx, "k", 0, []string{"n"}); !errors.Is(err, ErrUnavailable) {
				t.Errorf("Sub: %v, want ErrUnavailable", err)
			}
			if d := time.Since(start); d > 5*time.Second {
				t.Errorf("took %v", d)
			}
		})
	}
}

// Versions keep every digit however long the sequence has run, and each
// charge stays a member of its own.
func TestLongSequences(t *testing.T) {
	ctx := context.Background()
	m := openStore(t, sharedURL(t), Options{})
	const start = 123456789012345 // past the 14 digits Lua prints exactly
	if err := m.c.Set(ctx, m.seq, start, 0).Err(); err != nil {
		t.Fatal(err)
	}
	for i := range 3 {
		snap, err := m.Load(ctx, "k", time.Hour)
		if err != nil {
			t.Fatal(err)
		}
		if i > 0 && snap.Version != start+uint64(i) {
			t.Fatalf("version %d, want %d", snap.Version, start+i)
		}
		if ok, err := m.Add(ctx, "k", time.Hour, snap.Version, []string{"n"}); !ok || err != nil {
			t.Fatalf("add %d: %v %v", i, ok, err)
		}
	}
	if snap, _ := m.Load(ctx, "k", time.Hour); snap.Counts["n"] != 3 {
		t.Fatalf("count %d, want 3", snap.Counts["n"])
	}
}
