package gojax

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"io"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/dop251/goja"
)

// goModVersion returns the version ../../../go.mod requires of path, or "".
func goModVersion(t *testing.T, path string) string {
	b, err := os.ReadFile("../../../go.mod")
	if err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		f := strings.Fields(strings.TrimPrefix(strings.TrimSpace(sc.Text()), "require "))
		if len(f) >= 2 && f[0] == path {
			return f[1]
		}
	}
	return ""
}

// This module's binaries use gojax because go.mod pins goja at Audited.
// When go.mod moves goja, this fails: read what the package documentation
// lists in the new version, check the declarations against it, and set
// Audited.
func TestGoModPinsTheAuditedGoja(t *testing.T) {
	if v := goModVersion(t, gojaPath); v != Audited {
		t.Fatalf("go.mod requires goja %s; gojax was read against %s", v, Audited)
	}
	if !Enabled() {
		t.Error("gojax is not enabled in this module's test binary")
	}
	if b, err := os.ReadFile("../../../go.mod"); err != nil || !bytes.HasPrefix(b, []byte("module "+cordonPath+"\n")) {
		t.Errorf("go.mod is not module %s, which audited() trusts (%v)", cordonPath, err)
	}
}

// The guest records goja's version in its build information, and its main
// module is this one: both keep gojax enabled inside it.
func TestGuestLinksTheAuditedGoja(t *testing.T) {
	f, err := os.Open("../../../engine/guest.wasm.gz")
	if err != nil {
		t.Skip(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	wasm, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"\nmod\t" + cordonPath + "\t", "\ndep\t" + gojaPath + "\t" + Audited + "\t"} {
		if !bytes.Contains(wasm, []byte(want)) {
			t.Errorf("engine/guest.wasm.gz's build information has no %q", want)
		}
	}
}

func TestPromises(t *testing.T) {
	rt := goja.New()
	for _, fulfil := range []bool{true, false} {
		p := NewPromise(rt)
		if err := rt.Set("p", p); err != nil {
			t.Fatal(err)
		}
		if _, err := rt.RunString(`var out = "pending"; p.then(v => out = "ok " + v, e => out = "err " + e)`); err != nil {
			t.Fatal(err)
		}
		if fulfil {
			Fulfill(p, rt.ToValue(7))
		} else {
			Reject(p, rt.ToValue("no"))
		}
		// Jobs run when the runtime next returns to Go.
		if _, err := rt.RunString(`0`); err != nil {
			t.Fatal(err)
		}
		want := map[bool]string{true: "ok 7", false: "err no"}[fulfil]
		if got := rt.Get("out").String(); got != want {
			t.Errorf("out = %q, want %q", got, want)
		}
	}
	p := NewPromise(rt)
	resolve, _ := ResolvingFunctions(p)
	fn, ok := goja.AssertFunction(resolve)
	if !ok {
		t.Fatal("resolve is not a function")
	}
	thenable, err := rt.RunString(`({then(res) { res("adopted") }})`)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := fn(nil, thenable); err != nil {
		t.Fatal(err)
	}
	if p.State() != goja.PromiseStateFulfilled || p.Result().String() != "adopted" {
		t.Errorf("state %v result %v", p.State(), p.Result())
	}
}

func TestOwnProp(t *testing.T) {
	rt := goja.New()
	v, err := rt.RunString(`
const o = {plain: 1, obj: {}, u: undefined}
Object.defineProperty(o, "hidden", {value: "h", enumerable: false})
Object.defineProperty(o, "ro", {value: 2, enumerable: true, writable: false})
Object.defineProperty(o, "acc", {get() { throw new Error("ran") }, enumerable: true})
Object.defineProperty(o, "setonly", {set(v) {}, enumerable: false})
const a = [1, "two"]
Object.defineProperty(a, 2, {get() { throw new Error("ran") }})
;[o, a]`)
	if err != nil {
		t.Fatal(err)
	}
	arr := v.ToObject(rt)
	o, a := arr.Get("0").ToObject(rt), arr.Get("1").ToObject(rt)
	cases := []struct {
		obj  *goja.Object
		key  goja.Value
		want Prop
	}{
		{o, rt.ToValue("plain"), Prop{Exists: true, Enumerable: true, Value: rt.ToValue(1)}},
		{o, rt.ToValue("u"), Prop{Exists: true, Enumerable: true, Value: goja.Undefined()}},
		{o, rt.ToValue("hidden"), Prop{Exists: true, Value: rt.ToValue("h")}},
		{o, rt.ToValue("ro"), Prop{Exists: true, Enumerable: true, Value: rt.ToValue(2)}},
		{o, rt.ToValue("acc"), Prop{Exists: true, Accessor: true, Enumerable: true}},
		{o, rt.ToValue("setonly"), Prop{Exists: true, Accessor: true}},
		{o, rt.ToValue("missing"), Prop{}},
		{o, rt.ToValue("toString"), Prop{}}, // inherited, not own
		{a, rt.ToValue(0), Prop{Exists: true, Enumerable: true, Value: rt.ToValue(1)}},
		{a, rt.ToValue("1"), Prop{Exists: true, Enumerable: true, Value: rt.ToValue("two")}},
		{a, rt.ToValue(2), Prop{Exists: true, Accessor: true}},
		{a, rt.ToValue("length"), Prop{Exists: true, Value: rt.ToValue(3)}},
	}
	for _, c := range cases {
		got, ok := OwnProp(c.obj, c.key)
		if !ok {
			t.Fatalf("%v: the property's representation is unknown", c.key)
		}
		same := got.Exists == c.want.Exists && got.Accessor == c.want.Accessor && got.Enumerable == c.want.Enumerable &&
			(got.Value == nil) == (c.want.Value == nil) && (got.Value == nil || got.Value.StrictEquals(c.want.Value))
		if !same {
			t.Errorf("%v: got %+v, want %+v", c.key, got, c.want)
		}
	}
	if got, _ := OwnProp(o, rt.ToValue("obj")); got.Value == nil || got.Value.(*goja.Object) == nil {
		t.Errorf("obj: %+v", got)
	}
}

func TestAppendOwnProps(t *testing.T) {
	rt := goja.New()
	v, err := rt.RunString(`
const o = {b: 1, 10: "ten", a: "x", 2: "two", obj: {}}
Object.defineProperty(o, "hidden", {value: "h", enumerable: false})
Object.defineProperty(o, "ro", {value: 2, enumerable: true, writable: false})
Object.defineProperty(o, "acc", {get() { throw new Error("ran") }, enumerable: true})
o[Symbol("s")] = 1
delete o.b
o.b = 3
;[o, [1], function () {}, new Proxy({}, {}), new Number(1), new (class { constructor() { this.x = 1 } })(), Object.create(null)]`)
	if err != nil {
		t.Fatal(err)
	}
	arr := v.ToObject(rt)
	o := arr.Get("0").ToObject(rt)
	props, ok := AppendOwnProps(nil, o)
	if !ok {
		t.Fatal("an object literal is not ordinary")
	}
	type want struct {
		key                  string
		value                string // "" for an accessor
		accessor, enumerable bool
	}
	wants := []want{
		{"2", "two", false, true}, {"10", "ten", false, true}, {"a", "x", false, true},
		{"obj", "[object Object]", false, true}, {"hidden", "h", false, false}, {"ro", "2", false, true},
		{"acc", "", true, true}, {"b", "3", false, true},
	}
	if len(props) != len(wants) {
		t.Fatalf("got %d properties, want %d: %+v", len(props), len(wants), props)
	}
	for i, w := range wants {
		p := props[i]
		got := want{key: string(p.Key), accessor: p.Accessor, enumerable: p.Enumerable}
		if p.Value != nil {
			got.value = p.Value.String()
		}
		if got != w {
			t.Errorf("property %d: %+v, want %+v", i, got, w)
		}
	}
	// Appending keeps what dst held.
	more, ok := AppendOwnProps(props[:1], o)
	if !ok || len(more) != 1+len(wants) || string(more[0].Key) != "2" {
		t.Errorf("appending to one property: %v, %+v", ok, more)
	}
	for i, ordinary := range []bool{true, false, false, false, false, true, true} {
		obj := arr.Get(strconv.Itoa(i)).ToObject(rt)
		if _, ok := AppendOwnProps(nil, obj); ok != ordinary {
			t.Errorf("element %d: AppendOwnProps ok %v, want %v", i, ok, ordinary)
		}
	}
	if _, ok := AppendOwnProps(nil, nil); ok {
		t.Error("nil is ordinary")
	}
}

func BenchmarkAppendOwnProps(b *testing.B) {
	rt := goja.New()
	o := rt.NewObject()
	_ = o.Set("i", 1)
	var props []OwnData
	b.ReportAllocs()
	for b.Loop() {
		props, _ = AppendOwnProps(props[:0], o)
	}
}

func TestPutData(t *testing.T) {
	rt := goja.New()
	o := rt.NewObject()
	for _, kv := range []struct{ k, v string }{{"b", "1"}, {"__proto__", "p"}, {"2", "two"}, {"é", "e"}, {"b", "3"}} {
		if !PutData(o, kv.k, rt.ToValue(kv.v)) {
			t.Fatalf("PutData(%q) refused a fresh object", kv.k)
		}
	}
	if err := rt.Set("o", o); err != nil {
		t.Fatal(err)
	}
	got, err := rt.RunString(`Object.getPrototypeOf(o) === Object.prototype && JSON.stringify(Object.getOwnPropertyNames(o).map(k => [k, o[k], Object.getOwnPropertyDescriptor(o, k).writable && Object.getOwnPropertyDescriptor(o, k).enumerable && Object.getOwnPropertyDescriptor(o, k).configurable]))`)
	if err != nil {
		t.Fatal(err)
	}
	if want := `[["2","two",true],["b","3",true],["__proto__","p",true],["é","e",true]]`; got.String() != want {
		t.Errorf("got %s, want %s", got, want)
	}
	v, err := rt.RunString(`
const sealed = Object.preventExtensions({a: 1})
const acc = {get a() { return 1 }}
const ro = Object.defineProperty({}, "a", {value: 1, writable: false, enumerable: true, configurable: true})
;[sealed, acc, ro, [], function () {}]`)
	if err != nil {
		t.Fatal(err)
	}
	arr := v.ToObject(rt)
	for i := range 5 {
		obj := arr.Get(strconv.Itoa(i)).ToObject(rt)
		if PutData(obj, "a", rt.ToValue(2)) {
			t.Errorf("element %d: PutData wrote", i)
		}
	}
	if PutData(arr.Get("0").ToObject(rt), "new", rt.ToValue(2)) {
		t.Error("PutData added a key to a non-extensible object")
	}
}

// CurrentAccess tells a call, a read through and a variable from every
// other lookup, in the goja this package was audited against.
func TestCurrentAccess(t *testing.T) {
	if !accessLayoutOnce().ok {
		t.Fatal("the pinned goja compiles lookups differently from what CurrentAccess knows")
	}
	rt := goja.New()
	p := &accessProbe{rt: rt, l: accessLayoutOnce()}
	o := rt.NewObject()
	_ = o.SetPrototype(rt.NewDynamicObject(p))
	_ = rt.Set("o", o)
	_ = rt.GlobalObject().SetPrototype(rt.NewDynamicObject(p))
	for _, c := range []struct {
		code string
		want Site
	}{
		{`o.k(1, 2)`, Site{Access: AccessCall}},
		{`(async function() { await o.k({}) })()`, Site{Access: AccessCall}},
		{`o.k(...[1])`, Site{Access: AccessCall}},
		{`o.k.m.n()`, Site{Access: AccessMember, Next: "m"}},
		{`o.k.é`, Site{Access: AccessMember, Next: "é"}},
		{`k(1)`, Site{Access: AccessVar}},
		{`k + 1`, Site{Access: AccessVar}},
		{`const f = o.k; f()`, Site{}},
		{`o.k ?? 1`, Site{}},
		{`if (o.k) {}`, Site{}},
		{`"k" in o`, Site{Access: 255}},
		{`o.k?.m()`, Site{}},
		{`o.k?.()`, Site{}},
		{`new o.k()`, Site{}},
		{`JSON.stringify(o)`, Site{}}, // toJSON, from a native function
		{`Reflect.get(o, "k")`, Site{}},
	} {
		p.got = Site{Access: 255}
		_, _ = rt.RunString(c.code)
		if p.got != c.want {
			t.Errorf("%s: got %+v, want %+v", c.code, p.got, c.want)
		}
	}
	// From Go, outside any script.
	if s := CurrentAccess(rt, "k"); s != (Site{}) {
		t.Errorf("from Go: %+v", s)
	}
}

// NewReferenceError makes a ReferenceError from the runtime's own
// constructor, whatever the script did to the global.
func TestNewReferenceError(t *testing.T) {
	rt := goja.New()
	orig := rt.Get("ReferenceError")
	if _, err := rt.RunString(`globalThis.ReferenceError = function() { throw new Error("replaced") }`); err != nil {
		t.Fatal(err)
	}
	e := NewReferenceError(rt, "x is not defined")
	if got := e.Get("message").String(); got != "x is not defined" {
		t.Errorf("message %q", got)
	}
	if got := e.Get("name").String(); got != "ReferenceError" {
		t.Errorf("name %q", got)
	}
	if !e.Get("constructor").StrictEquals(orig) {
		t.Error("not made by the runtime's ReferenceError")
	}
	if got := e.Get("stack").String(); !strings.HasPrefix(got, "ReferenceError: x is not defined") {
		t.Errorf("stack %q", got)
	}
}
