//go:build !linux

package guestmem

// Image holds a data image in memory; each guest gets a copy (only Linux
// has sealed memory files to share it from).
type Image struct {
	size uint64
	img  []byte
}

// NewImage stores a copy of img, the initial content of every guest's
// memory from address 0: img may be a mapping that is released once
// NewImage returns.
func NewImage(img []byte) (*Image, error) {
	return &Image{size: uint64(len(img)), img: append([]byte(nil), img...)}, nil
}

// Close releases the image (here, nothing to release).
func (s *Image) Close() {}
