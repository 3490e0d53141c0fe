//go:build !(linux || darwin || freebsd)

package guestmem

// NonMoving reports whether guest memory is a mapping that never moves
// (here: false; it is a Go slice that growing may copy).
const NonMoving = false

// sliceRegion is the portable memory: a Go slice that is copied into a
// bigger one when the guest grows past its capacity (what wazero does by
// default).
type sliceRegion struct {
	buf []byte
	max uint64
}

func reserve(limit uint64, img *Image) (region, error) {
	r := &sliceRegion{max: limit}
	if img != nil {
		r.buf = append([]byte(nil), img.img...)
	}
	return r, nil
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

func (r *sliceRegion) unmap() { r.buf = nil }
