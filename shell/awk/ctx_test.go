package awk

import (
	"context"
	"io"
	"strings"
	"testing"
	"time"
)

// TestCancelLoops checks that endless programs stop when the context is
// canceled.
func TestCancelLoops(t *testing.T) {
	progs := []string{
		"BEGIN { while (1) {} }",
		"BEGIN { for (;;) ; }",
		"BEGIN { do x++; while (1) }",
		"BEGIN { while (1) s = s \"\" }",
		"function f() { while (1) {} } BEGIN { f() }",
		"BEGIN { a[1]; while (1) for (k in a) n++ }",
	}
	for _, prog := range progs {
		t.Run(prog, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
			defer cancel()
			done := make(chan int, 1)
			go func() {
				_, _, status, _ := runAwk(t, ctx, []string{prog}, "")
				done <- status
			}()
			select {
			case status := <-done:
				if status == 0 {
					t.Errorf("status 0 after cancel")
				}
			case <-time.After(10 * time.Second):
				t.Fatal("awk did not stop after the context was canceled")
			}
		})
	}
}

// endless is an infinite input that cancels its context after limit bytes.
type endless struct {
	line   string
	n      int
	limit  int
	cancel context.CancelFunc
}

func (e *endless) Read(p []byte) (int, error) {
	if e.n >= e.limit {
		e.cancel()
	}
	n := 0
	for n < len(p) {
		n += copy(p[n:], e.line)
	}
	e.n += n
	return n, nil
}

func TestCancelHugeInput(t *testing.T) {
	for _, tc := range []struct{ prog, line string }{
		{"{ n += NF } END { print n }", "a b c\n"},
		{"{ n++ }", "no newline at all "},
		{"BEGIN { RS = \"\" } { n++ }", "para\n\n"},
		{"BEGIN { RS = \"x+\" } { n++ }", "abc"},
		{"BEGIN { while ((getline l) > 0) n++ }", "line\n"},
	} {
		t.Run(tc.prog, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			in := &endless{line: tc.line, limit: 4 << 20, cancel: cancel}
			prog, err := Compile(tc.prog)
			if err != nil {
				t.Fatal(err)
			}
			env := testEnv(t, ctx, in, io.Discard)
			status, err := prog.Run(ctx, env, Options{})
			if err != context.Canceled || status == 0 {
				t.Fatalf("status %d, err %v; want context.Canceled", status, err)
			}
		})
	}
}

func TestCompileErrorType(t *testing.T) {
	_, err := Compile("BEGIN {")
	se, ok := err.(*SyntaxError)
	if !ok || se.Line != 1 || !strings.Contains(se.Error(), "syntax error") {
		t.Fatalf("err = %#v", err)
	}
}
