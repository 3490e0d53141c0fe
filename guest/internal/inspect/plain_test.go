package inspect

import (
	"strings"
	"testing"

	"github.com/cordonhq/cordon/guest/internal/gojax"
	"github.com/dop251/goja"
)

// fastJSOnly formats args with fast.js alone.
func fastJSOnly(f *Fast, args []goja.Value) (string, bool, error) {
	if err := f.installJS(); err != nil {
		return "", false, err
	}
	return result(f.format(goja.Undefined(), args...))
}

// TestPlainMatchesFast: the Go formatter takes exactly the generated
// values fast.js takes (they hold no errors) and prints them the same.
func TestPlainMatchesFast(t *testing.T) {
	if !gojax.Enabled() {
		t.Fatal("gojax is off in this build")
	}
	rt, _, fast := installBoth(t)
	if fast.plain == nil {
		t.Fatal("Fast has no Go formatter")
	}
	n := 600
	if testing.Short() {
		n = 150
	}
	accepted := 0
	for seed, args := range randomArgs(t, rt, n) {
		got, ok := fast.plain.format(args)
		want, wantOK, err := fastJSOnly(fast, args)
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		if ok != wantOK {
			t.Fatalf("seed %d: Go took it %v, fast.js %v\nfast.js: %s", seed, ok, wantOK, want)
		}
		if ok {
			accepted++
			if got != want {
				t.Fatalf("seed %d:\nGo:\n%s\nfast.js:\n%s", seed, got, want)
			}
		}
		for _, a := range args {
			got, ok := fast.plain.inspectValue(a)
			want, wantOK, err := result(fast.inspect(goja.Undefined(), a)) // installed by fastJSOnly
			if err != nil || ok != wantOK || got != want {
				t.Fatalf("seed %d: inspect: Go %q %v, fast.js %q %v %v", seed, got, ok, want, wantOK, err)
			}
		}
	}
	if accepted < n*8/10 {
		t.Errorf("the Go formatter took %d of %d generated values, want nine tenths", accepted, n)
	}
}

// TestPlainCases covers what random data reaches rarely.
func TestPlainCases(t *testing.T) {
	rt, full, fast := installBoth(t)
	for _, src := range []string{
		`[{ a: 1, 'b-c': 'x', __proto__x: 1, ['__proto__']: 2 }]`,
		`[Object.defineProperty({ shown: 1 }, 'hidden', { value: 2, enumerable: false })]`,
		`[Object.defineProperty({ ro: 1 }, 'ro2', { value: 2, enumerable: true, writable: false })]`,
		`[Array.from({ length: 150 }, (_, i) => i * 7)]`,
		`[Array.from({ length: 101 }, (_, i) => 'item ' + i)]`,
		`[Array.from({ length: 30 }, (_, i) => 10n ** BigInt(i % 9))]`,
		`[{ emoji: '😀'.repeat(30), wide: '日本'.repeat(20), mixed: ['😀', 'é', 'e\u0301', '日本語', 'a'] }]`,
		`[Array.from({ length: 26 }, (_, i) => String.fromCodePoint(0x1F600 + i))]`,
		`[{ long: 'line\n'.repeat(30) }]`,
		`['%s is not a directive when alone']`,
		`['text', 'more text', 3]`,
		`[{ a: { b: { c: { d: { e: 1 } } } } }]`,
		`[[[[[[1]]]]]]`,
		`[{ 'ключ': 1, 'ünï': 2, "q'uote": 3, '': 4 }]`,
		`[-0, [-0], { z: -0 }, NaN, -Infinity, 1e21, 5e-7]`,
		`[undefined, null, true, [undefined, null], { u: undefined }]`,
	} {
		args := jsArgs(t, rt, src)
		got, ok := fast.plain.format(args)
		if !ok {
			t.Errorf("%s: the Go formatter declined", src)
			continue
		}
		if want := full.Format(args); got != want {
			t.Errorf("%s:\nGo:\n%s\nfull:\n%s", src, got, want)
		}
	}
}

// TestPlainDeclines: what the Go formatter leaves to fast.js, with no getter
// or trap run.
func TestPlainDeclines(t *testing.T) {
	rt, _, fast := installBoth(t)
	if _, err := rt.RunString(`var sideEffects = 0`); err != nil {
		t.Fatal(err)
	}
	for _, src := range []string{
		`[{ get g() { sideEffects++; return 1; } }]`,
		`[[1, 2, { set s(v) { sideEffects++; } }]]`,
		`[new Proxy({}, { ownKeys() { sideEffects++; return []; }, getPrototypeOf() { sideEffects++; return Object.prototype; } })]`,
		`[Object.defineProperty([1, 2], 1, { get() { sideEffects++; return 2; } })]`,
		`[{ [Symbol('s')]: 1 }]`,
		`[Object.defineProperty({}, Symbol.toStringTag, { value: 'T' })]`,
		`[new Error('e')]`,
		`[{ e: new Error('e') }]`,
		`[function f() {}]`,
		`[Symbol('s')]`,
		`[new Map()]`,
		`[Object.create(null)]`,
		`[Object.create({})]`,
		`[{ constructor: 1 }]`,
		`[(() => { const o = { a: 1 }; o.self = o; return o; })()]`,
		`[[1, , 3]]`,
		`[Object.assign([1, 2], { extra: 1 })]`,
		`[{ ['\ud800']: 1 }]`,
		`['%d items', 3]`,
		`[new (class Point { constructor() { this.x = 1 } })()]`,
	} {
		args := jsArgs(t, rt, src)
		if s, ok := fast.plain.format(args); ok {
			t.Errorf("%s: the Go formatter took it: %q", src, s)
		}
	}
	if n := rt.Get("sideEffects").ToInteger(); n != 0 {
		t.Errorf("declining ran %d getters or traps", n)
	}
}

// TestPlainNoticesChangedBuiltIns: the Go formatter checks the built-ins
// as fast.js does, on every call.
func TestPlainNoticesChangedBuiltIns(t *testing.T) {
	for _, change := range []string{
		`Object.prototype[Symbol.toStringTag] = 'Tagged'`,
		`Array.prototype[Symbol.toStringTag] = 'Tagged'`,
		`Object.prototype[Symbol.for('nodejs.util.inspect.custom')] = () => 'custom'`,
		`Array.prototype[Symbol.for('nodejs.util.inspect.custom')] = () => 'custom'`,
		`Object.defineProperty(Array, 'name', { value: 'List' })`,
		`Object.defineProperty(Object, 'name', { get() { return 'Getter' } })`,
		`Array.prototype.constructor = function Other() {}`,
		`Object.prototype.constructor = function Other() {}`,
		`delete Array.prototype[Symbol.iterator]`,
		`Array[Symbol.toStringTag] = 'x'`,
		`Object.setPrototypeOf(Array.prototype, null)`,
		`Object.setPrototypeOf(Object, null)`,
	} {
		rt := goja.New()
		fast, err := InstallFast(rt)
		if err != nil {
			t.Fatal(err)
		}
		args := jsArgs(t, rt, `[{ a: 1 }, [1, 2]]`)
		if _, ok := fast.plain.format(args); !ok {
			t.Fatalf("%s: declined before the change", change)
		}
		if _, err := rt.RunString(change); err != nil {
			t.Fatal(err)
		}
		if s, ok := fast.plain.format(args); ok {
			t.Errorf("%s: still formatted (%q)", change, s)
		}
		if s, ok, err := fast.TryFormat(args); ok || err != nil {
			t.Errorf("%s: Fast still formatted (%q, %v)", change, s, err)
		}
	}
}

// The Go formatter is what makes printing a tool's result cheap: a 40-row
// result in a few hundred allocations, where fast.js took tens of
// thousands.
func TestPlainFormatsRowsCheaply(t *testing.T) {
	rt, _, fast := installBoth(t)
	args := jsArgs(t, rt, `[{ data: Array.from({ length: 40 }, (_, i) => ({ id: 'cus_' + i, name: 'Customer ' + i, email: 'c' + i + '@example.com', balance: i * 137 % 9000, active: i % 3 !== 0, created: 1700000000 + i * 3600, tier: ['free', 'pro', 'team'][i % 3] })), has_more: false }]`)
	var s string
	goAllocs := testing.AllocsPerRun(5, func() {
		var ok bool
		if s, ok, _ = fast.TryFormat(args); !ok {
			t.Fatal("declined")
		}
	})
	jsAllocs := testing.AllocsPerRun(5, func() {
		if _, ok, _ := fastJSOnly(fast, args); !ok {
			t.Fatal("fast.js declined")
		}
	})
	if !strings.Contains(s, "id: 'cus_39',\n      name: 'Customer 39',") {
		t.Errorf("unexpected output:\n%s", s)
	}
	t.Logf("allocations: Go %v, fast.js %v", goAllocs, jsAllocs)
	if goAllocs*3 > jsAllocs {
		t.Errorf("the Go formatter allocates %v times, fast.js %v: want a third or less", goAllocs, jsAllocs)
	}
}

func BenchmarkFormatRows(b *testing.B) {
	rt := goja.New()
	fast, err := InstallFast(rt)
	if err != nil {
		b.Fatal(err)
	}
	v, err := rt.RunString(`[{ data: Array.from({ length: 40 }, (_, i) => ({ id: 'cus_' + i, name: 'Customer ' + i, email: 'c' + i + '@example.com', balance: i * 137 % 9000, active: i % 3 !== 0, created: 1700000000 + i * 3600, tier: ['free', 'pro', 'team'][i % 3] })), has_more: false }]`)
	if err != nil {
		b.Fatal(err)
	}
	var args []goja.Value
	if err := rt.ExportTo(v, &args); err != nil {
		b.Fatal(err)
	}
	b.Run("go", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, ok := fast.plain.format(args); !ok {
				b.Fatal("declined")
			}
		}
	})
	b.Run("fast.js", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, ok, _ := fastJSOnly(fast, args); !ok {
				b.Fatal("declined")
			}
		}
	})
}

// With the Go formatter, fast.js is evaluated only when a value needs it.
func TestFastJSInstalledOnDemand(t *testing.T) {
	rt := goja.New()
	fast, err := InstallFast(rt)
	if err != nil {
		t.Fatal(err)
	}
	if s, ok, err := fast.TryFormat(jsArgs(t, rt, `[{ a: [1, 'x'] }]`)); !ok || err != nil || s != "{ a: [ 1, 'x' ] }" {
		t.Fatalf("got %q %v %v", s, ok, err)
	}
	if fast.format != nil {
		t.Error("formatting plain data evaluated fast.js")
	}
	if s, ok, err := fast.TryFormat(jsArgs(t, rt, `[new TypeError('e')]`)); !ok || err != nil || !strings.HasPrefix(s, "TypeError: e\n") {
		t.Fatalf("got %q %v %v", s, ok, err)
	}
	if fast.format == nil {
		t.Error("an error did not evaluate fast.js")
	}
}
