package engine_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/cordonhq/cordon/engine"
	"github.com/cordonhq/cordon/engine/enginetest"
)

// recorder is a writer that records each write and which stream it came
// from.
type recorder struct {
	mu     sync.Mutex
	writes []string // "1:text" or "2:text"
	first  chan struct{}
	once   sync.Once
}

func newRecorder() *recorder { return &recorder{first: make(chan struct{})} }

type fdWriter struct {
	r  *recorder
	fd int
}

func (w fdWriter) Write(p []byte) (int, error) {
	w.r.mu.Lock()
	w.r.writes = append(w.r.writes, fmt.Sprintf("%d:%s", w.fd, p))
	w.r.mu.Unlock()
	w.r.once.Do(func() { close(w.r.first) })
	return len(p), nil
}

func (r *recorder) stream(fd int) string {
	r.mu.Lock()
	defer r.mu.Unlock()
	var b strings.Builder
	for _, w := range r.writes {
		if w[0] == byte('0'+fd) {
			b.WriteString(w[2:])
		}
	}
	return b.String()
}

func (r *recorder) all() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return strings.Join(r.writes, "")
}

// The host's writers get the output while the script runs, in the order
// the script wrote it across stdout and stderr, and the Result still holds
// it.
func TestStreamingOutput(t *testing.T) {
	patience := enginetest.Scale(t, 3*time.Second)
	rec := newRecorder()
	// The tool answers only once the first line has reached the writer:
	// output that came at the end of the execution would time it out.
	wait := engine.Tool{Name: "wait", Handler: func(ctx context.Context, _ json.RawMessage) (any, error) {
		select {
		case <-rec.first:
			return "streamed", nil
		case <-time.After(patience):
			return "not streamed", nil
		}
	}}
	sb := enginetest.NewSandbox(t, engine.SandboxConfig{Tools: []engine.Tool{wait}, Stdout: fdWriter{rec, 1}, Stderr: fdWriter{rec, 2}})
	res := enginetest.Run(t, sb, `console.log("one"); console.error("two"); console.log(await wait({})); console.error("four")`)
	if want := "1:one\n2:two\n1:streamed\n2:four\n"; rec.all() != want {
		t.Errorf("streamed %q, want %q", rec.all(), want)
	}
	if res.Stdout != "one\nstreamed\n" || res.Stderr != "two\nfour\n" {
		t.Errorf("result stdout %q stderr %q", res.Stdout, res.Stderr)
	}

	// The shell streams too, and an option replaces the sandbox's writer
	// for one execution.
	rec2 := newRecorder()
	res = enginetest.RunShell(t, sb, `echo a; echo b >&2; echo c`, engine.WithStdout(fdWriter{rec2, 1}), engine.WithStderr(nil))
	if rec2.all() != "1:a\n1:c\n" || res.Stdout != "a\nc\n" || res.Stderr != "b\n" {
		t.Errorf("shell: streamed %q, result %q %q", rec2.all(), res.Stdout, res.Stderr)
	}
	if strings.Contains(rec.all(), "a\n") {
		t.Errorf("the sandbox's writer got the output of an execution that replaced it: %q", rec.all())
	}
}

// What the writers get is exactly the Result's output, up to the output
// limit and its marker line.
func TestStreamingOutputLimit(t *testing.T) {
	rec := newRecorder()
	sb := enginetest.NewSandbox(t, engine.SandboxConfig{Limits: engine.Limits{MaxOutputBytes: 100}, Stdout: fdWriter{rec, 1}})
	res, err := sb.Execute(context.Background(), engine.Shell, `yes`)
	if engine.KindOf(err) != engine.KindOutput {
		t.Fatalf("err %v", err)
	}
	if rec.stream(1) != res.Stdout || !strings.Contains(res.Stdout, "output limit of 100 bytes") {
		t.Errorf("streamed %q, result %q", rec.stream(1), res.Stdout)
	}
}

// blockingWriter blocks every write until release is closed.
type blockingWriter struct {
	release chan struct{}
	entered chan struct{}
	once    sync.Once
}

func (w *blockingWriter) Write(p []byte) (int, error) {
	w.once.Do(func() { close(w.entered) })
	<-w.release
	return len(p), nil
}

// A writer that never returns does not hold the script past its time
// limit: the execution ends with KindTimeout, the Result has the output,
// and the sandbox stays usable.
func TestStreamingSlowWriterIsBounded(t *testing.T) {
	bw := &blockingWriter{release: make(chan struct{}), entered: make(chan struct{})}
	defer close(bw.release)
	sb := enginetest.NewSandbox(t, engine.SandboxConfig{Limits: engine.Limits{Timeout: 300 * time.Millisecond}, Stdout: bw})
	bound := 300*time.Millisecond + enginetest.Scale(t, time.Second)
	for _, lang := range []engine.Language{engine.JavaScript, engine.Shell} {
		code := `console.log("stuck"); console.log("after")`
		if lang == engine.Shell {
			code = `echo stuck; echo after`
		}
		start := time.Now()
		res, err := sb.Execute(context.Background(), lang, code)
		took := time.Since(start)
		if engine.KindOf(err) != engine.KindTimeout {
			t.Errorf("%s: err %v, want a timeout", lang, err)
		}
		if took > bound {
			t.Errorf("%s: took %v with a time limit of 300ms", lang, took)
		}
		if res == nil || !strings.HasPrefix(res.Stdout, "stuck\n") {
			t.Errorf("%s: result %+v", lang, res)
		}
	}
	// The sandbox is not broken, and a later execution streams again
	// (to its own writer: the stuck one still holds its goroutine).
	rec := newRecorder()
	res, err := sb.Execute(context.Background(), engine.JavaScript, `console.log("again")`, engine.WithStdout(fdWriter{rec, 1}))
	if err != nil || res.Stdout != "again\n" || rec.all() != "1:again\n" {
		t.Errorf("after: err %v result %+v streamed %q", err, res, rec.all())
	}
	select {
	case <-bw.entered:
	default:
		t.Error("the blocking writer was never called")
	}
}

// failingWriter fails every write after the first n.
type failingWriter struct {
	mu sync.Mutex
	n  int
	b  strings.Builder
}

func (w *failingWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.n == 0 {
		return 0, errors.New("disk full")
	}
	w.n--
	w.b.Write(p)
	return len(p), nil
}

// A writer that fails gets nothing more; the script does not notice, and
// the Result has everything. A writer that panics is one that failed.
func TestStreamingFailingWriter(t *testing.T) {
	fw := &failingWriter{n: 1}
	sb := enginetest.NewSandbox(t, engine.SandboxConfig{Stdout: fw})
	res := enginetest.Run(t, sb, `console.log(1); console.log(2); console.log(3); return "done"`)
	if fw.b.String() != "1\n" || res.Stdout != "1\n2\n3\ndone\n" || res.ExitCode != 0 {
		t.Errorf("writer got %q, result %+v", fw.b.String(), res)
	}
	res, err := sb.Execute(context.Background(), engine.JavaScript, `console.log("x"); return 2`, engine.WithStdout(panicWriter{}))
	if err != nil || res.Stdout != "x\n2\n" {
		t.Errorf("panicking writer: err %v result %+v", err, res)
	}
}

type panicWriter struct{}

func (panicWriter) Write([]byte) (int, error) { panic("boom") }

// Errors name the script as the caller says, in JavaScript and the shell.
func TestScriptName(t *testing.T) {
	sb := enginetest.NewSandbox(t, engine.SandboxConfig{})
	res, err := sb.Execute(context.Background(), engine.JavaScript, "\nnull.x", engine.WithScriptName("report.js"))
	if err != nil || !strings.Contains(res.Stderr, "report.js:2:") || strings.Contains(res.Stderr, "script.js") {
		t.Errorf("js: err %v stderr %q", err, res.Stderr)
	}
	res, err = sb.Execute(context.Background(), engine.Shell, "echo $0\nnosuch", engine.WithScriptName("deploy.sh"))
	if err != nil || res.Stdout != "deploy.sh\n" || res.Stderr != "deploy.sh: line 2: nosuch: command not found\n" {
		t.Errorf("sh: err %v result %q %q", err, res.Stdout, res.Stderr)
	}
	// The defaults.
	res = enginetest.Run(t, sb, "null.x")
	if !strings.Contains(res.Stderr, "script.js:1:") {
		t.Errorf("default: %q", res.Stderr)
	}
	for _, bad := range []string{"a\nb", "tab\there", string([]byte{0xff}), strings.Repeat("x", engine.MaxScriptName+1)} {
		if _, err := sb.Execute(context.Background(), engine.JavaScript, "1", engine.WithScriptName(bad)); engine.KindOf(err) != engine.KindInvalid {
			t.Errorf("name %.20q: err %v, want KindInvalid", bad, err)
		}
	}
}

// The host's writers get a shell script's output and errors in the order
// they were written, across commands that buffer their output (cat, grep,
// head), builtins (printf) and a pipe of both streams: the combined view a
// host gets by giving one writer for both.
func TestStreamingShellOrder(t *testing.T) {
	sb := enginetest.NewSandbox(t, engine.SandboxConfig{})
	var mu sync.Mutex
	var both strings.Builder
	w := writerFunc(func(p []byte) (int, error) {
		mu.Lock()
		defer mu.Unlock()
		return both.Write(p)
	})
	res, err := sb.Execute(context.Background(), engine.Shell, `printf 'a1\na2\n' > a
printf '%s\n%d\n' p x
cat a /nonexistent a
grep -H . a /nonexistent
{ head -n1 a /nonexistent; } |& cat`, engine.WithStdout(w), engine.WithStderr(w))
	if err != nil {
		t.Fatal(err)
	}
	want := `p
script.sh: line 2: printf: x: invalid number
0
a1
a2
cat: /nonexistent: No such file or directory
a1
a2
a:a1
a:a2
grep: /nonexistent: No such file or directory
==> a <==
a1
head: cannot open '/nonexistent' for reading: No such file or directory
`
	if both.String() != want {
		t.Errorf("streamed\n%s\nwant\n%s(stderr %q)", both.String(), want, res.Stderr)
	}
}

type writerFunc func([]byte) (int, error)

func (f writerFunc) Write(p []byte) (int, error) { return f(p) }
