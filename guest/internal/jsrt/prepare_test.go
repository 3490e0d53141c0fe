package jsrt

import "testing"

// The runtime Prepare makes is the next one Run takes, once.
func TestPrepareIsTakenOnce(t *testing.T) {
	if err := Prepare(); err != nil {
		t.Fatal(err)
	}
	prepared.Lock()
	want := prepared.rt
	prepared.Unlock()
	if want == nil {
		t.Fatal("Prepare kept no runtime")
	}
	if got := newRuntime(); got != want {
		t.Fatal("newRuntime did not take the prepared runtime")
	}
	if got := newRuntime(); got == want || got == nil {
		t.Fatal("the prepared runtime was taken twice")
	}
}
