package counters_test

import (
	"context"
	"fmt"

	"github.com/cordonhq/cordon/counters"
)

// A charge lands only on the version it was decided on: a second decision
// made on the same snapshot must load again and decide on the new count.
func ExampleMemory() {
	ctx := context.Background()
	store := counters.NewMemory(nil)
	key := counters.Key(counters.PerPrincipal, "alice")

	snap, _ := store.Load(ctx, key, 0)
	ok, _ := store.Add(ctx, key, 0, snap.Version, []string{"method:payments/send"})
	fmt.Println("first charge:", ok)
	ok, _ = store.Add(ctx, key, 0, snap.Version, []string{"method:payments/send"})
	fmt.Println("second charge on the same snapshot:", ok)

	snap, _ = store.Load(ctx, key, 0)
	fmt.Println("count:", snap.Counts["method:payments/send"])
	// Output:
	// first charge: true
	// second charge on the same snapshot: false
	// count: 1
}
