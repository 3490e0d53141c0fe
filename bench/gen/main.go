// Command gen writes the 10 MB log file that bench/run's shell workloads
// read, the same data as engine.BenchmarkShellPipeline10MB.
package main

import (
	"fmt"
	"os"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: gen FILE")
		os.Exit(2)
	}
	var buf []byte
	words := []string{"alpha", "beta", "gamma", "delta", "foo", "epsilon", "zeta", "foo", "eta"}
	for i := 0; len(buf) < 10<<20; i++ {
		buf = fmt.Appendf(buf, "2026-11-21T12:%02d:%02d host%d %s user%d request %d done in %dms\n",
			i/60%60, i%60, i%7, words[i%len(words)], i%113, i, i%997)
	}
	if err := os.WriteFile(os.Args[1], buf, 0o644); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
