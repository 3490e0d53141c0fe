package enginetest

import (
	"time"

	"github.com/cordonhq/cordon/engine"
	"github.com/cordonhq/cordon/internal/slack"
)

// guestBaseline is the script Slack times: pure computation in the guest,
// about GuestReference on the reference machine.
const guestBaseline = `let x = 0; for (let i = 0; i < 10000; i++) x = (x + i * 7) % 1000003; return x`

// GuestReference is how long one run of Slack's guest baseline takes on
// the reference machine: two shared x86-64 cores, no race detector.
const GuestReference = 20 * time.Millisecond

// Slack returns how many times longer than on the reference machine work
// takes in this run, to scale a test's upper time bounds by ("a script
// stopped within 1 s of its limit" becomes within Slack(t) seconds). It
// measures two baselines now, a script in a sandbox of the shared engine
// and the same host-side work as package internal/slack times, and
// returns the larger factor: at least 1, at most 20. A busy machine, a
// slow one, or the race detector (which slows the host's Go, not the
// guest's compiled code) raise it; a fast machine gets 1, so bounds never
// shrink. Lower bounds ("the timeout did not fire early") are not scaled.
// $CORDON_TEST_SLACK, a number of at least 1, replaces the measurement.
func Slack(tb TB) float64 {
	tb.Helper()
	if f, ok := slack.Override(tb); ok {
		return f
	}
	host := slack.Factor(tb)
	sb := NewSandbox(tb, engine.SandboxConfig{})
	Run(tb, sb, guestBaseline) // the first run compiles what the others reuse
	guest := slack.Measure(tb, GuestReference, func() { Run(tb, sb, guestBaseline) })
	return max(host, guest)
}

// Scale returns d multiplied by Slack(tb).
func Scale(tb TB, d time.Duration) time.Duration {
	tb.Helper()
	return slack.Times(d, Slack(tb))
}
