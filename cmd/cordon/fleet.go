package main

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/cordonhq/cordon/config"
	"github.com/cordonhq/cordon/engine"
	"github.com/cordonhq/cordon/fleet"
	"github.com/open-policy-agent/opa/v1/logging"
	"github.com/prometheus/client_golang/prometheus"
)

// fleetWait bounds how long the CLI waits for the first bundle of an opa:
// config (or the persisted one) before it refuses to start.
const fleetWait = 30 * time.Second

// policyAudit returns the audit hook of an OPA-managed policy, which logs
// the approvals, refusals and failures of calls to the decision log
// beside their decisions ([fleet.Policy.Audit]), or nil for another
// policy.
func policyAudit(pol engine.Policy) func(engine.AuditRecord) {
	if fp, ok := pol.(*fleet.Policy); ok {
		return fp.Audit
	}
	return nil
}

// loadPolicy builds the config's policy: from OPA's management plane when
// the config has opa: (package fleet; reg, if not nil, gets its metrics),
// else with policy.New. The returned func releases it: the decision-log
// plugin uploads what it buffered.
func loadPolicy(ctx context.Context, cfg *config.Config, extraPaths []string, stderr io.Writer, reg prometheus.Registerer) (engine.Policy, func(), error) {
	if cfg.OPA == nil {
		pol, err := cfg.Policy(ctx, extraPaths)
		if err != nil {
			return nil, nil, err
		}
		warnPolicy(stderr, pol)
		return pol, func() {}, nil
	}
	if len(extraPaths) > 0 {
		return nil, nil, usagef("--policy cannot be combined with the config's opa: section: the Rego comes from OPA's bundles")
	}
	logger := logging.New()
	logger.SetOutput(stderr)
	logger.SetLevel(logging.Warn)
	fp, err := fleet.New(ctx, fleet.Config{
		OPA:           cfg.OPA,
		Capabilities:  cfg.CapabilityList(),
		AllowBuiltins: cfg.AllowBuiltins,
		Registerer:    reg,
		Logger:        logger,
	})
	if err != nil {
		return nil, nil, fmt.Errorf("config %s: opa: %w", cfg.File(), err)
	}
	closeFleet := func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		fp.Close(ctx)
	}
	wctx, cancel := context.WithTimeout(ctx, fleetWait)
	defer cancel()
	if err := fp.Wait(wctx); err != nil {
		closeFleet()
		return nil, nil, fmt.Errorf("config %s: opa: %w", cfg.File(), err)
	}
	return fp, closeFleet, nil
}
