package engine

// Policy returns the policy that decided the call: the sandbox's
// [SandboxConfig.Policy], or nil for the default policy (and for a Call
// that did not come from an Execution). With Info().CapabilityIndex it
// tells an Approver which capability the call was charged to, and so
// which params that capability's constraints read; package approval uses
// it to show those params first.
func (c *Call) Policy() Policy {
	if c == nil || c.x == nil || c.x.sb == nil {
		return nil
	}
	return c.x.sb.policy
}
