package itabcache

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cordonhq/cordon/internal/wasmbin"
	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"
	"github.com/tetratelabs/wazero/experimental"
	"github.com/tetratelabs/wazero/imports/wasi_snapshot_preview1"
)

// buildAsserts builds testdata/asserts for wasip1 with the Audited
// toolchain (the go command fetches it when the local one differs), with
// its function names.
func buildAsserts(t *testing.T) []byte {
	t.Helper()
	if testing.Short() {
		t.Skip("builds a wasm program")
	}
	out := filepath.Join(t.TempDir(), "asserts.wasm")
	cmd := exec.Command("go", "build", "-trimpath", "-ldflags=-w", "-o", out, "./testdata/asserts")
	cmd.Env = append(os.Environ(), "GOOS=wasip1", "GOARCH=wasm", "CGO_ENABLED=0", "GOTOOLCHAIN="+Audited, "GOWASM=")
	if msg, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, msg)
	}
	wasm, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	return wasm
}

// run runs a wasip1 program and returns its stdout and how many times each
// function named in count was called.
func run(t *testing.T, wasm []byte, count ...string) (string, map[string]int) {
	t.Helper()
	calls := map[string]int{}
	ctx := experimental.WithFunctionListenerFactory(context.Background(), counter{calls, count})
	rt := wazero.NewRuntime(ctx)
	defer rt.Close(ctx)
	wasi_snapshot_preview1.MustInstantiate(ctx, rt)
	var stdout, stderr bytes.Buffer
	_, err := rt.InstantiateWithConfig(ctx, wasm, wazero.NewModuleConfig().WithStdout(&stdout).WithStderr(&stderr))
	if err != nil {
		t.Fatalf("run: %v\n%s", err, stderr.String())
	}
	return stdout.String(), calls
}

type counter struct {
	calls map[string]int
	names []string
}

func (c counter) NewFunctionListener(def api.FunctionDefinition) experimental.FunctionListener {
	for _, n := range c.names {
		if def.Name() == n {
			return experimental.FunctionListenerFunc(func(context.Context, api.Module, api.FunctionDefinition, []uint64, experimental.StackIterator) {
				c.calls[n]++
			})
		}
	}
	return nil
}

func TestPatchedProgramBehavesAlike(t *testing.T) {
	orig := buildAsserts(t)
	patched, err := Patch(orig, Audited)
	if err != nil {
		t.Fatal(err)
	}
	if !IsPatched(patched) || IsPatched(orig) {
		t.Fatal("marker")
	}
	want, _ := run(t, orig)
	got, calls := run(t, patched, target, uncached)
	if got != want {
		t.Fatalf("patched program printed\n%s\nunpatched\n%s", got, want)
	}
	for _, s := range []string{"panic: interface conversion: main.C is not main.Stringer: missing method String",
		"panic: interface conversion: interface is nil, not main.Stringer", "loop 200000", "goroutines ["} {
		if !strings.Contains(got, s) {
			t.Errorf("output has no %q:\n%s", s, got)
		}
	}
	// The program makes 100,000 assertions at one site, a thousand at a
	// time with one type, and 40,000 in a recursion with one type a call;
	// the cache answers those. The 12,000 of the 200 rounds of ten values
	// at six sites, and the goroutines' 8,000, change type every time. (The
	// name section names the moved body, or no call of it is counted.)
	if calls[target] < 150000 || calls[uncached] == 0 || calls[uncached]*5 > calls[target] {
		t.Errorf("%d assertions, %d of them by the uncached body: the cache is not used", calls[target], calls[uncached])
	}
}

func TestPatchRefuses(t *testing.T) {
	orig := buildAsserts(t)
	if _, err := Patch(orig, "go1.25.0"); err == nil || !strings.Contains(err.Error(), "audited") {
		t.Errorf("another toolchain: %v", err)
	}
	stripped, err := wasmbin.StripCustom(orig, "name")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Patch(stripped, Audited); err == nil || !strings.Contains(err.Error(), "no function names") {
		t.Errorf("no names: %v", err)
	}
	patched, err := Patch(orig, Audited)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Patch(patched, Audited); err == nil || !strings.Contains(err.Error(), "already") {
		t.Errorf("patched twice: %v", err)
	}
	for _, bad := range [][]byte{nil, orig[:len(orig)/2], []byte("\x00asm\x01\x00\x00\x00")} {
		if _, err := Patch(bad, Audited); err == nil {
			t.Errorf("%d bytes of garbage were patched", len(bad))
		}
	}
}
