package engine_test

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"regexp"
	"testing"

	"github.com/cordonhq/cordon/engine"
)

// Guest names the embedded module by its hash, and knows the versions it
// was built with: goja's is the one go.mod requires.
func TestGuestInfo(t *testing.T) {
	info, err := engine.Guest()
	if err != nil {
		t.Fatal(err)
	}
	wasm, _ := engine.GuestWasm()
	if sum := sha256.Sum256(wasm); info.SHA256 != hex.EncodeToString(sum[:]) {
		t.Errorf("SHA256 %s", info.SHA256)
	}
	if info.Build == nil {
		t.Fatal("no build information in the guest")
	}
	mod, err := os.ReadFile("../go.mod")
	if err != nil {
		t.Fatal(err)
	}
	want := regexp.MustCompile(`github.com/dop251/goja (\S+)`).FindSubmatch(mod)
	found := false
	for _, d := range info.Build.Deps {
		if d.Path == "github.com/dop251/goja" {
			found = true
			if d.Version != string(want[1]) {
				t.Errorf("goja %s in the guest, %s in go.mod", d.Version, want[1])
			}
		}
	}
	if !found || info.Build.Path != "github.com/cordonhq/cordon/guest" {
		t.Errorf("build info %+v", info.Build)
	}
}
