package engine

import (
	"context"
	"testing"
)

// Answered calls leave the execution's wait list: a script that makes
// many calls one after another does not make each wait longer than the
// last.
func TestAnsweredCallsLeaveTheWaitList(t *testing.T) {
	e := newPooledEngine(t, 0)
	ctx := context.Background()
	sb, err := e.NewSandbox(ctx, SandboxConfig{Tools: []Tool{{Name: "t"}}})
	if err != nil {
		t.Fatal(err)
	}
	defer sb.Close(ctx)
	x, err := sb.Start(ctx, JavaScript, `let n = 0; for (let i = 0; i < 30; i++) n += (await t({i})).v; return n`)
	if err != nil {
		t.Fatal(err)
	}
	calls := 0
	for {
		pending, err := x.Next(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if pending == nil {
			break
		}
		if len(x.order) != 1 || len(pending) != 1 {
			t.Fatalf("after %d calls: %d pending, %d ids kept", calls, len(pending), len(x.order))
		}
		pending[0].Resolve(map[string]int{"v": 1})
		calls++
	}
	if res := x.Result(); string(res.Value) != "30" || calls != 30 {
		t.Fatalf("value %s after %d calls", res.Value, calls)
	}
}
