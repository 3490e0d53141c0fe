package slack_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/cordonhq/cordon/internal/slack"
)

// A fast operation gets factor 1: bounds never shrink.
func TestMeasureNeverShrinks(t *testing.T) {
	t.Setenv(slack.Env, "")
	if f := slack.Measure(t, time.Hour, func() {}); f != 1 {
		t.Errorf("factor %v for an operation far under its reference, want 1", f)
	}
}

// An operation that takes five times its reference gets about 5, and one
// that takes far longer is held at MaxFactor.
func TestMeasureScales(t *testing.T) {
	t.Setenv(slack.Env, "")
	f := slack.Measure(t, 2*time.Millisecond, func() { time.Sleep(10 * time.Millisecond) })
	if f < 5 || f > slack.MaxFactor {
		t.Errorf("factor %v for an operation of 5 times its reference", f)
	}
	if f := slack.Measure(t, time.Microsecond, func() { time.Sleep(time.Millisecond) }); f != slack.MaxFactor {
		t.Errorf("factor %v, want it held at %d", f, slack.MaxFactor)
	}
}

// The environment variable replaces the measurement: the operation does
// not run.
func TestMeasureFromEnv(t *testing.T) {
	t.Setenv(slack.Env, "3.5")
	ran := false
	if f := slack.Measure(t, time.Millisecond, func() { ran = true }); f != 3.5 || ran {
		t.Errorf("factor %v (operation ran: %v), want 3.5 from $%s", f, ran, slack.Env)
	}
	if d := slack.Scale(t, 2*time.Second); d != 7*time.Second {
		t.Errorf("Scale(2s) = %v, want 7s", d)
	}
}

// fatalTB records a Fatalf instead of stopping the test.
type fatalTB struct{ fatal string }

func (f *fatalTB) Helper()                        {}
func (f *fatalTB) Logf(string, ...any)            {}
func (f *fatalTB) Fatalf(format string, a ...any) { f.fatal = fmt.Sprintf(format, a...) }

// A knob set wrong fails the test rather than passing silently.
func TestMeasureRefusesABadEnv(t *testing.T) {
	for _, v := range []string{"fast", "0.5", "NaN", "-2"} {
		t.Setenv(slack.Env, v)
		tb := &fatalTB{}
		slack.Measure(tb, time.Millisecond, func() {})
		if tb.fatal == "" {
			t.Errorf("$%s=%q was accepted", slack.Env, v)
		}
	}
}

// The baseline runs, and its factor is in range.
func TestFactor(t *testing.T) {
	t.Setenv(slack.Env, "")
	if f := slack.Factor(t); f < 1 || f > slack.MaxFactor {
		t.Errorf("factor %v", f)
	}
	if d := slack.Times(time.Second, 2.5); d != 2500*time.Millisecond {
		t.Errorf("Times(1s, 2.5) = %v", d)
	}
}
