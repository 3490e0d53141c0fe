package config_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/cordonhq/cordon/config"
)

// limits.timeout takes a Go duration or a number of seconds, written as a
// number or as a string; anything else says to use a unit.
func TestDurations(t *testing.T) {
	for src, want := range map[string]time.Duration{
		"5s": 5 * time.Second, `"1m30s"`: 90 * time.Second, "5": 5 * time.Second, `"5"`: 5 * time.Second,
		"2.5": 2500 * time.Millisecond, `"0.25"`: 250 * time.Millisecond, "250ms": 250 * time.Millisecond,
	} {
		c, err := config.Parse("c.yaml", []byte("limits: {timeout: "+src+"}\n"))
		if err != nil || time.Duration(c.Limits.Timeout) != want {
			t.Errorf("timeout: %s: %v %v, want %v", src, c, err, want)
		}
	}
	for _, src := range []string{"five", `"5 s"`, "5x", "1e999", "true", "[5]"} {
		_, err := config.Parse("c.yaml", []byte("limits: {timeout: "+src+"}\n"))
		if err == nil || !strings.HasPrefix(err.Error(), "config c.yaml: limits.timeout: ") {
			t.Errorf("timeout: %s: err %v", src, err)
		}
	}
	_, err := config.Parse("c.yaml", []byte("limits: {timeout: five}\n"))
	if err == nil || !strings.Contains(err.Error(), "use a unit, such as 5s") {
		t.Errorf("the error does not say to use a unit: %v", err)
	}
	for s, want := range map[string]time.Duration{"5": 5 * time.Second, "1.5": 1500 * time.Millisecond, "300ms": 300 * time.Millisecond, " 2m ": 2 * time.Minute} {
		if d, err := config.ParseDuration(s); err != nil || d != want {
			t.Errorf("ParseDuration(%q) = %v, %v; want %v", s, d, err, want)
		}
	}
	for _, s := range []string{"", "s", "5 s", "Inf", "NaN", "0x1p-2", "1_000"} {
		if d, err := config.ParseDuration(s); err == nil {
			t.Errorf("ParseDuration(%q) = %v, want an error", s, d)
		}
	}
}

// A config with several errors in its capabilities reports each as an
// error of its own, every one naming the file and the key, so that each
// prints on a line of its own with the same prefix.
func TestSeveralErrorsEachWithItsPrefix(t *testing.T) {
	src := "tools: [{name: a, echo: true}]\ncapabilities:\n  - method: a\n    constraints: [amount <== 5, \"x in 5\"]\n  - method: \"b[[\"\n"
	_, err := config.Parse("c.yaml", []byte(src))
	if err == nil || !errors.Is(err, config.ErrInvalid) {
		t.Fatalf("err %v", err)
	}
	lines := strings.Split(err.Error(), "\n")
	if len(lines) != 3 {
		t.Fatalf("%d lines, want 3: %q", len(lines), err.Error())
	}
	for _, l := range lines {
		if !strings.HasPrefix(l, "config c.yaml: capabilities: capability ") || strings.Contains(l, "dsl:") {
			t.Errorf("line %q", l)
		}
	}
	var ce *config.Error
	if !errors.As(err, &ce) || ce.Key != "capabilities" {
		t.Errorf("errors.As: %+v", ce)
	}
}
