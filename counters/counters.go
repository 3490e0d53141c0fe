// Package counters keeps the tool-call counters that a policy's call limits
// read: how many calls of each method, and of each capability, a scope has
// made. The engine reads a scope's counters before each decision and adds
// the decision's charge afterwards, atomically: the charge lands only if no
// other decision changed the scope in between, and otherwise the engine
// decides again on fresh counts. So a limit holds exactly however many
// sandboxes, sessions or hosts share a scope, as long as they share the
// store.
//
// A scope is named by a key that the engine builds from the counter scope
// a sandbox is configured with (Scope): one execution, one session, or one
// principal (the authenticated client, or a label the embedding host sets).
// Replacing a sandbox, reconnecting, or opening another session under the
// same principal does not reset a scope's counters; only Delete does.
//
// Memory is the in-memory Store, the default. A fleet of hosts shares one
// Store by implementing the interface over a networked database: Add is a
// compare-and-set on the scope's version, which such a store can run as
// one transaction.
package counters

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// ErrUnavailable is matched ([errors.Is]) by the errors of a store that
// could not answer: a networked store whose server is down, slower than
// the caller's deadline, or answering something that is not a valid reply.
// The engine denies a call whose counters it cannot read or charge (fail
// closed) unless no counter could have decided it (engine.CounterFreePolicy);
// a host can tell this error, which says nothing about the counts, from
// the others. Package counters/redisstore returns it.
var ErrUnavailable = errors.New("counters: the counter store is unavailable")

// Scope says which calls share a set of counters.
type Scope string

// The counter scopes.
const (
	// PerSession counts the calls of one session: every execution of a
	// sandbox, and of each sandbox that replaces it under the same
	// session id. It is the default.
	PerSession Scope = "session"
	// PerExecution counts the calls of one execution; each execution
	// starts at zero.
	PerExecution Scope = "execution"
	// PerPrincipal counts the calls of every session of one principal:
	// the authenticated identity of the MCP client, or a label the
	// embedding host sets (engine.SandboxConfig.Principal).
	PerPrincipal Scope = "principal"
)

// Valid reports whether s is one of the scopes, or "" (the default,
// PerSession).
func (s Scope) Valid() bool {
	switch s {
	case "", PerSession, PerExecution, PerPrincipal:
		return true
	}
	return false
}

// ParseScope returns the scope named s ("" is PerSession), or an error that
// lists the scopes.
func ParseScope(s string) (Scope, error) {
	if !Scope(s).Valid() {
		return "", fmt.Errorf("counters: unknown scope %q (want %q, %q or %q)", s, PerExecution, PerSession, PerPrincipal)
	}
	if s == "" {
		return PerSession, nil
	}
	return Scope(s), nil
}

// Snapshot is the state of one scope's counters.
type Snapshot struct {
	// Counts maps each counter's name to its count (within the window
	// the snapshot was loaded with). Counters at zero may be absent.
	Counts map[string]int
	// Version changes whenever a charge is added to or taken from the
	// scope: Add compares it to decide whether the scope changed since
	// the snapshot.
	Version uint64
}

// Store keeps the counters of many scopes. Implementations are safe for
// concurrent use by many sandboxes (and, for a networked store, by many
// hosts).
//
// An error from any method makes the engine deny the call it was deciding
// (fail closed).
//
// The window of Load, Add and Sub is a sliding time window: only the charges
// added within the last window count, and a zero window counts every
// charge. A store keeps each charge's time for that (its own clock, or the
// one it was given), so the same key must always be used with the same
// window.
type Store interface {
	// Load returns the counters of key, and its version.
	Load(ctx context.Context, key string, window time.Duration) (Snapshot, error)
	// Add adds one charge to each of the named counters of key, all or
	// none, and only if key's version is still version: it reports
	// whether it did. A false result with a nil error means the scope
	// changed since the snapshot was loaded.
	Add(ctx context.Context, key string, window time.Duration, version uint64, names []string) (bool, error)
	// Sub takes back the newest charge of each named counter of key,
	// within window (a reservation that was refused); a counter already
	// at zero stays at zero.
	Sub(ctx context.Context, key string, window time.Duration, names []string) error
	// Delete forgets every counter of key.
	Delete(ctx context.Context, key string) error
}

// Locker is implemented by a store that can hold a key for one decision at
// a time. The engine holds the key from Load to Add when the store
// implements it, so that concurrent decisions on one scope wait for each
// other instead of being retried. A store shared by many hosts need not
// implement it: Add's version check keeps the counts exact without it.
type Locker interface {
	// Lock holds key until unlock is called, or returns ctx's error.
	Lock(ctx context.Context, key string) (unlock func(), err error)
}

// Key returns the store key of the counters of name under scope: the
// session id for PerSession, the principal for PerPrincipal, an
// execution's own id for PerExecution. Keys of different scopes never
// collide.
func Key(scope Scope, name string) string {
	if scope == "" {
		scope = PerSession
	}
	return string(scope) + ":" + name
}
