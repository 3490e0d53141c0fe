package engine

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"runtime/debug"
)

// GuestInfo identifies the guest module an engine runs.
type GuestInfo struct {
	// SHA256 is the hex SHA-256 of the uncompressed module: what `go
	// generate ./engine` prints when it builds the guest, and what `go run
	// ./internal/buildguest -check` compares.
	SHA256 string
	// Build is the guest's own Go build information (its Go version, and
	// the versions of the modules compiled into it, goja's among them), or
	// nil when the module does not carry it.
	Build *debug.BuildInfo
}

// Guest returns the identity of the guest module embedded in this package.
// It decompresses the module, which takes a fraction of a second.
func Guest() (GuestInfo, error) {
	wasm, err := guestWasm()
	if err != nil {
		return GuestInfo{}, err
	}
	sum := sha256.Sum256(wasm)
	info := GuestInfo{SHA256: hex.EncodeToString(sum[:])}
	if text, ok := modInfo(wasm); ok {
		if bi, err := debug.ParseBuildInfo(text); err == nil {
			info.Build = bi
		}
	}
	return info, nil
}

// The markers around the build information the Go linker puts into a
// binary's data (runtime/debug's modinfo), which a wasm module keeps in a
// data segment as it is.
var (
	modInfoStart = []byte("\x30\x77\xaf\x0c\x92\x74\x08\x02\x41\xe1\xc1\x07\xe6\xd6\x18\xe6")
	modInfoEnd   = []byte("\xf9\x32\x43\x31\x86\x18\x20\x72\x00\x82\x42\x10\x41\x16\xd8\xf2")
)

// modInfo returns the text of the build information in a Go binary.
func modInfo(bin []byte) (string, bool) {
	i := bytes.Index(bin, modInfoStart)
	if i < 0 {
		return "", false
	}
	rest := bin[i+len(modInfoStart):]
	j := bytes.Index(rest, modInfoEnd)
	if j < 0 {
		return "", false
	}
	return string(rest[:j]), true
}
