package shellrt

import (
	"bytes"
	"regexp"
	goruntime "runtime"
	"sync"
	"testing"
	"time"

	"github.com/cordonhq/cordon/guest/internal/hub/hubtest"
	"github.com/cordonhq/cordon/guest/internal/jsrt"
	"github.com/cordonhq/cordon/internal/slack"
	"github.com/cordonhq/cordon/vfs"
)

// fuzzSlack returns the slack factor (internal/slack), measured once per
// process: the fuzzer runs thousands of scripts, and measuring before each
// would only slow it down.
func fuzzSlack(t *testing.T) float64 {
	fuzzSlackOnce.Do(func() { fuzzFactor = slack.Factor(t) })
	return fuzzFactor
}

var (
	fuzzSlackOnce sync.Once
	fuzzFactor    float64
)

const (
	// fuzzDeadline is how long a script runs before the watchdog starts
	// writing the interrupt flag, as the host does at its timeout.
	fuzzDeadline = 200 * time.Millisecond
	// fuzzStopLimit is how long an interrupted script may take to stop.
	fuzzStopLimit = 2 * time.Second
	// fuzzGoroutineSlack and fuzzGoroutineWait bound the goroutines left
	// over after Run returns, and how long they may take to end.
	fuzzGoroutineSlack = 3
	fuzzGoroutineWait  = time.Second
	// fuzzOutputMax bounds the output kept from one script.
	fuzzOutputMax = 1 << 20
)

// fuzzSeeds are realistic agent scripts, broken ones and ones using what
// the shell does not support.
var fuzzSeeds = []string{
	// Pipelines and text tools.
	`cat data.txt | grep -v '^#' | sort | uniq -c | sort -rn | head -3`,
	`grep -c ERROR log.txt; grep -o 'user[0-9]*' log.txt | sort -u | wc -l`,
	`cut -d' ' -f2,3 log.txt | tr a-z A-Z | tail -n 2`,
	`yes | head -5 | nl; seq 10 | paste -sd+ | tr -d '\n'; echo`,
	`sed -n '2,3p' data.txt; sed -E 's/([a-z]+) ([0-9]+)/\2:\1/g' data.txt; sed '/^#/d;s/a/b/2' data.txt`,
	`awk '{ n[$1] += $2 } END { for (k in n) print k, n[k] }' data.txt | sort`,
	`awk -F: 'BEGIN { OFS = "\t" } NR > 1 && $2 ~ /^[0-9]+$/ { $1 = toupper($1); print; s += $2 } END { printf "%d %.2f\n", s, s / NR }' data.txt`,
	`jq -r '.[] | select(.age > 30) | .name' users.json`,
	`jq -c 'map({(.name): .age}) | add' users.json; jq -n '[range(5)] | map(. * 2) | @csv'`,
	`jq -r '.[] | "\(.name)\t\(.age)"' users.json | sort -t$'\t' -k2 -n | cut -f1`,
	"printf '%s\\n' b a c | sort -r | tee out.txt | wc -l; cat out.txt; rm out.txt",
	`find / -name '*.txt' -type f | xargs wc -l | sort -n`,
	`ls -la /workspace; mkdir -p a/b/c && touch a/b/c/f && cp -r a z && mv z y && ls -R y; rm -rf a y`,
	// Here-documents and here-strings.
	"cat <<EOF > notes.md\n# Notes for $USER\n- $(date +%Y)\n- $((6 * 7))\nEOF\ncat notes.md",
	"cat <<'EOF'\n$HOME is not expanded\\n here\nEOF\ncat <<-END\n\tindented\n\tEND\nwc -c <<< \"here string\"",
	"while read -r name age; do echo \"$name is $age\"; done <<EOF\nada 36\nalan 41\nEOF",
	// Functions, variables and arrays.
	`greet() { local who=${1:-world}; echo "hello, $who"; return 3; }; greet; echo $?; greet agent`,
	`fib() { if (( $1 < 2 )); then echo $1; else echo $(( $(fib $(( $1 - 1 ))) + $(fib $(( $1 - 2 ))) )); fi; }; fib 12`,
	`declare -A m=([a]=1 [b]=2); m[c]=3; for k in "${!m[@]}"; do echo "$k=${m[$k]}"; done | sort; a=(x y z); echo "${#a[@]} ${a[-1]} ${a[@]:1}"`,
	`s="Hello, World"; echo "${s,,} ${s^^} ${s/World/You} ${#s} ${s:7:5} ${s#*, } ${s%,*}"; unset s; echo "${s:-unset} ${s:=set} $s"`,
	`set -euo pipefail; trap 'echo "exit $?"' EXIT; false | true; echo unreachable`,
	`set -x; PS4='+ '; x=1; [[ $x -eq 1 && -f data.txt && "ab" == a* ]] && echo yes; [[ abc =~ ^a(b)c$ ]] && echo ${BASH_REMATCH[1]}`,
	// Loops and control flow.
	`for i in {1..5}; do [ $((i % 2)) -eq 0 ] && continue; echo $i; done; for ((i = 0; i < 3; i++)); do echo $i; done`,
	`i=0; while :; do i=$((i + 1)); if [ $i -gt 100 ]; then break; fi; done; echo $i; until [ $i -le 0 ]; do i=$((i - 40)); done`,
	`case "$1-x" in a*) echo a ;; -x) echo empty ;& *) echo fallthrough ;; esac`,
	`while true; do :; done`,
	`f() { f; }; f`,
	`x=a; for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do x=$x$x; done; echo ${#x}`,
	// Subshells, substitutions, redirections and eval.
	`(cd /tmp && pwd; echo in > f); pwd; cat /tmp/f; echo "$(echo "nested $(echo deep)")"; echo ` + "`echo back`",
	`exec 3> fd3.txt; echo three >&3; exec 3>&-; cat fd3.txt; echo err >&2 2>/dev/null; ls nope 2>&1 | head -1`,
	`eval 'echo $((1 << 62)) $((2#1010)) $((16#ff))'; source /dev/null; . /dev/null; echo ok`,
	`sh -c 'echo "$0 $1 $#"' name arg; echo 'echo from file' > s.sh; sh s.sh; bash -c 'exit 7'; echo $?`,
	// Tool calls and JavaScript.
	`tool weather/current --city Paris --days 3 | jq -r .params.city`,
	`tool --list; tool --help weather/current; tool deny/me || echo "denied: $?"; tool nope/x`,
	`tool weather_current --json '{"city": "Rome"}' --tags a,b --metric | jq -c .params`,
	`node -e 'console.log(JSON.stringify((await weather.current({city: "X"})).params))'; node -p '[1, 2].map(x => x * 2)'`,
	`node -e 'const r = await shell("echo hi | tr a-z A-Z"); console.log(r.stdout.trim(), r.exitCode)'`,
	// Syntax errors and unsupported constructs.
	`echo "unterminated`,
	`if true; then echo x`,
	`for in do done`,
	`echo $((1 +)); echo ${x:?is unset}; echo after`,
	`sleep 10 & wait; echo $!`,
	`diff <(echo a) <(echo b); cat >(wc -c)`,
	`select x in a b; do echo $x; done`,
	`coproc cat; echo done`,
	`echo ${!prefix*} $(( 1 / 0 )) $[1+1]`,
	`function f { :; }; alias ll='ls -l'; ll; shopt -s extglob globstar; echo **/*.txt +(a|b)`,
	"\x00\xff\xfe echo \x01",
}

// FuzzShell runs arbitrary scripts natively, with a fresh VFS and the fake
// host, and checks that none panics (not even one the shell recovers and
// reports as an internal error), none ignores the host's interrupt for
// more than fuzzStopLimit, and none leaves goroutines behind. The seeds
// are fuzzSeeds and testdata/fuzz/FuzzShell.
func FuzzShell(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, script string) {
		fuzzRun(t, script)
	})
}

// knownPanics are the internal errors of known, not yet fixed bugs, which
// FuzzShell lets pass so that the CI fuzz step stays green. Each is in the
// fuzzer's reports; remove it with the fix.
var knownPanics = []*regexp.Regexp{}

// fuzzWriter keeps the first fuzzOutputMax bytes written to it and the
// writes that report an internal error (a recovered panic), but for known
// ones.
type fuzzWriter struct {
	mu       sync.Mutex
	buf      bytes.Buffer
	internal []string
}

func (w *fuzzWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if bytes.Contains(p, []byte("internal error")) && !isKnownPanic(p) && len(w.internal) < 10 {
		w.internal = append(w.internal, string(p))
	}
	if room := fuzzOutputMax - w.buf.Len(); room > 0 {
		w.buf.Write(p[:min(room, len(p))])
	}
	return len(p), nil
}

func isKnownPanic(p []byte) bool {
	for _, k := range knownPanics {
		if k.Match(p) {
			return true
		}
	}
	return false
}

func (w *fuzzWriter) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	b := w.buf.Bytes()
	if len(b) > 2000 {
		b = b[len(b)-2000:]
	}
	return string(b)
}

// fuzzFS returns a fresh VFS with a few files for scripts to work on.
func fuzzFS(t *testing.T) *vfs.FS {
	fs := vfs.New(vfs.Limits{MaxBytes: 16 << 20, MaxFiles: 1000})
	for name, data := range map[string]string{
		"/workspace/data.txt":   "# name value\nalpha 3\nbeta 14\nalpha 5\ngamma:7\n",
		"/workspace/log.txt":    "2026-11-21 ERROR user1 login failed\n2026-11-21 INFO user2 login\n2026-11-21 ERROR user1 timeout\n",
		"/workspace/users.json": `[{"name": "ada", "age": 36}, {"name": "alan", "age": 41}, {"name": "grace", "age": 29}]`,
	} {
		if err := fs.WriteFile(name, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return fs
}

func fuzzRun(t *testing.T, script string) {
	base := goruntime.NumGoroutine()
	h := newHost()
	var stdout, stderr fuzzWriter
	opts := Options{
		Common: jsrt.Common{Host: h, FS: fuzzFS(t), Tools: testTools},
		Stdout: &stdout,
		Stderr: &stderr,
		Now:    func() time.Time { return time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC) },
	}
	done := make(chan Outcome, 1)
	go func() { done <- Run(opts, "fuzz.sh", script) }()

	var out Outcome
	interrupted := false
	select {
	case out = <-done:
	case <-time.After(fuzzDeadline):
		// Like the host at its timeout: keep writing the current flag.
		interrupted = true
		limit := slack.Times(fuzzStopLimit, fuzzSlack(t))
		var stopped bool
		if out, stopped = hubtest.InterruptUntil(h, done, limit); !stopped {
			t.Fatalf("script %q: still running %v after the interrupt flag was set\nstderr: %s\ngoroutines:\n%s", script, limit, stderr.String(), goroutineDump())
		}
	}

	switch {
	case len(stdout.internal) > 0 || len(stderr.internal) > 0:
		t.Fatalf("script %q: internal error (a recovered panic): %q\nstdout: %s\nstderr: %s", script, append(stdout.internal, stderr.internal...), stdout.String(), stderr.String())
	case out.ErrCode != "" && out.ErrCode != "interrupted":
		t.Fatalf("script %q: outcome %+v\nstderr: %s", script, out, stderr.String())
	case out.ErrCode == "interrupted" && !interrupted:
		t.Fatalf("script %q: interrupted, but nothing set the flag: %+v\nstderr: %s", script, out, stderr.String())
	case out.ExitCode < 0 || out.ExitCode > 255:
		t.Fatalf("script %q: exit status %d", script, out.ExitCode)
	}

	// Every goroutine the script started has ended, or soon does.
	wait := slack.Times(fuzzGoroutineWait, fuzzSlack(t))
	for start := time.Now(); goruntime.NumGoroutine() > base+fuzzGoroutineSlack; {
		if time.Since(start) > wait {
			t.Fatalf("script %q: %d goroutines %v after Run returned, %d before\ngoroutines:\n%s", script, goruntime.NumGoroutine(), wait, base, goroutineDump())
		}
		time.Sleep(time.Millisecond)
	}
}

func goroutineDump() string {
	buf := make([]byte, 256<<10)
	return string(buf[:goruntime.Stack(buf, true)])
}
