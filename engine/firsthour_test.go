package engine_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/cordonhq/cordon/engine"
	"github.com/cordonhq/cordon/engine/enginetest"
	"github.com/cordonhq/cordon/policy/authz"
)

// A script whose time limit has passed before it finishes is a timeout,
// every time, even when it finishes before the stop request reaches it:
// in JavaScript and in the shell, with the machine busy.
func TestExpiredTimeLimitIsAlwaysATimeout(t *testing.T) {
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for range 2 { // load: the guest and the timer compete for the CPU
		wg.Add(1)
		go func() {
			defer wg.Done()
			spins := 0
			for {
				select {
				case <-stop:
					return
				default:
					spins++ // keep the CPU busy
				}
			}
		}()
	}
	defer func() { close(stop); wg.Wait() }()
	rounds := 100
	if testing.Short() {
		rounds = 20
	}
	for _, timeout := range []time.Duration{time.Nanosecond, time.Microsecond} {
		sb := enginetest.NewSandbox(t, engine.SandboxConfig{Limits: engine.Limits{Timeout: timeout}})
		for i := range rounds {
			for _, lang := range []engine.Language{engine.JavaScript, engine.Shell} {
				code := "return 1"
				if lang == engine.Shell {
					code = "echo 1"
				}
				res, err := sb.Execute(context.Background(), lang, code)
				if !errors.Is(err, engine.ErrTimeout) {
					t.Fatalf("timeout %v, round %d, %s: err %v, stdout %q: want a timeout", timeout, i, lang, err, res.Stdout)
				}
			}
		}
	}
}

// A deadline that passes while a handler runs, or while the policy
// decides, is a timeout too, whatever the script does afterwards.
func TestDeadlineDuringACallIsATimeout(t *testing.T) {
	slow := engine.Tool{Name: "slow", Handler: func(ctx context.Context, _ json.RawMessage) (any, error) {
		time.Sleep(30 * time.Millisecond) // ignores ctx
		return "done", nil
	}}
	sb := enginetest.NewSandbox(t, engine.SandboxConfig{Tools: []engine.Tool{slow}, Limits: engine.Limits{Timeout: 10 * time.Millisecond}})
	for range 10 {
		_, err := sb.Execute(context.Background(), engine.JavaScript, `try { await slow({}) } catch (e) {} return 1`)
		if !errors.Is(err, engine.ErrTimeout) {
			t.Fatalf("err %v, want a timeout", err)
		}
	}
	pol := &sleepyPolicy{d: 30 * time.Millisecond}
	sb = enginetest.NewSandbox(t, engine.SandboxConfig{Tools: []engine.Tool{enginetest.Echo("e")}, Policy: pol, Limits: engine.Limits{Timeout: 10 * time.Millisecond}})
	for range 10 {
		_, err := sb.Execute(context.Background(), engine.JavaScript, `try { await e({}) } catch (e) {} return 1`)
		if !errors.Is(err, engine.ErrTimeout) {
			t.Fatalf("slow policy: err %v, want a timeout", err)
		}
	}
}

// Lowering the memory limit needs no other setting: the VFS quota and the
// result limit default to what fits. A VFS quota set explicitly past what
// the memory holds is refused, naming both values.
func TestSmallMemoryLimitWorksOnItsOwn(t *testing.T) {
	for _, mb := range []int{engine.MinMemoryMB, 64, 128} {
		eng, err := engine.New(context.Background(), engine.NewConfig().WithMemoryLimitMB(mb))
		if err != nil {
			t.Fatalf("%d MiB: %v", mb, err)
		}
		sb, err := eng.NewSandbox(context.Background(), engine.SandboxConfig{})
		if err != nil {
			t.Fatalf("%d MiB with default limits: %v", mb, err)
		}
		for _, lang := range []engine.Language{engine.JavaScript, engine.Shell} {
			code := map[engine.Language]string{engine.JavaScript: "return 6*7", engine.Shell: "echo $((6*7))"}[lang]
			res, err := sb.Execute(context.Background(), lang, code)
			if err != nil || strings.TrimSpace(res.Stdout) != "42" {
				t.Errorf("%d MiB, %s: %q, %v", mb, lang, res.Stdout, err)
			}
		}
		sb.Close(context.Background())
		_, err = eng.NewSandbox(context.Background(), engine.SandboxConfig{Limits: engine.Limits{VFSBytes: engine.MaxVFSBytes(mb) + 1}})
		if !errors.Is(err, engine.ErrInvalid) || !strings.Contains(err.Error(), "Limits.VFSBytes") || !strings.Contains(err.Error(), "memory limit") {
			t.Errorf("%d MiB, VFSBytes past a third: %v", mb, err)
		}
		if _, err := eng.NewSandbox(context.Background(), engine.SandboxConfig{Limits: engine.Limits{VFSBytes: engine.MaxVFSBytes(mb)}}); err != nil {
			t.Errorf("%d MiB, VFSBytes at a third: %v", mb, err)
		}
		eng.Close(context.Background())
	}
	for _, mb := range []int{engine.MinMemoryMB - 1, engine.MaxMemoryMB + 1} {
		if _, err := engine.New(context.Background(), engine.NewConfig().WithMemoryLimitMB(mb)); !errors.Is(err, engine.ErrInvalid) {
			t.Errorf("%d MiB: %v, want invalid", mb, err)
		}
	}
}

// sleepyPolicy allows every call after sleeping d, ignoring ctx.
type sleepyPolicy struct{ d time.Duration }

func (p *sleepyPolicy) Decide(context.Context, *authz.Input) (authz.Decision, error) {
	time.Sleep(p.d)
	return authz.Decision{Allow: true, Capability: -1}, nil
}
func (p *sleepyPolicy) Revision() string          { return "sleepy" }
func (p *sleepyPolicy) CapabilityName(int) string { return "" }

// The result limit derives from the memory limit too: a guest with little
// memory is refused a result it could not hold (too_large, the sandbox
// stays usable), and one with the default memory takes it.
func TestResultLimitFollowsMemory(t *testing.T) {
	big := engine.Tool{Name: "big", Handler: func(context.Context, json.RawMessage) (any, error) {
		return strings.Repeat("x", 4<<20), nil
	}}
	for _, c := range []struct {
		mb   int
		want string
	}{{engine.MinMemoryMB, "too_large"}, {engine.DefaultMemoryMB, "4194304"}} {
		eng, err := engine.New(context.Background(), engine.NewConfig().WithMemoryLimitMB(c.mb))
		if err != nil {
			t.Fatal(err)
		}
		sb, err := eng.NewSandbox(context.Background(), engine.SandboxConfig{Tools: []engine.Tool{big}})
		if err != nil {
			t.Fatal(err)
		}
		res, err := sb.Execute(context.Background(), engine.JavaScript, `try { return (await big({})).length } catch (e) { return e.kind }`)
		if err != nil || strings.TrimSpace(res.Stdout) != c.want {
			t.Errorf("%d MiB: %q, %v; want %s", c.mb, res.Stdout, err, c.want)
		}
		if res, err := sb.Execute(context.Background(), engine.JavaScript, `return 1`); err != nil || res.Stdout != "1\n" {
			t.Errorf("%d MiB: the sandbox after the call: %q, %v", c.mb, res.Stdout, err)
		}
		sb.Close(context.Background())
		eng.Close(context.Background())
	}
}
