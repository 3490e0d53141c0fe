// Package redisstore is a [counters.Store] on Redis or Valkey, which many
// cordon hosts share so that a principal's call limits hold across all of
// them: behind a load balancer, a principal's sessions land on different
// hosts, and a store of each host's own would let every host grant the
// whole max_calls again.
//
// Every method is one Lua script, run atomically by the server (EVALSHA,
// and EVAL when the server does not have the script yet, after a restart):
//
//   - Load trims the charges older than the window and returns the
//     scope's counts and its version.
//   - Add compares the version with the snapshot's and, only if it has not
//     changed, adds one charge to each named counter and gives the scope a
//     new version: a compare-and-set, so two hosts cannot both take the
//     last call.
//   - Sub takes back the newest charge of each named counter (a refused
//     ask's reservation) and gives the scope a new version.
//   - Delete removes the scope's keys.
//
// Without a window a scope's counts are one hash. With a window each
// counter is a sorted set of its charges, scored by the time of the
// server's clock (TIME, in milliseconds), so the hosts' clocks do not
// matter; every key of a windowed scope expires a window after its last
// charge (PEXPIRE), so a scope that goes quiet cleans itself up. Versions
// come from one sequence (INCR), so a version never repeats for a key,
// even after Delete or expiry: a snapshot from before either never
// matches.
//
// A scope's keys share one hash tag ({scope}), but each Add and Sub also
// increments the sequence key, in another slot: a Redis Cluster refuses
// such a script, so the store runs on one primary (standalone, or with
// replicas and Sentinel for failover). Quota counters are small.
//
// Every call is bounded by its context and by [Options.Timeout]. A server
// that is down, slower than either, or that answers something else than
// the scripts' replies makes the call fail with an error that matches
// [ErrUnavailable] (which is [counters.ErrUnavailable]); the engine then
// denies the call it was deciding (fail closed), unless no counter could
// have decided it: a call through a capability without max_calls, under
// a policy whose rules read no counter, runs uncounted.
package redisstore

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/cordonhq/cordon/counters"
	"github.com/redis/go-redis/v9"
)

// ErrUnavailable is matched ([errors.Is]) by every error of the store's
// methods: the server could not be reached, did not answer in time, or
// answered with an error or with something that is not a valid reply. It
// is [counters.ErrUnavailable], so that a host can test for it without
// importing this package.
var ErrUnavailable = counters.ErrUnavailable

// ErrBadReply is matched by the errors of a reply that is not what the
// store's scripts return (a server that is not Redis, or keys of the
// store's prefix written by something else). Such errors match
// [ErrUnavailable] too.
var ErrBadReply = fmt.Errorf("%w: a bad reply", ErrUnavailable)

// DefaultPrefix is the prefix of the store's keys when [Options.Prefix] is
// empty.
const DefaultPrefix = "cordon:counters:"

// DefaultTimeout bounds each call when [Options.Timeout] is zero.
const DefaultTimeout = 2 * time.Second

// Options configures a Store.
type Options struct {
	// Prefix starts every key the store writes (DefaultPrefix when
	// empty), so that many stores, or other data, can share a database.
	// It must not hold '{' or '}'.
	Prefix string
	// Timeout bounds each call, whatever its context (DefaultTimeout when
	// zero). The engine's calls carry the execution's deadline, but a
	// refused ask's reservation is released without one.
	Timeout time.Duration
}

// Store is a [counters.Store] on Redis or Valkey. It is safe for concurrent
// use, by any number of hosts that share the server and the prefix.
type Store struct {
	c       redis.UniversalClient
	prefix  string
	seq     string
	timeout time.Duration
	owned   bool
}

var _ counters.Store = (*Store)(nil)

// New returns a store over client, which the caller keeps and closes.
// client should respect its contexts' deadlines (Options.
// ContextTimeoutEnabled in go-redis), as [Open]'s client does.
func New(client redis.UniversalClient, opts Options) (*Store, error) {
	if client == nil {
		return nil, errors.New("redisstore: nil client")
	}
	prefix := opts.Prefix
	if prefix == "" {
		prefix = DefaultPrefix
	}
	if strings.ContainsAny(prefix, "{}") {
		return nil, fmt.Errorf("redisstore: prefix %q holds '{' or '}'", prefix)
	}
	if opts.Timeout < 0 {
		return nil, fmt.Errorf("redisstore: negative timeout %v", opts.Timeout)
	}
	timeout := opts.Timeout
	if timeout == 0 {
		timeout = DefaultTimeout
	}
	return &Store{c: client, prefix: prefix, seq: prefix + "seq", timeout: timeout}, nil
}

// Open connects to the server at url (redis://[user:password@]host
// [:port][/db], rediss:// for TLS, or unix:///path, as [redis.ParseURL]
// reads it) and returns a store over that connection, which Close closes.
// Open does not reach the server: a server that is down makes each call
// fail instead. The client respects contexts' deadlines; it dials once,
// and dials, reads and writes for at most the store's timeout (the URL's
// own timeouts only shorten them); it retries a failed command once
// (unless the URL sets max_retries). A command retried after the server
// ran it but before its reply arrived can only count a call twice, never
// lose one.
func Open(url string, opts Options) (*Store, error) {
	opt, err := redis.ParseURL(url)
	if err != nil {
		return nil, fmt.Errorf("redisstore: %w", err)
	}
	timeout := opts.Timeout
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	opt.ContextTimeoutEnabled = true
	if opt.DialTimeout <= 0 || opt.DialTimeout > timeout {
		opt.DialTimeout = timeout
	}
	if opt.ReadTimeout <= 0 || opt.ReadTimeout > timeout {
		opt.ReadTimeout = timeout
	}
	if opt.WriteTimeout <= 0 || opt.WriteTimeout > timeout {
		opt.WriteTimeout = timeout
	}
	if opt.PoolTimeout <= 0 || opt.PoolTimeout > timeout {
		opt.PoolTimeout = timeout
	}
	// A server that is down should cost a call one refused dial, not
	// seconds of retries; one retry of a command still carries it over a
	// connection that a server restart broke.
	if opt.DialerRetries <= 0 {
		opt.DialerRetries = 1
	}
	if opt.MaxRetries == 0 {
		opt.MaxRetries = 1
	}
	client := redis.NewClient(opt)
	s, err := New(client, opts)
	if err != nil {
		client.Close()
		return nil, err
	}
	s.owned = true
	return s, nil
}

// Close closes the connection when the store was made by Open; a store
// made by New leaves its client to the caller.
func (s *Store) Close() error {
	if !s.owned {
		return nil
	}
	if err := s.c.Close(); err != nil {
		return fmt.Errorf("redisstore: close: %w", err)
	}
	return nil
}

// Ping checks that the server answers, within ctx and the store's timeout.
func (s *Store) Ping(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, s.timeout)
	defer cancel()
	if err := s.c.Ping(ctx).Err(); err != nil {
		return s.fail("ping", "", err)
	}
	return nil
}

// keys returns the keys of scope key: its version, its counts without a
// window, the set of its windowed counters' names, and the prefix of each
// windowed counter's sorted set. They share one hash tag: the scope's key
// with '%', '{' and '}' escaped, so that no two scopes' keys collide.
func (s *Store) keys(key string) (version, counts, names, windowed string) {
	esc := strings.NewReplacer("%", "%25", "{", "%7B", "}", "%7D").Replace(key)
	base := s.prefix + "{" + esc + "}"
	return base + ":v", base + ":c", base + ":n", base + ":w:"
}

// windowMS returns window in whole milliseconds, rounded up (0: none).
func windowMS(window time.Duration) int64 {
	if window <= 0 {
		return 0
	}
	return int64((window + time.Millisecond - 1) / time.Millisecond)
}

// The scripts. Each runs atomically on the server. now() is the server's
// clock in milliseconds; writes after TIME are allowed because scripts
// replicate their effects (the default since Redis 5, the only mode since
// Redis 7; replicate_commands is called where it exists).
const luaPrelude = `
if redis.replicate_commands then redis.replicate_commands() end
local function now()
  local t = redis.call('TIME')
  return tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end
local function trim(z, window, t)
  redis.call('ZREMRANGEBYSCORE', z, '-inf', t - window)
  return redis.call('ZCARD', z)
end
`

// load: KEYS version, counts, names; ARGV window ms, windowed prefix.
// Returns {version, name, count, name, count, ...}.
var loadScript = redis.NewScript(luaPrelude + `
local v = redis.call('GET', KEYS[1]) or '0'
local out = {v}
local window = tonumber(ARGV[1])
if window == 0 then
  local h = redis.call('HGETALL', KEYS[2])
  for i = 1, #h, 2 do
    out[#out + 1] = h[i]
    out[#out + 1] = tonumber(h[i + 1])
  end
  return out
end
local t = now()
for _, name in ipairs(redis.call('SMEMBERS', KEYS[3])) do
  local n = trim(ARGV[2] .. name, window, t)
  if n == 0 then
    redis.call('SREM', KEYS[3], name)
  else
    out[#out + 1] = name
    out[#out + 1] = n
  end
end
return out
`)

// add: KEYS version, counts, names, sequence; ARGV window ms, expected
// version, windowed prefix, names... Returns 1 when it added, 0 when the
// version had changed.
var addScript = redis.NewScript(luaPrelude + `
local v = redis.call('GET', KEYS[1]) or '0'
if v ~= ARGV[2] then return 0 end
-- The version as digits: Lua's own number-to-string would round past
-- 14 digits, and the charges' members must stay distinct.
local nv = string.format('%d', redis.call('INCR', KEYS[4]))
redis.call('SET', KEYS[1], nv)
local window = tonumber(ARGV[1])
if window == 0 then
  for i = 4, #ARGV do redis.call('HINCRBY', KEYS[2], ARGV[i], 1) end
  return 1
end
local t = now()
for i = 4, #ARGV do
  local z = ARGV[3] .. ARGV[i]
  redis.call('ZADD', z, t, nv .. ':' .. i)
  redis.call('PEXPIRE', z, window)
  redis.call('SADD', KEYS[3], ARGV[i])
end
redis.call('PEXPIRE', KEYS[3], window)
redis.call('PEXPIRE', KEYS[1], window)
return 1
`)

// sub: KEYS version, counts, names, sequence; ARGV window ms, windowed
// prefix, names... Returns 1 when the scope exists, 0 when it does not.
var subScript = redis.NewScript(luaPrelude + `
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
redis.call('SET', KEYS[1], string.format('%d', redis.call('INCR', KEYS[4])))
local window = tonumber(ARGV[1])
if window == 0 then
  for i = 3, #ARGV do
    local n = tonumber(redis.call('HGET', KEYS[2], ARGV[i]) or '0')
    if n > 1 then
      redis.call('HINCRBY', KEYS[2], ARGV[i], -1)
    elseif n == 1 then
      redis.call('HDEL', KEYS[2], ARGV[i])
    end
  end
  return 1
end
local t = now()
for i = 3, #ARGV do
  local z = ARGV[2] .. ARGV[i]
  if trim(z, window, t) > 0 then redis.call('ZPOPMAX', z) end
  if redis.call('ZCARD', z) == 0 then redis.call('SREM', KEYS[3], ARGV[i]) end
end
redis.call('PEXPIRE', KEYS[1], window)
return 1
`)

// del: KEYS version, counts, names; ARGV windowed prefix. Returns 1.
var delScript = redis.NewScript(`
for _, name in ipairs(redis.call('SMEMBERS', KEYS[3])) do
  redis.call('DEL', ARGV[1] .. name)
end
redis.call('DEL', KEYS[1], KEYS[2], KEYS[3])
return 1
`)

// run runs script with a deadline, and turns every failure into an error
// that matches ErrUnavailable.
func (s *Store) run(ctx context.Context, op, key string, script *redis.Script, keys []string, args ...any) (any, error) {
	ctx, cancel := context.WithTimeout(ctx, s.timeout)
	defer cancel()
	v, err := script.Run(ctx, s.c, keys, args...).Result()
	if err != nil {
		return nil, s.fail(op, key, err)
	}
	return v, nil
}

// fail wraps err, the failure of op on key, so that it matches
// ErrUnavailable (and ErrBadReply when the server answered with an error
// or with something unexpected).
func (s *Store) fail(op, key string, err error) error {
	if key != "" {
		op += " " + strconv.Quote(key)
	}
	var rerr redis.Error
	if errors.As(err, &rerr) && !errors.Is(err, context.DeadlineExceeded) && !errors.Is(err, context.Canceled) {
		// The server answered, with an error (WRONGTYPE, OOM, READONLY, a
		// script error), or the reply could not be parsed.
		return fmt.Errorf("redisstore: %s: %w: %w", op, ErrBadReply, err)
	}
	return fmt.Errorf("redisstore: %s: %w: %w", op, ErrUnavailable, err)
}

// badReply returns the error of a reply to op that is not what its script
// returns.
func badReply(op, key string, v any) error {
	return fmt.Errorf("redisstore: %s %q: %w: %.100s", op, key, ErrBadReply, fmt.Sprintf("%T %v", v, v))
}

// Load returns the counters of key within window, and its version.
func (s *Store) Load(ctx context.Context, key string, window time.Duration) (counters.Snapshot, error) {
	vk, ck, nk, wp := s.keys(key)
	v, err := s.run(ctx, "load", key, loadScript, []string{vk, ck, nk}, windowMS(window), wp)
	if err != nil {
		return counters.Snapshot{}, err
	}
	items, ok := v.([]any)
	if !ok || len(items)%2 != 1 {
		return counters.Snapshot{}, badReply("load", key, v)
	}
	vs, ok := items[0].(string)
	if !ok {
		return counters.Snapshot{}, badReply("load", key, v)
	}
	version, err := strconv.ParseUint(vs, 10, 64)
	if err != nil {
		return counters.Snapshot{}, badReply("load", key, v)
	}
	snap := counters.Snapshot{Counts: make(map[string]int, len(items)/2), Version: version}
	for i := 1; i < len(items); i += 2 {
		name, ok1 := items[i].(string)
		n, ok2 := items[i+1].(int64)
		if !ok1 || !ok2 || n < 0 || n > int64(^uint32(0)>>1) {
			return counters.Snapshot{}, badReply("load", key, v)
		}
		if n > 0 {
			snap.Counts[name] = int(n)
		}
	}
	return snap, nil
}

// Add adds one charge to each named counter of key if its version is still
// version, in one script.
func (s *Store) Add(ctx context.Context, key string, window time.Duration, version uint64, names []string) (bool, error) {
	vk, ck, nk, wp := s.keys(key)
	args := make([]any, 0, 3+len(names))
	args = append(args, windowMS(window), strconv.FormatUint(version, 10), wp)
	for _, n := range names {
		args = append(args, n)
	}
	v, err := s.run(ctx, "add", key, addScript, []string{vk, ck, nk, s.seq}, args...)
	if err != nil {
		return false, err
	}
	switch v {
	case int64(1):
		return true, nil
	case int64(0):
		return false, nil
	}
	return false, badReply("add", key, v)
}

// Sub takes back the newest charge of each named counter of key, within
// window, in one script.
func (s *Store) Sub(ctx context.Context, key string, window time.Duration, names []string) error {
	vk, ck, nk, wp := s.keys(key)
	args := make([]any, 0, 2+len(names))
	args = append(args, windowMS(window), wp)
	for _, n := range names {
		args = append(args, n)
	}
	v, err := s.run(ctx, "sub", key, subScript, []string{vk, ck, nk, s.seq}, args...)
	if err != nil {
		return err
	}
	if v != int64(0) && v != int64(1) {
		return badReply("sub", key, v)
	}
	return nil
}

// Delete removes every key of key's counters, in one script.
func (s *Store) Delete(ctx context.Context, key string) error {
	vk, ck, nk, wp := s.keys(key)
	v, err := s.run(ctx, "delete", key, delScript, []string{vk, ck, nk}, wp)
	if err != nil {
		return err
	}
	if v != int64(1) {
		return badReply("delete", key, v)
	}
	return nil
}
