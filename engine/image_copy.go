//go:build !linux

package engine

// imageStore holds the data image in memory; each guest gets a copy (only
// Linux has sealed memory files to share it from).
type imageStore struct {
	size uint64
	img  dataImage
}

// newImageStore copies img: it may be a mapping that is released once the
// engine is built.
func newImageStore(img dataImage) (*imageStore, error) {
	return &imageStore{size: uint64(len(img)), img: append(dataImage(nil), img...)}, nil
}

func (s *imageStore) close() {}
