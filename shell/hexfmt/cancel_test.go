package hexfmt

import (
	"context"
	"strings"
	"testing"

	"github.com/cordonhq/cordon/shell/command/commandtest"
)

// TestCanceled checks that every command stops with status 130, without
// a message, once its context is canceled.
func TestCanceled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for _, args := range [][]string{{"od"}, {"od", "-c"}, {"xxd"}, {"xxd", "-p"}, {"hexdump", "-C"}, {"base32"}, {"base32", "-d"}, {"base64"}, {"base64", "-d"}} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			r := commandtest.RunCtx(ctx, t, Commands(), commandtest.NewFS(t, nil), strings.NewReader(strings.Repeat("data", 1<<16)), args...)
			if r.Status != 130 || r.Err != "" {
				t.Errorf("status %d, stderr %q", r.Status, r.Err)
			}
		})
	}
}
