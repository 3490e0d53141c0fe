package command

import (
	"bytes"
	"context"
	"errors"
	"io"
	"io/fs"
	"strings"
	"testing"

	"github.com/cordonhq/cordon/vfs"
)

func TestFD(t *testing.T) {
	in, out, errw, three := strings.NewReader("in"), &bytes.Buffer{}, &bytes.Buffer{}, strings.NewReader("three")
	env := &Env{Stdin: in, Stdout: out, Stderr: errw, FDs: map[int]Descriptor{3: {R: three}, 4: {W: out}}}
	cases := []struct {
		n  int
		r  io.Reader
		w  io.Writer
		ok bool
	}{
		{0, in, nil, true}, {1, nil, out, true}, {2, nil, errw, true},
		{3, three, nil, true}, {4, nil, out, true}, {5, nil, nil, false}, {-1, nil, nil, false},
	}
	for _, c := range cases {
		t.Run(string(rune('0'+c.n)), func(t *testing.T) {
			r, w, ok := env.FD(c.n)
			if r != c.r || w != c.w || ok != c.ok {
				t.Errorf("FD(%d) = %v, %v, %v; want %v, %v, %v", c.n, r, w, ok, c.r, c.w, c.ok)
			}
		})
	}
	if _, _, ok := (&Env{}).FD(3); ok {
		t.Error("FD(3) without FDs is open")
	}
}

func TestLineReader(t *testing.T) {
	long := strings.Repeat("x", 100)
	cases := []struct {
		name  string
		in    string
		delim byte
		lines []string // as Next returns them, with "+" when the delimiter was there
	}{
		{"lines", "a\nb\n", '\n', []string{"a+", "b+"}},
		{"last line without newline", "a\nb", '\n', []string{"a+", "b"}},
		{"empty lines", "\n\n", '\n', []string{"+", "+"}},
		{"empty input", "", '\n', nil},
		{"longer than the buffer", long + "\n" + long, '\n', []string{long + "+", long}},
		{"NUL delimiter", "a\x00b\nc", 0, []string{"a+", "b\nc"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			env := &Env{Ctx: context.Background()}
			lr := env.NewLineReader(strings.NewReader(c.in), 16)
			lr.Delim = c.delim
			var got []string
			for {
				line, nl, ok := lr.Next()
				if !ok {
					break
				}
				s := string(line)
				if nl {
					s += "+"
				}
				got = append(got, s)
			}
			if strings.Join(got, "|") != strings.Join(c.lines, "|") || lr.Err() != nil {
				t.Errorf("got %q (err %v), want %q", got, lr.Err(), c.lines)
			}
			if _, err := lr.ReadLine(); err != io.EOF {
				t.Errorf("ReadLine after the end: %v, want io.EOF", err)
			}
		})
	}
}

func TestLineReaderCanceled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	env := &Env{Ctx: ctx}
	lr := env.NewLineReader(strings.NewReader(strings.Repeat("a\n", 1000)), 64)
	n := 0
	for {
		if _, _, ok := lr.Next(); !ok {
			break
		}
		n++
	}
	if !errors.Is(lr.Err(), ErrCanceled) || n >= 1000 {
		t.Errorf("read %d lines, err %v; want ErrCanceled before the end", n, lr.Err())
	}
}

func TestStatusesAndErrors(t *testing.T) {
	var errb bytes.Buffer
	env := &Env{Ctx: context.Background(), Args: []string{"cmd"}, Stderr: &errb}
	cases := []struct {
		name   string
		status int
		stderr string
	}{
		{"usage", env.Usage(2, "invalid option -- 'Z'", "[OPTION]... FILE"), "cmd: invalid option -- 'Z'\nUsage: cmd [OPTION]... FILE\nTry 'cmd --help' for more information.\n"},
		{"usage without message", env.Usage(1, "", ""), "Try 'cmd --help' for more information.\n"},
		{"write error: closed pipe", env.WriteError(io.ErrClosedPipe), ""},
		{"write error: canceled", env.WriteError(context.Canceled), ""},
		{"write error: other", env.WriteError(errors.New("disk on fire")), "cmd: write error: disk on fire\n"},
		{"write error with status", env.WriteErrorStatus(errors.New("disk full"), 2), "cmd: write error: disk full\n"},
		{"write error with status: closed pipe", env.WriteErrorStatus(io.ErrClosedPipe, 2), ""},
		{"read error: canceled", env.ReadError("f", ErrCanceled), ""},
		{"recovered panic", Recover(func(*Env) int { panic("boom") })(env), "cmd: internal error: boom\n"},
	}
	want := []int{2, 1, StatusBrokenPipe, StatusCanceled, 1, 2, StatusBrokenPipe, StatusCanceled, StatusInternalError}
	// The calls above ran in order; split their output by case.
	all := errb.String()
	for i, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if c.status != want[i] {
				t.Errorf("status %d, want %d", c.status, want[i])
			}
			if !strings.HasPrefix(all, c.stderr) {
				t.Errorf("stderr %q, want it to start with %q", all, c.stderr)
			}
		})
		all = strings.TrimPrefix(all, c.stderr)
	}
}

func TestCtxReaderWriter(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	r := NewCtxReader(ctx, strings.NewReader(strings.Repeat("x", 100<<10)))
	var buf bytes.Buffer
	w := NewCtxWriter(ctx, &buf)
	p := make([]byte, 100<<10)
	if n, err := r.Read(p); n != 64<<10 || err != nil {
		t.Errorf("Read = %d, %v; want 64 KiB", n, err)
	}
	if _, err := w.Write([]byte("ok")); err != nil {
		t.Error(err)
	}
	cancel()
	if _, err := r.Read(p); !IsCanceled(err) {
		t.Errorf("Read after cancel: %v", err)
	}
	if _, err := w.Write([]byte("no")); !IsCanceled(err) || buf.String() != "ok" {
		t.Errorf("Write after cancel: %v, %q", err, buf.String())
	}
}

func TestReadErrorOnceCanceled(t *testing.T) {
	var errb bytes.Buffer
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	env := &Env{Ctx: ctx, Args: []string{"cmd"}, Stderr: &errb}
	if st := env.ReadError("f", errors.New("short read")); st != StatusCanceled || errb.Len() != 0 {
		t.Errorf("ReadError once canceled = %d, stderr %q; want %d and no message", st, errb.String(), StatusCanceled)
	}
}

func TestRecoverAll(t *testing.T) {
	var errb bytes.Buffer
	env := &Env{Ctx: context.Background(), Args: []string{"bad"}, Stderr: &errb}
	reg := RecoverAll(Registry{
		"bad":  func(*Env) int { panic("boom") },
		"good": func(*Env) int { return 3 },
	})
	if st := reg["bad"](env); st != StatusInternalError || errb.String() != "bad: internal error: boom\n" {
		t.Errorf("bad: status %d, stderr %q", st, errb.String())
	}
	if st := reg["good"](env); st != 3 {
		t.Errorf("good: status %d, want 3", st)
	}
}

func TestReadAll(t *testing.T) {
	fsys := vfs.New(vfs.Limits{})
	if err := fsys.MkdirAll("/tmp", 0); err != nil {
		t.Fatal(err)
	}
	if err := fsys.WriteFile("/tmp/f", []byte("file"), 0); err != nil {
		t.Fatal(err)
	}
	env := &Env{Ctx: context.Background(), Stdin: strings.NewReader("input"), FS: fsys, Dir: "/tmp"}
	for name, want := range map[string]string{"-": "input", "f": "file"} {
		t.Run(name, func(t *testing.T) {
			if b, err := env.ReadAll(name); err != nil || string(b) != want {
				t.Errorf("ReadAll(%q) = %q, %v; want %q", name, b, err, want)
			}
		})
	}
	if _, err := env.ReadAll("missing"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("ReadAll(missing): %v, want ErrNotExist", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	env.Ctx = ctx
	if _, err := env.ReadAll("f"); !errors.Is(err, ErrCanceled) {
		t.Errorf("ReadAll once canceled: %v, want ErrCanceled", err)
	}
}
