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
