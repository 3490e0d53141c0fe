package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"runtime/debug"
	"strings"
	"syscall"
	"time"

	"github.com/cordonhq/cordon/codemode"
	"github.com/cordonhq/cordon/config"
	"github.com/cordonhq/cordon/counters"
	"github.com/cordonhq/cordon/engine"
	"github.com/cordonhq/cordon/mcpserver"
	"github.com/cordonhq/cordon/mcptools"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// cmdMCP serves code mode over MCP: stdio by default, streamable HTTP at
// /mcp with --http. It returns when the client ends the stdio session, or
// on SIGINT or SIGTERM, after closing every session.
func cmdMCP(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := newFlagSet("mcp")
	cfgFile := fs.String("config", "", "")
	httpAddr := fs.String("http", "", "")
	maxSessions := fs.Int("max-sessions", 0, "")
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
	if *maxSessions < 0 {
		return usagef("mcp: --max-sessions must be 0 (no limit) or more")
	}
	if idle < 0 {
		return usagef("mcp: --session-idle must be positive (0: never)")
	}

	cfg := config.Default()
	if *cfgFile != "" {
		if cfg, err = config.Load(*cfgFile); err != nil {
			return err
		}
	}
	pol, err := cfg.Policy(ctx, policies)
	if err != nil {
		return err
	}
	warnPolicy(stderr, pol)

	// Upstream MCP servers start once, shared by every session.
	tools, stopUpstreams, err := configTools(ctx, cfg, stderr)
	if err != nil {
		return err
	}
	defer stopUpstreams()

	// Listen before the engine starts, so that a bad address fails fast.
	var ln net.Listener
	if *httpAddr != "" {
		if ln, err = net.Listen("tcp", *httpAddr); err != nil {
			return usagef("mcp: --http %s: %v", *httpAddr, err)
		}
		defer ln.Close()
	}

	// Over stdio, stdout is the protocol: the audit log goes to stderr.
	ecfg := engineConfig(*cacheDir, cfg.Limits.MemoryMB, stderr, *quiet)
	if *logAudit {
		ecfg = ecfg.WithLogger(slog.New(slog.NewJSONHandler(terminalSafe(stderr, false), nil)))
	} else {
		ecfg = ecfg.WithLogger(slog.New(slog.DiscardHandler))
	}
	eng, err := engine.New(ctx, ecfg)
	if err != nil {
		return err
	}
	defer eng.Close(context.Background())

	// Over HTTP any client can open a new session, so counters kept per
	// session would let a client reset its limits by reconnecting: they
	// are kept per principal there unless the config says otherwise.
	counterCfg, scopeSet := cfg.SandboxCounters()
	if ln != nil && !scopeSet {
		counterCfg.Scope = counters.PerPrincipal
	}
	run := codemode.New(eng, tools,
		codemode.WithPolicy(pol),
		codemode.WithCounters(counterCfg),
		codemode.WithLimits(cfg.SandboxLimits()),
		codemode.WithLabels(labels),
		codemode.WithApprover(mcpserver.Elicit),
		codemode.WithIdleTimeout(idle))
	if err := run.Check(ctx); err != nil {
		if engine.KindOf(err) == engine.KindInvalid {
			return usagef("config %s: %v", cfg.File(), err)
		}
		return err
	}
	srv := mcpserver.New(run, mcpserver.Options{Name: "cordon", Version: cordonVersion(), MaxSessions: *maxSessions})

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
		}
		srv.Close(context.Background())
		if err != nil && !errors.Is(err, io.EOF) && ctx.Err() == nil && !isClosedErr(err) {
			return err
		}
		return nil
	}

	mux := http.NewServeMux()
	mux.Handle("/mcp", srv.HTTPHandler(&mcp.StreamableHTTPOptions{SessionTimeout: idle}))
	hs := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	served := make(chan error, 1)
	go func() { served <- hs.Serve(ln) }()
	fmt.Fprintf(stderr, "cordon: serving MCP at http://%s/mcp\n", ln.Addr())
	select {
	case err = <-served:
	case <-ctx.Done():
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

// configTools returns the config's tools: its own (mock and echo), and the
// tools of its upstream MCP servers (mcp_servers), which it starts; stop
// stops them. A server that cannot start is a usage error naming it; a
// tool it leaves out is a warning on stderr. The servers' stderr reaches
// stderr through the writer that neutralizes the script's output on a
// terminal, each line prefixed with the server's name.
func configTools(ctx context.Context, cfg *config.Config, stderr io.Writer) (tools []engine.Tool, stop func(), err error) {
	tools = cfg.EngineTools()
	if len(cfg.MCPServers) == 0 {
		return tools, func() {}, nil
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
	return append(tools, ups.Tools()...), func() { ups.Close(); flushOutput(upErr) }, nil
}
