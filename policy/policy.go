// Package policy decides tool calls. A Policy is the shipped Rego library
// (package cordon.authz, see policy/rego), the capabilities of a DSL config
// compiled to Rego (package cordon.capabilities, see policy/compile), and any
// Rego modules, data documents and OPA bundles the user adds. It is prepared
// once (the expensive part) and then evaluated for every tool call; a Policy
// is safe for concurrent use.
//
// Decisions fail closed: an evaluation error, an undefined result or a
// malformed decision object denies the call with a reason that says so.
//
// A Policy is an engine.Policy. Its input and decision types are package
// policy/authz's, which also decides capabilities alone in Go without
// OPA ([authz.New]): a program that needs no Rego need not import this
// package, nor build OPA.
package policy

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/cordonhq/cordon/dsl"
	"github.com/cordonhq/cordon/policy/authz"
	"github.com/cordonhq/cordon/policy/compile"
	regolib "github.com/cordonhq/cordon/policy/rego"
	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/bundle"
	"github.com/open-policy-agent/opa/v1/loader"
	"github.com/open-policy-agent/opa/v1/rego"
	"github.com/open-policy-agent/opa/v1/storage/inmem"
	"github.com/open-policy-agent/opa/v1/util"
)

// ErrLoad is matched ([errors.Is]) by every error of New: the policy could not
// be loaded or compiled.
var ErrLoad = errors.New("policy: cannot load")

// LoadError says which file or module failed and why.
type LoadError struct {
	Source string // a file, a module name, or "capabilities"
	Err    error
}

// Error formats the error as "policy: SOURCE: ERR".
func (e *LoadError) Error() string { return fmt.Sprintf("policy: %s: %v", e.Source, e.Err) }

// Unwrap returns the cause.
func (e *LoadError) Unwrap() error { return e.Err }

// Is makes errors.Is(err, ErrLoad) true.
func (e *LoadError) Is(target error) bool { return target == ErrLoad }

// Config is what a Policy is made of.
type Config struct {
	// Capabilities are compiled into package cordon.capabilities.
	Capabilities []*dsl.Capability
	// Modules are extra Rego modules (Rego v1), by file name.
	Modules map[string]string
	// Data is merged into the data document.
	Data map[string]any
	// Paths are .rego files, data files (data.json, data.yaml), directories
	// of them (loaded as `opa eval -d DIR` would), or OPA bundles: a .tar.gz
	// file or a directory with a .manifest.
	Paths []string
	// AllowBuiltins names Rego built-in functions that policies may call
	// although they are off by default: the ones that reach the network or
	// are not deterministic (http.send, net.lookup_ip_addr, opa.runtime,
	// time.now_ns, rand.intn, uuid.rfc4122, io.jwt.decode_verify,
	// io.jwt.encode_sign, io.jwt.encode_sign_raw, json.match_schema and
	// json.verify_schema: DisabledBuiltins lists them). A rule that builds
	// a URL from a script's params must not make the host send requests on
	// the script's behalf, and a decision should depend on its input
	// alone. A name that is not one of DisabledBuiltins is an error.
	AllowBuiltins []string
	// AlwaysRego makes every decision one OPA evaluation of the whole
	// policy. Without it, a policy made only of Capabilities (no Modules,
	// Data or Paths) is decided by an equivalent evaluator in Go
	// ([authz.CapabilityPolicy]), which is faster (BENCHMARKS.md has the
	// figures), and a policy with Rego of the user's is decided in two
	// parts: OPA evaluates the user's rules and the Go evaluator the
	// shipped library and the capabilities, unless the user's rules read
	// or extend the library otherwise than by adding to permit, deny and
	// ask. Each is tested to agree with the whole OPA evaluation, reasons
	// included.
	AlwaysRego bool
}

// Policy is a prepared policy.
type Policy struct {
	query    rego.PreparedEvalQuery
	modules  map[string]string
	caps     []*dsl.Capability
	revision string
	native   *authz.CapabilityPolicy // a policy of capabilities alone, decided in Go
	split    *split                  // a policy with the user's Rego, decided in two parts (split.go)

	countersOnce  sync.Once
	readsCounters bool // a user module reads input.calls or input.capability_calls (CountersUnused)
}

// CapabilitiesModule is the file name of the compiled capabilities module.
const CapabilitiesModule = "cordon/capabilities.rego"

// New compiles and prepares a policy.
func New(ctx context.Context, cfg Config) (*Policy, error) {
	for i, c := range cfg.Capabilities {
		if err := c.Validate(); err != nil {
			return nil, &LoadError{Source: fmt.Sprintf("capability %d", i), Err: err}
		}
	}
	capsRego, err := compile.Rego(cfg.Capabilities)
	if err != nil {
		return nil, &LoadError{Source: "capabilities", Err: err}
	}
	modules := map[string]string{CapabilitiesModule: capsRego}
	for name, src := range regolib.Modules() {
		modules[name] = src
	}
	add := func(name, src string) error {
		if _, dup := modules[name]; dup {
			return &LoadError{Source: name, Err: errors.New("a module with this name is already loaded")}
		}
		modules[name] = src
		return nil
	}
	for name, src := range cfg.Modules {
		if err := add(name, src); err != nil {
			return nil, err
		}
	}
	data := map[string]any{}
	if cfg.Data != nil {
		data = deepCopy(cfg.Data)
	}
	for _, p := range cfg.Paths {
		mods, docs, err := loadPath(p)
		if err != nil {
			return nil, err
		}
		for name, src := range mods {
			if err := add(name, src); err != nil {
				return nil, err
			}
		}
		if err := merge(data, docs); err != nil {
			return nil, &LoadError{Source: p, Err: err}
		}
	}

	schemas := ast.NewSchemaSet()
	var schema any
	if err := util.UnmarshalJSON(compile.InputSchema(), &schema); err != nil {
		return nil, &LoadError{Source: "input schema", Err: err}
	}
	schemas.Put(ast.SchemaRootRef, schema)

	names := sortedKeys(modules)
	builtins, err := regoCapabilities(cfg.AllowBuiltins)
	if err != nil {
		return nil, &LoadError{Source: "allow_builtins", Err: err}
	}
	base := []func(*rego.Rego){
		rego.Store(inmem.NewFromObject(data)),
		rego.Schemas(schemas),
		rego.StrictBuiltinErrors(true),
		rego.SetRegoVersion(ast.RegoV1),
		rego.Capabilities(builtins),
	}
	var compiler *ast.Compiler
	opts := append([]func(*rego.Rego){
		rego.Query(regolib.Query),
		rego.CompilerHook(func(c *ast.Compiler) { compiler = c }),
	}, base...)
	for _, name := range names {
		opts = append(opts, rego.Module(name, modules[name]))
	}
	pq, err := rego.New(opts...).PrepareForEval(ctx)
	if err != nil {
		return nil, &LoadError{Source: "compile", Err: disabledBuiltinHint(err, cfg.AllowBuiltins)}
	}

	h := sha256.New()
	for _, name := range names {
		fmt.Fprintf(h, "%s\x00%s\x00", name, modules[name])
	}
	db, _ := json.Marshal(data) // map keys are sorted
	h.Write(db)
	var nat *authz.CapabilityPolicy
	var sp *split
	if !cfg.AlwaysRego {
		if nat, err = authz.New(cfg.Capabilities); err != nil {
			return nil, &LoadError{Source: "capabilities", Err: err}
		}
		if len(cfg.Modules) > 0 || len(cfg.Paths) > 0 || len(cfg.Data) > 0 {
			library := map[string]bool{CapabilitiesModule: true}
			for name := range regolib.Modules() {
				library[name] = true
			}
			sp, nat = newSplit(ctx, compiler, modules, library, data, base, nat), nil
		}
	}
	return &Policy{
		native:   nat,
		split:    sp,
		query:    pq,
		modules:  modules,
		caps:     cfg.Capabilities,
		revision: hex.EncodeToString(h.Sum(nil))[:12],
	}, nil
}

// Revision identifies the policy's content (modules and data): two policies
// with the same revision decide alike. It appears in audit records.
func (p *Policy) Revision() string { return p.revision }

// Modules returns every Rego module of the policy by file name, including
// the shipped library and the compiled capabilities.
func (p *Policy) Modules() map[string]string {
	out := make(map[string]string, len(p.modules))
	for k, v := range p.modules {
		out[k] = v
	}
	return out
}

// Capabilities returns the DSL capabilities the policy was built from (nil
// for a nil Policy). The slice must not be modified.
func (p *Policy) Capabilities() []*dsl.Capability {
	if p == nil {
		return nil
	}
	return p.caps
}

// CapabilityName returns a readable label for capability i (its name, or
// its index and method pattern), or "" when i is out of range.
func (p *Policy) CapabilityName(i int) string {
	if i < 0 || i >= len(p.caps) {
		return ""
	}
	if name := p.caps[i].Name(); name != "" {
		return name
	}
	return fmt.Sprintf("#%d %s", i, p.caps[i].Pattern())
}

// loadPath loads one --policy path.
func loadPath(p string) (map[string]string, map[string]any, error) {
	fi, err := os.Stat(p)
	if err != nil {
		return nil, nil, &LoadError{Source: p, Err: errors.Unwrap(err)}
	}
	isBundle := strings.HasSuffix(p, ".tar.gz") || strings.HasSuffix(p, ".tgz")
	if fi.IsDir() {
		if _, err := os.Stat(filepath.Join(p, ".manifest")); err == nil {
			isBundle = true
		}
	}
	mods := map[string]string{}
	if isBundle {
		b, err := loader.NewFileLoader().WithRegoVersion(ast.RegoV1).AsBundle(p)
		if err != nil {
			return nil, nil, &LoadError{Source: p, Err: err}
		}
		for _, m := range b.Modules {
			mods[bundleName(p, m)] = string(m.Raw)
		}
		return mods, b.Data, nil
	}
	res, err := loader.NewFileLoader().WithRegoVersion(ast.RegoV1).Filtered([]string{p}, func(abspath string, info os.FileInfo, depth int) bool {
		// Skip tests and hidden files, as `opa eval -d` users expect.
		name := info.Name()
		return !info.IsDir() && (strings.HasSuffix(name, "_test.rego") || strings.HasPrefix(name, "."))
	})
	if err != nil {
		return nil, nil, &LoadError{Source: p, Err: err}
	}
	for name, m := range res.Modules {
		mods[name] = string(m.Raw)
	}
	return mods, res.Documents, nil
}

func bundleName(root string, m bundle.ModuleFile) string {
	return root + ":" + m.Path
}

func merge(dst, src map[string]any) error {
	for k, v := range src {
		if existing, ok := dst[k]; ok {
			a, aok := existing.(map[string]any)
			b, bok := v.(map[string]any)
			if !aok || !bok {
				return fmt.Errorf("data key %q is defined twice", k)
			}
			if err := merge(a, b); err != nil {
				return err
			}
			continue
		}
		dst[k] = v
	}
	return nil
}

func deepCopy(m map[string]any) map[string]any {
	b, _ := json.Marshal(m)
	var out map[string]any
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	_ = d.Decode(&out)
	return out
}

func sortedKeys(m map[string]string) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// DisabledBuiltins returns the names of the Rego built-in functions that
// policies may not call unless [Config.AllowBuiltins] names them: those OPA
// marks non-deterministic, which include every one that reaches the
// network.
func DisabledBuiltins() []string {
	var out []string
	for _, b := range ast.CapabilitiesForThisVersion().Builtins {
		if b.Nondeterministic {
			out = append(out, b.Name)
		}
	}
	sort.Strings(out)
	return out
}

// regoCapabilities returns OPA's capabilities for this version without
// the disabled built-ins, except those allowed, and with no network hosts
// unless http.send is allowed.
func regoCapabilities(allow []string) (*ast.Capabilities, error) {
	disabled := map[string]bool{}
	for _, name := range DisabledBuiltins() {
		disabled[name] = true
	}
	allowed := map[string]bool{}
	for _, name := range allow {
		if !disabled[name] {
			return nil, fmt.Errorf("%q is not a built-in that can be allowed (those are: %s)", name, strings.Join(DisabledBuiltins(), ", "))
		}
		allowed[name] = true
	}
	c := ast.CapabilitiesForThisVersion()
	keep := make([]*ast.Builtin, 0, len(c.Builtins))
	for _, b := range c.Builtins {
		if !b.Nondeterministic || allowed[b.Name] {
			keep = append(keep, b)
		}
	}
	c.Builtins = keep
	if !allowed["http.send"] {
		c.AllowNet = []string{}
	}
	return c, nil
}

// disabledBuiltinHint adds to a compile error that calls a disabled
// built-in how to allow it.
func disabledBuiltinHint(err error, allow []string) error {
	msg := err.Error()
	for _, name := range DisabledBuiltins() {
		if strings.Contains(msg, "undefined function "+name) && !slices.Contains(allow, name) {
			return fmt.Errorf("%w (%s is disabled in policies because it reaches the network or is not deterministic; allow it with allow_builtins: [%s] in the config or policy.Config.AllowBuiltins)", err, name, name)
		}
	}
	return err
}
