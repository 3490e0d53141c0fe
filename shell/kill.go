package shell

import (
	"fmt"
	"strconv"
	"strings"
)

// signalNames are Linux's signal names by number (without "SIG"); 32 and
// 33 have none, 34 to 64 are the real-time signals.
var signalNames = func() []string {
	n := []string{"", "HUP", "INT", "QUIT", "ILL", "TRAP", "ABRT", "BUS", "FPE", "KILL", "USR1",
		"SEGV", "USR2", "PIPE", "ALRM", "TERM", "STKFLT", "CHLD", "CONT", "STOP", "TSTP",
		"TTIN", "TTOU", "URG", "XCPU", "XFSZ", "VTALRM", "PROF", "WINCH", "IO", "PWR", "SYS", "", ""}
	for i := 34; i <= 64; i++ {
		switch {
		case i == 34:
			n = append(n, "RTMIN")
		case i == 64:
			n = append(n, "RTMAX")
		case i < 50:
			n = append(n, "RTMIN+"+strconv.Itoa(i-34))
		default:
			n = append(n, "RTMAX-"+strconv.Itoa(64-i))
		}
	}
	return n
}()

// signalNumber parses a signal given by name (TERM, SIGTERM, term) or
// number; -1 when it is none.
func signalNumber(s string) int {
	if n, err := strconv.Atoi(s); err == nil {
		if n >= 0 && n < len(signalNames) && (n == 0 || signalNames[n] != "") {
			return n
		}
		return -1
	}
	up := strings.TrimPrefix(strings.ToUpper(s), "SIG")
	if up == "EXIT" {
		return 0
	}
	for i, name := range signalNames {
		if name != "" && name == up {
			return i
		}
	}
	return -1
}

// shellPID is $$ and $BASHPID: the shell's made-up process ID.
const shellPID = 4242

// signalTerm is SIGTERM, kill's default signal.
const signalTerm = 15

// killUsage prints kill's usage line.
func (r *runner) killUsage() int {
	fmt.Fprintln(r.stderr(), "kill: usage: kill [-s sigspec | -n signum | -sigspec] pid | jobspec ... or kill -l [sigspec]")
	return 2
}

// killBuiltin is kill: it lists signals (-l, -L) and reports job specs
// and process IDs that name nothing as bash does; sending a signal to a
// job that is running is not supported (the sandbox has no signals).
func killBuiltin(r *runner, args []string) int {
	a := args[1:]
	if len(a) == 0 {
		return r.killUsage()
	}
	list, sig := false, signalTerm
	for len(a) > 0 && len(a[0]) > 1 && a[0][0] == '-' {
		w := a[0]
		switch {
		case w == "--":
			a = a[1:]
			goto targets
		case w == "-l" || w == "-L":
			list = true
			a = a[1:]
		case w == "-s" || w == "-n":
			if len(a) < 2 {
				r.builtinErr(2, "kill", "%s: option requires an argument", w)
				return r.killUsage()
			}
			if sig = signalNumber(a[1]); sig < 0 {
				return r.builtinErr(1, "kill", "%s: invalid signal specification", a[1])
			}
			a = a[2:]
			goto targets
		default:
			if sig = signalNumber(w[1:]); sig < 0 {
				return r.builtinErr(1, "kill", "%s: invalid signal specification", w[1:])
			}
			a = a[1:]
			goto targets
		}
	}
	if list {
		return r.killList(a)
	}
targets:
	if len(a) == 0 {
		return r.killUsage()
	}
	st := 0
	for _, id := range a {
		if strings.HasPrefix(id, "%") {
			if r.findJob(id) < 0 {
				st = r.builtinErr(1, "kill", "%s: no such job", id)
				continue
			}
		} else if n, ok := legalNumber(id); !ok {
			st = r.builtinErr(1, "kill", "%s: arguments must be process or job IDs", id)
			continue
		} else if n != shellPID && r.findJob(strconv.Itoa(n)) < 0 {
			st = r.builtinErr(1, "kill", "(%s) - No such process", id)
			continue
		}
		if sig == 0 {
			// Signal 0 only asks whether the process is there: the
			// shell itself, or a job not yet waited for.
			continue
		}
		st = r.builtinErr(1, "kill", "signals are not supported in this sandbox")
	}
	return st
}

// killList implements kill -l: the table of signals, or the name of
// each number (an exit status above 128 names its signal) and the number
// of each name.
func (r *runner) killList(a []string) int {
	if len(a) == 0 {
		var b strings.Builder
		k := 0
		for i, name := range signalNames {
			if name == "" {
				continue
			}
			k++
			fmt.Fprintf(&b, "%2d) SIG%s", i, name)
			if k%5 == 0 {
				b.WriteByte('\n')
			} else {
				b.WriteByte('\t')
			}
		}
		if k%5 != 0 {
			b.WriteByte('\n')
		}
		fmt.Fprint(r.stdout(), b.String())
		return 0
	}
	st := 0
	for _, w := range a {
		if n, err := strconv.Atoi(w); err == nil {
			if n > 128 {
				n -= 128
			}
			if n == 0 {
				fmt.Fprintln(r.stdout(), "EXIT")
				continue
			}
			if n < 0 || n >= len(signalNames) || signalNames[n] == "" {
				st = r.builtinErr(1, "kill", "%s: invalid signal specification", w)
				continue
			}
			fmt.Fprintln(r.stdout(), signalNames[n])
			continue
		}
		n := signalNumber(w)
		if n < 0 {
			st = r.builtinErr(1, "kill", "%s: invalid signal specification", w)
			continue
		}
		fmt.Fprintln(r.stdout(), n)
	}
	return st
}
