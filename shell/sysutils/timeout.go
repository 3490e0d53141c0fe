package sysutils

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/cordonhq/cordon/shell/command"
)

// Exit statuses of timeout.
const (
	timedOut       = 124
	timeoutFailed  = 125
	signalKill     = 9
	signalTerm     = 15
	maxTimeoutSecs = 1 << 31 // longer timeouts are no timeout
)

// signals maps the names timeout accepts to their numbers.
var signals = map[string]int{
	"HUP": 1, "INT": 2, "QUIT": 3, "KILL": 9, "USR1": 10, "USR2": 12, "PIPE": 13,
	"ALRM": 14, "TERM": 15, "CONT": 18, "STOP": 19,
}

// parseSignal parses a signal name (TERM, SIGTERM) or number.
func parseSignal(s string) (name string, num int, ok bool) {
	up := strings.TrimPrefix(strings.ToUpper(s), "SIG")
	if n, ok := signals[up]; ok {
		return up, n, true
	}
	if n, err := strconv.Atoi(s); err == nil {
		for name, v := range signals {
			if v == n {
				return name, n, true
			}
		}
		if n > 0 && n < 65 {
			return s, n, true
		}
	}
	return "", 0, false
}

// parseDuration parses GNU timeout's DURATION: a non-negative
// floating-point number with an optional unit s, m, h or d.
func parseDuration(s string) (time.Duration, bool) {
	mult := 1.0
	num := s
	if n := len(s); n > 0 {
		switch s[n-1] {
		case 's':
			num = s[:n-1]
		case 'm':
			num, mult = s[:n-1], 60
		case 'h':
			num, mult = s[:n-1], 3600
		case 'd':
			num, mult = s[:n-1], 86400
		}
	}
	if num == "" || strings.ContainsAny(num, "+ \t") || strings.HasPrefix(num, "0x") || strings.HasPrefix(num, "0X") {
		return 0, false
	}
	f, err := strconv.ParseFloat(num, 64)
	if err != nil || f < 0 || math.IsNaN(f) {
		return 0, false
	}
	secs := f * mult
	if secs >= maxTimeoutSecs {
		return 0, true
	}
	d := time.Duration(secs * float64(time.Second))
	if d == 0 && secs > 0 {
		d = time.Nanosecond
	}
	return d, true
}

// deadlineCtx is the context timeout gives the command: done when the
// parent is, or when the deadline passes. Err checks the clock itself,
// since on WebAssembly the timer behind a context may not run while a
// command loops polling Err.
type deadlineCtx struct {
	context.Context
	parent   context.Context
	deadline time.Time
	expired  atomic.Bool
}

// Err returns the parent's error, or DeadlineExceeded once the deadline
// has passed.
func (c *deadlineCtx) Err() error {
	if err := c.parent.Err(); err != nil {
		return err
	}
	if c.expired.Load() {
		return context.DeadlineExceeded
	}
	if !time.Now().Before(c.deadline) {
		c.expired.Store(true)
		return context.DeadlineExceeded
	}
	return c.Context.Err()
}

// cmdTimeout implements timeout [-s SIGNAL] [-k DURATION] [-v]
// [--preserve-status] [--foreground] DURATION COMMAND [ARG]...: it runs
// COMMAND through the shell (Env.Exec) with a context that ends after
// DURATION, which stops the command (commands poll their context), and
// exits with status 124, or with --preserve-status 128 plus the signal's
// number; with -s KILL the status is 137, as when GNU's timeout is killed.
// The command is also bounded by the execution's own limit, since its
// context derives from Env.Ctx. Signals are not delivered: -s only
// selects the status and the -v message, and -k is accepted but has no
// further effect, every command stopping at the first deadline.
func cmdTimeout(env *command.Env) int {
	opts, operands, err := command.Getopt(env.Args[1:], "s:k:v", []string{"signal=", "kill-after=", "verbose", "preserve-status", "foreground"}, true)
	if err != nil {
		return env.Usage(timeoutFailed, err.Error(), "")
	}
	sigName, sigNum := "TERM", signalTerm
	verbose, preserve := false, false
	for _, o := range opts {
		switch o.Name {
		case "s", "signal":
			name, num, ok := parseSignal(o.Value)
			if !ok {
				return env.Usage(timeoutFailed, fmt.Sprintf("%s: invalid signal", quote(o.Value)), "")
			}
			sigName, sigNum = name, num
		case "k", "kill-after":
			if _, ok := parseDuration(o.Value); !ok {
				return env.Usage(timeoutFailed, fmt.Sprintf("invalid time interval %s", quote(o.Value)), "")
			}
		case "v", "verbose":
			verbose = true
		case "preserve-status":
			preserve = true
		}
	}
	if len(operands) < 2 {
		fmt.Fprintf(env.Stderr, "Try '%s --help' for more information.\n", env.Args[0])
		return timeoutFailed
	}
	d, ok := parseDuration(operands[0])
	if !ok {
		return env.Usage(timeoutFailed, fmt.Sprintf("invalid time interval %s", quote(operands[0])), "")
	}
	args := operands[1:]
	if env.Exec == nil {
		return env.Errorf(timeoutFailed, "cannot run commands here")
	}
	if env.Lookup != nil {
		if err := env.Lookup(args[0]); err != nil {
			st := 126
			if errors.Is(err, fs.ErrNotExist) {
				st = 127
			}
			return env.Errorf(st, "failed to run command %s: %s", quote(args[0]), command.Strerror(err))
		}
	}
	if d == 0 {
		return env.Exec(env.Ctx, args, nil, env.Stdin, env.Stdout, env.Stderr)
	}
	deadline := time.Now().Add(d)
	inner, cancel := context.WithDeadline(env.Ctx, deadline)
	defer cancel()
	ctx := &deadlineCtx{Context: inner, parent: env.Ctx, deadline: deadline}
	st := env.Exec(ctx, args, nil, env.Stdin, env.Stdout, env.Stderr)
	if command.Err(env.Ctx) != nil {
		return command.StatusCanceled
	}
	if ctx.Err() == nil {
		return st
	}
	if verbose {
		fmt.Fprintf(env.Stderr, "%s: sending signal %s to command %s\n", env.Args[0], sigName, quote(args[0]))
	}
	switch {
	case sigNum == signalKill:
		return 128 + signalKill
	case preserve:
		return 128 + sigNum
	}
	return timedOut
}
