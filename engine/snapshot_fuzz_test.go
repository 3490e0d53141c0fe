package engine

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"io/fs"
	"testing"
	"time"
)

// seedSnapshot builds a snapshot as Snapshot writes it, without a guest.
func seedSnapshot(tb testing.TB, info SnapshotInfo, files []File) []byte {
	tb.Helper()
	meta, err := json.Marshal(info)
	if err != nil {
		tb.Fatal(err)
	}
	var buf bytes.Buffer
	buf.WriteString(snapshotMagic)
	_ = binary.Write(&buf, binary.BigEndian, uint32(SnapshotVersion))
	_ = binary.Write(&buf, binary.BigEndian, uint32(len(meta)))
	buf.Write(meta)
	if err := writeTar(&buf, "/", files); err != nil {
		tb.Fatal(err)
	}
	return buf.Bytes()
}

// FuzzRestoreSnapshot feeds the snapshot decoder arbitrary bytes: it must
// never panic, and what it accepts must fit the limits it was given.
func FuzzRestoreSnapshot(f *testing.F) {
	mtime := time.Date(2024, 1, 2, 3, 4, 5, 6, time.UTC)
	f.Add(seedSnapshot(f, SnapshotInfo{SessionID: "s", Principal: "p", Labels: map[string]string{"k": "v"},
		PolicyRevision: "default", CounterScope: "session", Counters: map[string]int{"method:pay": 2}},
		[]File{
			{Path: "/workspace", Mode: fs.ModeDir | 0o755, ModTime: mtime},
			{Path: "/workspace/a.txt", Mode: 0o644, ModTime: mtime, Data: []byte("hello")},
		}))
	f.Add([]byte(snapshotMagic + "\x00\x00\x00\x01\x00\x00\x00\x02{}"))
	f.Add([]byte(snapshotMagic + "\x00\x00\x00\x01\xff\xff\xff\xff"))
	f.Add([]byte("garbage"))
	limits := Limits{VFSBytes: 1 << 16, VFSFiles: 64}
	f.Fuzz(func(t *testing.T, b []byte) {
		st, err := decodeSnapshot(b, limits)
		if err != nil {
			if !errors.Is(err, ErrSnapshot) {
				t.Fatalf("error %v does not match ErrSnapshot", err)
			}
			return
		}
		if len(st.files) > limits.VFSFiles {
			t.Fatalf("%d files, over the quota", len(st.files))
		}
		var total, charges int64
		for _, f := range st.files {
			total += int64(len(f.Data))
			if err := checkSnapshotName(f.Path[1:]); err != nil {
				t.Fatalf("accepted name %q: %v", f.Path, err)
			}
			if f.Mode&^(fs.ModeDir|fs.ModePerm) != 0 {
				t.Fatalf("accepted mode %v", f.Mode)
			}
		}
		if total > limits.VFSBytes {
			t.Fatalf("%d bytes, over the quota", total)
		}
		for _, n := range st.info.Counters {
			if n < 0 {
				t.Fatalf("negative count %d", n)
			}
			charges += int64(n)
		}
		if charges > maxSnapshotCharges {
			t.Fatalf("%d charges", charges)
		}
	})
}
