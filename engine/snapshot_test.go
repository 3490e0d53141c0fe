package engine_test

import (
	"archive/tar"
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io/fs"
	"log"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/cordonhq/cordon/dsl"
	"github.com/cordonhq/cordon/engine"
	"github.com/cordonhq/cordon/engine/enginetest"
)

// snapshotPays runs n payments in sb and returns how many were allowed.
func snapshotPays(t *testing.T, sb *engine.Sandbox, n int) int {
	t.Helper()
	res := enginetest.Run(t, sb, fmt.Sprintf(`let ok = 0
for (let i = 0; i < %d; i++) { try { await pay({i}); ok++ } catch (e) {} }
return ok`, n))
	var ok int
	if _, err := fmt.Sscan(res.Stdout, &ok); err != nil {
		t.Fatalf("stdout %q: %v", res.Stdout, err)
	}
	return ok
}

// A snapshot restored twice gives two independent sandboxes: each has the
// files, the labels and the counts of the original, and neither sees the
// other's writes or calls.
func TestSnapshotFork(t *testing.T) {
	ctx := context.Background()
	var ran atomic.Int32
	pol := enginetest.Policy(t, dsl.Method("pay").MaxCalls(3))
	cfg := engine.SandboxConfig{Tools: []engine.Tool{enginetest.Counting("pay", &ran)}, Policy: pol,
		Labels: map[string]string{"tenant": "acme"}, Principal: "alice"}
	orig := enginetest.NewSandbox(t, cfg)
	if n := snapshotPays(t, orig, 2); n != 2 {
		t.Fatalf("original: %d payments, want 2", n)
	}
	mtime := time.Date(2024, 5, 6, 7, 8, 9, 123456789, time.UTC)
	if err := orig.PutFiles(ctx, []engine.File{
		{Path: "/workspace/dir", Mode: fs.ModeDir | 0o700, ModTime: mtime},
		{Path: "/workspace/dir/run.sh", Mode: 0o755, ModTime: mtime, Data: []byte("echo hi\n")},
	}); err != nil {
		t.Fatal(err)
	}
	enginetest.RunShell(t, orig, `echo one > /workspace/a.txt`)
	snap, err := orig.Snapshot(ctx)
	if err != nil {
		t.Fatal(err)
	}
	info, err := engine.ReadSnapshotInfo(snap)
	if err != nil {
		t.Fatal(err)
	}
	if info.Version != engine.SnapshotVersion || info.Principal != "alice" || info.Labels["tenant"] != "acme" || info.Counters["method:pay"] != 2 {
		t.Fatalf("info %+v", info)
	}

	fork := func() *engine.Sandbox {
		sb := enginetest.NewSandbox(t, engine.SandboxConfig{Tools: cfg.Tools, Policy: pol, Snapshot: snap})
		r := sb.Restored()
		if r == nil || r.PolicyChanged || !r.CountersRestored {
			t.Fatalf("Restored() = %+v", r)
		}
		return sb
	}
	a, b := fork(), fork()
	for _, sb := range []*engine.Sandbox{a, b} {
		got, err := sb.ReadFile(ctx, "/workspace/a.txt")
		if err != nil || string(got) != "one\n" {
			t.Fatalf("a.txt = %q, %v", got, err)
		}
		files, err := sb.Files(ctx, "/workspace/dir")
		if err != nil || len(files) != 2 {
			t.Fatalf("files %+v, %v", files, err)
		}
		if files[0].Mode != fs.ModeDir|0o700 || files[1].Mode != 0o755 || !files[1].ModTime.Equal(mtime) {
			t.Errorf("modes %v %v, mtime %v: want drwx------, -rwxr-xr-x, %v", files[0].Mode, files[1].Mode, files[1].ModTime, mtime)
		}
	}
	if err := a.WriteFile(ctx, "/workspace/only-a.txt", []byte("a")); err != nil {
		t.Fatal(err)
	}
	if _, err := b.ReadFile(ctx, "/workspace/only-a.txt"); !errors.Is(err, engine.ErrNotExist) {
		t.Fatalf("b sees a's file: %v", err)
	}
	// max_calls 3 with 2 used: one more in each fork, independently.
	if n := snapshotPays(t, a, 3); n != 1 {
		t.Fatalf("fork a: %d payments, want 1", n)
	}
	if n := snapshotPays(t, b, 3); n != 1 {
		t.Fatalf("fork b: %d payments, want 1", n)
	}
	if n := snapshotPays(t, orig, 3); n != 1 {
		t.Fatalf("original after the forks: %d payments, want 1", n)
	}
	if ran.Load() != 5 {
		t.Fatalf("the handler ran %d times, want 5", ran.Load())
	}
}

// The labels and the principal of a snapshot are the restored sandbox's,
// unless its config sets them.
func TestSnapshotLabels(t *testing.T) {
	ctx := context.Background()
	orig := enginetest.NewSandbox(t, engine.SandboxConfig{Labels: map[string]string{"tenant": "acme"}, Principal: "alice"})
	snap, err := orig.Snapshot(ctx)
	if err != nil {
		t.Fatal(err)
	}
	kept := enginetest.NewSandbox(t, engine.SandboxConfig{Snapshot: snap})
	got, err := kept.Snapshot(ctx)
	if err != nil {
		t.Fatal(err)
	}
	info, _ := engine.ReadSnapshotInfo(got)
	if info.Principal != "alice" || info.Labels["tenant"] != "acme" {
		t.Fatalf("restored sandbox: principal %q, labels %v", info.Principal, info.Labels)
	}
	set := enginetest.NewSandbox(t, engine.SandboxConfig{Snapshot: snap, Principal: "bob", Labels: map[string]string{"tenant": "other"}})
	got, _ = set.Snapshot(ctx)
	info, _ = engine.ReadSnapshotInfo(got)
	if info.Principal != "bob" || info.Labels["tenant"] != "other" {
		t.Fatalf("config's principal and labels: %q, %v", info.Principal, info.Labels)
	}
}

// A snapshot taken under another policy revision is restored, and the
// sandbox says so.
func TestSnapshotPolicyChanged(t *testing.T) {
	ctx := context.Background()
	orig := enginetest.NewSandbox(t, engine.SandboxConfig{})
	snap, err := orig.Snapshot(ctx)
	if err != nil {
		t.Fatal(err)
	}
	restored := enginetest.NewSandbox(t, engine.SandboxConfig{Policy: enginetest.Policy(t, dsl.Method("pay").MaxCalls(1)), Snapshot: snap})
	if r := restored.Restored(); r == nil || !r.PolicyChanged || r.Snapshot.PolicyRevision != "default" {
		t.Fatalf("Restored() = %+v, want PolicyChanged", r)
	}
}

// Snapshots of another version, truncated or damaged are refused with an
// error that matches ErrSnapshot.
func TestSnapshotRefused(t *testing.T) {
	ctx := context.Background()
	orig := enginetest.NewSandbox(t, engine.SandboxConfig{})
	if err := orig.WriteFile(ctx, "/workspace/a.txt", bytes.Repeat([]byte("x"), 1000)); err != nil {
		t.Fatal(err)
	}
	snap, err := orig.Snapshot(ctx)
	if err != nil {
		t.Fatal(err)
	}
	eng := enginetest.Engine(t)
	newer := bytes.Clone(snap)
	binary.BigEndian.PutUint32(newer[16:], engine.SnapshotVersion+1)
	_, err = eng.NewSandbox(ctx, engine.SandboxConfig{Snapshot: newer})
	if !errors.Is(err, engine.ErrSnapshotVersion) || !errors.Is(err, engine.ErrSnapshot) || !errors.Is(err, engine.ErrInvalid) {
		t.Fatalf("newer version: %v", err)
	}
	if !strings.Contains(err.Error(), "version 2") {
		t.Errorf("error %q does not name the version", err)
	}
	for name, b := range map[string][]byte{
		"garbage":      []byte("hello, world, this is not a snapshot"),
		"header only":  snap[:20],
		"truncated":    snap[:len(snap)-700],
		"bad metadata": append(append([]byte(nil), snap[:24]...), bytes.Repeat([]byte{'{'}, len(snap)-24)...),
	} {
		if _, err := eng.NewSandbox(ctx, engine.SandboxConfig{Snapshot: b}); !errors.Is(err, engine.ErrSnapshot) {
			t.Errorf("%s: %v, want ErrSnapshot", name, err)
		}
	}
	// Entries the VFS would refuse: a name that leaves the root, a link.
	metaEnd := 24 + int(binary.BigEndian.Uint32(snap[20:]))
	for _, hdr := range []*tar.Header{
		{Name: "../evil", Typeflag: tar.TypeReg, Mode: 0o644},
		{Name: "workspace/link", Typeflag: tar.TypeSymlink, Linkname: "/etc/passwd"},
		{Name: "workspace/a\\b", Typeflag: tar.TypeReg, Mode: 0o644},
	} {
		var archive bytes.Buffer
		tw := tar.NewWriter(&archive)
		if err := tw.WriteHeader(hdr); err != nil {
			t.Fatal(err)
		}
		tw.Close()
		hostile := append(bytes.Clone(snap[:metaEnd]), archive.Bytes()...)
		if _, err := eng.NewSandbox(ctx, engine.SandboxConfig{Snapshot: hostile}); !errors.Is(err, engine.ErrSnapshot) {
			t.Errorf("entry %q: %v, want ErrSnapshot", hdr.Name, err)
		}
	}
	// More than the VFS quota.
	if _, err := eng.NewSandbox(ctx, engine.SandboxConfig{Snapshot: snap, Limits: engine.Limits{VFSBytes: 500}}); !errors.Is(err, engine.ErrSnapshot) || engine.KindOf(err) != engine.KindFile {
		t.Errorf("over quota: %v", err)
	}
}

func ExampleSandbox_Snapshot() {
	ctx := context.Background()
	eng, err := engine.New(ctx, engine.NewConfig())
	if err != nil {
		log.Fatal(err)
	}
	defer eng.Close(ctx)

	sb, err := eng.NewSandbox(ctx, engine.SandboxConfig{})
	if err != nil {
		log.Fatal(err)
	}
	defer sb.Close(ctx)
	if err := sb.WriteFile(ctx, "/workspace/notes.txt", []byte("draft")); err != nil {
		log.Fatal(err)
	}
	// region fork
	snap, err := sb.Snapshot(ctx) // between executions: it takes the sandbox's turn
	if err != nil {
		log.Fatal(err)
	}
	// Each sandbox started from snap is a fork: the files, and counters of its own.
	a, err := eng.NewSandbox(ctx, engine.SandboxConfig{Snapshot: snap})
	if err != nil {
		log.Fatal(err)
	}
	b, err := eng.NewSandbox(ctx, engine.SandboxConfig{Snapshot: snap})
	if err != nil {
		log.Fatal(err)
	}
	// endregion
	defer a.Close(ctx)
	defer b.Close(ctx)
	for i, fork := range []*engine.Sandbox{a, b} {
		res, err := fork.Execute(ctx, engine.Shell, fmt.Sprintf(`echo " + plan %d" >> /workspace/notes.txt; cat /workspace/notes.txt`, i+1))
		if err != nil {
			log.Fatal(err)
		}
		fmt.Print(res.Stdout)
	}
	// Output:
	// draft + plan 1
	// draft + plan 2
}

// Under a window the counts are carried too: they are charged again at
// the restore, so they still count within the window.
func TestSnapshotWindow(t *testing.T) {
	ctx := context.Background()
	var ran atomic.Int32
	pol := enginetest.Policy(t, dsl.Method("pay").MaxCalls(3))
	cfg := engine.SandboxConfig{Tools: []engine.Tool{enginetest.Counting("pay", &ran)}, Policy: pol,
		Counters: engine.Counters{Window: time.Hour}}
	orig := enginetest.NewSandbox(t, cfg)
	if n := snapshotPays(t, orig, 2); n != 2 {
		t.Fatalf("original: %d payments, want 2", n)
	}
	snap, err := orig.Snapshot(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if info, _ := engine.ReadSnapshotInfo(snap); info.CounterWindow != time.Hour || info.Counters["method:pay"] != 2 {
		t.Fatalf("info %+v", info)
	}
	cfg.Snapshot = snap
	fork := enginetest.NewSandbox(t, cfg)
	if n := snapshotPays(t, fork, 3); n != 1 {
		t.Fatalf("fork: %d payments, want 1", n)
	}
}

// A restored sandbox's files and directories have the modes (a read-only
// directory, a sticky bit) and
// modification times they had, directories included, although putting a
// file into a directory sets the directory's time.
func TestSnapshotExactTimes(t *testing.T) {
	var ticks atomic.Int64
	base := time.Date(2026, 3, 4, 5, 6, 7, 0, time.UTC)
	eng := enginetest.NewEngine(t, enginetest.Config().WithClock(func() time.Time {
		return base.Add(time.Duration(ticks.Add(1)) * time.Second)
	}))
	ctx := context.Background()
	sb := enginetest.NewSandboxOf(t, eng, engine.SandboxConfig{})
	if _, err := sb.Execute(ctx, engine.Shell, `mkdir -p /workspace/a/b /workspace/ro/sub /workspace/k && echo x > /workspace/a/b/f && chmod 600 /workspace/a/b/f && echo y > /workspace/g && echo z > /workspace/ro/sub/h && chmod 500 /workspace/ro && chmod 1751 /workspace/k`); err != nil {
		t.Fatal(err)
	}
	snap, err := sb.Snapshot(ctx)
	if err != nil {
		t.Fatal(err)
	}
	fork := enginetest.NewSandboxOf(t, eng, engine.SandboxConfig{Snapshot: snap})
	want, err := sb.Files(ctx, "/")
	if err != nil {
		t.Fatal(err)
	}
	got, err := fork.Files(ctx, "/")
	if err != nil {
		t.Fatal(err)
	}
	show := func(fs []engine.File) string {
		var b strings.Builder
		for _, f := range fs {
			if f.Path == "/" {
				continue // the archive holds what is below the root
			}
			fmt.Fprintf(&b, "%s %v %s\n", f.Path, f.Mode, f.ModTime.UTC().Format(time.RFC3339Nano))
		}
		return b.String()
	}
	if show(got) != show(want) {
		t.Errorf("restored:\n%swant:\n%s", show(got), show(want))
	}
}
