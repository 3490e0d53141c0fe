package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/cordonhq/cordon/engine"
)

// readSnapshot reads the --snapshot-in file, if any. It reads at most twice
// the VFS quota plus the metadata and the archive's headers: a larger file
// could not be restored anyway.
func readSnapshot(name string, limits engine.Limits) ([]byte, error) {
	if name == "" {
		return nil, nil
	}
	f, err := os.Open(name)
	if err != nil {
		return nil, usagef("run: --snapshot-in: %v", err)
	}
	defer f.Close()
	max := 2*max(limits.VFSBytes, engine.DefaultVFSBytes) + engine.MaxSnapshotMetadata + 64<<20
	b, err := io.ReadAll(io.LimitReader(f, max+1))
	if err != nil {
		return nil, usagef("run: --snapshot-in %s: %v", name, err)
	}
	if int64(len(b)) > max {
		return nil, usagef("run: --snapshot-in %s: larger than %d bytes, more than a snapshot of this sandbox can hold", name, max)
	}
	return b, nil
}

// writeSnapshot writes the sandbox's snapshot to name, through a temporary
// file in the same directory, so that a run that fails leaves an earlier
// snapshot at name whole.
func writeSnapshot(ctx context.Context, sb *engine.Sandbox, name string) error {
	snap, err := sb.Snapshot(ctx)
	if err != nil {
		return fmt.Errorf("--snapshot-out: %w", err)
	}
	tmp, err := os.CreateTemp(filepath.Dir(name), "."+filepath.Base(name)+".*")
	if err != nil {
		return fmt.Errorf("--snapshot-out: %w", err)
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(snap); err != nil {
		tmp.Close()
		return fmt.Errorf("--snapshot-out: %w", err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("--snapshot-out: %w", err)
	}
	if err := os.Rename(tmp.Name(), name); err != nil {
		return fmt.Errorf("--snapshot-out: %w", err)
	}
	return nil
}
