package engine

import (
	"context"
	_ "embed"
	"fmt"

	"github.com/cordonhq/cordon/internal/guestcache"
	"github.com/cordonhq/cordon/internal/wasi"
	"github.com/cordonhq/cordon/internal/wasmbin"
)

// This file joins the engine to its plumbing: the embedded guest
// (internal/guestcache keeps it split in the cache directory), the guest's
// memory (internal/guestmem) and its WASI functions (internal/wasi).

//go:generate go run ../internal/buildguest -o guest.wasm.gz

//go:embed guest.wasm.gz
var guestWasmGz []byte

// guestWasm returns the uncompressed guest module that engines compile.
func guestWasm() ([]byte, error) {
	b, err := guestcache.Decompress(guestWasmGz)
	if err != nil {
		return nil, fmt.Errorf("engine: embedded guest: %w", err)
	}
	return b, nil
}

// instantiateWASI instantiates the WASI functions the compiled guest
// imports, serving the engine's clock and random source; each call finds
// its sandbox's conn through the context of the guest's _start call.
func instantiateWASI(ctx context.Context, e *Engine, imports []wasmbin.FuncImport) error {
	cfg := wasi.Config{
		Now:      e.cfg.now,
		Random:   e.cfg.random,
		Instance: func(ctx context.Context) wasi.Instance { return connFrom(ctx) },
		Recorder: func(ctx context.Context) wasi.Recorder {
			if r := connFrom(ctx).rec.Load(); r != nil {
				return r
			}
			return nil
		},
	}
	if err := wasi.Instantiate(ctx, e.runtime, imports, cfg); err != nil {
		return &Error{Kind: KindInternal, Message: "instantiating WASI", Err: err}
	}
	return nil
}

// WriteDiag implements [wasi.Instance]: the guest program's own output is
// kept for crash reports.
func (c *conn) WriteDiag(p []byte) {
	c.mu.Lock()
	c.diag.Write(p)
	c.mu.Unlock()
}

// Stopping implements [wasi.Instance]: a sleep of the guest ends early when
// its execution is being stopped.
func (c *conn) Stopping() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.stopping
}

// limitedBuffer keeps the first max bytes written to it.
type limitedBuffer struct {
	buf []byte
	max int
}

func (b *limitedBuffer) Write(p []byte) {
	if room := b.max - len(b.buf); room > 0 {
		b.buf = append(b.buf, p[:min(len(p), room)]...)
	}
}

func (b *limitedBuffer) String() string { return string(b.buf) }
