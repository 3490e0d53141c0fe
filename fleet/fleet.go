// Package fleet runs cordon's policy from OPA's management plane: policy
// bundles downloaded from a bundle service (polled, signature-checked,
// persisted), every decision sent to a decision-log service in OPA's
// format, status reports, and Prometheus metrics. It is OPA's own
// implementation (its SDK and plugin manager: the bundle, decision-log,
// status and discovery plugins), configured with an OPA configuration
// document that means exactly what OPA's documentation says.
//
// A [Policy] is an engine.Policy. It decides each call with
// data.cordon.authz.decision on the active bundle, compiled together with
// cordon's shipped Rego library (policy/rego) and the capabilities of the
// Config, as [policy.New] compiles them. When a new bundle is activated,
// the policy is compiled again and swapped in atomically: every sandbox,
// running or new, decides its next call on the new revision. A bundle
// that OPA refuses (bad signature, a module that does not compile) or that
// cordon's compile refuses (a disabled built-in, a type error against
// cordon's input schema) leaves the last good policy active, and the
// error is in the status (plugin "cordon") and the metrics. Until a first
// bundle is active, every call is denied (fail closed).
//
// Package engine does not import this package: a program that does not use
// it links neither OPA's plugins nor the Prometheus client.
package fleet

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/cordonhq/cordon/dsl"
	"github.com/cordonhq/cordon/policy"
	"github.com/cordonhq/cordon/policy/authz"
	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/bundle"
	"github.com/open-policy-agent/opa/v1/logging"
	"github.com/open-policy-agent/opa/v1/plugins"
	bundleplugin "github.com/open-policy-agent/opa/v1/plugins/bundle"
	"github.com/open-policy-agent/opa/v1/plugins/logs"
	"github.com/open-policy-agent/opa/v1/sdk"
	"github.com/open-policy-agent/opa/v1/server"
	"github.com/open-policy-agent/opa/v1/storage"
	"github.com/prometheus/client_golang/prometheus"
)

// DecisionPath is the decision every call evaluates, as OPA's decision
// logs name it (the path of data.cordon.authz.decision).
const DecisionPath = "cordon/authz/decision"

// StatusPlugin is the name under which a Policy reports its own state in
// OPA's status reports ("plugins"): OK once a policy is active and the
// last bundle compiled with cordon's library, an error otherwise.
const StatusPlugin = "cordon"

// Config is what a managed Policy is made of.
type Config struct {
	// OPA is an OPA configuration document, in YAML or JSON: services,
	// bundles, keys, decision_logs, status, discovery, labels,
	// persistence_directory and the rest, with the meaning OPA's
	// configuration reference gives them.
	OPA []byte
	// ID identifies this host in status reports and decision logs (OPA's
	// labels.id); a random id when empty.
	ID string
	// Capabilities are compiled with every bundle (package
	// cordon.capabilities), as in policy.Config.
	Capabilities []*dsl.Capability
	// AllowBuiltins is policy.Config.AllowBuiltins: the built-ins a
	// bundle's Rego may call although they are off by default.
	AllowBuiltins []string
	// Registerer receives the Policy's Prometheus metrics and OPA's own
	// (the bundle and decision-log plugins'); nil registers none.
	Registerer prometheus.Registerer
	// Logger receives OPA's log messages; nil discards them (errors are
	// in the status and the metrics). Decision logs with console: true
	// go to OPA's console logger (JSON on stderr) whatever it is.
	Logger logging.Logger
	// Decided, when set, is called after each decision with its id, its
	// revision and the decision, on the goroutine that decided. It must be
	// quick and must not call back into the sandbox.
	Decided func(Decided)
}

// Decided describes one decision ([Config.Decided]).
type Decided struct {
	// ID is the decision id, as in the decision log: the one the caller
	// put in ctx ([authz.WithDecisionID]), or a random UUID.
	ID       string
	Revision string
	Method   string
	Session  string
	Decision authz.Decision
	Err      error
}

// Policy is a policy managed by OPA's management plane. It is safe for
// concurrent use.
type Policy struct {
	cfg       Config
	opa       *sdk.OPA
	mgr       *plugins.Manager
	active    atomic.Pointer[state]
	ready     chan struct{}
	readyMu   sync.Once
	notify    chan struct{}
	done      chan struct{}
	stopped   chan struct{}
	cancel    context.CancelFunc
	closeOnce sync.Once
	metrics   *metrics

	mu      sync.Mutex
	lastErr error
}

// state is one active policy: what a decision reads, atomically.
type state struct {
	pol      *policy.Policy
	revision string
	bundles  map[string]server.BundleInfo
	key      string
}

// New starts OPA's plugins with cfg.OPA and returns the Policy. It does not
// wait for a bundle: until one is active, every call is denied; use
// [Policy.Wait] to wait for it. A bundle persisted by an earlier run (a
// bundle with persist: true and a persistence_directory) is activated
// before New returns. Close releases the plugins.
func New(ctx context.Context, cfg Config) (*Policy, error) {
	for i, c := range cfg.Capabilities {
		if err := c.Validate(); err != nil {
			return nil, fmt.Errorf("fleet: capability %d: %w", i, err)
		}
	}
	if len(bytes.TrimSpace(cfg.OPA)) == 0 {
		return nil, errors.New("fleet: the OPA configuration is empty")
	}
	p := &Policy{
		cfg:     cfg,
		ready:   make(chan struct{}),
		notify:  make(chan struct{}, 1),
		done:    make(chan struct{}),
		stopped: make(chan struct{}),
	}
	var err error
	if p.metrics, err = newMetrics(cfg.Registerer); err != nil {
		return nil, err
	}
	logger := cfg.Logger
	if logger == nil {
		logger = logging.NewNoOpLogger()
	}
	mopts := []func(*plugins.Manager){
		func(m *plugins.Manager) { p.mgr = m },
	}
	if cfg.Registerer != nil {
		mopts = append(mopts, plugins.WithPrometheusRegister(cfg.Registerer))
	}
	// OPA's plugins keep the context they start with for their whole
	// life (uploads, downloads): give them one that ends at Close, not
	// with the caller's.
	runCtx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	p.cancel = cancel
	opa, err := sdk.New(runCtx, sdk.Options{
		ID:          cfg.ID,
		Config:      bytes.NewReader(cfg.OPA),
		Logger:      logger,
		Ready:       make(chan struct{}), // do not block: Wait does
		ManagerOpts: mopts,
	})
	if err != nil {
		if opa != nil {
			opa.Stop(context.Background())
		}
		cancel()
		return nil, fmt.Errorf("fleet: OPA: %w", err)
	}
	p.opa = opa
	if p.mgr == nil {
		opa.Stop(context.Background())
		cancel()
		return nil, errors.New("fleet: OPA started no plugin manager")
	}
	p.mgr.UpdatePluginStatus(StatusPlugin, &plugins.Status{State: plugins.StateNotReady})
	p.mgr.RegisterCompilerTrigger(func(storage.Transaction) { p.poke() })
	p.rebuild(ctx)
	go p.loop()
	return p, nil
}

// poke asks the rebuild loop to look at the store again.
func (p *Policy) poke() {
	select {
	case p.notify <- struct{}{}:
	default:
	}
}

func (p *Policy) loop() {
	defer close(p.stopped)
	for {
		select {
		case <-p.done:
			return
		case <-p.notify:
			p.rebuild(context.Background())
		}
	}
}

// rebuild compiles what OPA's store holds (the active bundles' modules and
// data) with cordon's library and capabilities, and makes it the active
// policy. It keeps the active policy when a configured bundle is missing or
// the compile fails.
func (p *Policy) rebuild(ctx context.Context) {
	st, err := p.load(ctx)
	if err != nil {
		p.fail(err)
		return
	}
	if st == nil {
		return // a configured bundle is not active yet
	}
	if cur := p.active.Load(); cur != nil && cur.key == st.key {
		p.ok()
		return
	}
	p.active.Store(st)
	p.metrics.activated(st.revision)
	p.ok()
	p.readyMu.Do(func() { close(p.ready) })
}

func (p *Policy) ok() {
	p.mu.Lock()
	p.lastErr = nil
	p.mu.Unlock()
	p.mgr.UpdatePluginStatus(StatusPlugin, &plugins.Status{State: plugins.StateOK})
}

func (p *Policy) fail(err error) {
	p.mu.Lock()
	p.lastErr = err
	p.mu.Unlock()
	p.metrics.refused()
	msg := err.Error()
	if cur := p.active.Load(); cur != nil {
		msg += " (revision " + cur.revision + " stays active)"
	}
	p.mgr.UpdatePluginStatus(StatusPlugin, &plugins.Status{State: plugins.StateErr, Message: msg})
}

// load reads the store and compiles it, or returns nil when a configured
// bundle is not active yet.
func (p *Policy) load(ctx context.Context) (*state, error) {
	store := p.mgr.Store
	txn, err := store.NewTransaction(ctx)
	if err != nil {
		return nil, fmt.Errorf("fleet: store: %w", err)
	}
	defer store.Abort(ctx, txn)
	active, err := bundle.ReadBundleNamesFromStore(ctx, store, txn)
	if err != nil && !storage.IsNotFound(err) {
		return nil, fmt.Errorf("fleet: store: %w", err)
	}
	have := map[string]bool{}
	for _, n := range active {
		have[n] = true
	}
	names, ok := p.bundleNames()
	if !ok {
		return nil, nil // discovery has not configured the bundles yet
	}
	st := &state{bundles: map[string]server.BundleInfo{}}
	var key strings.Builder
	for _, name := range names {
		if !have[name] {
			return nil, nil
		}
		rev, err := bundle.ReadBundleRevisionFromStore(ctx, store, txn, name)
		if err != nil && !storage.IsNotFound(err) {
			return nil, fmt.Errorf("fleet: bundle %q: %w", name, err)
		}
		st.bundles[name] = server.BundleInfo{Revision: rev}
	}
	ids, err := store.ListPolicies(ctx, txn)
	if err != nil {
		return nil, fmt.Errorf("fleet: store: %w", err)
	}
	sort.Strings(ids)
	modules := map[string]string{}
	for _, id := range ids {
		src, err := store.GetPolicy(ctx, txn, id)
		if err != nil {
			return nil, fmt.Errorf("fleet: store: %w", err)
		}
		if systemModule(src) {
			continue // system.log and the like are OPA's, not cordon's decision
		}
		modules["bundle:"+id] = string(src)
	}
	raw, err := store.Read(ctx, txn, storage.RootPath)
	if err != nil {
		return nil, fmt.Errorf("fleet: store: %w", err)
	}
	if v, ok := raw.(ast.Value); ok {
		if raw, err = ast.JSON(v); err != nil {
			return nil, fmt.Errorf("fleet: store: %w", err)
		}
	}
	data, _ := raw.(map[string]any)
	if data != nil {
		cp := make(map[string]any, len(data))
		for k, v := range data {
			if k != "system" { // OPA's: bundle manifests and the like
				cp[k] = v
			}
		}
		data = cp
	}
	pol, err := policy.New(ctx, policy.Config{
		Capabilities:  p.cfg.Capabilities,
		Modules:       modules,
		Data:          data,
		AllowBuiltins: p.cfg.AllowBuiltins,
		AlwaysRego:    true,
	})
	if err != nil {
		return nil, fmt.Errorf("fleet: bundle %s: %w", revisionOf(names, st.bundles, ""), err)
	}
	st.pol = pol
	st.revision = revisionOf(names, st.bundles, pol.Revision())
	key.WriteString(st.revision)
	key.WriteString("\x00")
	key.WriteString(pol.Revision())
	st.key = key.String()
	return st, nil
}

// bundleNames returns the bundles OPA's configuration names, sorted. It
// reports false while discovery is configured and has not yet configured
// the bundle plugin: a policy without the fleet's bundles must not become
// active in the meantime.
func (p *Policy) bundleNames() ([]string, bool) {
	bp := bundleplugin.Lookup(p.mgr)
	if bp == nil || bp.Config() == nil {
		return nil, p.mgr.Config.Discovery == nil
	}
	names := make([]string, 0, len(bp.Config().Bundles))
	for name := range bp.Config().Bundles {
		names = append(names, name)
	}
	sort.Strings(names)
	return names, true
}

// systemModule reports whether a module's package is under data.system
// (OPA's: decision-log masks and drops), which cordon does not compile
// against its input schema.
func systemModule(src []byte) bool {
	m, err := ast.ParseModuleWithOpts("", string(src), ast.ParserOptions{RegoVersion: ast.RegoV1})
	if err != nil || m == nil || m.Package == nil {
		return false
	}
	return m.Package.Path.HasPrefix(ast.DefaultRootRef.Append(ast.StringTerm("system")))
}

// revisionOf names the active revision: the bundle's manifest revision
// with one bundle, name=revision pairs with several, and the content's
// hash where a manifest has none (or no bundle is configured).
func revisionOf(names []string, bundles map[string]server.BundleInfo, hash string) string {
	if len(names) == 1 {
		if r := bundles[names[0]].Revision; r != "" {
			return r
		}
		return hash
	}
	if len(names) == 0 {
		return hash
	}
	parts := make([]string, len(names))
	for i, n := range names {
		r := bundles[n].Revision
		if r == "" {
			r = hash
		}
		parts[i] = n + "=" + r
	}
	return strings.Join(parts, ",")
}

// Ready is closed once a policy is active.
func (p *Policy) Ready() <-chan struct{} { return p.ready }

// Wait waits until a policy is active, or ctx ends; the error then says
// what was missing.
func (p *Policy) Wait(ctx context.Context) error {
	select {
	case <-p.ready:
		return nil
	case <-ctx.Done():
		if err := p.Err(); err != nil {
			return fmt.Errorf("fleet: no policy is active: %w", err)
		}
		names, _ := p.bundleNames()
		return fmt.Errorf("fleet: no policy is active (bundles not activated yet: %s): %w", strings.Join(names, ", "), ctx.Err())
	}
}

// Err returns why the last bundle was refused, or nil when the last one
// compiled (OPA's own errors, such as a bad signature, are in its status
// and in the bundle plugin's metrics).
func (p *Policy) Err() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.lastErr
}

// Revision returns the active bundle's revision ("" before the first).
// With several bundles it is name=revision pairs, sorted by name.
func (p *Policy) Revision() string {
	if st := p.active.Load(); st != nil {
		return st.revision
	}
	return ""
}

// Policy returns the active prepared policy, or nil before the first.
func (p *Policy) Policy() *policy.Policy {
	if st := p.active.Load(); st != nil {
		return st.pol
	}
	return nil
}

// CapabilityName labels capability i as policy.Policy does.
func (p *Policy) CapabilityName(i int) string {
	caps := p.cfg.Capabilities
	if i < 0 || i >= len(caps) {
		return ""
	}
	if name := caps[i].Name(); name != "" {
		return name
	}
	return fmt.Sprintf("#%d %s", i, caps[i].Pattern())
}

// Capabilities returns the capabilities of the Config, which every bundle
// is compiled with, as policy.Policy.Capabilities does: the tools'
// descriptions and the approval prompts read them.
func (p *Policy) Capabilities() []*dsl.Capability { return p.cfg.Capabilities }

// CountersUnused implements engine.CounterFreePolicy on the active policy
// ([policy.Policy.CountersUnused]): capability i (-1 for none) has no call
// limit and no rule of the active bundle reads the call counters. When the
// counter store fails, the engine then allows the call uncounted, and
// denies every other; before a first bundle is active it reports false.
func (p *Policy) CountersUnused(i int) bool {
	st := p.active.Load()
	if st == nil {
		return false
	}
	return st.pol.CountersUnused(i)
}

// Decide decides one call on the active policy and logs the decision
// through OPA's decision-log plugin, when one is configured, under the id
// ctx carries ([authz.WithDecisionID]) or a new one. Decide waits for no
// network: the log is buffered and uploaded in the background.
func (p *Policy) Decide(ctx context.Context, in *authz.Input) (authz.Decision, error) {
	d, _, err := p.DecideRevision(ctx, in)
	return d, err
}

// DecideRevision is Decide, and also returns the revision that decided
// (which Revision, called before or after, may not be when a new bundle
// is activated meanwhile): the one in the decision log and in Decided.
func (p *Policy) DecideRevision(ctx context.Context, in *authz.Input) (authz.Decision, string, error) {
	st := p.active.Load()
	var d authz.Decision
	var err error
	if st == nil {
		d = authz.Decision{Reasons: []string{"no policy bundle is active yet"}, Capability: -1}
		err = errors.New("fleet: no policy bundle is active yet")
		if e := p.Err(); e != nil {
			err = fmt.Errorf("fleet: no policy bundle is active: %w", e)
		}
	} else {
		d, err = st.pol.Decide(ctx, in)
	}
	id := authz.DecisionID(ctx)
	if id == "" {
		id = newID()
	}
	// Log even a decision whose deadline has passed (the engine denies
	// it): masking is evaluated in memory, and the event must not be lost.
	p.log(context.WithoutCancel(ctx), id, st, in, d, err)
	rev := ""
	if st != nil {
		rev = st.revision
	}
	if p.cfg.Decided != nil {
		p.cfg.Decided(Decided{ID: id, Revision: rev, Method: in.Method, Session: in.Session.ID, Decision: d, Err: err})
	}
	return d, rev, err
}

// log hands one decision to OPA's decision-log plugin: masking and drop
// rules (system.log) run there, then the event joins the buffer.
func (p *Policy) log(ctx context.Context, id string, st *state, in *authz.Input, d authz.Decision, derr error) {
	lp := logs.Lookup(p.mgr)
	if lp == nil {
		return
	}
	info := &server.Info{
		DecisionID: id,
		Path:       DecisionPath,
		Timestamp:  time.Now().UTC(),
		Error:      derr,
	}
	if st != nil {
		info.Revision = st.revision
		info.Bundles = st.bundles
	}
	if v, err := policy.InputValue(in); err == nil {
		if x, err := ast.JSON(v); err == nil {
			var input any = x
			info.Input, info.InputAST = &input, v
		}
	}
	if derr == nil {
		reasons := make([]any, len(d.Reasons))
		for i, r := range d.Reasons {
			reasons[i] = r
		}
		res := map[string]any{"allow": d.Allow, "ask": d.Ask, "reasons": reasons}
		if d.Capability >= 0 {
			res["capability"] = d.Capability
		}
		var result any = res
		info.Results = &result
	}
	if err := lp.Log(ctx, info); err != nil {
		p.metrics.logFailed()
	}
}

// newID returns a random UUID (version 4).
func newID() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	h := hex.EncodeToString(b[:])
	return h[:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:]
}

// Trigger asks OPA's plugins configured with trigger: manual (bundles,
// decision logs, status) to run now: download, upload, report. It returns
// the first error.
func (p *Policy) Trigger(ctx context.Context) error {
	var errs []error
	for _, name := range []string{bundleplugin.Name, logs.Name, "status"} {
		if t, ok := p.mgr.Plugin(name).(plugins.Triggerable); ok {
			if err := t.Trigger(ctx); err != nil {
				errs = append(errs, fmt.Errorf("fleet: %s: %w", name, err))
			}
		}
	}
	return errors.Join(errs...)
}

// Close stops OPA's plugins: the decision-log plugin uploads what it
// buffered, within ctx (and OPA's graceful shutdown period).
// Closing twice is harmless.
func (p *Policy) Close(ctx context.Context) {
	p.closeOnce.Do(func() {
		close(p.done)
		<-p.stopped
		p.opa.Stop(ctx)
		p.cancel()
	})
}
