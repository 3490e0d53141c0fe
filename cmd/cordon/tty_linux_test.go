package main

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/cordonhq/cordon/engine/enginetest"
	"golang.org/x/sys/unix"
)

// The terminal check finds a pseudo-terminal, and takes neither a pipe, a
// file nor /dev/null (a character device) for one.
func TestFileIsTerminal(t *testing.T) {
	_, pts := openPTY(t)
	if !isTerminal(pts) {
		t.Error("a pseudo-terminal is not taken for a terminal")
	}
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	file, err := os.Create(filepath.Join(t.TempDir(), "out"))
	if err != nil {
		t.Fatal(err)
	}
	defer file.Close()
	null, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer null.Close()
	for _, f := range []*os.File{w, file, null} {
		if isTerminal(f) {
			t.Errorf("%s is taken for a terminal", f.Name())
		}
	}
}

// openPTY opens a pseudo-terminal pair, closed at the end of the test, or
// skips the test where there is none.
func openPTY(t *testing.T) (ptmx, pts *os.File) {
	t.Helper()
	ptmx, err := os.OpenFile("/dev/ptmx", os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("no pseudo-terminals here: %v", err)
	}
	t.Cleanup(func() { ptmx.Close() })
	if err := unix.IoctlSetPointerInt(int(ptmx.Fd()), unix.TIOCSPTLCK, 0); err != nil {
		t.Skipf("cannot unlock the pseudo-terminal: %v", err)
	}
	n, err := unix.IoctlGetUint32(int(ptmx.Fd()), unix.TIOCGPTN)
	if err != nil {
		t.Skipf("no pseudo-terminal number: %v", err)
	}
	pts, err = os.OpenFile("/dev/pts/"+strconv.Itoa(int(n)), os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("cannot open the pseudo-terminal: %v", err)
	}
	t.Cleanup(func() { pts.Close() })
	return ptmx, pts
}

// On a terminal, the first run with an empty cache says that it compiles
// the sandbox, about how long that takes, and when it is done.
func TestFirstCompileMessageOnTerminal(t *testing.T) {
	if testing.Short() {
		t.Skip("compiles the guest from scratch")
	}
	ptmx, pts := openPTY(t)
	var terminal enginetest.Buffer
	copied := make(chan struct{})
	go func() {
		defer close(copied)
		io.Copy(&terminal, ptmx)
	}()
	var stdout bytes.Buffer
	dir := t.TempDir()
	code := run(context.Background(), []string{"run", "--cache-dir", dir, "-e", "return 1"}, strings.NewReader(""), &stdout, pts)
	if code != 0 || stdout.String() != "1\n" {
		t.Fatalf("exit %d stdout %q", code, stdout.String())
	}
	code = run(context.Background(), []string{"run", "--cache-dir", dir, "-e", "return 2"}, strings.NewReader(""), &stdout, pts)
	if code != 0 {
		t.Fatalf("second run: exit %d", code)
	}
	pts.Close()
	ptmx.SetReadDeadline(time.Now().Add(2 * time.Second))
	<-copied
	if got := terminal.String(); strings.Count(got, "cordon: compiling the sandbox, about ") != 1 || !strings.Contains(got, " s the first time") ||
		strings.Count(got, "cordon: compiled the sandbox in ") != 1 {
		t.Errorf("the terminal shows %q; want the compile messages once, for the first run", got)
	}
}
