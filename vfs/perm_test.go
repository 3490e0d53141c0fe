package vfs

import (
	"errors"
	"io/fs"
	"syscall"
	"testing"
)

// TestPermissionBits checks that the normal view honours the owner's bits
// and that the privileged view ignores them.
func TestPermissionBits(t *testing.T) {
	f := New(Limits{})
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	is := func(err error, want error) {
		t.Helper()
		if err == nil || !errors.Is(err, want) {
			t.Fatalf("got %v, want %v", err, want)
		}
	}
	must(f.MkdirAll("/workspace/d", 0))
	must(f.WriteFile("/workspace/d/f", []byte("x"), 0))

	must(f.Chmod("/workspace/d/f", 0o200))
	_, err := f.ReadFile("/workspace/d/f")
	is(err, syscall.EACCES)
	must(f.WriteFile("/workspace/d/f", []byte("y"), 0))
	is(f.Access("/workspace/d/f", ReadOK), syscall.EACCES)
	must(f.Access("/workspace/d/f", WriteOK))
	if _, err := f.Privileged().ReadFile("/workspace/d/f"); err != nil {
		t.Fatalf("privileged read: %v", err)
	}

	must(f.Chmod("/workspace/d/f", 0o444))
	is(f.WriteFile("/workspace/d/f", nil, 0), syscall.EACCES)
	_, err = f.OpenFile("/workspace/d/f", O_WRONLY|O_APPEND, 0)
	is(err, syscall.EACCES)
	is(f.Access("/workspace/d/f", ExecOK), syscall.EACCES)

	// A directory without w: no entries come or go.
	must(f.Chmod("/workspace/d", 0o555))
	is(f.WriteFile("/workspace/d/g", nil, 0), syscall.EACCES)
	is(f.Mkdir("/workspace/d/e", 0), syscall.EACCES)
	is(f.Remove("/workspace/d/f"), syscall.EACCES)
	is(f.Rename("/workspace/d/f", "/workspace/f"), syscall.EACCES)
	is(f.RemoveAll("/workspace/d"), syscall.EACCES)

	// Without x nothing below it can be reached; without r it cannot
	// be listed.
	must(f.Chmod("/workspace/d", 0o644))
	_, err = f.Stat("/workspace/d/f")
	is(err, syscall.EACCES)
	must(f.Chmod("/workspace/d", 0o300))
	_, err = f.ReadDir("/workspace/d")
	is(err, syscall.EACCES)
	if _, err := f.Stat("/workspace/d/f"); err != nil {
		t.Fatal(err)
	}

	// The host's nodes are not the script's to chmod.
	is(f.Chmod("/", 0o777), syscall.EPERM)
	must(f.Privileged().Chmod("/workspace/d", 0o755))

	// The special bits are kept.
	must(f.Chmod("/workspace/d/f", 0o755|fs.ModeSetuid|fs.ModeSticky))
	fi, err := f.Stat("/workspace/d/f")
	must(err)
	if fi.Mode() != 0o755|fs.ModeSetuid|fs.ModeSticky {
		t.Fatalf("mode %v", fi.Mode())
	}
	if Code(f.Chmod("/", 0)) != "EPERM" {
		t.Fatal("EPERM has no code")
	}
}
