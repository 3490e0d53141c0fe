package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"

	"github.com/cordonhq/cordon/approval"
	"github.com/cordonhq/cordon/engine"
)

// The modes of `cordon run --approve`: what happens to a call the policy
// asks about.
const (
	approveAsk   = "ask"   // show the call and ask the person at the terminal
	approveDeny  = "deny"  // deny it without asking
	approveAllow = "allow" // run it without asking
)

// approveMode returns the --approve mode in effect: the flag's, or, when
// it is unset, "ask" when the person can be asked (stdin and stderr are
// terminals, and the script does not come from stdin) and "deny"
// otherwise.
func approveMode(flag string, stdin io.Reader, stderr io.Writer, scriptFromStdin bool) (string, error) {
	switch flag {
	case approveAsk, approveDeny, approveAllow:
		return flag, nil
	case "":
	default:
		return "", usagef("run: --approve must be ask, deny or allow, not %q", flag)
	}
	in, ok := stdin.(*os.File)
	if !scriptFromStdin && ok && fileIsTerminal(in) && isTerminal(stderr) {
		return approveAsk, nil
	}
	return approveDeny, nil
}

// cliApprover answers the calls the policy asks about under mode. In
// "ask" mode each call is shown on out as package approval renders it
// (every param, the script's and the policy's text quoted), one at a time,
// and the answer is read from in: "y" or "yes" approves, anything else
// (or the end of input, or the time limit) refuses. A call that cannot be
// shown in full is refused without asking.
func cliApprover(mode string, in io.Reader, out io.Writer) engine.Approver {
	switch mode {
	case approveAllow:
		return func(_ context.Context, c *engine.Call) (bool, string) {
			return true, "approved without asking (--approve allow)"
		}
	case approveDeny:
		return func(_ context.Context, c *engine.Call) (bool, string) {
			return false, "approval required (" + strings.Join(c.Reasons, "; ") + ") and denied without asking: run with --approve ask on a terminal to be asked"
		}
	}
	p := &prompter{in: in, out: out, lines: make(chan string)}
	return approval.NewApprover(approval.Limits{}, p.ask)
}

// prompter asks one question at a time and reads the answers from one
// goroutine, so that a question left unanswered at the time limit does not
// take the next question's answer.
type prompter struct {
	mu    sync.Mutex
	in    io.Reader
	out   io.Writer
	once  sync.Once   // starts the reader at the first question
	lines chan string // closed at the end of input
}

func (p *prompter) read() {
	sc := bufio.NewScanner(p.in)
	for sc.Scan() {
		p.lines <- sc.Text()
	}
	close(p.lines)
}

func (p *prompter) ask(ctx context.Context, _ *engine.Call, r *approval.Request) (bool, string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.once.Do(func() { go p.read() })
	fmt.Fprintf(p.out, "\ncordon: approval needed\n%s [y/N] ", r.Text)
	select {
	case line, ok := <-p.lines:
		if !ok {
			fmt.Fprintln(p.out)
			return false, "not approved: the prompt's input ended"
		}
		switch strings.ToLower(strings.TrimSpace(line)) {
		case "y", "yes":
			return true, "approved at the prompt"
		}
		return false, "not approved at the prompt"
	case <-ctx.Done():
		fmt.Fprintln(p.out, "\ncordon: no answer before the time limit (--timeout); the call is refused")
		return false, "not approved: no answer before the time limit"
	}
}
