package engine

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"time"

	"github.com/cordonhq/cordon/internal/abi"
)

// pool keeps guests booted ahead of time, so that NewSandbox only has to
// send the sandbox's setup to one. A guest is booted (instantiated, with
// its Go runtime initialized) and warmed (warmGuest) but holds no sandbox
// state until it is taken:
// pooled guests are interchangeable and never reused after a sandbox
// closes.
type pool struct {
	size  int
	ready chan *conn
	wake  chan struct{}
	quit  chan struct{}
	wg    sync.WaitGroup
	// warmed counts the guests warmed so far.
	warmed atomic.Int64
}

// refillDelay is how long the pool waits after a guest is taken before it
// boots a replacement.
const refillDelay = 20 * time.Millisecond

// startPool starts the goroutine that keeps size guests ready.
func (e *Engine) startPool(size int) {
	p := &pool{size: size, ready: make(chan *conn, size), wake: make(chan struct{}, 1), quit: make(chan struct{})}
	e.pool = p
	p.wg.Add(1)
	go func() {
		defer p.wg.Done()
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		go func() {
			<-p.quit
			cancel()
		}()
		for {
			for len(p.ready) < p.size {
				c, err := e.bootGuest(ctx)
				if err == nil {
					if err = warmGuest(ctx, c); err != nil {
						c.close()
					} else {
						p.warmed.Add(1)
					}
				}
				if err != nil {
					select {
					case <-p.quit:
						return
					default:
					}
					e.cfg.logger.Warn("cordon: booting a pooled guest failed", "err", err)
					break
				}
				select {
				case p.ready <- c:
				case <-p.quit:
					c.close()
					return
				}
			}
			select {
			case <-p.wake:
			case <-p.quit:
				return
			}
		}
	}()
}

// warmGuest has a booted guest do the work that its first execution would
// otherwise do ([abi.OpWarm]: compiling the formatter for objects and
// errors), so that the sandbox that takes it from the pool does not pay for
// it.
func warmGuest(ctx context.Context, c *conn) error {
	fail := func(err error) error {
		return &Error{Kind: KindInternal, Message: "warming a pooled guest", Err: err}
	}
	if ctx.Err() != nil {
		return fail(ctx.Err())
	}
	// An engine that closes meanwhile kills the guest, which then ends at
	// its next loop back-edge.
	stop := context.AfterFunc(ctx, c.kill)
	ev, ok := c.resume(abi.EncodeRequest(nil, &abi.Request{Op: abi.OpWarm}))
	stop()
	if !ok {
		return fail(errors.Join(ctx.Err(), c.exitErr))
	}
	resp, err := abi.DecodeResponse(ev.data)
	switch {
	case ev.kind != evResponse:
		return fail(errors.New("the guest yielded instead of answering"))
	case err != nil:
		return fail(err)
	case resp.Status != abi.StatusOK:
		return fail(errors.New(resp.ErrMsg))
	}
	return nil
}

// pooledGuest takes a ready guest from the pool, or returns nil when there
// is none, and asks the pool to refill.
func (e *Engine) pooledGuest() *conn {
	p := e.pool
	if p == nil {
		return nil
	}
	// Refill a little later: booting a guest takes CPU and memory
	// bandwidth, and doing it at once would slow down the setup and first
	// execution of the sandbox that was just taken (BENCHMARKS.md has the
	// figures).
	time.AfterFunc(refillDelay, func() {
		select {
		case p.wake <- struct{}{}:
		default:
		}
	})
	for {
		select {
		case c := <-p.ready:
			select {
			case <-c.done: // died while waiting (should not happen): drop it
				continue
			default:
				return c
			}
		default:
			return nil
		}
	}
}

// closePool stops refilling and frees the guests that were never taken.
func (e *Engine) closePool() {
	p := e.pool
	if p == nil {
		return
	}
	close(p.quit)
	p.wg.Wait()
	for {
		select {
		case c := <-p.ready:
			c.close()
		default:
			return
		}
	}
}
