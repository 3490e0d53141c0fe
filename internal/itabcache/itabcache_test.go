package itabcache

import (
	"bytes"
	"context"
	"encoding/binary"
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
		"panic: interface conversion: interface is nil, not main.Stringer", "loop 60000", "goroutines ["} {
		if !strings.Contains(got, s) {
			t.Errorf("output has no %q:\n%s", s, got)
		}
	}
	// The program makes 30,000 assertions at one site, a thousand at a
	// time with one type, and 10,000 in a recursion with one type a call;
	// the cache answers those. The 3,000 of the 50 rounds of ten values at
	// six sites, and the goroutines' 2,000, change type every time. (The
	// name section names the moved body, or no call of it is counted.)
	t.Logf("%d assertions, %d by the uncached body", calls[target], calls[uncached])
	if calls[target] < 40000 || calls[uncached] == 0 || calls[uncached]*5 > calls[target] {
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

// tiny is a module shaped like Go's output as far as Patch looks: a
// function runtime.typeAssert of type (i32) -> i32, a mutable i32 global 0
// (the stack pointer), a memory and a name section; it exports the three
// as f, sp and mem. Its typeAssert keeps Go's convention: it counts its
// calls at address 4096, answers t+1 for a type t at 16(SP) (nil for
// 0x999) at 24(SP), and pops its return address.
func tiny() []byte {
	sec := func(id byte, body ...byte) []byte { return wasmbin.AppendSection(nil, id, body) }
	m := []byte("\x00asm\x01\x00\x00\x00")
	m = append(m, sec(1, 1, 0x60, 1, 0x7f, 1, 0x7f)...) // type 0: (i32) -> i32
	m = append(m, sec(3, 1, 0)...)                      // one function of type 0
	m = append(m, sec(5, 1, 0, 1)...)                   // one page of memory
	m = append(m, sec(6, 1, 0x7f, 1, 0x41, 0, 0x0b)...) // global 0: mut i32 = 0
	exports := []byte{3}
	exports = append(wasmbin.AppendName(exports, "f"), 0, 0)
	exports = append(wasmbin.AppendName(exports, "mem"), 2, 0)
	exports = append(wasmbin.AppendName(exports, "sp"), 3, 0)
	m = append(m, sec(7, exports...)...)
	body := []byte{0,
		0x41, 0x80, 0x20, 0x41, 0x80, 0x20, 0x28, 2, 0, 0x41, 1, 0x6a, 0x36, 2, 0, // mem[4096]++
		0x23, 0, // SP, for the store
		0x23, 0, 0x29, 3, 16, 0x42, 1, 0x7c, // t+1
		0x42, 0, // nil
		0x23, 0, 0x29, 3, 16, 0x42, 0x99, 0x13, 0x52, 0x1b, // t != 0x999 ? t+1 : nil
		0x37, 3, 24, // store at 24(SP)
		0x23, 0, 0x41, 8, 0x6a, 0x24, 0, // SP += 8
		0x41, 0, 0x0b}
	code := append([]byte{1}, binary.AppendUvarint(nil, uint64(len(body)))...)
	m = append(m, sec(10, append(code, body...)...)...)
	sub := append([]byte{1, 0}, wasmbin.AppendName(nil, target)...) // (index 0, name)
	nameSec := wasmbin.AppendSection(wasmbin.AppendName(nil, "name"), 1, sub)
	return append(m, wasmbin.AppendSection(nil, 0, nameSec)...)
}

// TestWrapper runs the wrapper around tiny's typeAssert: a hit answers
// without the body, a miss replaces the entry, a failed assertion is
// cached as one, a nil type is not, and a resumed call goes to the body.
func TestWrapper(t *testing.T) {
	out, err := Patch(tiny(), Audited)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	rt := wazero.NewRuntime(ctx)
	defer rt.Close(ctx)
	mod, err := rt.Instantiate(ctx, out)
	if err != nil {
		t.Fatal(err)
	}
	f, mem := mod.ExportedFunction("f"), mod.Memory()
	sp := mod.ExportedGlobal("sp").(api.MutableGlobal)
	const frame, s1, s2 = 1024, 2048, 3072
	mem.WriteUint64Le(s1, 0x500) // Go's first value: a pointer to an empty cache
	mem.WriteUint64Le(s2, 0x500)
	call := func(pcB uint32, s, typ uint64) uint64 {
		t.Helper()
		sp.Set(frame)
		mem.WriteUint64Le(frame+8, s)
		mem.WriteUint64Le(frame+16, typ)
		mem.WriteUint64Le(frame+24, 0xdead)
		r, err := f.Call(ctx, uint64(pcB))
		if err != nil || r[0] != 0 || sp.Get() != frame+8 {
			t.Fatalf("call(%d, %#x, %#x): %v %v, SP %d", pcB, s, typ, r, err, sp.Get())
		}
		v, _ := mem.ReadUint64Le(frame + 24)
		return v
	}
	calls := func() uint32 { v, _ := mem.ReadUint32Le(4096); return v }
	cache := func(s uint32) uint64 { v, _ := mem.ReadUint64Le(s); return v }
	for i, c := range []struct {
		pcB        uint32
		s, typ     uint64
		want       uint64
		bodyCalls  uint32
		cacheAfter uint64
	}{
		{0, s1, 0x1234, 0x1235, 1, 0x1235<<32 | 0x1234}, // miss
		{0, s1, 0x1234, 0x1235, 1, 0x1235<<32 | 0x1234}, // hit
		{0, s2, 0x1234, 0x1235, 2, 0x1235<<32 | 0x1234}, // another site
		{0, s1, 0x2000, 0x2001, 3, 0x2001<<32 | 0x2000}, // replaced
		{0, s1, 0x999, 0, 4, 1<<32 | 0x999},             // a failed assertion
		{0, s1, 0x999, 0, 4, 1<<32 | 0x999},             // ... is a hit
		{0, s1, 0, 1, 5, 1<<32 | 0x999},                 // a nil type is not cached
		{7, s1, 0x999, 0, 6, 1<<32 | 0x999},             // resumed: the body
		{0, s2, 0x1234, 0x1235, 6, 0x1235<<32 | 0x1234}, // s2 kept its entry
	} {
		if got := call(c.pcB, c.s, c.typ); got != c.want || calls() != c.bodyCalls || cache(uint32(c.s)) != c.cacheAfter {
			t.Errorf("step %d: result %#x, %d body calls, cache %#x; want %#x, %d, %#x",
				i, got, calls(), cache(uint32(c.s)), c.want, c.bodyCalls, c.cacheAfter)
		}
	}
}

func FuzzPatch(f *testing.F) {
	f.Add(tiny())
	f.Fuzz(func(t *testing.T, wasm []byte) {
		out, err := Patch(wasm, Audited)
		if err == nil && !IsPatched(out) {
			t.Fatal("patched module without the marker")
		}
	})
}
