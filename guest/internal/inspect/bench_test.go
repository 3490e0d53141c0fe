package inspect

import (
	"testing"

	"github.com/dop251/goja"
)

// benchValue evaluates src in a fresh runtime with the package installed.
func benchValue(b *testing.B, src string) (*Funcs, goja.Value) {
	b.Helper()
	rt, funcs := newTestRuntime(b)
	v, err := rt.RunString(src)
	if err != nil {
		b.Fatal(err)
	}
	return funcs, v
}

// BenchmarkFormatSmallObject measures console.log of one small record.
func BenchmarkFormatSmallObject(b *testing.B) {
	funcs, v := benchValue(b, `({ id: 42, name: 'Alice', email: 'alice@example.com', tags: ['admin', 'dev'], active: true })`)
	args := []goja.Value{v}
	b.ReportAllocs()
	for b.Loop() {
		funcs.Format(args)
	}
}

// BenchmarkFormatRecords1000 measures console.log of an array of 1000 small
// records (Node prints the first 100 and "... 900 more items").
func BenchmarkFormatRecords1000(b *testing.B) {
	funcs, v := benchValue(b, `Array.from({ length: 1000 }, (_, i) => ({ id: i, name: 'user' + i, score: i * 1.5, active: i % 2 === 0 }))`)
	args := []goja.Value{v}
	b.ReportAllocs()
	for b.Loop() {
		funcs.Format(args)
	}
}

// BenchmarkFormatRecords1000All is BenchmarkFormatRecords1000 with
// maxArrayLength: Infinity, so that every record is formatted.
func BenchmarkFormatRecords1000All(b *testing.B) {
	rt, funcs := newTestRuntime(b)
	v, err := rt.RunString(`Array.from({ length: 1000 }, (_, i) => ({ id: i, name: 'user' + i, score: i * 1.5, active: i % 2 === 0 }))`)
	if err != nil {
		b.Fatal(err)
	}
	inspectFn, _ := goja.AssertFunction(funcs.Exports().Get("inspect"))
	opts := rt.NewObject()
	if err := opts.Set("maxArrayLength", nil); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := inspectFn(goja.Undefined(), v, opts); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkInstall measures the per-runtime cost of Install (the script is
// compiled once per process, outside the loop).
func BenchmarkInstall(b *testing.B) {
	if _, err := program(); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Install(goja.New()); err != nil {
			b.Fatal(err)
		}
	}
}

// benchFast evaluates src in a fresh runtime with Fast installed, and
// measures TryInspect of the value.
func benchFast(b *testing.B, src string) {
	rt := goja.New()
	fast, err := InstallFast(rt)
	if err != nil {
		b.Fatal(err)
	}
	v, err := rt.RunString(src)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, ok, err := fast.TryInspect(v); !ok || err != nil {
			b.Fatal("declined", err)
		}
	}
}

func BenchmarkFastSmallObject(b *testing.B) {
	benchFast(b, `({ id: 42, name: 'Alice', email: 'alice@example.com', tags: ['admin', 'dev'], active: true })`)
}

func BenchmarkFastRecords100(b *testing.B) {
	benchFast(b, `Array.from({ length: 100 }, (_, i) => ({ id: i, name: 'user' + i, score: i * 1.5, active: i % 2 === 0 }))`)
}

// BenchmarkFastToolError formats what an uncaught denied tool call prints.
func BenchmarkFastToolError(b *testing.B) {
	benchFast(b, `(() => {
  class ToolError extends Error {
    constructor(m) { super(m); this.method = 'crm/customers/delete'; this.kind = 'denied'; this.reasons = ['deleting customers is not allowed']; }
  }
  Object.defineProperty(ToolError.prototype, 'name', { value: 'ToolError', writable: true, configurable: true });
  return new ToolError('tool crm/customers/delete denied: deleting customers is not allowed');
})()`)
}
