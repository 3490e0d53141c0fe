package engine

import (
	"context"
)

// recycleLater starts, when the guest's memory has grown past the engine's
// recycle growth, a goroutine that waits for the sandbox's turn and
// recycles the guest: the execution that grew the memory returns without
// waiting for the copy of the files, and the next one waits for it only
// if it comes before the copy is done.
func (sb *Sandbox) recycleLater() {
	if !sb.shouldRecycle() {
		return
	}
	go func() {
		if sb.acquire(context.Background()) != nil {
			return // closed meanwhile
		}
		defer sb.release()
		sb.recycle()
	}()
}

// shouldRecycle reports whether the guest's memory has grown more than the
// engine's recycle growth above its size when the sandbox took the guest.
func (sb *Sandbox) shouldRecycle() bool {
	growth := sb.e.cfg.recycle
	m := sb.mem.Load()
	return growth > 0 && m != nil && sb.Err() == nil && int64(m.Size())-sb.memBase.Load() > growth
}

// recycle gives the guest's memory back after an execution: a WebAssembly
// memory never shrinks, so when the execution that just ended left the
// guest's memory more than the engine's recycle growth
// (Config.WithRecycleAfter) above its size when the sandbox took the
// guest, the sandbox takes a fresh guest (from the pool, when there is
// one), sets it up and puts the files back, exact, and the old guest is
// closed, which unmaps its memory. Only the files and the call counters
// (which live on the host) outlive an execution, so the next script sees
// no difference.
//
// The caller holds the sandbox's turn (recycleLater's goroutine). A failure before the old guest is
// let go keeps it (the sandbox works, with its memory); one after breaks
// the sandbox, which fails closed rather than run on a guest without its
// files.
func (sb *Sandbox) recycle() {
	old := sb.conn
	if old == nil || !sb.shouldRecycle() {
		return
	}
	log := sb.e.cfg.logger
	files, err := sb.files("/")
	if err != nil {
		log.Warn("engine: keeping a guest whose memory grew: exporting its files failed", "session", sb.id, "err", err)
		return
	}
	fresh := sb.e.pooledGuest()
	if fresh == nil {
		if fresh, err = sb.e.bootGuest(context.Background()); err != nil {
			log.Warn("engine: keeping a guest whose memory grew: starting a new one failed", "session", sb.id, "err", err)
			return
		}
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
	}
}
