package engine

import (
	"bytes"
	"context"
	"log/slog"
	"strings"
	"testing"
)

// The first New with an empty cache directory says that it compiles, and
// how long that takes about; the next one, served by the cache, says
// nothing. (The guest's copy, written into the directory before the
// compile, once made the first look served too.)
func TestCompileProgressOnColdCache(t *testing.T) {
	if testing.Short() {
		t.Skip("compiles the guest from scratch")
	}
	dir := t.TempDir()
	var progress bytes.Buffer
	cfg := NewConfig().WithCacheDir(dir).WithCompileProgress(&progress).WithLogger(slog.New(slog.DiscardHandler))
	e, err := New(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	e.Close(context.Background())
	if got := progress.String(); !strings.HasPrefix(got, "cordon: compiling the sandbox, about ") || !strings.Contains(got, " s the first time") {
		t.Errorf("cold cache: progress %q", got)
	}
	progress.Reset()
	e, err = New(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	e.Close(context.Background())
	if progress.Len() != 0 {
		t.Errorf("warm cache: progress %q, want nothing", progress.String())
	}
}

// The first-compile message estimates the time from the cores there are,
// with a floor: more than 8 cores do not make it shorter. (What makes a
// cache warm is internal/guestcache's TestCacheWarmth.)
func TestCompileMessage(t *testing.T) {
	for procs, want := range map[int]string{1: "about 16 s", 2: "about 9 s", 8: "about 3 s", 64: "about 3 s"} {
		if msg := compileMessage(procs); !strings.Contains(msg, want) {
			t.Errorf("%d cores: %q, want %q", procs, msg, want)
		}
	}
}
