package engine

import (
	"context"
	"time"
)

// defaultRecycleIdle is how long a sandbox whose guest's memory grew must be
// idle before it gives the memory back (Config.WithRecycleAfter).
const defaultRecycleIdle = 2 * time.Second

// recycleLater arms, when the guest's memory has grown past the engine's
// recycle growth, a timer that gives the memory back once the sandbox has
// been idle for the recycle delay: an agent's sandbox waits seconds between
// scripts while the model thinks, and scripts that come back to back (a
// batch, a benchmark) never wait for a replacement. A later execution
// re-arms it.
func (sb *Sandbox) recycleLater() {
	if !sb.shouldRecycle() {
		return
	}
	gen := sb.runs.Load()
	idle := sb.e.cfg.recycleIdle
	if idle <= 0 {
		idle = defaultRecycleIdle
	}
	t := time.AfterFunc(idle, func() { sb.recycleIfIdle(gen) })
	if old := sb.recycleTimer.Swap(t); old != nil {
		old.Stop()
	}
}

// shouldRecycle reports whether the guest's memory has grown more than the
// engine's recycle growth above its size when the sandbox took the guest.
func (sb *Sandbox) shouldRecycle() bool {
	growth := sb.e.cfg.recycleGrowth()
	m := sb.mem.Load()
	return growth > 0 && m != nil && sb.Err() == nil && int64(m.Size())-sb.memBase.Load() > growth
}

// recycleIfIdle replaces the guest if no execution started since the one
// that armed the timer (gen). The fresh guest is taken (or booted) before
// the sandbox's turn, so that the turn is held only while the files are
// copied; if the turn is busy the sandbox is not idle, and the execution
// holding it re-arms the timer when it ends.
func (sb *Sandbox) recycleIfIdle(gen uint64) {
	if sb.runs.Load() != gen || !sb.shouldRecycle() {
		return
	}
	log := sb.e.cfg.logger
	fresh := sb.e.pooledGuest()
	if fresh == nil {
		var err error
		if fresh, err = sb.e.bootGuest(context.Background()); err != nil {
			log.Warn("engine: keeping a guest whose memory grew: starting a new one failed", "session", sb.id, "err", err)
			return
		}
	}
	if !sb.tryAcquire() {
		fresh.close()
		return
	}
	defer sb.release()
	if sb.runs.Load() != gen || !sb.shouldRecycle() {
		fresh.close()
		return
	}
	sb.recycle(fresh)
}

// recycle gives the guest's memory back: a WebAssembly memory never
// shrinks, so the sandbox takes the fresh guest, sets it up and puts the
// files back, exact, and the old guest is closed, which unmaps its memory.
// Only the files and the call counters (which live on the host) outlive an
// execution, so the next script sees no difference.
//
// The caller holds the sandbox's turn. A failure before the old guest is
// let go keeps it (the sandbox works, with its memory); one after breaks
// the sandbox, which fails closed rather than run on a guest without its
// files.
func (sb *Sandbox) recycle(fresh *conn) {
	old := sb.conn
	log := sb.e.cfg.logger
	files, err := sb.files("/")
	if err != nil {
		fresh.close()
		log.Warn("engine: keeping a guest whose memory grew: exporting its files failed", "session", sb.id, "err", err)
		return
	}
	sb.mu.Lock()
	if sb.broken != nil {
		// Closed meanwhile: Close saw the old guest.
		sb.mu.Unlock()
		fresh.close()
		return
	}
	sb.conn = fresh
	sb.mu.Unlock()
	sb.mem.Store(fresh.mem)
	sb.memBase.Store(int64(fresh.mem.Size()))
	old.close()
	if err = sb.setup(); err == nil {
		err = sb.putExactHeld(files)
	}
	if err != nil {
		sb.setBroken(&Error{Kind: KindClosed, Message: "sandbox is broken: replacing its guest after its memory grew: " + err.Error()})
		log.Error("engine: replacing a guest whose memory grew failed; the sandbox is broken", "session", sb.id, "err", err)
		return
	}
	sb.recycled.Add(1)
}
