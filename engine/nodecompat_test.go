package engine_test

import (
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cordonhq/cordon/engine"
	"github.com/cordonhq/cordon/engine/enginetest"
)

var updateNode = flag.Bool("update-node", false, "regenerate testdata/nodecompat/*.out with node")

// TestNodeCompat runs ordinary scripts in the sandbox and compares their
// output with what Node prints for the same code (testdata/nodecompat/*.out,
// recorded with `node --input-type=module`; regenerate with -update-node).
func TestNodeCompat(t *testing.T) {
	files, err := filepath.Glob("testdata/nodecompat/*.js")
	if err != nil || len(files) == 0 {
		t.Fatal("no scripts", err)
	}
	sb := enginetest.NewSandbox(t, engine.SandboxConfig{Limits: engine.Limits{Timeout: 30 * time.Second}})
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".js"), func(t *testing.T) {
			code, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			golden := strings.TrimSuffix(file, ".js") + ".out"
			if *updateNode {
				cmd := exec.Command("node", "--input-type=module")
				cmd.Stdin = strings.NewReader(string(code))
				out, err := cmd.CombinedOutput()
				if err != nil {
					t.Fatalf("node: %v\n%s", err, out)
				}
				if err := os.WriteFile(golden, out, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatal(err)
			}
			res := enginetest.Run(t, sb, string(code))
			if res.Stdout != string(want) {
				t.Errorf("stdout differs from node's\n--- sandbox\n%s--- node\n%s--- stderr\n%s", res.Stdout, want, res.Stderr)
			}
		})
	}
}
