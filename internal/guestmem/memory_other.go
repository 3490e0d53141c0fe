//go:build !(linux || darwin || freebsd)

package guestmem

// NonMoving reports whether guest memory is a mapping that never moves
// (here: false; it is a Go slice that growing may copy).
const NonMoving = false

func reserve(limit uint64, img *Image) (region, error) {
	r := &sliceRegion{max: limit}
	if img != nil {
		r.buf = append([]byte(nil), img.img...)
	}
	return r, nil
}
