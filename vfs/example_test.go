package vfs_test

import (
	"errors"
	"fmt"
	"io/fs"
	"syscall"

	"github.com/cordonhq/cordon/vfs"
)

func ExampleNew() {
	fsys := vfs.New(vfs.Limits{MaxBytes: 1 << 10, MaxFiles: 10})

	// The host seeds read-only reference data through the privileged view.
	if err := fsys.Privileged().MkdirAll("/data", 0o755); err != nil {
		panic(err)
	}
	if err := fsys.Privileged().WriteFile("/data/ref.csv", []byte("id,name\n1,ada\n"), 0o444); err != nil {
		panic(err)
	}

	// Scripts write below /workspace and /tmp; ".." cannot escape the root.
	if err := fsys.WriteFile("/workspace/../../workspace/out.txt", []byte("hello"), 0o644); err != nil {
		panic(err)
	}
	data, _ := fsys.ReadFile("workspace/out.txt")
	fmt.Printf("%s\n", data)

	err := fsys.WriteFile("/data/ref.csv", nil, 0o644)
	fmt.Println(errors.Is(err, fs.ErrPermission))

	err = fsys.WriteFile("/tmp/big", make([]byte, 2<<10), 0o644)
	fmt.Println(errors.Is(err, syscall.ENOSPC))
	var pe *fs.PathError
	if errors.As(err, &pe) {
		fmt.Println(pe.Err)
	}

	entries, _ := fs.ReadDir(fsys, ".")
	for _, e := range entries {
		fmt.Println(e.Name(), e.IsDir())
	}
	bytes, files := fsys.Usage()
	fmt.Println(bytes, files)
	// Output:
	// hello
	// true
	// true
	// vfs: quota exceeded: total file bytes would exceed 1024
	// data true
	// tmp true
	// workspace true
	// 19 3
}
