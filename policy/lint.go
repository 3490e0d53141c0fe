package policy

import "github.com/cordonhq/cordon/dsl"

// Warnings returns what [dsl.Lint] finds in the policy's capabilities: later
// capabilities that let through calls an earlier one constrains, limits or
// asks about, and capabilities that are never used. It is computed on each
// call, from the capabilities alone: the policy's Rego rules are not taken
// into account (a deny rule may close what a warning describes).
func (p *Policy) Warnings() []dsl.Warning {
	return dsl.Lint(p.caps)
}
