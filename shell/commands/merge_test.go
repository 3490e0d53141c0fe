package commands

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/cordonhq/cordon/shell/command"
)

// A command that panics, in a family that does not wrap its commands, is
// that command's internal error (status 70 and a message), not a panic of
// the shell that runs it.
func TestMergeRecoversEveryCommand(t *testing.T) {
	reg := merge(map[string]command.Registry{"bare": {"boom": func(*command.Env) int { panic("hostile input") }}})
	var stderr bytes.Buffer
	env := &command.Env{Ctx: context.Background(), Args: []string{"boom"}, Stderr: &stderr}
	if st := reg["boom"](env); st != command.StatusInternalError {
		t.Fatalf("status %d, want %d", st, command.StatusInternalError)
	}
	if got := stderr.String(); !strings.Contains(got, "boom: internal error: hostile input") {
		t.Fatalf("stderr %q", got)
	}
}
