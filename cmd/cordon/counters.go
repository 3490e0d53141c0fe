package main

import (
	"context"
	"fmt"
	"io"

	"github.com/cordonhq/cordon/config"
	"github.com/cordonhq/cordon/counters/redisstore"
	"github.com/cordonhq/cordon/engine"
	"github.com/redis/go-redis/v9"
)

// sandboxCounters returns the config's counters section as the engine's
// counter configuration (config.SandboxCounters, whose scopeSet it
// passes on), with the store it names: the engine's own for memory, or a
// connection to the Redis server of counters.url for redis, which closeFn
// closes. A URL go-redis cannot read is a usage error that names the key.
// A server that does not answer now is a warning on stderr, not an error:
// the calls are decided when they come, and while the store cannot be
// reached each call that a counter could decide is denied (fail closed);
// the others run uncounted (engine.CounterFreePolicy).
func sandboxCounters(ctx context.Context, cfg *config.Config, stderr io.Writer) (c engine.Counters, scopeSet bool, closeFn func(), err error) {
	c, scopeSet = cfg.SandboxCounters()
	if cfg.Counters.Store != config.StoreRedis {
		return c, scopeSet, func() {}, nil
	}
	store, err := redisstore.Open(cfg.Counters.URL, redisstore.Options{})
	if err != nil {
		return c, scopeSet, nil, usagef("config %s: counters.url: %v", cfg.File(), err)
	}
	// The store's errors reach the audit records; go-redis's own log
	// lines would only interleave with the script's output.
	redis.SetLogger(discardRedisLog{})
	if err := store.Ping(ctx); err != nil {
		fmt.Fprintf(stderr, "cordon: warning: %s: counters.url: %v: the calls that a call limit decides are denied while the counter store cannot be reached\n", cfg.File(), err)
	}
	c.Store = store
	return c, scopeSet, func() { store.Close() }, nil
}

// discardRedisLog drops go-redis's log lines.
type discardRedisLog struct{}

func (discardRedisLog) Printf(context.Context, string, ...any) {}
