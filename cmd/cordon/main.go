// Command cordon runs agent-written scripts in a cordon sandbox.
//
//	cordon run [flags] [FILE | -]   run a script (-e CODE for inline code)
//	cordon mcp [flags]              serve code mode to MCP clients
//	cordon replay [flags] TRACE     run a recorded execution again (cordon run --record)
//	cordon policy SUBCOMMAND        compile, lint, test or replay a policy, or write its input schema
//	cordon describe [flags]         describe the tools for a model
//	cordon precompile               fill the compilation cache
//	cordon version                  print the versions of cordon and its parts
//	cordon help [COMMAND]           print the usage (as COMMAND --help does)
//
// The commands that build a sandbox (run, mcp, precompile) say on stderr
// when they compile it (the first run, or a new cache) and when that ends,
// unless -q or --quiet is given.
//
// `cordon run` exits with the script's status (JS: 0, or 1 on an uncaught
// error), 124 when the script ran past its time limit, 125 when the sandbox
// failed otherwise (out of memory, crash), and 2 for a usage or
// configuration error, printed on stderr as one line per error.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"time"

	"github.com/cordonhq/cordon/config"
	"github.com/cordonhq/cordon/dsl"
	"github.com/cordonhq/cordon/engine"
	"github.com/cordonhq/cordon/policy"
	"github.com/cordonhq/cordon/policy/compile"
)

// Exit statuses besides the script's own.
const (
	exitUsage   = 2
	exitTimeout = 124
	exitSandbox = 125
)

// usageError is a bad flag, file or config: exit 2 with one line.
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

func usagef(format string, args ...any) error {
	return &usageError{msg: fmt.Sprintf(format, args...)}
}

const usage = `usage:
  cordon run [flags] [FILE | -]   run a script in a sandbox (-e CODE for inline code)
  cordon replay [--continue-live [--config CONFIG] [--policy PATH]...] [--json] TRACE
                                  run the execution that run --record wrote again, with its
                                  tool answers, clock and random values: the same output and
                                  exit status, or exit 3 when the script diverges from the
                                  trace (both calls shown), 4 when its output differs
  cordon policy compile CONFIG    print the Rego the config's capabilities compile to
                                  (lint warnings go to stderr)
  cordon policy lint CONFIG       warn where a later capability lets through calls an
                                  earlier one constrains, limits or asks about (exit 1)
  cordon policy test [--config CONFIG] [-v] PATH...
                                  run *_test.rego files like 'opa test' (the shipped
                                  library and the config's compiled capabilities included),
                                  type-checked against the input schema as loading is;
                                  -v lists every test, not only the failures
  cordon policy schema [-o FILE]  write the JSON Schema of the policy input, for stock OPA
                                  in CI: opa check --strict --schema FILE, opa test --schema FILE
  cordon policy replay [--config CONFIG] [--policy PATH]... [--json] [--max-changes N] FILE...
                                  decide the calls of traces or audit logs (run --log) again
                                  under a candidate policy and report what changes (exit 1
                                  when a decision changes)
  cordon describe [--config FILE] [--format prompt|ts|json] [--lang js|sh] [--max-bytes N]
                  [--no-example]  describe the tools for a model: rules, TypeScript
                                  declarations, shell usage, an example (prompt, the default)
  cordon mcp [--config FILE] [--policy PATH]... [--label K=V]... [--log] [--http ADDR] [-q]
                                  serve run_javascript and run_shell to MCP clients: over
                                  stdio, or streamable HTTP at http://ADDR/mcp with a bearer
                                  token; one sandbox per session (mcp flags below)
  cordon precompile [--cache-dir DIR] [-q]
                                  compile the sandbox into the cache (-q: print nothing
                                  unless it fails)
  cordon help [COMMAND]           show this help (the same as COMMAND --help)
  cordon version                  print the versions of cordon, its guest, goja, wazero and OPA

run flags:
  -e CODE          code to run instead of a file
  --lang js|sh     language (default: from the file extension, else js)
  --config FILE    sandbox config, YAML or JSON (default: a built-in demo config)
  --policy PATH    extra Rego file, data file, directory or OPA bundle (repeatable)
  --label K=V      a session label the policy sees as input.session.labels (repeatable)
  --principal NAME who the run acts for, as input.session.principal sees it (default "local")
  --allow-host HOST[:PORT]  let fetch, curl and wget reach HOST (on PORT, else any port):
                   enables network egress, and a capability allows the host; a private
                   address or localhost is allowed by its literal name (repeatable)
  --approve MODE   a call the policy asks about: ask (show it and read y/N on the terminal),
                   deny, or allow without asking (default: ask on a terminal, else deny);
                   the wait counts against --timeout
  --timeout D      time limit per execution: 5s, 500ms, 1m, or a number of seconds
                   (default 5s, or the config's)
  --memory MB      guest memory limit in MiB (default 256, or the config's)
  --max-output N   bytes of stdout, and of stderr, before the script is stopped (default 1 MiB)
  --max-tool-calls N  tool calls per execution (default 1000)
  --max-param-bytes N, --max-result-bytes N  size of one tool call's params / result (default 1 MiB / 8 MiB)
  --vfs-bytes N, --vfs-files N  file-system quotas (default 64 MiB / 10000 files)
  --max-depth N    JS call stack frames and shell function nesting (default 1000)
  --json           print one JSON object (and a newline) with the output, the exit
                   code, the script's value and the tool calls
  --max-record-bytes N  bytes of each tool call's params and result that --json
                   prints; a larger value is replaced by an excerpt (default 4096)
  --raw-output     write the script's output to a terminal as it is (by default escape
                   sequences and other control characters are shown escaped, as \u001b)
  --log            write the audit log (one JSON line per decision) to stderr
  --record FILE    write the run's trace to FILE: the script, each tool call with its
                   decision and result, the clock and random values, the output (docs/replay.md)
  --cache-dir DIR  compilation cache (default: $CORDON_CACHE_DIR or the user cache dir)
  --snapshot-in FILE   start from a snapshot that --snapshot-out wrote: its files, call
                   counters, labels (unless --label) and principal (docs/snapshots.md)
  --snapshot-out FILE  after the run, write the sandbox's files and call counters to FILE
  -q, --quiet      do not say on stderr that the sandbox is being compiled (which a
                   first run does, saying when it starts and when it ends, with the time)

mcp flags (docs/mcp-http.md):
  --config, --policy, --label, --log, --cache-dir, -q   as for run (the audit log and
                   the compile lines go to stderr)
  --principal NAME   the principal of stdio sessions (default local) or of the static
                   bearer token (default token); the policy sees it
  --session-idle D close a session's sandbox after D without a call, and over HTTP the
                   session itself (default 30m; 0: never, refused with --http)
  --http ADDR      serve streamable HTTP at http://ADDR/mcp instead of stdio; every request
                   needs Authorization: Bearer TOKEN, else 401
  --token-file FILE  the bearer token (default: $CORDON_MCP_TOKEN, else one generated and
                   printed once on stderr)
  --jwt-key FILE   accept JWTs signed by the PEM public key(s) in FILE instead (repeatable;
                   needs --jwt-issuer ISS and --jwt-audience AUD); the sub claim is the principal
  --no-auth        no authentication: loopback only, with a warning
  --allow-remote   listen on an address beyond loopback (refused without it)
  --tls-cert FILE, --tls-key FILE  serve HTTPS
  --max-sessions N sessions open at once (default 16; 0: no limit)
  --max-sessions-per-principal N  sessions of one principal (default 4 with JWTs, else
                   --max-sessions; 0: no limit)
  --session-memory MIB  guest memory of all sessions, each counted at limits.memory_mb
                   (default 4096: 16 sessions of 256 MiB; 0: no limit)
`

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	code := run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return exitUsage
	}
	var err error
	code := 0
	switch args[0] {
	case "run":
		code, err = cmdRun(ctx, args[1:], stdin, stdout, stderr)
	case "describe":
		err = cmdDescribe(ctx, args[1:], stdout, stderr)
	case "mcp":
		err = cmdMCP(ctx, args[1:], stdin, stdout, stderr)
	case "precompile":
		err = cmdPrecompile(ctx, args[1:], stdout, stderr)
	case "policy":
		code, err = cmdPolicy(ctx, args[1:], stdout, stderr)
	case "replay":
		code, err = cmdReplay(ctx, args[1:], stdout, stderr)
	case "help", "-h", "-help", "--help":
		if args[0] == "help" && len(args) > 1 && !isHelp(args[1]) {
			// `cordon help CMD [SUB]` is `cordon CMD [SUB] --help`.
			return run(ctx, append(args[1:len(args):len(args)], "--help"), stdin, stdout, stderr)
		}
		fmt.Fprint(stdout, usage)
	case "version", "--version":
		err = cmdVersion(args[1:], stdout)
	default:
		err = usagef("unknown command %q (commands: run, mcp, replay, policy, describe, precompile, version, help)", args[0])
	}
	var help *helpRequest
	if errors.As(err, &help) {
		fmt.Fprint(stdout, help.text())
		return 0
	}
	if err != nil {
		var ue *usageError
		if errors.As(err, &ue) || errors.Is(err, config.ErrInvalid) || errors.Is(err, policy.ErrLoad) {
			printError(stderr, err)
			return exitUsage
		}
		printError(stderr, err)
		if code == 0 {
			code = exitSandbox
		}
	}
	return code
}

// isHelp reports whether arg asks for help: help, -h, -help or --help.
func isHelp(arg string) bool {
	switch arg {
	case "help", "-h", "-help", "--help":
		return true
	}
	return false
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// printError prints err on stderr, neutralized on a terminal (it may quote
// the script or the config): one line, or, for several errors joined
// (errors.Join; a config with several mistakes), one line each, every one
// with the same prefix.
func printError(stderr io.Writer, err error) {
	w := terminalSafe(stderr, false)
	for _, e := range joinedErrors(err) {
		io.WriteString(w, "cordon: "+oneLine(e.Error())+"\n")
	}
	flushOutput(w)
}

// joinedErrors returns the errors that err joins (errors.Join, at any
// depth), or err itself.
func joinedErrors(err error) []error {
	j, ok := err.(interface{ Unwrap() []error })
	if !ok {
		return []error{err}
	}
	var out []error
	for _, e := range j.Unwrap() {
		out = append(out, joinedErrors(e)...)
	}
	return out
}

// parseInterspersed parses flags that may come before or after positional
// arguments.
func parseInterspersed(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		if fs.NArg() == 0 {
			return pos, nil
		}
		rest := fs.Args()
		if len(args) > 0 && len(rest) < len(args) && args[len(args)-len(rest)-1] == "--" {
			return append(pos, rest...), nil
		}
		pos = append(pos, rest[0])
		args = rest[1:]
	}
}

// onFlagSet, when a test sets it, is told of every flag set a command
// makes, so that the test can hold docs/cli.md to the flags defined.
var onFlagSet func(*flag.FlagSet)

func newFlagSet(name string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	if onFlagSet != nil {
		onFlagSet(fs)
	}
	return fs
}

func flagError(cmd string, err error) error {
	if errors.Is(err, flag.ErrHelp) {
		return &helpRequest{cmd: cmd}
	}
	return usagef("%s: %v (see `cordon help`)", cmd, err)
}

// cacheDirEnv is the environment variable that names the compilation
// cache directory when --cache-dir does not.
const cacheDirEnv = "CORDON_CACHE_DIR"

// engineConfig is the engine's config for a command that builds one. Unless
// quiet, the engine says on stderr when it compiles the sandbox (a first run,
// or a new cache directory) and when that ends, with the time it took,
// whether stderr is a terminal or not: a first run that takes seconds, or a
// `go run` on a busy machine that takes minutes, is never silent. stdout
// is left alone: it is the script's output, the --json object, or the MCP
// protocol.
func engineConfig(cacheDir string, memoryMB int, stderr io.Writer, quiet bool) engine.Config {
	cfg := engine.NewConfig()
	if cacheDir == "" {
		cacheDir = os.Getenv(cacheDirEnv)
	}
	if cacheDir != "" {
		cfg = cfg.WithCacheDir(cacheDir)
	}
	if memoryMB > 0 {
		cfg = cfg.WithMemoryLimitMB(memoryMB)
	}
	if !quiet {
		cfg = cfg.WithCompileProgress(stderr)
	}
	return cfg
}

// quietFlag defines -q and --quiet on fs, for the commands that build an
// engine (see engineConfig).
func quietFlag(fs *flag.FlagSet) *bool {
	quiet := fs.Bool("quiet", false, "")
	fs.BoolVar(quiet, "q", false, "")
	return quiet
}

func cmdPrecompile(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("precompile")
	cacheDir := fs.String("cache-dir", "", "")
	quiet := quietFlag(fs)
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return flagError("precompile", err)
	}
	if len(pos) > 0 {
		return usagef("precompile: unexpected argument %q", pos[0])
	}
	start := time.Now()
	if err := engine.Precompile(ctx, engineConfig(*cacheDir, 0, stderr, *quiet)); err != nil {
		return err
	}
	if *quiet {
		return nil
	}
	fmt.Fprintf(stdout, "cordon: sandbox compiled and cached in %v\n", time.Since(start).Round(time.Millisecond))
	return nil
}

type runFlags struct {
	code     string
	codeSet  bool
	lang     string
	config   string
	timeout  time.Duration
	memoryMB int
	limits   engine.Limits // flags that override the config's limits
	json     bool
	cacheDir string
	policies []string
	labels   map[string]string
	// allowHosts are the --allow-host hosts scripts may reach.
	allowHosts []string
	// principal is who the run acts for (input.session.principal).
	principal string
	// approve is the --approve mode: ask, deny, allow, or "" (ask on a
	// terminal, else deny).
	approve string
	log     bool
	// maxRecord bounds each tool call's params and result in --json
	// (engine.DefaultExcerptBytes when 0).
	maxRecord int
	// rawOutput writes the script's output to a terminal unneutralized.
	rawOutput bool
	// quiet leaves out the lines that say the sandbox is being compiled.
	quiet *bool
	// snapshotIn and snapshotOut are the --snapshot-in and --snapshot-out
	// files: a session continued across runs.
	snapshotIn, snapshotOut string
	// principalSet is whether --principal was given: without it a
	// snapshot's principal is kept.
	principalSet bool
	// record is the --record file the run's trace is written to.
	record string
}

// checkVFSFits refuses a VFS quota that the memory limit cannot hold,
// naming where each value came from: a flag, the config file, or the
// default. A quota nobody set is derived from the memory limit (see
// engine.Limits) and is never refused.
func checkVFSFits(vfsBytes int64, vfsFlag bool, memoryMB int, memoryFlag bool, configFile string) error {
	if vfsBytes == 0 {
		return nil
	}
	mem := memoryMB
	if mem == 0 {
		mem = engine.DefaultMemoryMB
	}
	max := engine.MaxVFSBytes(mem)
	if vfsBytes <= max {
		return nil
	}
	vfsFrom := "--vfs-bytes"
	if !vfsFlag {
		vfsFrom = "limits.vfs_bytes in " + configFile
	}
	memFrom := fmt.Sprintf("the default memory limit (%d MiB)", mem)
	switch {
	case memoryFlag:
		memFrom = fmt.Sprintf("--memory %d", mem)
	case memoryMB > 0:
		memFrom = fmt.Sprintf("limits.memory_mb %d in %s", mem, configFile)
	}
	return usagef("run: %s %d is more than a third of %s: set at most %d, or leave the VFS quota unset to take what fits", vfsFrom, vfsBytes, memFrom, max)
}

// defaultPrincipal is the principal of `cordon run` and of `cordon mcp`
// over stdio when --principal does not name one: the local user who
// started the process.
const defaultPrincipal = "local"

func cmdRun(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) (int, error) {
	var f runFlags
	fs := newFlagSet("run")
	fs.Func("e", "", func(s string) error { f.code, f.codeSet = s, true; return nil })
	fs.StringVar(&f.lang, "lang", "", "")
	fs.StringVar(&f.config, "config", "", "")
	fs.Func("timeout", "", func(s string) (err error) {
		// A bare number is seconds, as in the config (config.ParseDuration).
		f.timeout, err = config.ParseDuration(s)
		return err
	})
	fs.IntVar(&f.memoryMB, "memory", 0, "")
	fs.IntVar(&f.limits.MaxOutputBytes, "max-output", 0, "")
	fs.IntVar(&f.limits.MaxToolCalls, "max-tool-calls", 0, "")
	fs.IntVar(&f.limits.MaxParamBytes, "max-param-bytes", 0, "")
	fs.IntVar(&f.limits.MaxResultBytes, "max-result-bytes", 0, "")
	fs.Int64Var(&f.limits.VFSBytes, "vfs-bytes", 0, "")
	fs.IntVar(&f.limits.VFSFiles, "vfs-files", 0, "")
	fs.IntVar(&f.limits.MaxCallDepth, "max-depth", 0, "")
	fs.BoolVar(&f.json, "json", false, "")
	fs.BoolVar(&f.log, "log", false, "")
	fs.IntVar(&f.maxRecord, "max-record-bytes", 0, "")
	fs.BoolVar(&f.rawOutput, "raw-output", false, "")
	fs.StringVar(&f.cacheDir, "cache-dir", "", "")
	fs.Func("principal", "", func(s string) error { f.principal, f.principalSet = s, true; return nil })
	fs.StringVar(&f.snapshotIn, "snapshot-in", "", "")
	fs.StringVar(&f.snapshotOut, "snapshot-out", "", "")
	fs.StringVar(&f.approve, "approve", "", "")
	fs.StringVar(&f.record, "record", "", "")
	f.quiet = quietFlag(fs)
	fs.Func("policy", "", func(s string) error { f.policies = append(f.policies, s); return nil })
	fs.Func("allow-host", "", func(s string) error { f.allowHosts = append(f.allowHosts, s); return nil })
	fs.Func("label", "", func(s string) error {
		k, v, ok := strings.Cut(s, "=")
		if !ok || k == "" {
			return fmt.Errorf("want KEY=VALUE, got %q", s)
		}
		if f.labels == nil {
			f.labels = map[string]string{}
		}
		f.labels[k] = v
		return nil
	})
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return 0, flagError("run", err)
	}
	if f.principalSet && f.principal == "" {
		return 0, usagef("run: --principal must not be empty")
	}
	if f.timeout < 0 {
		return 0, usagef("run: --timeout must be positive")
	}
	if f.memoryMB != 0 && (f.memoryMB < engine.MinMemoryMB || f.memoryMB > engine.MaxMemoryMB) {
		return 0, usagef("run: --memory must be between %d and %d (MiB)", engine.MinMemoryMB, engine.MaxMemoryMB)
	}
	if l := f.limits; l.MaxOutputBytes < 0 || l.MaxToolCalls < 0 || l.MaxParamBytes < 0 || l.MaxResultBytes < 0 || l.VFSBytes < 0 || l.VFSFiles < 0 || l.MaxCallDepth < 0 {
		return 0, usagef("run: limits must be positive numbers")
	}
	if f.maxRecord < 0 {
		return 0, usagef("run: --max-record-bytes must be positive")
	}
	if f.maxRecord == 0 {
		f.maxRecord = engine.DefaultExcerptBytes
	}
	var name, code string
	switch {
	case f.codeSet && len(pos) > 0:
		return 0, usagef("run: give either -e CODE or a FILE, not both")
	case f.codeSet:
		name, code = "[eval]", f.code
	case len(pos) == 0:
		return 0, usagef("run: nothing to run: give a FILE, - for stdin, or -e CODE")
	case len(pos) > 1:
		return 0, usagef("run: one FILE at a time (got %d)", len(pos))
	case pos[0] == "-":
		b, err := io.ReadAll(io.LimitReader(stdin, 64<<20))
		if err != nil {
			return 0, usagef("run: reading stdin: %v", err)
		}
		name, code = "[stdin]", string(b)
	default:
		b, err := os.ReadFile(pos[0])
		if err != nil {
			return 0, usagef("run: cannot read %s: %v", pos[0], errors.Unwrap(err))
		}
		name, code = scriptName(pos[0]), string(b)
	}
	lang, err := pickLang(f.lang, name)
	if err != nil {
		return 0, err
	}
	cfg := config.Default()
	if f.config != "" {
		if cfg, err = config.Load(f.config); err != nil {
			return 0, err
		}
	}
	if len(f.allowHosts) > 0 && len(f.policies) == 0 {
		// A config without a policy allows its tools; the capabilities
		// --allow-host adds must not take that away.
		cfg.AllowTools()
	}
	for _, h := range f.allowHosts {
		if err := cfg.AllowHost(h); err != nil {
			return 0, usagef("run: %v", err)
		}
	}
	pol, closePolicy, err := loadPolicy(ctx, cfg, f.policies, stderr, nil)
	if err != nil {
		return 0, err
	}
	defer closePolicy()
	limits := cfg.SandboxLimits()
	if f.timeout > 0 {
		limits.Timeout = f.timeout
	}
	override := func(dst *int, v int) {
		if v > 0 {
			*dst = v
		}
	}
	override(&limits.MaxOutputBytes, f.limits.MaxOutputBytes)
	override(&limits.MaxToolCalls, f.limits.MaxToolCalls)
	override(&limits.MaxParamBytes, f.limits.MaxParamBytes)
	override(&limits.MaxResultBytes, f.limits.MaxResultBytes)
	override(&limits.VFSFiles, f.limits.VFSFiles)
	override(&limits.MaxCallDepth, f.limits.MaxCallDepth)
	if f.limits.VFSBytes > 0 {
		limits.VFSBytes = f.limits.VFSBytes
	}
	memoryMB := cfg.Limits.MemoryMB
	if f.memoryMB > 0 {
		memoryMB = f.memoryMB
	}
	if err := checkVFSFits(limits.VFSBytes, f.limits.VFSBytes > 0, memoryMB, f.memoryMB > 0, cfg.File()); err != nil {
		return 0, err
	}
	ecfg := engineConfig(f.cacheDir, memoryMB, stderr, *f.quiet)
	if f.log {
		// The engine bounds each record's params (engine.Excerpt).
		ecfg = ecfg.WithLogger(slog.New(slog.NewJSONHandler(terminalSafe(stderr, f.rawOutput), nil)))
	} else {
		ecfg = ecfg.WithLogger(slog.New(slog.DiscardHandler))
	}
	eng, err := engine.New(ctx, ecfg)
	if err != nil {
		return 0, err
	}
	defer eng.Close(context.Background())
	tools, stopUpstreams, err := configTools(ctx, cfg, stderr)
	if err != nil {
		return 0, err
	}
	defer stopUpstreams()
	counterCfg, _, closeCounters, err := sandboxCounters(ctx, cfg, stderr)
	if err != nil {
		return 0, err
	}
	defer closeCounters()
	mode, err := approveMode(f.approve, stdin, stderr, len(pos) > 0 && pos[0] == "-")
	if err != nil {
		return 0, err
	}
	snapshot, err := readSnapshot(f.snapshotIn, limits)
	if err != nil {
		return 0, err
	}
	if !f.principalSet && snapshot == nil {
		f.principal = defaultPrincipal
	}
	sb, err := eng.NewSandbox(ctx, engine.SandboxConfig{Tools: tools, Limits: limits, Policy: pol, Labels: f.labels,
		Principal: f.principal, Counters: counterCfg, Approve: cliApprover(mode, stdin, stderr), Audit: policyAudit(pol),
		Snapshot: snapshot})
	if err != nil {
		if errors.Is(err, engine.ErrSnapshot) {
			return 0, usagef("run: --snapshot-in %s: %v", f.snapshotIn, err)
		}
		if engine.KindOf(err) == engine.KindInvalid {
			return 0, usagef("config %s: %v", cfg.File(), err)
		}
		return 0, err
	}
	defer sb.Close(context.Background())
	if r := sb.Restored(); r != nil && r.PolicyChanged {
		fmt.Fprintf(stderr, "cordon: warning: --snapshot-in %s was taken under another policy (revision %s): its call counts are kept\n",
			f.snapshotIn, r.Snapshot.PolicyRevision)
	}
	rec, err := startRecording(f.record)
	if err != nil {
		return 0, err
	}
	defer rec.abandon()
	// Without --json the output streams as the script writes it, to
	// stdout and stderr in the order it wrote them; on a terminal it is
	// neutralized: it may hold escape sequences that set the clipboard or
	// the window title, or rewrite the screen.
	opts := []engine.ExecuteOption{engine.WithScriptName(name)}
	if rec != nil {
		opts = append(opts, rec.option())
	}
	var streamOut, streamErr io.Writer
	if !f.json {
		streamOut, streamErr = terminalSafe(stdout, f.rawOutput), terminalSafe(stderr, f.rawOutput)
		opts = append(opts, engine.WithStdout(streamOut), engine.WithStderr(streamErr))
	}
	res, execErr := execute(ctx, sb, lang, code, opts...)
	flushOutput(streamOut)
	flushOutput(streamErr)
	if res == nil {
		return 0, execErr
	}
	if err := rec.finish(); err != nil {
		return exitSandbox, err
	}
	if f.snapshotOut != "" && sb.Err() != nil {
		fmt.Fprintf(stderr, "cordon: warning: --snapshot-out %s not written: the sandbox broke\n", f.snapshotOut)
	} else if f.snapshotOut != "" {
		if err := writeSnapshot(ctx, sb, f.snapshotOut); err != nil {
			return exitSandbox, err
		}
	}
	exit := exitStatus(res, execErr)
	// JSON stays the same JSON when neutralized (see neutralize).
	if f.json {
		if err := writeJSON(terminalSafe(stdout, f.rawOutput), res, execErr, exit, f.maxRecord); err != nil {
			return exitSandbox, err
		}
		return exit, nil
	}
	if execErr != nil {
		printError(stderr, execErr)
	}
	return exit, nil
}

// exitStatus is the exit status of a run that ended with res and execErr:
// the script's, 124 past its time limit, 125 when the sandbox failed.
func exitStatus(res *engine.Result, execErr error) int {
	switch engine.KindOf(execErr) {
	case "":
		return res.ExitCode
	case engine.KindTimeout:
		return exitTimeout
	}
	return exitSandbox
}

func pickLang(flagLang, name string) (engine.Language, error) {
	switch flagLang {
	case string(engine.JavaScript), "javascript", "node":
		return engine.JavaScript, nil
	case string(engine.Shell), "bash", "shell":
		return engine.Shell, nil
	case "":
	default:
		return "", usagef("run: unknown --lang %q (supported: js, sh)", flagLang)
	}
	switch strings.ToLower(filepath.Ext(name)) {
	case ".sh", ".bash":
		return engine.Shell, nil
	}
	return engine.JavaScript, nil
}

func cmdPolicy(ctx context.Context, args []string, stdout, stderr io.Writer) (int, error) {
	if len(args) == 0 {
		return 0, usagef("policy: give a subcommand: compile, lint, test, schema or replay")
	}
	switch args[0] {
	case "-h", "--help", "-help", "help":
		if args[0] == "help" && len(args) > 1 && !isHelp(args[1]) {
			// `cordon policy help SUB` is `cordon policy SUB --help`.
			return cmdPolicy(ctx, append(args[1:len(args):len(args)], "--help"), stdout, stderr)
		}
		return 0, &helpRequest{cmd: "policy"}
	case "compile":
		fs := newFlagSet("policy compile")
		pos, err := parseInterspersed(fs, args[1:])
		if err != nil {
			return 0, flagError("policy compile", err)
		}
		if len(pos) != 1 {
			return 0, usagef("policy compile: give one CONFIG file")
		}
		cfg, err := config.Load(pos[0])
		if err != nil {
			return 0, err
		}
		src, err := compile.Rego(cfg.ParsedCapabilities())
		if err != nil {
			return 0, usagef("policy compile: %v", err)
		}
		warnLint(stderr, pos[0], cfg.ParsedCapabilities())
		io.WriteString(stdout, src)
		return 0, nil
	case "lint":
		return cmdPolicyLint(args[1:], stdout)
	case "test":
		fs := newFlagSet("policy test")
		cfgFile := fs.String("config", "", "")
		verbose := fs.Bool("v", false, "")
		pos, err := parseInterspersed(fs, args[1:])
		if err != nil {
			return 0, flagError("policy test", err)
		}
		if len(pos) == 0 {
			return 0, usagef("policy test: give one or more PATHs with *_test.rego files")
		}
		var caps []*dsl.Capability
		if *cfgFile != "" {
			cfg, err := config.Load(*cfgFile)
			if err != nil {
				return 0, err
			}
			caps = cfg.ParsedCapabilities()
		}
		results, err := policy.RunTests(ctx, pos, caps)
		if err != nil {
			return 0, err
		}
		pass, fail := 0, 0
		for _, r := range results {
			if r.Pass() {
				pass++
			} else {
				fail++
			}
			if *verbose || !r.Pass() {
				fmt.Fprintln(stdout, strings.TrimSpace(r.String()))
			}
		}
		fmt.Fprintf(stdout, "PASS: %d/%d\n", pass, pass+fail)
		if fail > 0 || pass == 0 {
			if pass+fail == 0 {
				fmt.Fprintln(stderr, "cordon: policy test: no tests found")
			}
			return 1, nil
		}
		return 0, nil
	case "schema":
		return 0, cmdPolicySchema(args[1:], stdout)
	case "replay":
		return cmdPolicyReplay(ctx, args[1:], stdout, stderr)
	}
	return 0, usagef("policy: unknown subcommand %q (compile, lint, test, schema, replay)", args[0])
}

// cmdPolicySchema writes the JSON Schema of the policy input
// (compile.InputSchema), the one policies are type-checked against when
// they load and in cordon policy test, to stdout or to the file -o names:
// given to stock OPA as a file (opa check --schema FILE, opa test --schema
// FILE), it makes them refuse what loading refuses. (A directory given to
// --schema defines schema.NAME documents for annotations, not the input's.)
func cmdPolicySchema(args []string, stdout io.Writer) error {
	fs := newFlagSet("policy schema")
	out := fs.String("o", "", "")
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return flagError("policy schema", err)
	}
	if len(pos) != 0 {
		return usagef("policy schema: takes no arguments (-o FILE writes the schema to FILE)")
	}
	if *out == "" {
		_, err := stdout.Write(compile.InputSchema())
		return err
	}
	if err := os.WriteFile(*out, compile.InputSchema(), 0o644); err != nil {
		return usagef("policy schema: %v", err)
	}
	return nil
}
