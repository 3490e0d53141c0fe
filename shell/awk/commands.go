package awk

import (
	"io"
	"sync"
)

// Commands run as "sh -c CMD" through the shell's Exec callback, so that a
// command line is a whole shell script, as with popen and system in C:
// pipelines, redirections, expansions and lists all work.

// shellArgs is the argument vector that runs cmd.
func shellArgs(cmd string) []string { return []string{"sh", "-c", cmd} }

// runCommand runs a command line for system() and "print | cmd", with stdin
// as its input and awk's stdout and stderr, and returns its exit status.
func (in *interp) runCommand(cmd string, stdin io.Reader) int {
	in.out.Flush()
	if in.env.Exec == nil {
		in.warn("cannot run `%s': running commands is not available", cmd)
		return 127
	}
	in.poll()
	return in.env.Exec(in.ctx, shellArgs(cmd), nil, stdin, in.env.Stdout, in.env.Stderr)
}

// system implements system(cmd). The command reads awk's standard input,
// as a C awk's child inherits it.
func (in *interp) system(cmd string) int {
	if in.safe {
		fatal("system is unsafe")
	}
	in.flushAll()
	return in.runCommand(cmd, in.stdin)
}

// lockedReader is awk's standard input, which awk and the commands of
// system() and "cmd | getline" share: a command of "cmd | getline" runs
// while awk reads, so reads are serialized.
type lockedReader struct {
	mu sync.Mutex
	r  io.Reader
}

// Read reads from the shared standard input.
func (l *lockedReader) Read(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.r.Read(p)
}

// cmdInput is the running command of "cmd | getline": it writes into a
// pipe that getline reads, and runs until it ends or the pipe is closed.
type cmdInput struct {
	pr     *io.PipeReader
	done   chan int
	status int
}

// startCommand starts cmd for "cmd | getline". Its standard input is
// awk's; its output streams to the records getline reads.
func (in *interp) startCommand(cmd string) *recReader {
	if in.safe {
		fatal("cmd | getline is unsafe")
	}
	if in.env.Exec == nil {
		in.warn("cannot run `%s': running commands is not available", cmd)
		return nil
	}
	in.flushAll()
	pr, pw := io.Pipe()
	c := &cmdInput{pr: pr, done: make(chan int, 1)}
	exec, ctx, stdin, stderr := in.env.Exec, in.ctx, in.stdin, in.env.Stderr
	go func() {
		status := 2
		defer func() {
			recover() // Exec recovers a command's panic; this is a last guard
			pw.Close()
			c.done <- status
		}()
		status = exec(ctx, shellArgs(cmd), nil, stdin, pw, stderr)
	}()
	return newRecReader(pr, c)
}

// Close stops reading, which stops a command that still writes, and waits
// for it to end.
func (c *cmdInput) Close() error {
	c.pr.Close()
	c.status = <-c.done
	return nil
}
