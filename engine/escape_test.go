package engine_test

// The escape suite: scripts, in JavaScript and in the sandbox shell, that
// try to get out of the sandbox (host files, environment, network, Go
// values, state that outlives an execution, resources, tool-call plumbing).
// Each must fail safely: what must NOT happen is asserted (a marker leaking
// into any output, a handler running, a write reaching the host), the
// outcome must be an error or a harmless output, nothing may run past its
// time limit, and after each group the host and the sandbox (or a fresh
// one, when the attempt broke it) must still work.

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"net"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/cordonhq/cordon/dsl"
	"github.com/cordonhq/cordon/engine"
	"github.com/cordonhq/cordon/engine/enginetest"
)

// escTimeout is the time limit of the suite's sandboxes. An execution must
// end about 0.5 s past its limit: past escSoftSlack it is logged as a NOTE;
// past escSlack it is a hang and fails. The hard bound is wider because a
// guest that ignores the stop request is killed only after a grace of
// 400 ms, and the kill itself has taken up to ~800 ms on a loaded machine
// (load average 10 on 2 CPUs while this suite was written). Both are
// multiplied by the slack factor that escStart measures at the start of
// each test (enginetest.Slack), so that a busy machine or -race does not
// fail them.
const (
	escTimeout   = 400 * time.Millisecond
	escSoftSlack = 500 * time.Millisecond
	escSlack     = time.Second
)

// escFactor holds the slack factor of the running test of the suite (the
// bits of a float64; 0 until a test has measured it). The suite's tests do
// not run in parallel.
var escFactor atomic.Uint64

// escStart begins a test of the suite: it measures the slack factor of the
// time bounds, once for the test rather than for every attempt, and then
// returns the number of goroutines, for escAlive. Slack runs a script in a
// sandbox of the shared engine, whose pool boots guests in the background,
// so it must run before the goroutines are counted.
func escStart(t *testing.T) int {
	t.Helper()
	escFactor.Store(math.Float64bits(enginetest.Slack(t)))
	return runtime.NumGoroutine()
}

// escScale returns d multiplied by the running test's slack factor.
func escScale(d time.Duration) time.Duration {
	f := math.Float64frombits(escFactor.Load())
	return time.Duration(float64(d) * max(f, 1))
}

// escMarkers holds every secret the suite planted on the host (file
// contents, environment values). No output of any script may contain one.
var escMarkers struct {
	sync.Mutex
	list []string
}

func escRegisterMarker(m string) {
	escMarkers.Lock()
	defer escMarkers.Unlock()
	escMarkers.list = append(escMarkers.list, m)
}

func escMarkerList() []string {
	escMarkers.Lock()
	defer escMarkers.Unlock()
	return append([]string(nil), escMarkers.list...)
}

// escVerbose logs every attempt and its outcome (CORDON_ESCAPE_VERBOSE=1).
var escVerbose = os.Getenv("CORDON_ESCAPE_VERBOSE") != ""

// escLimits records the time limit of each of the suite's sandboxes, for
// the hang check.
var escLimits sync.Map // *engine.Sandbox -> time.Duration

// escNewSandbox is newSandbox for the suite: the limit defaults to
// escTimeout and is recorded for the hang check.
func escNewSandbox(t *testing.T, cfg engine.SandboxConfig) *engine.Sandbox {
	t.Helper()
	if cfg.Limits.Timeout == 0 {
		cfg.Limits.Timeout = escTimeout
	}
	sb := enginetest.NewSandboxOf(t, bareEngine(t), cfg)
	escLimits.Store(sb, cfg.Limits.Timeout)
	t.Cleanup(func() { escLimits.Delete(sb) })
	return sb
}

// escOut is what one attempt produced.
type escOut struct {
	lang engine.Language
	code string
	res  *engine.Result
	err  error
	took time.Duration
}

func (o escOut) stdout() string {
	if o.res == nil {
		return ""
	}
	return o.res.Stdout
}

func (o escOut) exit() int {
	if o.res == nil {
		return -1
	}
	return o.res.ExitCode
}

func (o escOut) kind() engine.Kind { return engine.KindOf(o.err) }

// text is everything the script could have smuggled a secret into.
func (o escOut) text() string {
	var b strings.Builder
	if o.res != nil {
		b.WriteString(o.res.Stdout)
		b.WriteString(o.res.Stderr)
		b.WriteString(o.res.Exception)
		b.Write(o.res.Value)
		for _, c := range o.res.ToolCalls {
			b.WriteString(c.Method)
			b.Write(c.Params)
			b.Write(c.Result)
			b.WriteString(c.Error)
			b.WriteString(strings.Join(c.Reasons, ""))
		}
	}
	if o.err != nil {
		b.WriteString(o.err.Error())
	}
	return b.String()
}

func (o escOut) String() string {
	s := fmt.Sprintf("[%s] %s\n  -> exit %d, err %v (kind %q), %v", o.lang, escShort(o.code, 160), o.exit(), o.err, o.kind(), o.took.Round(time.Millisecond))
	if o.res != nil {
		s += fmt.Sprintf("\n  stdout %q\n  stderr %q", escShort(o.res.Stdout, 300), escShort(o.res.Stderr, 300))
		if o.res.Exception != "" {
			s += fmt.Sprintf("\n  exception %q", escShort(o.res.Exception, 200))
		}
	}
	return s
}

func escShort(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + fmt.Sprintf("...(%d bytes)", len(s))
}

// escExec runs one attempt and checks what holds for every attempt: no
// planted marker leaks, the execution ends within its limit plus slack, and
// it produced a result.
func escExec(t *testing.T, sb *engine.Sandbox, lang engine.Language, code string) escOut {
	t.Helper()
	limit := escTimeout
	if v, ok := escLimits.Load(sb); ok {
		limit = v.(time.Duration)
	}
	start := time.Now()
	res, err := sb.Execute(context.Background(), lang, code)
	o := escOut{lang: lang, code: code, res: res, err: err, took: time.Since(start)}
	if escVerbose {
		t.Log(o.String())
	}
	escNoLeak(t, o)
	if hard, soft := escScale(escSlack), escScale(escSoftSlack); o.took > limit+hard {
		t.Errorf("HANG: %s ran %v, past its limit %v + %v\n%s", escShort(code, 120), o.took, limit, hard, o)
	} else if o.took > limit+soft {
		t.Logf("NOTE: %s ran %v, more than %v past its limit %v", escShort(code, 120), o.took.Round(time.Millisecond), soft, limit)
	}
	if res == nil && engine.KindOf(err) != engine.KindClosed {
		t.Errorf("%s: no result (err %v)", escShort(code, 120), err)
	}
	return o
}

func escNoLeak(t *testing.T, o escOut) {
	t.Helper()
	text := o.text()
	for _, m := range escMarkerList() {
		if strings.Contains(text, m) {
			t.Errorf("ESCAPE: the host secret %q leaked into the output of %s\n%s", m, escShort(o.code, 200), o)
		}
	}
	// Go internals must not surface either (a Go stack trace, a host path
	// of the module).
	for _, s := range []string{"goroutine ", "github.com/cordonhq/cordon/", "runtime.gopanic"} {
		if strings.Contains(text, s) {
			t.Errorf("the output of %s shows Go internals (%q):\n%s", escShort(o.code, 200), s, o)
		}
	}
}

// escCheck is what one case demands of its outcome; it returns "" when the
// outcome is acceptable.
type escCheck func(o escOut) string

type escCase struct {
	lang  engine.Language
	code  string
	check escCheck
}

func escJS(code string, check escCheck) escCase { return escCase{engine.JavaScript, code, check} }
func escSh(code string, check escCheck) escCase { return escCase{engine.Shell, code, check} }

// escRun runs the cases in order on the sandbox that next returns (which
// may replace a broken one).
func escRun(t *testing.T, next func() *engine.Sandbox, cases []escCase) {
	t.Helper()
	for _, c := range cases {
		sb := next()
		o := escExec(t, sb, c.lang, c.code)
		if k := o.kind(); k == engine.KindMemory || k == engine.KindCrash {
			// Only this sandbox breaks, and it says so.
			if err := sb.Err(); !errors.Is(err, engine.ErrClosed) {
				t.Errorf("after a %s error the sandbox's Err() is %v, want kind closed", k, err)
			}
		}
		if err := sb.Err(); err != nil {
			t.Logf("NOTE: %s broke the sandbox (%v, after %v): %v", escShort(c.code, 100), o.kind(), o.took.Round(time.Millisecond), err)
		}
		if c.check != nil {
			if msg := c.check(o); msg != "" {
				t.Errorf("%s\n  %s", o, msg)
			}
		}
	}
}

// Checks.

// escJSTry wraps an expression: the script prints "OK:<value>" or
// "ERR:<code or name>:<message>".
func escJSTry(expr string) string {
	return `try { const v = await (` + expr + `); return "OK:" + (typeof v === "string" ? v : JSON.stringify(v)) } catch (e) { return "ERR:" + (e && (e.code || e.name)) + ":" + String(e && e.message) }`
}

// escRefused: the attempt ended with an error, not a value.
func escRefused(o escOut) string {
	if o.err != nil {
		return "the execution failed (" + o.err.Error() + "); want the script to catch the error"
	}
	if !strings.HasPrefix(o.stdout(), "ERR:") {
		return "want ERR:..., the attempt was not refused"
	}
	return ""
}

func escStdout(want string) escCheck {
	return func(o escOut) string {
		if o.err != nil || o.stdout() != want {
			return fmt.Sprintf("want stdout %q and no error", want)
		}
		return ""
	}
}

func escStdoutHas(subs ...string) escCheck {
	return func(o escOut) string {
		for _, s := range subs {
			if !strings.Contains(o.stdout(), s) {
				return fmt.Sprintf("want stdout containing %q", s)
			}
		}
		return ""
	}
}

// escShFails: a shell command that must fail and print nothing on stdout.
func escShFails(o escOut) string {
	if o.err != nil {
		return "the execution failed: " + o.err.Error()
	}
	if o.exit() == 0 || o.stdout() != "" {
		return "want a failing status and an empty stdout"
	}
	return ""
}

// escExit: the shell script ended normally with this status.
func escExit(code int) escCheck {
	return func(o escOut) string {
		if o.err != nil || o.exit() != code {
			return fmt.Sprintf("want exit status %d and no error", code)
		}
		return ""
	}
}

// escNotIn: none of the strings in stdout.
func escNotIn(subs ...string) escCheck {
	return func(o escOut) string {
		for _, s := range subs {
			if strings.Contains(o.stdout(), s) {
				return fmt.Sprintf("stdout contains %q", s)
			}
		}
		return ""
	}
}

// escKinds: the execution ended with one of these: "exception" (the script
// threw, or a shell status != 0), "ok" (it ran to its end), or an error kind
// ("timeout", "memory", "recursion", "output", ...).
func escKinds(kinds ...string) escCheck {
	return func(o escOut) string {
		got := string(o.kind())
		if o.err == nil {
			got = "ok"
			if o.exit() != 0 {
				got = "exception"
			}
		}
		for _, k := range kinds {
			if k == got {
				return ""
			}
		}
		return fmt.Sprintf("ended as %q, want one of %v", got, kinds)
	}
}

// escNotOK: the attempt did not produce a value: the script caught an
// error, or did not compile or threw.
func escNotOK(o escOut) string {
	if o.err != nil {
		return "the execution failed: " + o.err.Error()
	}
	if strings.HasPrefix(o.stdout(), "OK:") {
		return "the attempt produced a value"
	}
	return ""
}

// escNoGoFmt: no Go fmt error verbs (%!v(...)) in the output.
func escNoGoFmt(o escOut) string {
	if strings.Contains(o.stdout(), "%!") {
		return "the output holds Go fmt error markers"
	}
	return ""
}

func escAll(checks ...escCheck) escCheck {
	return func(o escOut) string {
		for _, c := range checks {
			if msg := c(o); msg != "" {
				return msg
			}
		}
		return ""
	}
}

// Host fixtures.

type escHostFixture struct {
	dir    string // a host directory the sandbox must never see
	secret string // a host file in dir holding marker
	marker string
}

// escHost plants a secret file on the host and checks, when the test ends,
// that it was not changed and that nothing appeared next to it.
func escHost(t *testing.T) *escHostFixture {
	t.Helper()
	dir := t.TempDir()
	h := &escHostFixture{dir: dir, secret: filepath.Join(dir, "secret.txt"), marker: "CORDON-SECRET-" + rand.Text()}
	content := []byte(h.marker + "\n")
	if err := os.WriteFile(h.secret, content, 0o600); err != nil {
		t.Fatal(err)
	}
	escRegisterMarker(h.marker)
	t.Cleanup(func() {
		got, err := os.ReadFile(h.secret)
		if err != nil || string(got) != string(content) {
			t.Errorf("ESCAPE: the host secret file changed: %q %v", got, err)
		}
		ents, _ := os.ReadDir(dir)
		if len(ents) != 1 {
			var names []string
			for _, e := range ents {
				names = append(names, e.Name())
			}
			t.Errorf("ESCAPE: files appeared in the host directory %s: %v", dir, names)
		}
	})
	return h
}

// escAlive checks, after a group, that the host is fine: the sandbox (or,
// if the group broke it, a fresh one) still runs `return 1` and a shell
// script, the goroutines the group started are gone, and the host secret
// is intact (escHost's cleanup).
func escAlive(t *testing.T, sb *engine.Sandbox, goroutinesBefore int) {
	t.Helper()
	if err := sb.Err(); err != nil {
		t.Logf("the sandbox is broken (%v); checking a fresh one", err)
		if !errors.Is(err, engine.ErrClosed) {
			t.Errorf("a broken sandbox's Err() is %v, want kind closed", err)
		}
		sb = enginetest.NewSandboxOf(t, bareEngine(t), engine.SandboxConfig{Limits: engine.Limits{Timeout: 2 * time.Second}})
	}
	res, err := sb.Execute(context.Background(), engine.JavaScript, "return 1")
	if err != nil || res.Stdout != "1\n" {
		t.Errorf("after the group, `return 1` gave %v %v", res, err)
	}
	res, err = sb.Execute(context.Background(), engine.Shell, "echo ok | tr a-z A-Z")
	if err != nil || res.Stdout != "OK\n" {
		t.Errorf("after the group, a shell script gave %v %v", res, err)
	}
	other := enginetest.NewSandboxOf(t, bareEngine(t), engine.SandboxConfig{})
	if res := enginetest.Run(t, other, "return 1"); res.Stdout != "1\n" {
		t.Errorf("a fresh sandbox: %q", res.Stdout)
	}
	if goroutinesBefore > 0 {
		deadline := time.Now().Add(escScale(3 * time.Second))
		for runtime.NumGoroutine() > goroutinesBefore+25 && time.Now().Before(deadline) {
			time.Sleep(20 * time.Millisecond)
		}
		if n := runtime.NumGoroutine(); n > goroutinesBefore+25 {
			t.Errorf("goroutines: %d before the group, %d after", goroutinesBefore, n)
		}
	}
}

// escVFSConfined checks from the host that the sandbox's file system holds
// nothing outside the writable areas the host did not create itself.
func escVFSConfined(t *testing.T, sb *engine.Sandbox, allowed ...string) {
	t.Helper()
	files, err := sb.Files(context.Background(), "/")
	if err != nil {
		t.Errorf("Files(/): %v", err)
		return
	}
	roots := map[string]bool{"/": true, "/workspace": true, "/tmp": true}
	for _, a := range allowed {
		roots[a] = true
	}
	for _, f := range files {
		ok := roots[f.Path] || strings.HasPrefix(f.Path, "/workspace/") || strings.HasPrefix(f.Path, "/tmp/")
		for _, a := range allowed {
			ok = ok || strings.HasPrefix(f.Path, a+"/")
		}
		if !ok {
			t.Errorf("ESCAPE: the script created %s outside /workspace and /tmp", f.Path)
		}
	}
	for _, dir := range []string{"/workspace", "/tmp"} {
		fs, err := sb.Files(context.Background(), dir)
		if err != nil || len(fs) == 0 || !fs[0].Mode.IsDir() {
			t.Errorf("the sandbox lost %s: %v %v", dir, fs, err)
		}
	}
}

func escSandbox(t *testing.T, cfg engine.SandboxConfig) func() *engine.Sandbox {
	t.Helper()
	var sb *engine.Sandbox
	return func() *engine.Sandbox {
		if sb == nil || sb.Err() != nil {
			sb = escNewSandbox(t, cfg)
		}
		return sb
	}
}

// escHostNames are root entries of a host file system; the VFS has none.
var escHostNames = []string{"etc", "proc", "home", "usr", "root", "dev", "sys", "var", "bin"}

func escNoHostNames(o escOut) string {
	fields := strings.FieldsFunc(o.stdout(), func(r rune) bool {
		return r == '\n' || r == ' ' || r == ',' || r == '"' || r == '[' || r == ']' || r == '/' || r == ':'
	})
	for _, f := range fields {
		for _, h := range escHostNames {
			if f == h {
				return fmt.Sprintf("the listing names the host's %q", h)
			}
		}
	}
	return ""
}

// TestEscapeHostFiles: host files are out of reach by every path a script
// can write, and the host's planted secret never shows up.
func TestEscapeHostFiles(t *testing.T) {
	before := escStart(t)
	host := escHost(t)
	next := escSandbox(t, engine.SandboxConfig{})
	sec, dir := strconv.Quote(host.secret), strconv.Quote(host.dir)
	js := func(expr string) escCase { return escJS(escJSTry(expr), escRefused) }
	cases := []escCase{
		js(`fs.readFileSync("/etc/passwd", "utf8")`),
		js(`fs.readFileSync("/proc/self/environ", "utf8")`),
		js(`fs.readFileSync("/proc/self/cmdline", "utf8")`),
		js(`fs.readFileSync("/proc/self/maps", "utf8")`),
		js(`fs.readFileSync("/proc/self/exe", null)`),
		js(`fs.readFileSync("/etc/hostname")`),
		js(`fs.readFileSync("../../../etc/passwd")`),
		js(`fs.readFileSync("/workspace/../../../../etc/shadow")`),
		js(`fs.readFileSync("/dev/stdin")`),
		js(`fs.readFileSync(` + sec + `, "utf8")`),
		js(`fs.promises.readFile(` + sec + `)`),
		js(`fs.readFile("../../../../../.." + ` + sec + `)`),
		js(`fs.readFileSync("file://" + ` + sec + `)`),
		js(`fs.readFileSync(new URL("file://" + ` + sec + `))`),
		js(`fs.readFileSync("/workspace/\u0000/../../" + ` + sec + `)`),
		js(`fs.readFileSync({toString() { return ` + sec + ` }})`),
		js(`fs.readdirSync(` + dir + `)`),
		js(`fs.statSync(` + sec + `)`),
		js(`fs.accessSync("/etc/passwd")`),
		js(`fs.copyFileSync(` + sec + `, "/workspace/stolen")`),
		js(`fs.readFileSync("/workspace/stolen", "utf8")`),
		escJS(escJSTry(`fs.existsSync(`+sec+`)`), escStdout("OK:false\n")),
		escJS(escJSTry(`fs.readdirSync("/")`), escAll(escStdoutHas("OK:"), escNoHostNames)),
		escJS(escJSTry(`fs.readdirSync("/../..")`), escAll(escStdoutHas("OK:"), escNoHostNames)),
		escJS(`return (await shell("cat " + `+sec+`)).stdout`, escStdout("\n")),

		escSh(`cat /etc/passwd`, escShFails),
		escSh(`cat ../../etc/passwd`, escShFails),
		escSh(`cat ../../../../../../../etc/passwd`, escShFails),
		escSh(`cat /proc/self/environ`, escShFails),
		escSh(`cat /proc/self/cmdline`, escShFails),
		escSh(`cat < /etc/hostname`, escShFails),
		escSh(`ls /`, escAll(escExit(0), escNoHostNames)),
		escSh(`echo /*`, escAll(escExit(0), escNoHostNames)),
		escSh(`ls -la /etc`, escShFails),
		escSh(`find / -name passwd`, escStdout("")),
		escSh(`find / -name 'secret*'`, escStdout("")),
		escSh(`cd /; cd ..; cd ..; pwd`, escStdout("/\n")),
		escSh(`cd /etc`, escShFails),
		escSh(`ln -s /etc/passwd p`, escExit(127)),
		escSh(`cat '`+host.secret+`'`, escShFails),
		escSh(`head -c 100 '`+host.secret+`'`, escShFails),
		escSh(`grep -r CORDON '`+host.dir+`' /`, escShFails),
		escSh(`cp '`+host.secret+`' stolen && cat stolen`, escShFails),
		escSh(`source '`+host.secret+`'`, escShFails),
		escSh(`. '`+host.secret+`'`, escShFails),
		escSh(`'`+host.secret+`'`, escShFails),
		escSh(`sh '`+host.secret+`'`, escShFails),
		escSh(`while read -r l; do echo "$l"; done < '`+host.secret+`'`, escShFails),
		escSh(`echo "$(<'`+host.secret+`')"`, escStdout("\n")),
		escSh(`mapfile -t a < '`+host.secret+`'; echo "${a[@]}"`, escStdout("\n")),
		escSh(`ls '`+host.dir+`'`, escShFails),
		escSh(`echo '`+host.dir+`'/*`, escStdout(host.dir+"/*\n")),
		escSh(`[ -e '`+host.secret+`' ] && echo yes || echo no`, escStdout("no\n")),
		escSh(`awk '{print}' '`+host.secret+`'`, escShFails),
		escSh(`jq -R . '`+host.secret+`'`, escShFails),
		escSh(`echo '`+host.secret+`' | xargs cat`, escShFails),
		escSh(`node -e 'try { console.log(fs.readFileSync("`+host.secret+`", "utf8")) } catch (e) { console.log(e.code) }'`, escStdout("ENOENT\n")),
		escSh(`cat /dev/fd/3 3<'`+host.secret+`'`, escShFails),
	}
	escRun(t, next, cases)
	escVFSConfined(t, next())
	escAlive(t, next(), before)
}

// TestEscapeHostEnvironment: the host's environment variables, arguments,
// working directory and host name never reach a script; the shell has its
// own fixed environment.
func TestEscapeHostEnvironment(t *testing.T) {
	before := escStart(t)
	marker := "CORDON-ENV-" + rand.Text()
	escRegisterMarker(marker)
	t.Setenv("CORDON_ESCAPE_ENV_MARKER", marker)
	t.Setenv("AWS_SECRET_ACCESS_KEY", marker+"-aws")
	// A fresh engine, created after the variables are set (the shared one
	// may predate them). It uses the same compilation cache.
	eng, err := engine.New(context.Background(), engine.NewConfig())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { eng.Close(context.Background()) })
	sb, err := eng.NewSandbox(context.Background(), engine.SandboxConfig{Limits: engine.Limits{Timeout: escTimeout}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sb.Close(context.Background()) })

	// Host values that must not show up in the sandbox's environment.
	var hostValues []string
	if wd, err := os.Getwd(); err == nil {
		hostValues = append(hostValues, wd)
	}
	if h, err := os.Hostname(); err == nil && len(h) >= 6 && h != "cordon" {
		hostValues = append(hostValues, h)
	}
	if h := os.Getenv("HOME"); len(h) > 1 && h != "/workspace" {
		hostValues = append(hostValues, "HOME="+h)
	}
	if p := os.Getenv("PATH"); p != "" && p != "/usr/bin:/bin" {
		hostValues = append(hostValues, "PATH="+p)
	}
	if u := os.Getenv("USER"); len(u) >= 3 {
		hostValues = append(hostValues, "USER="+u)
	}
	for _, a := range os.Args {
		if len(a) > 8 {
			hostValues = append(hostValues, a)
		}
	}
	noHost := func(o escOut) string {
		for _, v := range hostValues {
			if strings.Contains(o.text(), v) {
				return fmt.Sprintf("ESCAPE: the host's %q shows up", v)
			}
		}
		return ""
	}
	undef := escStdout("undefined\n")
	cases := []escCase{
		escJS(`return typeof process`, undef),
		escJS(escJSTry(`process.env`), escRefused),
		escJS(escJSTry(`process.argv`), escRefused),
		escJS(escJSTry(`require("os").homedir()`), escRefused),
		escJS(escJSTry(`require("child_process").execSync("id")`), escRefused),
		escJS(`return typeof globalThis.process + typeof globalThis.Deno + typeof globalThis.Bun + typeof globalThis.os + typeof globalThis.module + typeof globalThis.exports`, escStdout("undefinedundefinedundefinedundefinedundefinedundefined\n")),
		escJS(`return typeof arguments === "undefined" ? "none" : JSON.stringify(Array.from(arguments))`, escAll(escNotIn("CORDON"), noHost)),
		escJS(`return [typeof __filename, typeof __dirname, typeof module, typeof exports].join()`, escStdout("undefined,undefined,undefined,undefined\n")),
		escJS(escJSTry(`import.meta`), escKinds("exception", "ok")),
		escJS(`return new Error("x").stack`, escAll(escKinds("ok"), noHost)),
		escJS(`return typeof Intl === "undefined" ? "none" : new Intl.DateTimeFormat().resolvedOptions().timeZone`, escAll(escKinds("ok"), noHost)),
		escJS(`return new Date().getTimezoneOffset()`, escStdout("0\n")),

		escSh(`env`, escAll(escExit(0), noHost, escNotIn("CORDON_ESCAPE", "AWS_"))),
		escSh(`printenv`, escAll(escKinds("ok", "exception"), noHost, escNotIn("CORDON_ESCAPE", "AWS_"))),
		escSh(`printenv CORDON_ESCAPE_ENV_MARKER; echo "[$CORDON_ESCAPE_ENV_MARKER][${AWS_SECRET_ACCESS_KEY-}]"`, escStdoutHas("[][]")),
		escSh(`echo $HOME`, escStdout("/workspace\n")),
		escSh(`echo $PATH`, escStdout("/usr/bin:/bin\n")),
		escSh(`echo ~ ~root`, escAll(escStdoutHas("/workspace"), noHost)),
		escSh(`set`, escAll(escExit(0), noHost)),
		escSh(`declare -p; export -p`, escAll(escExit(0), noHost)),
		escSh(`echo "$0|$#|$@|$$|$PPID|$USER|$HOSTNAME|$PWD"`, escAll(escExit(0), noHost)),
		escSh(`cat /proc/self/environ /proc/1/environ`, escShFails),
		escSh(`node -p 'typeof process'`, escStdout("undefined\n")),
		escSh(`export X=1; node -e 'console.log(typeof process === "undefined" ? "none" : JSON.stringify(process.env))'`, escStdout("none\n")),
		escSh(`hostname; uname -a; id; whoami`, escAll(noHost)),
		escSh(`date +%Z`, escStdout("UTC\n")),
	}
	escRun(t, func() *engine.Sandbox { return sb }, cases)
	escAlive(t, sb, before)
}

// TestEscapeNetwork: no script reaches a socket. A listener on the host's
// loopback counts connections; it must see none.
func TestEscapeNetwork(t *testing.T) {
	before := escStart(t)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var accepted atomic.Int32
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			accepted.Add(1)
			c.Close()
		}
	}()
	t.Cleanup(func() { ln.Close() })
	addr := ln.Addr().(*net.TCPAddr)
	host, port := addr.IP.String(), strconv.Itoa(addr.Port)
	url := strconv.Quote("http://" + host + ":" + port + "/")
	next := escSandbox(t, engine.SandboxConfig{})
	js := func(expr string) escCase { return escJS(escJSTry(expr), escRefused) }
	cases := []escCase{
		js(`fetch(` + url + `)`),
		js(`new XMLHttpRequest()`),
		js(`new WebSocket("ws://` + host + `:` + port + `/")`),
		js(`new EventSource(` + url + `)`),
		js(`navigator.sendBeacon(` + url + `)`),
		js(`require("net").connect(` + port + `, "` + host + `")`),
		js(`require("http").get(` + url + `)`),
		escJS(escJSTry(`import("http")`), escNotOK),
		escJS(escJSTry(`import("node:net")`), escNotOK),
		escJS(escJSTry(`import(`+url+`)`), escNotOK),
		js(`Deno.connect({port: ` + port + `})`),
		js(`new Worker("data:,")`),
		js(`importScripts(` + url + `)`),
		js(`fs.readFileSync("/dev/tcp/` + host + `/` + port + `")`),
		js(`fs.writeFileSync("/dev/tcp/` + host + `/` + port + `", "GET / HTTP/1.0\r\n\r\n")`),
		// curl and wget exist, and without a fetch tool say that network
		// access is not enabled (docs/egress.md).
		escJS(`return (await shell("curl -s `+host+`:`+port+`; echo $?")).stdout`, escStdout("2\n\n")),

		escSh(`curl http://`+host+`:`+port+`/`, escExit(2)),
		escSh(`wget -qO- http://`+host+`:`+port+`/`, escExit(1)),
		escSh(`nc `+host+` `+port+` </dev/null`, escExit(127)),
		escSh(`ncat `+host+` `+port+`; telnet `+host+` `+port+`; ssh -p `+port+` `+host, escExit(127)),
		escSh(`python3 -c 'import socket'; perl -e 1; ruby -e 1`, escExit(127)),
		escSh(`echo hi > /dev/tcp/`+host+`/`+port, escShFails),
		escSh(`echo hi > /dev/udp/`+host+`/`+port, escShFails),
		escSh(`cat < /dev/tcp/`+host+`/`+port, escShFails),
		escSh(`exec 3<>/dev/tcp/`+host+`/`+port+`; echo -e "GET / HTTP/1.0\r\n\r\n" >&3; cat <&3`, escShFails),
		escSh(`exec 3<>/dev/tcp/`+host+`/`+port+` && echo connected`, escNotIn("connected")),
		escSh(`tool http/get --url http://`+host+`:`+port+`/`, escExit(2)),
	}
	escRun(t, next, cases)
	escVFSConfined(t, next())
	if n := accepted.Load(); n != 0 {
		t.Errorf("ESCAPE: the host listener accepted %d connections from the sandbox", n)
	}
	escAlive(t, next(), before)
}

// The globals a script may see: ECMAScript's (as goja provides them, with
// its GoError, an Error subclass that docs/javascript.md documents) and the
// documented sandbox API. Anything else is a hidden, possibly Go-backed,
// object.
var escStandardGlobals = strings.Fields(`globalThis Object Function Array String Number BigInt Boolean Symbol
Date RegExp Error AggregateError EvalError RangeError ReferenceError SyntaxError TypeError URIError
Math JSON Reflect Proxy Promise Map Set WeakMap WeakSet WeakRef FinalizationRegistry
ArrayBuffer SharedArrayBuffer DataView Int8Array Uint8Array Uint8ClampedArray Int16Array Uint16Array
Int32Array Uint32Array Float32Array Float64Array BigInt64Array BigUint64Array
NaN Infinity undefined eval isNaN isFinite parseFloat parseInt decodeURI decodeURIComponent
encodeURI encodeURIComponent escape unescape Atomics Iterator GoError
ToolError console fs listTools getToolInfo setTimeout setInterval setImmediate clearTimeout
clearInterval queueMicrotask btoa atob shell`)

// TestEscapeGoValues: the usual tricks to reach a host object (process,
// require, a Go value behind an API function) find nothing.
func TestEscapeGoValues(t *testing.T) {
	before := escStart(t)
	var ran atomic.Int32
	// These attempts are not about time; a generous limit keeps the slow
	// first use of the console formatter from turning into a timeout.
	next := escSandbox(t, engine.SandboxConfig{
		Limits: engine.Limits{Timeout: 5 * time.Second},
		Tools:  []engine.Tool{enginetest.Counting("weather/current", &ran), enginetest.Counting("search", &ran)},
	})
	allowed := map[string]bool{"weather": true, "weather_current": true, "search": true}
	for _, g := range escStandardGlobals {
		allowed[g] = true
	}
	globalsOK := func(o escOut) string {
		var names []string
		if err := json.Unmarshal([]byte(o.stdout()), &names); err != nil || len(names) < 20 {
			return fmt.Sprintf("want a JSON list of global names: %v", err)
		}
		var extra []string
		for _, n := range names {
			if !allowed[n] {
				extra = append(extra, n)
			}
		}
		if len(extra) > 0 {
			return fmt.Sprintf("undocumented globals: %v", extra)
		}
		return ""
	}
	undef := escStdout("undefined\n")
	cases := []escCase{
		escJS(escJSTry(`this.constructor.constructor("return process")()`), escRefused),
		escJS(escJSTry(`(function(){ return this })().constructor.constructor("return process")()`), escRefused),
		escJS(`return typeof Function("return this")().process`, undef),
		escJS(`return Function("return this")() === globalThis`, escStdout("true\n")),
		escJS(`return typeof globalThis.__proto__.process + typeof Object.prototype.require`, escStdout("undefinedundefined\n")),
		escJS(`return JSON.stringify(Object.getOwnPropertyNames(globalThis))`, globalsOK),
		// After every lazily built part of the API is in place (fs, the
		// console formatter), still nothing else.
		escJS(`fs.existsSync("x"); console.error({a: [1]}); console.warn("%o", {b: 1}); try { null.x } catch (e) { console.error(e) }; return JSON.stringify(Object.getOwnPropertyNames(globalThis))`, globalsOK),
		escJS(`return JSON.stringify(Object.getOwnPropertySymbols(globalThis).map(String).filter(s => s !== "Symbol(Symbol.toStringTag)"))`, escStdout("[]\n")),
		escJS(`return JSON.stringify(Object.getOwnPropertyNames(Object.getPrototypeOf(globalThis)).filter(n => !(n in Object.prototype) || !Object.prototype.hasOwnProperty(n)))`, escStdout("[]\n")),
		escJS(`return console.log.constructor === Function && console.log.constructor("return typeof process")()`, undef),
		escJS(`return [].constructor.constructor("return typeof require")()`, undef),
		escJS(`return (async () => {}).constructor("return typeof process")().then(String)`, undef),
		escJS(`return (function*(){}).constructor("yield typeof require")().next().value`, undef),
		escJS(`return eval("typeof process") + (0, eval)("typeof require") + new Function("return typeof import_meta")()`, escStdout("undefinedundefinedundefined\n")),
		escJS(escJSTry(`import("fs")`), escNotOK),
		escJS(escJSTry(`import("data:text/javascript,export default 1")`), escNotOK),
		// Reflection on the API functions: nothing but length and name, no
		// Go type names, no way to reach the host through them.
		escJS(`const out = []
for (const f of [weather.current, weather_current, search, console.log, fs.readFileSync, listTools, shell, setTimeout]) {
  out.push(Reflect.ownKeys(f).map(String).filter(k => k !== "length" && k !== "name").join("+"))
}
return JSON.stringify(out)`, escStdout(`["","","","","","","",""]`+"\n")),
		escJS(`return [String(weather.current), typeof weather.current.prototype, Object.getPrototypeOf(weather.current) === Function.prototype].join("|")`, escAll(escKinds("ok"), escNotIn("func(", "goja"))),
		escJS(escJSTry(`weather.current.caller`), escKinds("ok")),
		escJS(escJSTry(`weather.current.arguments`), escKinds("ok")),
		escJS(`const o = Object.getOwnPropertyDescriptors(weather); return JSON.stringify(Object.keys(o))`, escStdout(`["current"]`+"\n")),
		escJS(`const t = listTools()[0]; return [Object.keys(t).sort().join(), typeof Object.getPrototypeOf(t), String(t)].join("|")`, escAll(escKinds("ok"), escNotIn("map[", "goja", "func("))),
		escJS(`try { await weather.current({x: 1n}) } catch (e) { return [e.name, Reflect.ownKeys(e).join()].join("|") }`, escAll(escKinds("ok"), escNotIn("goja", "func("))),
		escJS(`try { fs.readFileSync("nope") } catch (e) { return Reflect.ownKeys(e).sort().join() + "|" + Object.getPrototypeOf(e).constructor.name }`, escAll(escKinds("ok"), escNotIn("goja", "func("))),
		escJS(`try { fs.readFileSync("nope") } catch (e) { return typeof e.value + typeof e.unwrap + typeof e.Error + typeof e.error }`, escStdout("undefinedundefinedundefinedundefined\n")),
		escJS(`const st = fs.statSync("/workspace"); return Object.keys(st).filter(k => typeof st[k] === "object" && !(st[k] instanceof Date)).join()`, escStdout("\n")),
		escJS(`return [typeof Error.prepareStackTrace, typeof Error.captureStackTrace].join()`, escKinds("ok")),
		escJS(`Error.prepareStackTrace = (e, cs) => cs.map(c => typeof c.getThis === "function" ? String(c.getThis()) : "").join(); return new Error("x").stack`, escAll(escKinds("ok", "exception"), escNotIn("func(", "goja"))),
		// Symbol-based tricks: a custom inspect hook sees only JS values.
		escJS(`const seen = []
const o = {[Symbol.for("nodejs.util.inspect.custom")](depth, opts, inspect) { seen.push(typeof opts, typeof inspect, opts && Object.keys(opts).join("+")); return "custom" }}
console.log(o)
return JSON.stringify(seen)`, escAll(escKinds("ok"), escNotIn("goja", "func("))),
		escJS(`return typeof Symbol.for("goja") + String(Symbol.for("nodejs.util.inspect.custom") in globalThis)`, escStdout("symbolfalse\n")),
		escJS(escJSTry(`weather.current({[Symbol.toPrimitive]() { return "x" }, toJSON() { return "not an object" }})`), escRefused),
		escJS(escJSTry(`weather.current({toJSON() { return [1, 2] }})`), escRefused),
		escJS(escJSTry(`weather.current(new Proxy({}, {ownKeys() { throw new Error("trap") }}))`), escRefused),
		escJS(escJSTry(`weather.current(Object.create(null, {toJSON: {get() { throw new Error("getter") }}}))`), escRefused),
		escJS(escJSTry(`Reflect.construct(weather.current, [{}])`), escKinds("ok")),
		// Breaking out of the script's wrapper function lands in the same
		// runtime, not anywhere closer to the host.
		escJS(`}); globalThis.broke = typeof process; (async function() {`, escKinds("ok", "exception")),
		escJS(`}, function() {`, escKinds("ok", "exception")),
		escJS(`return typeof broke`, undef),
	}
	escRun(t, next, cases)
	// No case makes a valid call: a refused argument (or new on a tool
	// function) never reaches the handler.
	if n := ran.Load(); n != 0 {
		t.Errorf("the handlers ran %d times", n)
	}
	escAlive(t, next(), before)
}

// TestEscapePrototypePollution: what a script does to the interpreter's
// globals and prototypes is gone in the next execution, in the shell, and
// in the interpreters it nests.
func TestEscapePrototypePollution(t *testing.T) {
	before := escStart(t)
	var ran atomic.Int32
	sb := escNewSandbox(t, engine.SandboxConfig{
		Limits: engine.Limits{Timeout: escTimeout},
		Tools:  []engine.Tool{enginetest.Counting("weather/current", &ran)},
	})
	const clean = `const r = await weather.current({city: "SF"})
return [typeof ({}).polluted, typeof [].polluted, [1, 2].map(x => x * 2).join(), JSON.parse("[3]")[0], JSON.stringify({a: 1}),
  typeof console.log, String(Promise.prototype.then).includes("native"), r.city, typeof globalThis.leftover, typeof fs.readFileSync,
  Object.keys({}).length, typeof Symbol.iterator, [3, 1, 2].sort().join(), "abc".toUpperCase(), typeof weather_current, (async () => 5)() instanceof Promise].join("|")`
	const want = "undefined|undefined|2,4|3|{\"a\":1}|function|true|SF|undefined|function|0|symbol|1,2,3|ABC|function|true\n"
	polluters := []string{
		`Object.prototype.polluted = 1; Array.prototype.polluted = 1; globalThis.leftover = 1`,
		`Array.prototype.map = function() { return ["pwned"] }; Array.prototype.sort = () => []; Array.prototype.join = () => "pwned"`,
		`JSON.parse = () => ({pwned: true}); JSON.stringify = () => "pwned"`,
		`console.log = () => {}; globalThis.console = {log() {}}`,
		`weather.current = async () => ({city: "forged"}); globalThis.weather_current = weather.current`,
		`Promise.prototype.then = function() { return this }; Promise.resolve = () => 1`,
		`Object.defineProperty(Object.prototype, "city", {get() { return "forged" }, configurable: false})`,
		`Object.prototype.then = function(resolve) { resolve("forged") }`,
		`Object.freeze(Object.prototype); Object.freeze(Array.prototype); Object.freeze(globalThis)`,
		`delete globalThis.fs; delete globalThis.console; delete globalThis.JSON; Object.keys = () => [1]`,
		`Symbol.iterator = 1; String.prototype.toUpperCase = () => "x"; Function.prototype.call = null; Function.prototype.apply = null`,
		`globalThis.Promise = function() { throw new Error("pwned") }; globalThis.Error = null`,
		`Object.setPrototypeOf(Object.prototype, new Proxy({}, {get() { throw new Error("pwned") }}))`,
	}
	for _, p := range polluters {
		// The polluting script itself must not break the host's view of it:
		// a tool call made right after must still reach the real handler.
		o := escExec(t, sb, engine.JavaScript, "try { "+p+" } catch (e) {}\nawait weather_current({after: 1}).catch(() => {})")
		if o.err != nil {
			t.Errorf("%s", o)
		}
		o = escExec(t, sb, engine.JavaScript, clean)
		if o.err != nil || o.stdout() != want {
			t.Errorf("ESCAPE: after %q the next execution is not clean:\n%s\nwant %q", p, o, want)
		}
		o = escExec(t, sb, engine.Shell, `tool weather/current --city SF | jq -r .city; echo a | tr a A; node -e 'console.log([1,2].map(x => x * 2).join(), typeof ({}).polluted)'`)
		if o.err != nil || o.stdout() != "SF\nA\n2,4 undefined\n" {
			t.Errorf("after %q the shell is not clean:\n%s", p, o)
		}
	}
	// Within one execution, the interpreters it nests start clean too.
	o := escExec(t, sb, engine.JavaScript, `Object.prototype.polluted = 1; Array.prototype.map = () => ["pwned"]; JSON.parse = () => 0
const r = await shell("node -e 'console.log(typeof ({}).polluted, [1].map(x => x + 1).join(), JSON.parse(\"[7]\")[0])'")
return r.stdout`)
	if o.err != nil || o.stdout() != "undefined 2 7\n\n" {
		t.Errorf("ESCAPE: node -e inside shell() inherits the caller's pollution:\n%s", o)
	}
	// The tool results of a polluted execution are still the host's.
	o = escExec(t, sb, engine.JavaScript, `JSON.parse = () => ({city: "forged"}); const r = await weather.current({city: "real"}); return r.city`)
	if o.stdout() != "real\n" {
		t.Errorf("a tool result went through the script's JSON.parse:\n%s", o)
	}
	escAlive(t, sb, before)
}

// TestEscapeWritesOutside: writes outside /workspace and /tmp fail, the
// sandbox keeps both directories whatever a script removes, and nothing
// reaches the host's file system.
func TestEscapeWritesOutside(t *testing.T) {
	before := escStart(t)
	host := escHost(t)
	sb := escNewSandbox(t, engine.SandboxConfig{Limits: engine.Limits{Timeout: escTimeout}})
	if err := sb.WriteFile(context.Background(), "/data/ref.csv", []byte("a,b\n")); err != nil {
		t.Fatal(err)
	}
	pwn := filepath.Join(host.dir, "pwned")
	qp := strconv.Quote(pwn)
	js := func(expr string) escCase { return escJS(escJSTry(expr), escRefused) }
	cases := []escCase{
		js(`fs.writeFileSync("/etc/x", "y")`),
		js(`fs.writeFileSync("/x", "y")`),
		js(`fs.writeFileSync("/workspace/../x", "y")`),
		js(`fs.writeFileSync("../../x", "y")`),
		js(`fs.writeFileSync("/tmp/../etc/x", "y")`),
		// The host's temporary directory is under /tmp on the host too: in the
		// sandbox that is the sandbox's own /tmp, which is writable. What
		// matters is that nothing reaches the host (checked below).
		escJS(escJSTry(`fs.writeFileSync(`+qp+`, "y")`), escKinds("ok")),
		js(`fs.appendFileSync("/data/ref.csv", "evil")`),
		js(`fs.writeFileSync("/data/ref.csv", "evil")`),
		js(`fs.unlinkSync("/data/ref.csv")`),
		js(`fs.mkdirSync("/evil")`),
		js(`fs.mkdirSync("/evil/deeper", {recursive: true})`),
		escJS(escJSTry(`fs.mkdirSync(`+strconv.Quote(host.dir+"/d")+`, {recursive: true})`), escKinds("ok")),
		js(`fs.renameSync("/workspace", "/w")`),
		js(`fs.renameSync("/tmp", "/workspace/t")`),
		js(`fs.renameSync("/data", "/workspace/data")`),
		js(`fs.rmSync("/data", {recursive: true, force: true}) || fs.readdirSync("/data")`),
		js(`fs.symlinkSync("/etc/passwd", "p")`),
		js(`fs.linkSync("/data/ref.csv", "l")`),
		escJS(escJSTry(`fs.rmSync("/", {recursive: true, force: true})`), escKinds("ok")),
		escJS(escJSTry(`fs.rmSync("/workspace", {recursive: true, force: true})`), escKinds("ok")),
		escJS(escJSTry(`fs.rmdirSync("/tmp")`), escKinds("ok")),
		escJS(`fs.writeFileSync("ok.txt", "1"); fs.mkdirSync("/tmp/t", {recursive: true}); return fs.readFileSync("ok.txt", "utf8")`, escStdout("1\n")),

		escSh(`echo y > /etc/x`, escShFails),
		escSh(`echo y > '`+pwn+`'`, escKinds("ok", "exception")),
		escSh(`touch /x`, escShFails),
		escSh(`touch '`+pwn+`'`, escKinds("ok", "exception")),
		escSh(`mkdir /evil`, escShFails),
		escSh(`mkdir -p /evil/a '`+host.dir+`/d'`, escKinds("exception")),
		escSh(`mv /workspace /w`, escShFails),
		escSh(`mv /tmp /workspace/t`, escShFails),
		escSh(`echo y | tee /etc/x '`+pwn+`'`, escKinds("exception")),
		escSh(`cp /data/ref.csv /etc/`, escShFails),
		escSh(`echo evil >> /data/ref.csv`, escShFails),
		escSh(`rm -f /data/ref.csv`, escShFails),
		escSh(`exec 3>/etc/x; echo y >&3`, escShFails),
		escSh(`cd /; echo y > x`, escShFails),
		escSh(`rm -rf /`, escKinds("ok", "exception")),
		escSh(`echo after > after.txt && cat after.txt && ls -d /workspace /tmp`, escStdout("after\n/tmp\n/workspace\n")),
		escSh(`rm -rf /workspace /tmp; rmdir /workspace; cd /; rm -rf *`, escKinds("ok", "exception")),
		escSh(`pwd; echo y > y.txt && cat y.txt`, escStdout("/workspace\ny\n")),
		escSh(`set -C; : > /x; ln /data/ref.csv l; ln -s /data/ref.csv s`, escKinds("exception")),
	}
	escRun(t, func() *engine.Sandbox { return sb }, cases)
	escVFSConfined(t, sb, "/data")
	if got, err := sb.ReadFile(context.Background(), "/data/ref.csv"); err != nil || string(got) != "a,b\n" {
		t.Errorf("ESCAPE: the read-only /data/ref.csv changed: %q %v", got, err)
	}
	if _, err := os.Stat(pwn); err == nil {
		t.Errorf("ESCAPE: a script created %s on the host", pwn)
	}
	if _, err := os.Stat(filepath.Join(host.dir, "d")); err == nil {
		t.Errorf("ESCAPE: a script created a directory on the host")
	}
	// The next execution has both directories and works in /workspace.
	res := enginetest.Run(t, sb, `fs.writeFileSync("/tmp/t", "t"); fs.writeFileSync("w", "w"); return [fs.readFileSync("/tmp/t", "utf8"), fs.readFileSync("/workspace/w", "utf8")]`)
	if res.Stdout != `["t","w"]`+"\n" {
		t.Errorf("after the removals: %q %q", res.Stdout, res.Stderr)
	}
	escAlive(t, sb, before)
}

// TestEscapeRecursion: fork-bomb-like recursion ends within the time limit
// with a sensible error, and the host stays up.
func TestEscapeRecursion(t *testing.T) {
	before := escStart(t)
	var ran atomic.Int32
	next := escSandbox(t, engine.SandboxConfig{Tools: []engine.Tool{enginetest.Counting("ping", &ran)}})
	bounded := escKinds("exception", "recursion", "timeout", "memory")
	cases := []escCase{
		escJS(`function f() { f(); f() } f()`, escKinds("exception", "recursion")),
		escJS(`function f() { try { f() } catch (e) { f() } } f()`, bounded),
		// Recursion through native callbacks and implicit conversions: the
		// call-depth limit does not see these frames (see the report); they
		// must still end by the time limit.
		escJS(`const f = () => [0, 0].map(f); f()`, bounded),
		escJS(`const p = () => Promise.resolve().then(p); p()`, escKinds("timeout", "memory")),
		escJS(`const p = () => { queueMicrotask(p); queueMicrotask(p) }; p()`, escKinds("timeout", "memory")),
		escJS(`const f = () => { setTimeout(f, 0); setTimeout(f, 0) }; f()`, escKinds("timeout", "memory")),
		escJS(`setInterval(() => {}, 0)`, escKinds("timeout")),
		escJS(`const f = async () => { await ping({}); return f() }; await f()`, bounded),
		escJS(`const f = () => new Proxy({}, {get: f}); f().x.y`, escKinds("ok", "exception")),
		escJS(`const o = {}; o.toString = () => "" + o; "" + o`, bounded),
		escJS(`const p = new Proxy({}, {get: (t, k, r) => r[k]}); p.x`, bounded),
		escJS(`class A { get x() { return this.x } }; new A().x`, bounded),
		escJS(`const a = []; a[0] = a; return String(a) + JSON.stringify({toJSON() { return this }})`, escKinds("exception", "ok")),
		// shell() returns the command's status rather than throwing: the
		// bomb must fail (at the bound on concurrent pipeline stages) or
		// meet a limit, as the shell case below must.
		escJS(`const r = await shell("f(){ f | f; }; f"); if (r.exitCode !== 0) throw new Error("status " + r.exitCode)`, bounded),

		// Background jobs run: the bound on concurrent stages and jobs
		// refuses the bomb's forks, and the time, output or memory limit
		// ends it.
		escSh(`:(){ :|:& };:`, escKinds("timeout", "output", "memory")),
		escSh(`f() { f | f; }; f`, bounded),
		escSh(`f(){ f; }; f`, bounded),
		// The innermost level fails at the nesting limit; echo then succeeds, as in bash.
		escSh(`f(){ echo $(f); }; f`, escKinds("ok", "exception", "recursion", "timeout", "memory")),
		escSh(`s='eval "$s"'; eval "$s"`, bounded),
		escSh(`echo 'sh b.sh | sh b.sh' > b.sh; sh b.sh`, bounded),
		escSh(`echo '. ./c.sh' > c.sh; . ./c.sh`, bounded),
		escSh(`echo 'const r = await shell("node r.js"); console.log(r.stdout + r.stderr)' > r.js; node r.js`, escStdoutHas("nested more than")),
		escSh(`node -e 'const go = async (n) => { const r = await shell("node -e \"1\" | node -e \"1\""); return r.exitCode }; await go(0)'`, escKinds("ok", "exception", "timeout")),
		escSh(`echo 'node n.js | node n.js' > n.sh; echo 'await shell("sh n.sh")' > n.js; sh n.sh`, escKinds("ok", "exception", "timeout")),
		// A background job that never ends is stopped by the time limit.
		escSh(`while :; do :; done & wait`, escKinds("timeout")),
		escSh(`yes | yes | yes | head -1`, escKinds("ok", "exception", "timeout")),
	}
	escRun(t, next, cases)
	escAlive(t, next(), before)
}

// TestEscapeResourceExhaustion: huge strings and inputs, pathological
// regular expressions and endless producers end with an error or a fine
// output, never past the time limit, and leave the host and (when the
// sandbox broke) a fresh sandbox working.
func TestEscapeResourceExhaustion(t *testing.T) {
	before := escStart(t)
	next := escSandbox(t, engine.SandboxConfig{})
	limited := escKinds("ok", "exception", "recursion", "timeout", "memory", "output", "quota")
	cases := []escCase{
		escJS(`return "x".repeat(2**28).length`, limited),
		escJS(`return "x".repeat(1e6).repeat(1e3).length`, limited),
		escJS(`let s = "x"; for (;;) s += s`, limited),
		// 50 MB of nested arrays, a million unclosed ones, deep objects: goja's
		// JSON.parse recurses without a bound and does not check the
		// interrupt flag (see the report).
		escJS(`return JSON.parse("[".repeat(25e6) + "]".repeat(25e6)).length`, limited),
		escJS(`return JSON.parse("[".repeat(1e6)).length`, limited),
		escJS(`return JSON.parse("{\"a\":".repeat(1e5) + "1" + "}".repeat(1e5)) !== null`, limited),
		escJS(`return /(a+)+$/.test("a".repeat(40) + "b")`, escStdout("false\n")),
		escJS(`return /^(a|aa)+$/.test("a".repeat(5000) + "b")`, limited),
		escJS(`return new Array(2**32 - 1).join("x").length`, limited),
		escJS(`const a = []; for (;;) a.push({})`, limited),
		escJS(`return new ArrayBuffer(2**31).byteLength`, limited),
		escJS(`console.log("x".repeat(1 << 24)); return 1`, limited),
		escJS(`for (;;) console.log("x".repeat(1000))`, escKinds("output", "timeout")),
		escJS(`fs.writeFileSync("big", "x".repeat(1 << 20)); for (let i = 0; ; i++) fs.copyFileSync("big", "big" + i)`, limited),

		escSh(`printf 'a%.0s' {1..40} | sed 's/$/b/' | grep -cE '(a+)+$'`, escStdout("0\n")),
		escSh(`printf '%*s' 1000000000 x | head -c 40`, escAll(limited, escNoGoFmt)),
		escSh(`printf '%1000000000s' x | wc -c`, escAll(limited, escNoGoFmt)),
		escSh(`seq 1 100000000000 | tail -1`, escKinds("ok", "timeout")),
		escSh(`yes | head -c 10000000000 | wc -c`, escKinds("ok", "timeout")),
		escSh(`yes`, escKinds("timeout", "output")),
		escSh(`x=x; while :; do x=$x$x; done`, limited),
		escSh(`a=(); for ((i=0;;i++)); do a[i*1000000000]=x; done`, limited),
		escSh(`echo $(( 2 ** 62 )) $(( 1 / 0 ))`, escKinds("exception")),
		escSh(`yes | sort`, limited),
		escSh(`head -c 100000000 < /dev/zero | tr '\0' x | awk '{ print length }'`, limited),
		escSh(`cat /dev/zero | wc -c`, limited),
		// Brace expansion builds every word before it checks its bound of
		// 16384, quadratically and without polling the interrupt (see the
		// report).
		escSh(`echo {1..100000} | wc -c`, limited),
		escSh(`eval "$(printf 'echo %.0s' {1..100000})" | wc -l`, limited),
		escSh(`x=$(printf '%0100000d' 0); y=${x//0/$x}; echo ${#y}`, limited),
	}
	escRun(t, next, cases)

	// A pathological regular expression that goja hands to its backtracking
	// engine (a back reference forces it) never checks the interrupt flag:
	// the guest is killed after the grace period. It must still end within
	// the limit plus slack, and only that sandbox breaks.
	sb := next()
	o := escExec(t, sb, engine.JavaScript, `return /^(a+)+\1$/.test("a".repeat(40) + "b")`)
	if k := o.kind(); k != engine.KindTimeout && k != engine.KindMemory && !(o.err == nil && o.stdout() == "false\n") {
		t.Errorf("backtracking regexp: %s\n  want a timeout", o)
	}
	if err := sb.Err(); err != nil {
		t.Logf("NOTE: the backtracking regexp broke the sandbox (%v): %v", o.kind(), err)
	}
	escAlive(t, next(), before)
}

// TestEscapeToolCallIDs: a script cannot settle a tool promise twice, make
// a handler run twice for one call, or make the audit disagree with the
// calls it made.
func TestEscapeToolCallIDs(t *testing.T) {
	before := escStart(t)
	var ran atomic.Int32
	var mu sync.Mutex
	var audits []engine.AuditRecord
	sb := escNewSandbox(t, engine.SandboxConfig{
		Limits: engine.Limits{Timeout: escTimeout},
		Tools:  []engine.Tool{enginetest.Counting("t", &ran), enginetest.Counting("u", &ran)},
		Audit: func(r engine.AuditRecord) {
			mu.Lock()
			audits = append(audits, r)
			mu.Unlock()
		},
	})
	for _, tc := range []struct {
		code  string
		calls int32
		want  string
	}{
		{`const p = t({n: 1}); const a = await p; const b = await p; return [a.n, b.n, p === p.then(x => x) ? "same" : "other"]`, 1, `[1,1,"other"]`},
		{`let settled = 0; const p = t({n: 2}); p.then(() => settled++); p.then(() => settled++); await p; await null; return settled`, 1, `2`},
		{`const orig = Promise.prototype.then
Promise.prototype.then = function(ok, bad) { return orig.call(this, v => { ok && ok(v); return ok ? ok(v) : v }, bad) }
const r = await t({n: 3}); return r.n`, 1, `3`},
		{`const r = await Promise.all([t({n: 1}), t({n: 2}), u({n: 3}), t({n: 1})]); return r.map(x => x.n)`, 4, `[1,2,3,1]`},
		{`let r; await t({toJSON() { r = t({inner: 1}); return {outer: 1} }}); return (await r).inner`, 2, `1`},
		{`const ps = []; for (let i = 0; i < 20; i++) ps.push(t({i})); const rs = await Promise.allSettled(ps); return rs.filter(r => r.status === "fulfilled").length`, 20, `20`},
		{`const f = t; const g = f.bind(null, {n: 9}); const r = await Reflect.apply(g, undefined, []); return r.n`, 1, `9`},
		{`try { t({n: 1}, {id: 1}) } catch (e) { return e.name }`, 0, `TypeError`},
		{`const r = await u({id: 1, __id: 1, callId: 7, n: 5}); return r.n`, 1, `5`},
		{`let resolveOuter; const forged = new Promise(r => resolveOuter = r); resolveOuter({n: "forged"}); const r = await t({n: "real"}); return r.n`, 1, `real`},
	} {
		mu.Lock()
		audits = nil
		mu.Unlock()
		ranBefore := ran.Load()
		o := escExec(t, sb, engine.JavaScript, tc.code)
		n := ran.Load() - ranBefore
		if o.err != nil || strings.TrimSpace(o.stdout()) != tc.want {
			t.Errorf("%s\nwant stdout %s", o, tc.want)
		}
		if n != tc.calls {
			t.Errorf("ESCAPE: %s: handlers ran %d times for %d calls", escShort(tc.code, 80), n, tc.calls)
		}
		mu.Lock()
		nAudit := len(audits)
		mu.Unlock()
		if o.res != nil {
			ids := map[int]bool{}
			for _, c := range o.res.ToolCalls {
				if ids[c.ID] {
					t.Errorf("%s: the call id %d appears twice in the records", escShort(tc.code, 80), c.ID)
				}
				ids[c.ID] = true
			}
			if int32(len(o.res.ToolCalls)) != tc.calls || int32(nAudit) != tc.calls {
				t.Errorf("%s: %d records and %d audit records for %d calls", escShort(tc.code, 80), len(o.res.ToolCalls), nAudit, tc.calls)
			}
		}
	}

	// Host side: answering a call twice, or answering a call of an
	// execution that ended, reaches nothing.
	ctx := context.Background()
	x, err := sb.Start(ctx, engine.JavaScript, `const r = await t({n: 1}); return r`)
	if err != nil {
		t.Fatal(err)
	}
	calls, err := x.Next(ctx)
	if err != nil || len(calls) != 1 {
		t.Fatalf("Next: %v %v", calls, err)
	}
	first := calls[0]
	if err := first.Resolve("first"); err != nil {
		t.Fatal(err)
	}
	second := first.Resolve("second")
	first.Reject(errors.New("late"))
	first.Deny("late")
	if calls, err := x.Next(ctx); calls != nil || err != nil {
		t.Fatalf("final Next: %v %v", calls, err)
	}
	if got := x.Result().Stdout; got != "first\n" {
		t.Errorf("a call answered twice: the script saw %q (second Resolve: %v)", got, second)
	}
	if len(x.Result().ToolCalls) != 1 || string(x.Result().ToolCalls[0].Result) != `"first"` {
		t.Errorf("records %+v", x.Result().ToolCalls)
	}
	// A stale call from a finished execution, answered while the next
	// execution's call (same guest-side id) is pending, must not settle it.
	x2, err := sb.Start(ctx, engine.JavaScript, `const r = await t({n: 2}); return r`)
	if err != nil {
		t.Fatal(err)
	}
	calls2, err := x2.Next(ctx)
	if err != nil || len(calls2) != 1 {
		t.Fatalf("Next: %v %v", calls2, err)
	}
	first.Resolve("stale")
	first.Run(ctx)
	calls2[0].Resolve("fresh")
	if calls, err := x2.Next(ctx); calls != nil || err != nil {
		t.Fatalf("final Next: %v %v", calls, err)
	}
	if got := x2.Result().Stdout; got != "fresh\n" {
		t.Errorf("ESCAPE: an answer to a finished execution's call reached the next one: %q", got)
	}
	escAlive(t, sb, before)
}

// TestEscapeUnregisteredTool: calling a tool that does not exist is a clear
// error on every path, and no handler runs.
func TestEscapeUnregisteredTool(t *testing.T) {
	before := escStart(t)
	var ran atomic.Int32
	next := escSandbox(t, engine.SandboxConfig{Tools: []engine.Tool{enginetest.Counting("files/read", &ran)}})
	refused := escAll(escKinds("ok"), escStdoutHas("ERR:"))
	shUnknown := func(o escOut) string {
		if o.err != nil || o.exit() == 0 || o.stdout() != "" {
			return "want a failing status and no output"
		}
		if !strings.Contains(o.res.Stderr, "unknown tool") && !strings.Contains(o.res.Stderr, "not found") {
			return "want a message naming the unknown tool"
		}
		return ""
	}
	cases := []escCase{
		escJS(escJSTry(`globalThis["not/registered"]({})`), refused),
		escJS(escJSTry(`not_registered({})`), refused),
		escJS(escJSTry(`files.write({path: "/etc/x"})`), refused),
		escJS(escJSTry(`files_write({})`), refused),
		escJS(escJSTry(`files.read.write({})`), refused),
		escJS(escJSTry(`globalThis["files/read"]({})`), refused),
		escJS(escJSTry(`globalThis["files.read"]({})`), refused),
		escJS(`return JSON.stringify([getToolInfo("not/registered"), getToolInfo("files/write"), listTools("not").length])`, escStdout("[null,null,0]\n")),
		escJS(`return (await shell("tool not/registered; echo $?")).stdout`, escStdout("2\n\n")),
		escSh(`tool not/registered`, shUnknown),
		escSh(`tool not_registered --x 1`, shUnknown),
		escSh(`tool files/write --path /etc/x`, shUnknown),
		escSh(`tool FILES/READ`, shUnknown),
		escSh(`tool files/read/`, shUnknown),
		escSh(`tool /files/read`, shUnknown),
		// files.read is the dotted form of files/read, which tool accepts
		// as getToolInfo does (abi.LookupTool); these are not forms of it.
		escSh(`tool files..read`, shUnknown),
		escSh(`tool files.read.`, shUnknown),
		escSh(`tool 'files/read '`, shUnknown),
		escSh(`tool "$(printf 'files/read\001')"`, shUnknown),
		escSh(`tool --help not/registered`, shUnknown),
		escSh(`files/read`, escExit(127)),
		escSh(`files_read`, escExit(127)),
		escSh(`node -e 'try { await not_registered({}) } catch (e) { console.log(e.name) }'`, escStdout("ReferenceError\n")),
		escSh(`node -e 'try { await globalThis["not/registered"]({}) } catch (e) { console.log(e.name) }'`, escStdout("TypeError\n")),
	}
	escRun(t, next, cases)
	if n := ran.Load(); n != 0 {
		t.Errorf("ESCAPE: a handler ran %d times for calls to unregistered tools", n)
	}
	escAlive(t, next(), before)
}

// TestEscapeDeniedToolEveryPath extends TestDeniedToolOnEveryPath with the
// paths it does not take: nested interpreters, script files, eval, xargs,
// find -exec, subshells, pipelines, indirection and reflection in JS. The
// denied handler never runs, and each attempt leaves a denied record.
func TestEscapeDeniedToolEveryPath(t *testing.T) {
	before := escStart(t)
	var denied, allowed atomic.Int32
	var mu sync.Mutex
	var audits []engine.AuditRecord
	sb := escNewSandbox(t, engine.SandboxConfig{
		Limits: engine.Limits{Timeout: 5 * time.Second},
		Tools:  []engine.Tool{enginetest.Counting("admin/delete", &denied), enginetest.Counting("ok", &allowed)},
		Policy: enginetest.Policy(t, dsl.Method("ok")),
		Audit: func(r engine.AuditRecord) {
			mu.Lock()
			audits = append(audits, r)
			mu.Unlock()
		},
	})
	ctx := context.Background()
	if err := sb.PutFiles(ctx, []engine.File{
		{Path: "/workspace/d.sh", Mode: 0o755, Data: []byte("tool admin/delete\n")},
		{Path: "/workspace/d.js", Mode: 0o644, Data: []byte("await admin.delete({})\n")},
		{Path: "/workspace/deep.js", Mode: 0o644, Data: []byte(`const r = await shell("sh -c 'tool admin/delete; echo rc=$?'"); console.log(r.stdout)` + "\n")},
	}); err != nil {
		t.Fatal(err)
	}
	// Each JS path is one attempt; the script reports "ran" if a call
	// succeeded.
	jsPaths := []string{
		`admin.delete.call(null, {})`,
		`Reflect.apply(admin_delete, undefined, [{}])`,
		`admin.delete.bind(null, {})()`,
		`globalThis[getToolInfo("admin/delete").alias]({})`,
		`globalThis[listTools("admin")[0].alias]({})`,
		`Promise.all([ok({}), admin.delete({}), ok({})])`,
		`new Promise((res, rej) => setTimeout(() => admin.delete({}).then(res, rej), 1))`,
		`[admin.delete].map(f => f({}))[0]`,
		`Object.values(admin)[0]({})`,
		`eval("admin.delete({})")`,
		`new Function("return admin_delete({})")()`,
	}
	var b strings.Builder
	b.WriteString("const out = []\n")
	for _, p := range jsPaths {
		fmt.Fprintf(&b, "try { await (%s); out.push(\"ran\") } catch (e) { out.push(e.kind || e.name) }\n", p)
	}
	b.WriteString("return out.join()")
	o := escExec(t, sb, engine.JavaScript, b.String())
	if o.err != nil || strings.Contains(o.stdout(), "ran") || strings.Count(o.stdout(), "denied") != len(jsPaths) {
		t.Errorf("JS paths: %s", o)
	}
	attempts := len(jsPaths)

	// Shell paths, from JS's shell(), from the shell, and nested.
	shPaths := []string{
		`sh -c "node -e 'await admin.delete({})'"`,
		`node -e 'const r = await shell("sh -c \"tool admin/delete\""); if (r.exitCode !== 0) throw "rc " + r.exitCode'`,
		`echo 'tool admin/delete' | sh`,
		`echo 'await admin_delete({})' | node`,
		`bash d.sh`,
		`./d.sh`,
		`/workspace/d.sh`,
		`source d.sh`,
		`node d.js`,
		`js d.js`,
		`eval 'tool admin/delete'`,
		`echo admin/delete | xargs tool`,
		`find d.sh -exec tool admin/delete \; -print | grep -q d.sh`,
		`(tool admin/delete)`,
		`{ tool admin/delete; }`,
		`tool admin/delete | cat`,
		`$(echo tool) admin/delete`,
		`command tool admin/delete`,
		`t=tool; m=admin_delete; $t $m --json '{}'`,
		`x=$(tool admin/delete)`,
		`tool admin/delete --json '{"force": true}'`,
		`f() { tool admin/delete; }; f`,
		`node -p 'admin.delete({}).catch(e => { throw e })'`,
	}
	var sh strings.Builder
	sh.WriteString("set -o pipefail\n")
	for _, p := range shPaths {
		fmt.Fprintf(&sh, "%s; echo \"rc=$?\"\n", p)
	}
	script := sh.String()
	o = escExec(t, sb, engine.Shell, script)
	if o.err != nil || strings.Count(o.stdout(), "rc=0") > 0 || strings.Count(o.stdout(), "rc=") != len(shPaths) {
		t.Errorf("shell paths (every status must be non-zero): %s", o)
	}
	attempts += len(shPaths)
	o = escExec(t, sb, engine.JavaScript, "const r = await shell("+strconv.Quote(script)+"); return r.stdout")
	if o.err != nil || strings.Count(o.stdout(), "rc=0") > 0 || strings.Count(o.stdout(), "rc=") != len(shPaths) {
		t.Errorf("shell paths through shell(): %s", o)
	}
	attempts += len(shPaths)
	o = escExec(t, sb, engine.JavaScript, `const r = await shell("node deep.js"); return r.stdout + r.stderr`)
	if o.err != nil || !strings.Contains(o.stdout(), "rc=1") {
		t.Errorf("JS > shell > node > shell > sh > tool: %s", o)
	}
	attempts++

	if n := denied.Load(); n != 0 {
		t.Errorf("ESCAPE: the denied handler ran %d times", n)
	}
	mu.Lock()
	nDenied := 0
	for _, a := range audits {
		if a.Method == "admin/delete" {
			if a.Decision == "allow" {
				t.Errorf("ESCAPE: audit allowed admin/delete: %+v", a)
			}
			nDenied++
		}
	}
	mu.Unlock()
	if nDenied != attempts {
		t.Errorf("%d denied audit records for %d attempts", nDenied, attempts)
	}
	escAlive(t, sb, before)
}

// TestEscapeToolInFlightAtTimeout: a handler blocked when the time limit
// fires is canceled, the execution ends as a timeout on time, late answers
// go nowhere, and the next execution works.
func TestEscapeToolInFlightAtTimeout(t *testing.T) {
	before := escStart(t)
	var started, canceled, stubborn atomic.Int32
	block := engine.Tool{Name: "block", Handler: func(ctx context.Context, p json.RawMessage) (any, error) {
		started.Add(1)
		<-ctx.Done()
		canceled.Add(1)
		return "late", ctx.Err()
	}}
	ignore := engine.Tool{Name: "ignore", Handler: func(ctx context.Context, p json.RawMessage) (any, error) {
		time.Sleep(700 * time.Millisecond) // ignores its context
		stubborn.Add(1)
		return "stale", nil
	}}
	var quick atomic.Int32
	sb := escNewSandbox(t, engine.SandboxConfig{
		Limits: engine.Limits{Timeout: escTimeout},
		Tools:  []engine.Tool{block, ignore, enginetest.Counting("quick", &quick)},
	})
	for _, tc := range []struct {
		lang    engine.Language
		code    string
		handles int32 // block calls in flight
	}{
		{engine.JavaScript, `console.log("before"); await block({}); console.log("after")`, 1},
		{engine.JavaScript, `await Promise.all([block({}), block({}), block({})])`, 3},
		// The call is queued but the script never yields: no handler
		// starts, and the loop still ends by the time limit.
		{engine.JavaScript, `block({}); for (;;) {}`, 0},
		{engine.JavaScript, `await shell("tool block")`, 1},
		{engine.JavaScript, `await shell("node -e 'await block({})'")`, 1},
		{engine.Shell, `echo before; tool block; echo after`, 1},
		{engine.Shell, `tool block | cat; echo after`, 1},
		{engine.Shell, `node -e 'await Promise.all([block({}), block({})])'`, 2},
		{engine.JavaScript, `await block({}).catch(() => {}); console.log("after")`, 1},
		{engine.Shell, `tool block || echo after; echo after`, 1},
		// Background jobs' calls run in parallel and are all canceled.
		{engine.Shell, `tool block & sh -c 'tool block' & wait; echo after`, 2},
	} {
		started.Store(0)
		canceled.Store(0)
		o := escExec(t, sb, tc.lang, tc.code)
		if !errors.Is(o.err, engine.ErrTimeout) {
			t.Errorf("%s\n  want a timeout", o)
		}
		if strings.Contains(o.stdout(), "after") {
			t.Errorf("the script went on after the timeout: %s", o)
		}
		deadline := time.Now().Add(escScale(time.Second))
		for canceled.Load() < started.Load() && time.Now().Before(deadline) {
			time.Sleep(5 * time.Millisecond)
		}
		if started.Load() != tc.handles || canceled.Load() != tc.handles {
			// The handlers' contexts are all canceled, and no more start
			// than the script made calls.
			t.Errorf("%s: %d handlers started, %d saw their context canceled; want %d", escShort(tc.code, 80), started.Load(), canceled.Load(), tc.handles)
		}
		if o.res != nil {
			for _, c := range o.res.ToolCalls {
				if c.Result != nil {
					t.Errorf("a canceled call has a result: %+v", c)
				}
			}
		}
		if r := escExec(t, sb, engine.JavaScript, `return (await quick({n: 1})).n`); r.err != nil || r.stdout() != "1\n" {
			t.Errorf("the next execution: %s", r)
		}
	}
	// A handler that ignores its context answers after the execution ended;
	// the answer must not reach the next execution's call with the same id.
	o := escExec(t, sb, engine.JavaScript, `await ignore({})`)
	if !errors.Is(o.err, engine.ErrTimeout) {
		t.Errorf("%s\n  want a timeout", o)
	}
	for i := 0; i < 3; i++ {
		r := escExec(t, sb, engine.JavaScript, `const a = await quick({n: "fresh"}); await new Promise(r => setTimeout(r, 150)); const b = await quick({n: "fresh2"}); return [a, b]`)
		if r.err != nil || r.stdout() != `[{"n":"fresh"},{"n":"fresh2"}]`+"\n" {
			t.Errorf("ESCAPE: a stale answer reached a later execution: %s", r)
		}
	}
	deadline := time.Now().Add(escScale(2 * time.Second))
	for stubborn.Load() == 0 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	escAlive(t, sb, before)
}
