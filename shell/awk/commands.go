package awk

import (
	"io"
	"strings"
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

// system implements system(cmd).
func (in *interp) system(cmd string) int {
	in.flushAll()
	return in.runCommand(cmd, strings.NewReader(""))
}

// cmdInput is the running command of "cmd | getline": it writes into a
// pipe that getline reads, and runs until it ends or the pipe is closed.
type cmdInput struct {
	pr     *io.PipeReader
	done   chan int
	status int
}

// startCommand starts cmd for "cmd | getline". Its standard input is
// empty; its output streams to the records getline reads.
func (in *interp) startCommand(cmd string) *recReader {
	if in.env.Exec == nil {
		in.warn("cannot run `%s': running commands is not available", cmd)
		return nil
	}
	in.flushAll()
	pr, pw := io.Pipe()
	c := &cmdInput{pr: pr, done: make(chan int, 1)}
	exec, ctx, stderr := in.env.Exec, in.ctx, in.env.Stderr
	go func() {
		status := 2
		defer func() {
			recover() // Exec recovers a command's panic; this is a last guard
			pw.Close()
			c.done <- status
		}()
		status = exec(ctx, shellArgs(cmd), nil, strings.NewReader(""), pw, stderr)
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
