package shell

import (
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"time"

	"mvdan.cc/sh/v3/syntax"
)

// Background jobs. "cmd &" runs cmd in a subshell on a goroutine of its own
// and goes on at once with status 0; $! is the job's process ID (a number
// the shell makes up: there are no processes). As bash does without job
// control, the job's standard input is empty when it would be the script's
// own (a job inside a pipeline stage or a redirection reads that). wait waits for every job,
// "wait PID" or "wait %N" for one (its status is the job's), "wait -n" for
// the next to end. Jobs run concurrently with the script and with each
// other: the guest has one thread, so they take turns whenever one blocks
// (a pipe, a tool call, sleep), and a tool call made by several jobs at
// once goes to the host as one batch, which the host runs in parallel.
// The output of jobs interleaves write by write. The shell (or subshell)
// that started a job waits for it before it ends, so that no job outlives
// the script and its output is all in the result; the execution's time
// limit bounds a job that never ends.

// job is a background job.
type job struct {
	pid    int
	num    int // the job number (%N)
	text   string
	done   chan struct{}
	status int
}

// maxJobs bounds the background jobs a shell keeps at once.
const maxJobs = 256

// background starts st as a background job.
func (r *runner) background(st *syntax.Stmt) {
	if len(r.jobs) >= maxJobs {
		r.errf("fork: too many background jobs (%d)", maxJobs)
		r.status = 1
		return
	}
	if int(r.sh.stages.Add(1)) > maxStages {
		r.sh.stages.Add(-1)
		r.errf("fork: too many concurrent pipeline stages (%d)", maxStages)
		r.status = 1
		return
	}
	fg := *st
	fg.Background = false
	child := r.subshell()
	if r.fds[0] == r.sh.stdin {
		child.fds[0] = &fdesc{r: strings.NewReader("")}
	}
	r.jobNum++
	j := &job{pid: int(r.sh.pids.Add(1)), num: r.jobNum, text: wordSourceNode(&fg), done: make(chan struct{})}
	r.jobs = append(r.jobs, j)
	r.lastBg = j.pid
	go func() {
		defer r.sh.stages.Add(-1)
		defer close(j.done)
		defer func() {
			if p := recover(); p != nil {
				fmt.Fprintf(r.stderr(), "%s: internal error: %v\n", r.name, p)
				j.status = 2
			}
		}()
		child.stmt(&fg)
		child.runExitTrap()
		child.closeAll()
		j.status = child.status
	}()
	r.status = 0
}

// waitJob waits for j to end; it returns false when the run is stopped
// first.
func (r *runner) waitJob(j *job) bool {
	for {
		select {
		case <-j.done:
			return true
		case <-r.done():
			return false
		case <-time.After(20 * time.Millisecond):
			// The context's Done may close only when polled (wasm).
			if r.ctxErr() != nil {
				return false
			}
		}
	}
}

// waitAny waits for one of jobs to end and returns its index, or -1 when
// the run is stopped first.
func (r *runner) waitAny(jobs []*job) int {
	cases := make([]reflect.SelectCase, 0, len(jobs)+2)
	for _, j := range jobs {
		cases = append(cases, reflect.SelectCase{Dir: reflect.SelectRecv, Chan: reflect.ValueOf(j.done)})
	}
	cases = append(cases, reflect.SelectCase{Dir: reflect.SelectRecv, Chan: reflect.ValueOf(r.sh.ctx.Done())})
	for {
		tick := time.NewTimer(20 * time.Millisecond)
		i, _, _ := reflect.Select(append(cases, reflect.SelectCase{Dir: reflect.SelectRecv, Chan: reflect.ValueOf(tick.C)}))
		tick.Stop()
		switch {
		case i < len(jobs):
			return i
		case i == len(jobs):
			return -1
		}
		if r.ctxErr() != nil {
			return -1
		}
	}
}

// waitJobs waits for every background job of r (at the end of a shell or
// subshell).
func (r *runner) waitJobs() {
	for _, j := range r.jobs {
		if !r.waitJob(j) {
			// Stopped: the jobs see it too and end; wait for them
			// so that none outlives the run.
			<-j.done
		}
	}
	r.jobs = nil
}

// removeJob forgets the job at index i (it was waited for), remembering
// its status by process ID, as bash does, for a later "wait PID".
func (r *runner) removeJob(i int) {
	j := r.jobs[i]
	if r.waited == nil || len(r.waited) >= maxJobs {
		r.waited = map[int]int{}
	}
	r.waited[j.pid] = j.status
	r.jobs = append(r.jobs[:i], r.jobs[i+1:]...)
}

// waitBuiltin is wait [-n] [PID|%N ...].
func waitBuiltin(r *runner, args []string) int {
	a := args[1:]
	next := false
	for len(a) > 0 && strings.HasPrefix(a[0], "-") && a[0] != "-" {
		if a[0] == "--" {
			a = a[1:]
			break
		}
		if a[0] != "-n" {
			r.builtinErr(2, "wait", "%s: invalid option", a[0])
			fmt.Fprintln(r.stderr(), "wait: usage: wait [-n] [id ...]")
			return 2
		}
		next = true
		a = a[1:]
	}
	if next {
		jobs := r.jobs
		if len(a) > 0 {
			jobs = nil
			for _, id := range a {
				if i := r.findJob(id); i >= 0 {
					jobs = append(jobs, r.jobs[i])
				}
			}
		}
		if len(jobs) == 0 {
			return 127
		}
		i := r.waitAny(jobs)
		if i < 0 {
			return CanceledStatus
		}
		j := jobs[i]
		for k, x := range r.jobs {
			if x == j {
				r.removeJob(k)
				break
			}
		}
		return j.status
	}
	if len(a) == 0 {
		for len(r.jobs) > 0 {
			if !r.waitJob(r.jobs[0]) {
				return CanceledStatus
			}
			r.removeJob(0)
		}
		return 0
	}
	status := 0
	for _, id := range a {
		var pid int
		var err error
		if ps := r.lastProcSubst; ps != nil && id == strconv.Itoa(ps.pid) {
			if !r.waitJob(ps) {
				return CanceledStatus
			}
			status = ps.status
			continue
		}
		i := r.findJob(id)
		if i < 0 {
			if strings.HasPrefix(id, "%") {
				r.builtinErr(127, "wait", "%s: no such job", id)
			} else if pid, err = strconv.Atoi(id); err != nil {
				r.builtinErr(1, "wait", "`%s': not a pid or valid job spec", id)
				status = 1
				continue
			} else if st, ok := r.waited[pid]; ok {
				status = st
				continue
			} else {
				r.builtinErr(127, "wait", "pid %s is not a child of this shell", id)
			}
			status = 127
			continue
		}
		j := r.jobs[i]
		if !r.waitJob(j) {
			return CanceledStatus
		}
		r.removeJob(i)
		status = j.status
	}
	return status
}

// findJob returns the index in r.jobs of the job a PID or %N names, or -1.
func (r *runner) findJob(id string) int {
	if rest, ok := strings.CutPrefix(id, "%"); ok {
		if rest == "%" || rest == "+" || rest == "" {
			return len(r.jobs) - 1
		}
		n, err := strconv.Atoi(rest)
		if err != nil {
			return -1
		}
		for i, j := range r.jobs {
			if j.num == n {
				return i
			}
		}
		return -1
	}
	pid, err := strconv.Atoi(id)
	if err != nil {
		return -1
	}
	for i, j := range r.jobs {
		if j.pid == pid {
			return i
		}
	}
	return -1
}

// jobsBuiltin lists the background jobs not yet waited for: "jobs" as bash
// prints them, "jobs -p" their PIDs.
func jobsBuiltin(r *runner, args []string) int {
	pids := len(args) > 1 && args[1] == "-p"
	for i, j := range r.jobs {
		if pids {
			fmt.Fprintln(r.stdout(), j.pid)
			continue
		}
		state := "Running"
		select {
		case <-j.done:
			state = "Done"
			if j.status != 0 {
				state = fmt.Sprintf("Exit %d", j.status)
			}
		default:
		}
		mark := " "
		switch i {
		case len(r.jobs) - 1:
			mark = "+"
		case len(r.jobs) - 2:
			mark = "-"
		}
		fmt.Fprintf(r.stdout(), "[%d]%s  %-24s%s &\n", j.num, mark, state, j.text)
	}
	return 0
}
