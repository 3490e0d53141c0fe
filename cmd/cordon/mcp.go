package main

import (
	"cmp"
	"context"
	"crypto"
	"crypto/tls"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/signal"
	"runtime"
	"runtime/debug"
	"strings"
	"syscall"
	"time"

	"github.com/cordonhq/cordon/codemode"
	"github.com/cordonhq/cordon/config"
	"github.com/cordonhq/cordon/counters"
	"github.com/cordonhq/cordon/engine"
	"github.com/cordonhq/cordon/fleet"
	"github.com/cordonhq/cordon/mcpserver"
	"github.com/cordonhq/cordon/mcptools"
	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/modelcontextprotocol/go-sdk/oauthex"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// cmdMCP serves code mode over MCP: stdio by default, streamable HTTP at
// /mcp with --http. It returns when the client ends the stdio session, or
// on SIGINT or SIGTERM, after closing every session.
func cmdMCP(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := newFlagSet("mcp")
	cfgFile := fs.String("config", "", "")
	var hf httpFlags
	fs.StringVar(&hf.addr, "http", "", "")
	fs.StringVar(&hf.tokenFile, "token-file", "", "")
	principal := fs.String("principal", "", "")
	fs.Func("jwt-key", "", func(s string) error { hf.jwtKeys = append(hf.jwtKeys, s); return nil })
	fs.StringVar(&hf.jwtIssuer, "jwt-issuer", "", "")
	fs.StringVar(&hf.jwtAudience, "jwt-audience", "", "")
	fs.BoolVar(&hf.noAuth, "no-auth", false, "")
	fs.BoolVar(&hf.allowRemote, "allow-remote", false, "")
	fs.StringVar(&hf.tlsCert, "tls-cert", "", "")
	fs.StringVar(&hf.tlsKey, "tls-key", "", "")
	maxSessions := fs.Int("max-sessions", mcpserver.DefaultMaxSessions, "")
	perPrincipal := fs.Int("max-sessions-per-principal", mcpserver.DefaultMaxSessionsPerPrincipal, "")
	sessionMemory := fs.Int("session-memory", mcpserver.DefaultMemoryBudgetMB, "")
	idle := mcpserver.DefaultSessionIdle
	fs.Func("session-idle", "", func(s string) (err error) {
		idle, err = config.ParseDuration(s)
		return err
	})
	logAudit := fs.Bool("log", false, "")
	cacheDir := fs.String("cache-dir", "", "")
	quiet := quietFlag(fs)
	var policies []string
	fs.Func("policy", "", func(s string) error { policies = append(policies, s); return nil })
	var labels map[string]string
	fs.Func("label", "", func(s string) error {
		k, v, ok := strings.Cut(s, "=")
		if !ok || k == "" {
			return fmt.Errorf("want KEY=VALUE, got %q", s)
		}
		if labels == nil {
			labels = map[string]string{}
		}
		labels[k] = v
		return nil
	})
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return flagError("mcp", err)
	}
	if len(pos) > 0 {
		return usagef("mcp: unexpected argument %q", pos[0])
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	switch {
	case *maxSessions < 0:
		return usagef("mcp: --max-sessions must be 0 (no limit) or more")
	case *perPrincipal < 0:
		return usagef("mcp: --max-sessions-per-principal must be 0 (no limit) or more")
	case *sessionMemory < 0:
		return usagef("mcp: --session-memory must be 0 (no limit) or more MiB")
	case idle < 0:
		return usagef("mcp: --session-idle must be positive (0: never)")
	case idle == 0 && hf.addr != "":
		return usagef("mcp: --session-idle 0 (never) is refused with --http: a client that vanishes would hold its session forever")
	}
	if *principal != "" {
		if err := mcpserver.CheckPrincipal(*principal); err != nil {
			return usagef("mcp: --principal: %v", strings.TrimPrefix(err.Error(), "mcpserver: "))
		}
	}
	// The HTTP server's authentication, checked before anything starts.
	var ha *httpAuth
	if hf.addr == "" {
		for _, name := range []string{"token-file", "jwt-key", "jwt-issuer", "jwt-audience", "no-auth", "allow-remote", "tls-cert", "tls-key"} {
			if set[name] {
				return usagef("mcp: --%s needs --http", name)
			}
		}
	} else if ha, err = hf.auth(*principal); err != nil {
		return err
	}

	cfg := config.Default()
	if *cfgFile != "" {
		if cfg, err = config.Load(*cfgFile); err != nil {
			return err
		}
	}
	guestMB := cfg.Limits.MemoryMB
	if guestMB == 0 {
		guestMB = engine.DefaultMemoryMB
	}
	if hf.addr != "" && *sessionMemory > 0 && *sessionMemory < guestMB {
		return usagef("mcp: --session-memory %d MiB is less than one session's guest memory (%d MiB, limits.memory_mb): no session could open", *sessionMemory, guestMB)
	}
	// Over HTTP, /metrics beside /mcp serves the engine's metrics and,
	// with opa:, the OPA-managed policy's.
	metrics := prometheus.NewRegistry()
	pol, closePolicy, err := loadPolicy(ctx, cfg, policies, stderr, metrics)
	if err != nil {
		return err
	}
	defer closePolicy()

	// Listen before anything starts, so that a bad or remote address fails
	// fast.
	var ln net.Listener
	if hf.addr != "" {
		if ln, err = hf.listen(stderr); err != nil {
			return err
		}
		defer ln.Close()
	}

	// Upstream MCP servers start once, shared by every session.
	tools, stopUpstreams, err := configTools(ctx, cfg, stderr)
	if err != nil {
		return err
	}
	defer stopUpstreams()

	// Over stdio, stdout is the protocol: the audit log goes to stderr.
	ecfg := engineConfig(*cacheDir, cfg.Limits.MemoryMB, stderr, *quiet)
	if *logAudit {
		ecfg = ecfg.WithLogger(slog.New(slog.NewJSONHandler(terminalSafe(stderr, false), nil)))
	} else {
		ecfg = ecfg.WithLogger(slog.New(slog.DiscardHandler))
	}
	engineMetrics, err := fleet.NewEngineMetrics(metrics)
	if err != nil {
		return err
	}

	// Over HTTP any client can open a new session, so counters kept per
	// session would let a client reset its limits by reconnecting: they
	// are kept per principal there unless the config says otherwise.
	counterCfg, scopeSet, closeCounters, err := sandboxCounters(ctx, cfg, stderr)
	if err != nil {
		return err
	}
	defer closeCounters()
	switch {
	case ln != nil && !scopeSet:
		counterCfg.Scope = counters.PerPrincipal
	case ln != nil && counterCfg.Scope != counters.PerPrincipal:
		fmt.Fprintf(stderr, "cordon: warning: %s: counters.scope is %s: over HTTP a client resets its call limits by opening a new session; scope principal keeps them\n", cfg.File(), counterCfg.Scope)
	}
	sandboxCfg := engine.SandboxConfig{
		Tools:    tools,
		Policy:   pol,
		Counters: counterCfg,
		Limits:   cfg.SandboxLimits(),
		Labels:   labels,
		Approve:  mcpserver.Elicit,
		Audit:    policyAudit(pol),
	}
	// A configuration that no sandbox could take is refused now, as a
	// sandbox would refuse it (codemode's Check, without a guest).
	check := sandboxCfg
	check.ID, check.Principal = "check", "check"
	if err := engine.CheckSandboxConfig(check, cfg.Limits.MemoryMB); err != nil {
		if engine.KindOf(err) == engine.KindInvalid {
			return usagef("config %s: %v", cfg.File(), err)
		}
		return err
	}

	// The guest compiles, or loads from the cache, while the server
	// answers the handshake (initialize, tools/list, ping), which needs
	// no sandbox: the first call waits for it (RATIONALE.md, "Start").
	eng := &pendingEngine{done: make(chan struct{}), failed: make(chan struct{})}
	defer eng.close()
	run := codemode.NewPending(eng.wait, sandboxCfg, &codemode.Options{IdleTimeout: idle})
	opts := mcpserver.Options{
		Name: "cordon", Version: cordonVersion(),
		MaxSessions:     *maxSessions,
		SessionMemoryMB: guestMB,
		MemoryBudgetMB:  *sessionMemory,
		Principal:       cmp.Or(*principal, "local"),
	}
	if ha != nil {
		opts.Verifier = ha.verifier
		opts.AllowUnauthenticated = hf.noAuth
		opts.ResourceMetadataURL = ha.metadataURL
		opts.Principal = ha.principal
		// With one principal for every client, the bound per principal is
		// --max-sessions; it matters where JWTs name many.
		if set["max-sessions-per-principal"] || len(hf.jwtKeys) > 0 {
			opts.MaxSessionsPerPrincipal = *perPrincipal
		}
	}
	srv := mcpserver.New(run, opts)
	// Everything the handshake needs is ready: the guest now has the
	// cores to itself, but for the server's answers.
	eng.start(ctx, ecfg.WithObserver(engineMetrics.Observe).WithDecisionObserver(engineMetrics.ObserveDecision), engineMetrics)

	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()

	if ln == nil {
		done := make(chan error, 1)
		go func() {
			done <- srv.Run(context.Background(), &mcp.IOTransport{Reader: io.NopCloser(stdin), Writer: nopWriteCloser{stdout}})
		}()
		select {
		case err = <-done:
		case <-ctx.Done():
			srv.Close(context.Background())
			err = <-done
		case <-eng.failed:
			srv.Close(context.Background())
			<-done
			return eng.err
		}
		srv.Close(context.Background())
		if err != nil && !errors.Is(err, io.EOF) && ctx.Err() == nil && !isClosedErr(err) {
			return err
		}
		return nil
	}

	mux := http.NewServeMux()
	mux.Handle("/mcp", srv.HTTPHandler(&mcp.StreamableHTTPOptions{SessionTimeout: idle}))
	// The metrics name the methods scripts call: as closed as /mcp.
	mux.Handle("/metrics", srv.Authenticate(promhttp.HandlerFor(metrics, promhttp.HandlerOpts{})))
	if ha.metadata != nil {
		mux.Handle(ha.metadataPath, auth.ProtectedResourceMetadataHandler(ha.metadata))
	}
	hs := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second, MaxHeaderBytes: 64 << 10}
	scheme := "http"
	if ha.tls != nil {
		hs.TLSConfig = ha.tls
		scheme = "https"
	}
	served := make(chan error, 1)
	go func() {
		if ha.tls != nil {
			served <- hs.ServeTLS(ln, "", "")
		} else {
			served <- hs.Serve(ln)
		}
	}()
	fmt.Fprintf(stderr, "cordon: serving MCP at %s://%s/mcp (%s; %s)\n", scheme, ln.Addr(), ha.describe, describeBounds(opts, idle))
	if ha.warning != "" {
		fmt.Fprintln(stderr, ha.warning)
	}
	if ha.generated != "" {
		fmt.Fprintf(stderr, "cordon: bearer token generated for this run, shown only here (--token-file or $%s sets one): %s\n", tokenEnv, ha.generated)
	}
	select {
	case err = <-served:
	case <-ctx.Done():
	case <-eng.failed:
		err = eng.err
	}
	srv.Close(context.Background())
	sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_ = hs.Shutdown(sctx)
	if err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// pendingEngine is an engine that New is making in the background.
type pendingEngine struct {
	done    chan struct{} // closed when New has returned
	failed  chan struct{} // closed when New has failed
	started bool          // start was called
	eng     *engine.Engine
	err     error
}

// start starts engine.New in the background. The engine's metrics are
// watched once it is ready.
func (p *pendingEngine) start(ctx context.Context, cfg engine.Config, m *fleet.EngineMetrics) {
	p.started = true
	go func() {
		p.eng, p.err = engine.New(context.WithoutCancel(ctx), cfg)
		if p.err != nil {
			close(p.failed)
		} else {
			m.Watch(p.eng)
		}
		close(p.done)
	}()
}

// wait returns the engine once it is ready, or the error that made it
// fail, or ctx's error.
func (p *pendingEngine) wait(ctx context.Context) (*engine.Engine, error) {
	select {
	case <-p.done:
		return p.eng, p.err
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// close waits for the engine, if it was started, and closes it.
func (p *pendingEngine) close() {
	if !p.started {
		return
	}
	<-p.done
	if p.eng != nil {
		p.eng.Close(context.Background())
	}
}

// tokenEnv is the environment variable that holds the bearer token.
const tokenEnv = "CORDON_MCP_TOKEN"

// maxTokenFile bounds the size of a --token-file.
const maxTokenFile = 64 << 10

// httpFlags are cordon mcp's flags for --http.
type httpFlags struct {
	addr                   string
	tokenFile              string
	jwtKeys                []string
	jwtIssuer, jwtAudience string
	noAuth, allowRemote    bool
	tlsCert, tlsKey        string
}

// httpAuth is how the HTTP server authenticates its clients.
type httpAuth struct {
	verifier  auth.TokenVerifier // nil with --no-auth
	principal string             // of a static token, or of --no-auth's clients
	generated string             // a token generated for this run, to print once
	warning   string             // about the token file, to print at start
	describe  string             // for the start-up line
	tls       *tls.Config

	// The protected resource metadata (RFC 9728), served when the JWT
	// audience is the server's URL.
	metadata     *oauthex.ProtectedResourceMetadata
	metadataPath string
	metadataURL  string
}

// auth returns the server's authentication as the flags and the
// environment choose it: JWTs (--jwt-key), a static token (--token-file,
// $CORDON_MCP_TOKEN, or one generated now), or none (--no-auth).
func (hf *httpFlags) auth(principal string) (*httpAuth, error) {
	env := os.Getenv(tokenEnv)
	ha := &httpAuth{}
	switch {
	case hf.noAuth && (hf.tokenFile != "" || len(hf.jwtKeys) > 0):
		return nil, usagef("mcp: --no-auth and --token-file or --jwt-key: choose one")
	case hf.noAuth && env != "":
		return nil, usagef("mcp: --no-auth, but $%s holds a token: unset it or drop --no-auth", tokenEnv)
	case len(hf.jwtKeys) > 0 && (hf.tokenFile != "" || env != ""):
		return nil, usagef("mcp: --jwt-key and a static token (--token-file or $%s): choose one", tokenEnv)
	case len(hf.jwtKeys) == 0 && (hf.jwtIssuer != "" || hf.jwtAudience != ""):
		return nil, usagef("mcp: --jwt-issuer and --jwt-audience need --jwt-key")
	case len(hf.jwtKeys) > 0 && principal != "":
		return nil, usagef("mcp: --principal does not go with --jwt-key: a JWT's principal is its sub claim")
	case (hf.tlsCert == "") != (hf.tlsKey == ""):
		return nil, usagef("mcp: --tls-cert and --tls-key go together")
	}
	if hf.tlsCert != "" {
		cert, err := tls.LoadX509KeyPair(hf.tlsCert, hf.tlsKey)
		if err != nil {
			return nil, usagef("mcp: --tls-cert %s, --tls-key %s: %v", hf.tlsCert, hf.tlsKey, err)
		}
		ha.tls = &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12}
	}
	switch {
	case hf.noAuth:
		ha.principal = cmp.Or(principal, "local")
		ha.describe = "NO AUTHENTICATION"
	case len(hf.jwtKeys) > 0:
		if hf.jwtIssuer == "" || hf.jwtAudience == "" {
			return nil, usagef("mcp: --jwt-key needs --jwt-issuer and --jwt-audience (the MCP specification requires an audience check)")
		}
		var keys []crypto.PublicKey
		for _, f := range hf.jwtKeys {
			data, err := os.ReadFile(f)
			if err != nil {
				return nil, usagef("mcp: --jwt-key: %v", err)
			}
			k, err := mcpserver.ParsePublicKeys(data)
			if err != nil {
				return nil, usagef("mcp: --jwt-key %s: %v", f, strings.TrimPrefix(err.Error(), "mcpserver: "))
			}
			keys = append(keys, k...)
		}
		v, err := mcpserver.JWTVerifier(mcpserver.JWTConfig{Keys: keys, Issuer: hf.jwtIssuer, Audience: hf.jwtAudience, Leeway: mcpserver.DefaultJWTLeeway})
		if err != nil {
			return nil, usagef("mcp: %v", strings.TrimPrefix(err.Error(), "mcpserver: "))
		}
		ha.verifier = v
		ha.describe = fmt.Sprintf("JWTs from %s for %s; the principal is the sub claim", hf.jwtIssuer, hf.jwtAudience)
		if u, err := url.Parse(hf.jwtAudience); err == nil && (u.Scheme == "https" || u.Scheme == "http") && u.Host != "" {
			ha.metadataPath = "/.well-known/oauth-protected-resource" + strings.TrimSuffix(u.EscapedPath(), "/")
			ha.metadataURL = u.Scheme + "://" + u.Host + ha.metadataPath
			ha.metadata = &oauthex.ProtectedResourceMetadata{
				Resource:               hf.jwtAudience,
				AuthorizationServers:   []string{hf.jwtIssuer},
				BearerMethodsSupported: []string{"header"},
			}
		}
	default:
		ha.principal = cmp.Or(principal, "token")
		token, from := env, "$"+tokenEnv
		if hf.tokenFile != "" {
			var err error
			if token, ha.warning, err = readTokenFile(hf.tokenFile); err != nil {
				return nil, err
			}
			from = hf.tokenFile
		}
		if token == "" {
			var err error
			if token, err = mcpserver.GenerateToken(); err != nil {
				return nil, err
			}
			ha.generated, from = token, "generated"
		}
		v, err := mcpserver.StaticToken(token, ha.principal)
		if err != nil {
			return nil, usagef("mcp: the bearer token (%s): %v", from, strings.TrimPrefix(err.Error(), "mcpserver: "))
		}
		ha.verifier = v
		ha.describe = fmt.Sprintf("bearer token from %s, principal %q", from, ha.principal)
	}
	return ha, nil
}

// readTokenFile returns the token in file, without the white space around
// it, and a warning when others than its owner may read the file.
func readTokenFile(file string) (token, warning string, err error) {
	f, err := os.Open(file)
	if err != nil {
		return "", "", usagef("mcp: --token-file: %v", err)
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxTokenFile+1))
	if err != nil {
		return "", "", usagef("mcp: --token-file %s: %v", file, err)
	}
	if len(data) > maxTokenFile {
		return "", "", usagef("mcp: --token-file %s is larger than %d bytes; it should hold one token", file, maxTokenFile)
	}
	token = strings.TrimSpace(string(data))
	if token == "" {
		return "", "", usagef("mcp: --token-file %s is empty", file)
	}
	if st, err := f.Stat(); err == nil && runtime.GOOS != "windows" && st.Mode().Perm()&0o077 != 0 {
		warning = fmt.Sprintf("cordon: warning: --token-file %s may be read by others than its owner (mode %04o); chmod 600 it", file, st.Mode().Perm())
	}
	return token, warning, nil
}

// listen listens on hf.addr and refuses, before serving anything, an
// address beyond this machine without --allow-remote, and --no-auth on
// one. A remote address served without TLS gets a warning on stderr.
func (hf *httpFlags) listen(stderr io.Writer) (net.Listener, error) {
	host, _, err := net.SplitHostPort(hf.addr)
	if err != nil {
		return nil, usagef("mcp: --http %s: %v", hf.addr, err)
	}
	// An address that is no loopback on its face is refused unbound.
	if ip := net.ParseIP(host); host == "" || (ip != nil && !ip.IsLoopback()) {
		if err := hf.checkRemote(hf.addr); err != nil {
			return nil, err
		}
	}
	ln, err := net.Listen("tcp", hf.addr)
	if err != nil {
		return nil, usagef("mcp: --http %s: %v", hf.addr, err)
	}
	// A name is judged by the address it bound.
	if !isLoopback(ln.Addr()) {
		if err := hf.checkRemote(ln.Addr().String()); err != nil {
			ln.Close()
			return nil, err
		}
	}
	if !isLoopback(ln.Addr()) && hf.tlsCert == "" {
		fmt.Fprintf(stderr, "cordon: warning: serving MCP on %s, beyond this machine, without TLS: bearer tokens and scripts cross the network in clear text; give --tls-cert and --tls-key, or serve it behind a TLS proxy\n", ln.Addr())
	}
	if hf.noAuth {
		fmt.Fprintf(stderr, "cordon: WARNING: --no-auth: every process on this machine that can reach %s runs scripts with every tool and credential of the config; use it only for a trusted local test\n", ln.Addr())
	}
	return ln, nil
}

// checkRemote refuses to serve on addr, beyond this machine, unless
// --allow-remote says it is meant; --no-auth never serves there.
func (hf *httpFlags) checkRemote(addr string) error {
	switch {
	case hf.noAuth:
		return usagef("mcp: --no-auth serves only a loopback address (127.0.0.1, ::1, localhost), not %s", addr)
	case !hf.allowRemote:
		return usagef("mcp: --http %s listens beyond this machine; add --allow-remote if that is meant (and --tls-cert/--tls-key, or a TLS proxy), or listen on 127.0.0.1", addr)
	}
	return nil
}

// isLoopback reports whether a is a TCP address on the loopback network.
func isLoopback(a net.Addr) bool {
	ta, ok := a.(*net.TCPAddr)
	return ok && ta.IP.IsLoopback()
}

// describeBounds says the server's session bounds, for the start-up line.
func describeBounds(o mcpserver.Options, idle time.Duration) string {
	n := func(v int, unit string) string {
		if v == 0 {
			return "no limit"
		}
		return fmt.Sprintf("%d%s", v, unit)
	}
	per := "the same per principal"
	if o.MaxSessionsPerPrincipal > 0 {
		per = fmt.Sprintf("%d per principal", o.MaxSessionsPerPrincipal)
	}
	return fmt.Sprintf("sessions: %s at once, %s, %s of guest memory at %d MiB each; closed after %v idle",
		n(o.MaxSessions, ""), per, n(o.MemoryBudgetMB, " MiB"), o.SessionMemoryMB, idle)
}

// cordonVersion is cordon's module version, for the MCP server's info.
func cordonVersion() string {
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" {
		return bi.Main.Version
	}
	return "(devel)"
}

type nopWriteCloser struct{ io.Writer }

func (nopWriteCloser) Close() error { return nil }

// isClosedErr reports whether err only says the connection was closed,
// which is how a stdio session normally ends.
func isClosedErr(err error) bool {
	s := err.Error()
	return strings.Contains(s, "closed") || strings.Contains(s, "EOF")
}

// configTools returns the config's tools: its own (mock and echo), the
// fetch tool of its http section, and the tools of its upstream MCP
// servers (mcp_servers), which it starts, with the flow labels of
// tool_labels added (config.Config.LabelTools); stop stops them. A server
// that cannot start is a usage error naming it; a
// tool it leaves out is a warning on stderr. The servers' stderr reaches
// stderr through the writer that neutralizes the script's output on a
// terminal, each line prefixed with the server's name.
func configTools(ctx context.Context, cfg *config.Config, stderr io.Writer) (tools []engine.Tool, stop func(), err error) {
	tools = cfg.EngineTools()
	if t, ok := cfg.FetchTool(); ok {
		tools = append(tools, t)
	}
	if len(cfg.MCPServers) == 0 {
		return cfg.LabelTools(tools), func() {}, nil
	}
	upErr := terminalSafe(stderr, false)
	ups, err := mcptools.Start(ctx, cfg.MCPServers, mcptools.Options{
		Dir:            cfg.Dir(),
		Stderr:         upErr,
		Client:         &mcp.Implementation{Name: "cordon", Version: cordonVersion()},
		MaxResultBytes: cfg.Limits.MaxResultBytes,
	})
	if err != nil {
		return nil, nil, usagef("config %s: %v", cfg.File(), err)
	}
	for _, w := range ups.Warnings() {
		io.WriteString(upErr, "cordon: warning: config "+cfg.File()+": "+oneLine(w.Error())+"\n")
	}
	flushOutput(upErr)
	return cfg.LabelTools(append(tools, ups.Tools()...)), func() { ups.Close(); flushOutput(upErr) }, nil
}
