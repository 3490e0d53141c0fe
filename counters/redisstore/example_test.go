package redisstore_test

import (
	"cmp"
	"fmt"
	"os"
	"time"

	"github.com/cordonhq/cordon/counters"
	"github.com/cordonhq/cordon/counters/redisstore"
	"github.com/cordonhq/cordon/engine"
)

// Every host of a fleet opens the same server and sets the store in its
// sandboxes' counters: a principal's max_calls then holds across the
// hosts. Open does not reach the server: a server that is down makes
// each decision fail closed instead.
func ExampleOpen() {
	url := cmp.Or(os.Getenv("CORDON_TEST_REDIS_URL"), "redis://127.0.0.1:6379/0")
	// region open
	store, err := redisstore.Open(url, redisstore.Options{
		Prefix:  "cordon:counters:", // the default; one per fleet that shares counts
		Timeout: 2 * time.Second,    // the most any one call waits, whatever its context
	})
	if err != nil {
		panic(err) // a URL go-redis cannot read
	}
	defer store.Close()
	cfg := engine.SandboxConfig{
		Principal: "tenant-42",
		Counters: engine.Counters{
			Store:  store,
			Scope:  counters.PerPrincipal,
			Window: time.Hour,
		},
	}
	// endregion
	fmt.Println(cfg.Counters.Scope)
	// Output: principal
}
