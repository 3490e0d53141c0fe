package shell

import (
	"context"
	"os"
	"testing"

	"github.com/cordonhq/cordon/vfs"
)

func TestDbg(t *testing.T) {
	src, err := os.ReadFile(os.Getenv("DBG_SCRIPT"))
	if err != nil {
		t.Skip()
	}
	st, _ := Run(context.Background(), Config{FS: vfs.New(vfs.Limits{}), Stdout: os.Stdout, Stderr: os.Stdout}, "bash", string(src))
	t.Logf("status %d", st)
}
