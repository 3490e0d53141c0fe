package guestmem

// sliceRegion is the portable memory: a Go slice that is copied into a
// bigger one when the guest grows past its capacity (what wazero does by
// default). It is the memory where NonMoving is false, and it is built
// everywhere so that its tests run on every platform.
type sliceRegion struct {
	buf []byte
	max uint64
}

func (r *sliceRegion) grow(size uint64) []byte {
	if size > r.max {
		return nil
	}
	if size > uint64(cap(r.buf)) {
		nb := make([]byte, size, min(max(size, 2*uint64(cap(r.buf))), r.max))
		copy(nb, r.buf)
		r.buf = nb
	}
	r.buf = r.buf[:size]
	return r.buf
}

func (r *sliceRegion) bytes() []byte { return r.buf }

func (r *sliceRegion) unmap() { r.buf = nil }
