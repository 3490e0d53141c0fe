package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/cordonhq/cordon/engine"
)

// BenchmarkMCPStart measures the start target for `cordon mcp`:
// it spawns the built binary over stdio with a warm compilation cache and
// times, from the process's start, its answer to initialize (ns/op; the
// target is 100 ms), to tools/list (list-ms) and to a first tools/call
// that runs `return 1` (call-ms), which waits for the guest; help-ms is
// the floor, `cordon help` from start to exit, timed in the same
// iterations. After the call it reads the process's memory from
// /proc/PID/smaps_rollup: rss-MiB, resident, and pss-MiB, its
// proportional share of pages shared with other processes (the target is
// a process that starts at 60 MiB or less; Linux only, left out
// elsewhere). The cache is $CORDON_BENCH_CACHE_DIR, or the default one,
// filled first with `cordon precompile`; $CORDON_BENCH_BIN runs another
// build instead of this tree's.
//
//	go test ./cmd/cordon/ -run XXX -bench MCPStart -count 5
func BenchmarkMCPStart(b *testing.B) {
	bin := os.Getenv("CORDON_BENCH_BIN") // another build, to compare
	if bin == "" {
		bin = filepath.Join(b.TempDir(), "cordon")
		if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
			b.Fatalf("go build: %v\n%s", err, out)
		}
	}
	cache := os.Getenv("CORDON_BENCH_CACHE_DIR")
	if cache == "" {
		var err error
		if cache, err = engine.DefaultCacheDir(); err != nil {
			b.Fatal(err)
		}
	}
	if out, err := exec.Command(bin, "precompile", "--cache-dir", cache).CombinedOutput(); err != nil {
		b.Fatalf("precompile: %v\n%s", err, out)
	}
	const (
		initialize = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"bench","version":"1"}}}` + "\n"
		list       = `{"jsonrpc":"2.0","method":"notifications/initialized"}` + "\n" + `{"jsonrpc":"2.0","id":2,"method":"tools/list"}` + "\n"
		call       = `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"run_javascript","arguments":{"code":"return 1"}}}` + "\n"
	)
	var listTotal, callTotal, helpTotal time.Duration
	var rss, pss float64 // KiB, summed over the iterations
	memRead := true
	for b.Loop() {
		// The floor: a process of the same binary that does nothing
		// (cordon help), timed in the same iteration.
		b.StopTimer()
		start := time.Now()
		if out, err := exec.Command(bin, "help").CombinedOutput(); err != nil {
			b.Fatalf("cordon help: %v\n%s", err, out)
		}
		helpTotal += time.Since(start)
		b.StartTimer()

		cmd := exec.Command(bin, "mcp", "-q", "--cache-dir", cache)
		stdin, err := cmd.StdinPipe()
		if err != nil {
			b.Fatal(err)
		}
		stdout, err := cmd.StdoutPipe()
		if err != nil {
			b.Fatal(err)
		}
		r := bufio.NewReader(stdout)
		start = time.Now()
		if err := cmd.Start(); err != nil {
			b.Fatal(err)
		}
		io.WriteString(stdin, initialize)
		answer := func(id int) {
			for {
				line, err := r.ReadBytes('\n')
				if err != nil {
					b.Fatalf("reading the answer to %d: %v", id, err)
				}
				var m struct {
					ID     int             `json:"id"`
					Error  json.RawMessage `json:"error"`
					Result struct {
						IsError bool `json:"isError"`
					} `json:"result"`
				}
				if json.Unmarshal(line, &m) != nil || m.ID != id {
					continue
				}
				if m.Error != nil || m.Result.IsError {
					b.Fatalf("answer to %d: %.300s", id, line)
				}
				return
			}
		}
		answer(1)
		b.StopTimer()
		io.WriteString(stdin, list)
		answer(2)
		listTotal += time.Since(start)
		io.WriteString(stdin, call)
		answer(3)
		callTotal += time.Since(start)
		if memRead {
			r, p, err := smapsRollup(cmd.Process.Pid)
			rss, pss, memRead = rss+r, pss+p, err == nil
		}
		stdin.Close()
		if err := cmd.Wait(); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
	}
	b.ReportMetric(float64(helpTotal.Milliseconds())/float64(b.N), "help-ms")
	b.ReportMetric(float64(listTotal.Milliseconds())/float64(b.N), "list-ms")
	b.ReportMetric(float64(callTotal.Milliseconds())/float64(b.N), "call-ms")
	if memRead {
		b.ReportMetric(rss/1024/float64(b.N), "rss-MiB")
		b.ReportMetric(pss/1024/float64(b.N), "pss-MiB")
	}
}

// smapsRollup returns the resident and proportional set sizes of process
// pid in KiB, from /proc/PID/smaps_rollup.
func smapsRollup(pid int) (rss, pss float64, err error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/smaps_rollup", pid))
	if err != nil {
		return 0, 0, err
	}
	found := 0
	for l := range strings.Lines(string(b)) {
		f := strings.Fields(l)
		if len(f) < 2 || (f[0] != "Rss:" && f[0] != "Pss:") {
			continue
		}
		kb, err := strconv.ParseFloat(f[1], 64)
		if err != nil {
			return 0, 0, fmt.Errorf("smaps_rollup: %q: %w", l, err)
		}
		if f[0] == "Rss:" {
			rss = kb
		} else {
			pss = kb
		}
		found++
	}
	if found != 2 {
		return 0, 0, errors.New("smaps_rollup: no Rss and Pss")
	}
	return rss, pss, nil
}
