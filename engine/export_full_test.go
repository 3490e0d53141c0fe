package engine_test

import (
	"bytes"
	"context"
	"errors"
	"testing"
	"time"

	"github.com/cordonhq/cordon/engine"
	"github.com/cordonhq/cordon/engine/enginetest"
)

// A script that fills the VFS to its quota cannot make the export run the
// guest out of memory: the guest encodes the files without copying them,
// in a buffer sized once.
func TestExportOfAFullVFS(t *testing.T) {
	sb := enginetest.NewSandbox(t, engine.SandboxConfig{Limits: engine.Limits{Timeout: 30 * time.Second}})
	res, err := sb.Execute(context.Background(), engine.JavaScript, `const chunk = "x".repeat(4 << 20)
let n = 0
try { for (;;) { fs.writeFileSync("/workspace/f" + n, chunk); n++ } } catch (e) { if (e.code !== "ENOSPC") throw e }
try { fs.writeFileSync("/workspace/tail", "y".repeat((64 << 20) - n * (4 << 20) - 100)) } catch (e) {}
return n`)
	if err != nil || res.ExitCode != 0 {
		t.Fatalf("filling the VFS: %v %+v", err, res)
	}
	for i := 0; i < 5; i++ {
		// Garbage from a script between exports.
		if _, err := sb.Execute(context.Background(), engine.JavaScript, `let s = []; for (let i = 0; i < 8; i++) s.push("z".repeat(4 << 20) + i); return s.length`); err != nil {
			t.Fatal(err)
		}
		var buf bytes.Buffer
		if err := sb.ExportTar(context.Background(), &buf, "/workspace"); err != nil {
			t.Fatalf("export %d of a full VFS: %v (sandbox: %v)", i, err, sb.Err())
		}
		if buf.Len() < 60<<20 {
			t.Fatalf("export %d holds %d bytes", i, buf.Len())
		}
	}
	if err := sb.Err(); err != nil {
		t.Fatalf("the sandbox broke: %v", err)
	}
}

// Limits under which an export could not carry a full VFS are refused.
func TestLimitsThatCouldBreakAnExport(t *testing.T) {
	for _, l := range []engine.Limits{{VFSBytes: 200 << 20}, {VFSFiles: 2 << 20}} {
		if _, err := enginetest.Engine(t).NewSandbox(context.Background(), engine.SandboxConfig{Limits: l}); !errors.Is(err, engine.ErrInvalid) {
			t.Errorf("%+v: %v", l, err)
		}
	}
}
