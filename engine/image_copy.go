//go:build !linux

package engine

// imageStore holds the data image in memory; each guest gets a copy (only
// Linux has sealed memory files to share it from).
type imageStore struct {
	size uint64
	img  dataImage
}

func newImageStore(img dataImage) (*imageStore, error) {
	return &imageStore{size: uint64(len(img)), img: img}, nil
}

func (s *imageStore) close() {}
