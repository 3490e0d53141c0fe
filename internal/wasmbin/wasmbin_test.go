package wasmbin

import (
	"reflect"
	"testing"
)

func TestFunctionNamesRoundTrip(t *testing.T) {
	// A name section with a module name (subsection 0) and two function
	// names.
	funcs := []byte{2, 0}
	funcs = AppendName(funcs, "main.a")
	funcs = append(funcs, 3)
	funcs = AppendName(funcs, "main.b")
	sec := AppendSection(nil, 0, AppendName(nil, "m"))
	sec = AppendSection(sec, 1, funcs)
	got, err := FunctionNames(sec)
	if err != nil || !reflect.DeepEqual(got, map[uint32]string{0: "main.a", 3: "main.b"}) {
		t.Fatalf("FunctionNames: %v %v", got, err)
	}
	more, err := AppendFunctionName(sec, 9, "main.c")
	if err != nil {
		t.Fatal(err)
	}
	got, err = FunctionNames(more)
	if err != nil || !reflect.DeepEqual(got, map[uint32]string{0: "main.a", 3: "main.b", 9: "main.c"}) {
		t.Fatalf("after AppendFunctionName: %v %v", got, err)
	}
	if _, err := AppendFunctionName(AppendSection(nil, 0, AppendName(nil, "m")), 1, "x"); err == nil {
		t.Error("a name section without function names was extended")
	}
	for _, bad := range [][]byte{{1}, {1, 5, 1}, {1, 3, 1, 0, 9}} {
		if _, err := FunctionNames(bad); err == nil {
			t.Errorf("FunctionNames(% x) accepted", bad)
		}
	}
}

func TestStripCustom(t *testing.T) {
	m := []byte("\x00asm\x01\x00\x00\x00")
	m = AppendSection(m, 1, []byte{0})
	m = AppendSection(m, 0, append(AppendName(nil, "name"), 1, 2, 3))
	m = AppendSection(m, 0, append(AppendName(nil, "other"), 4))
	out, err := StripCustom(m, "name")
	if err != nil {
		t.Fatal(err)
	}
	secs, err := Sections(out)
	if err != nil || len(secs) != 2 || secs[0].ID != 1 {
		t.Fatalf("%v %v", secs, err)
	}
	if name, _, ok := CustomName(secs[1]); !ok || name != "other" {
		t.Errorf("kept %q", name)
	}
	if _, err := StripCustom([]byte("junk"), "name"); err == nil {
		t.Error("junk accepted")
	}
}

// SectionSpans finds each section where it lies, so that one can be cut
// out with the other bytes kept as they are; a size that runs past the
// module is an error.
func TestSectionSpans(t *testing.T) {
	m := []byte("\x00asm\x01\x00\x00\x00")
	m = AppendSection(m, 1, []byte{0})
	// A size written in two bytes where one would do: the span covers
	// the bytes as written.
	m = append(m, 11, 0x83, 0x00, 1, 2, 3)
	m = AppendSection(m, 0, AppendName(nil, "x"))
	spans, err := SectionSpans(m)
	if err != nil {
		t.Fatal(err)
	}
	want := []struct {
		id         byte
		start, end int
		body       []byte
	}{{1, 8, 11, []byte{0}}, {11, 11, 17, []byte{1, 2, 3}}, {0, 17, 21, []byte{1, 'x'}}}
	if len(spans) != len(want) {
		t.Fatalf("%d spans, want %d", len(spans), len(want))
	}
	for i, w := range want {
		s := spans[i]
		if s.ID != w.id || s.Start != w.start || s.End != w.end || !reflect.DeepEqual(s.Body, w.body) {
			t.Errorf("span %d: id %d [%d, %d) body % x, want id %d [%d, %d) body % x", i, s.ID, s.Start, s.End, s.Body, w.id, w.start, w.end, w.body)
		}
		if s.Start > 0 && m[s.Start] != s.ID {
			t.Errorf("span %d does not start at its id byte", i)
		}
	}
	secs, err := Sections(m)
	if err != nil || len(secs) != len(spans) {
		t.Fatalf("Sections: %v %v", secs, err)
	}
	for i := range secs {
		if secs[i].ID != spans[i].ID || !reflect.DeepEqual(secs[i].Body, spans[i].Body) {
			t.Errorf("section %d differs from its span", i)
		}
	}
	for name, bad := range map[string][]byte{
		"not wasm":       []byte("\x7fELF...."),
		"version 2":      []byte("\x00asm\x02\x00\x00\x00"),
		"past the end":   append([]byte("\x00asm\x01\x00\x00\x00"), 11, 0x7f, 0),
		"truncated size": append([]byte("\x00asm\x01\x00\x00\x00"), 11, 0xff),
		"size over u32":  append([]byte("\x00asm\x01\x00\x00\x00"), 11, 0xff, 0xff, 0xff, 0xff, 0x7f),
	} {
		if _, err := SectionSpans(bad); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}

func TestS32(t *testing.T) {
	for _, tc := range []struct {
		b    []byte
		v    int32
		size int
	}{
		{[]byte{0}, 0, 1},
		{[]byte{16}, 16, 1},
		{[]byte{0x7f}, -1, 1},
		{[]byte{0x80, 0x01}, 128, 2},
		{[]byte{0xc0, 0xbb, 0x78}, -123456, 3},
		{[]byte{0xff, 0xff, 0xff, 0xff, 0x07}, 1<<31 - 1, 5},
		{[]byte{0x80, 0x80, 0x80, 0x80, 0x78}, -1 << 31, 5},
		{[]byte{0x80, 0x00, 9}, 0, 2}, // padded; what follows is not read
	} {
		v, n, err := S32(tc.b, 0)
		if err != nil || v != tc.v || n != tc.size {
			t.Errorf("S32(% x) = %d, %d, %v; want %d, %d", tc.b, v, n, err, tc.v, tc.size)
		}
		if minimal := tc.b[len(tc.b)-1] != 9; minimal && !reflect.DeepEqual(AppendSleb(nil, int64(tc.v)), tc.b) {
			t.Errorf("AppendSleb(%d) = % x, want % x", tc.v, AppendSleb(nil, int64(tc.v)), tc.b)
		}
	}
	for name, bad := range map[string][]byte{
		"empty":       {},
		"truncated":   {0x80},
		"too long":    {0x80, 0x80, 0x80, 0x80, 0x80, 0x00},
		"over int32":  {0x80, 0x80, 0x80, 0x80, 0x08},
		"under int32": {0xff, 0xff, 0xff, 0xff, 0x77},
	} {
		if _, _, err := S32(bad, 0); err == nil {
			t.Errorf("%s: S32(% x) accepted", name, bad)
		}
	}
	if v, n, err := S32([]byte{9, 0x7e}, 1); err != nil || v != -2 || n != 1 {
		t.Errorf("S32 at 1: %d %d %v", v, n, err)
	}
	if _, _, err := S32([]byte{1}, 5); err == nil {
		t.Error("a position past the end was read")
	}
}
