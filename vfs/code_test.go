package vfs

import (
	"errors"
	"testing"
)

func TestCode(t *testing.T) {
	f := New(Limits{MaxBytes: 4})
	if _, err := f.ReadFile("/workspace/missing"); Code(err) != "ENOENT" {
		t.Errorf("missing: %v", err)
	}
	if err := f.WriteFile("/etc/x", nil, 0); Code(err) != "EACCES" {
		t.Errorf("read-only: %v", err)
	}
	if err := f.WriteFile("/workspace/big", []byte("12345"), 0); Code(err) != "ENOSPC" {
		t.Errorf("quota: %v", err)
	}
	if Code(errors.New("other")) != "EIO" {
		t.Error("an unknown error is not EIO")
	}
}
