package command

import (
	"bytes"
	"io"
	"strings"
	"testing"
)

// A reused buffer starts empty: nothing one command read or left unflushed
// reaches the next.
func TestBuffersAreReusedClean(t *testing.T) {
	env := &Env{}
	r := env.NewReader(strings.NewReader("first\nsecond\n"), 4096)
	if line, _ := r.ReadString('\n'); line != "first\n" {
		t.Fatalf("read %q", line)
	}
	var old bytes.Buffer
	w := env.NewWriter(&old, 4096)
	w.WriteString("never flushed")
	env.Buffer(4096)[0] = 'x'
	env.Release()
	if len(env.taken) != 0 {
		t.Fatal("Release kept buffers")
	}

	next := &Env{}
	r2 := next.NewReader(strings.NewReader("other"), 4096)
	if b, _ := io.ReadAll(r2); string(b) != "other" {
		t.Errorf("a reused reader read %q", b)
	}
	var dst bytes.Buffer
	w2 := next.NewWriter(&dst, 4096)
	w2.WriteString("new")
	w2.Flush()
	if dst.String() != "new" || old.Len() != 0 {
		t.Errorf("a reused writer wrote %q (and %q to the old stream)", dst.String(), old.String())
	}
	if b := next.Buffer(4096); len(b) != 4096 {
		t.Errorf("scratch of %d bytes", len(b))
	}
	// Sizes do not mix.
	if r3 := next.NewReader(strings.NewReader(""), 8192); r3.Size() != 8192 {
		t.Errorf("reader of size %d", r3.Size())
	}
	next.Release()
}

// A command that opens a reader per file holds at most maxTaken pooled
// blocks; the rest are ordinary garbage, so `grep x *` over thousands of
// files does not keep a block per file until it returns.
func TestBuffersHeldAreBounded(t *testing.T) {
	env := &Env{}
	for range 100 {
		env.NewReader(strings.NewReader("x"), 256<<10)
	}
	if len(env.taken) != maxTaken {
		t.Errorf("the command holds %d pooled blocks, want %d", len(env.taken), maxTaken)
	}
	if b := env.Buffer(16); len(b) != 16 {
		t.Errorf("an unpooled scratch of %d bytes", len(b))
	}
	env.Release()
}
