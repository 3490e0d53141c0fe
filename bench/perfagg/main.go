// Command perfagg sums a perf profile of a cordon process by guest function.
// bench/guestprof runs it on `perf script -F time,ip,sym` output of a
// process whose wazero wrote a perf map (built with -tags perfmap) for a
// guest that kept its function names (buildguest -names).
//
//	perf script -F time,ip,sym -i perf.data | go run ./bench/perfagg [-top N] [-callers SUBSTRING]
//
// Samples before the first one in guest code (wazero compiling the module)
// are left out. Guest functions are the perf map's names, shortened:
// "[8678/15823].github.com_dop251_goja.__vm_.run:::::L104" becomes
// "github.com_dop251_goja.__vm_.run". It prints where the samples were
// (guest code, host Go, kernel), the guest functions by self time, and by
// inclusive time (a function's share of the samples that have it on their
// stack, which counts both the guest's and the host's frames under it).
package main

import (
	"bufio"
	"cmp"
	"flag"
	"fmt"
	"io"
	"os"
	"regexp"
	"slices"
	"strings"
)

func main() {
	top := flag.Int("top", 40, "rows per table")
	callers := flag.String("callers", "", "also list the callers of the guest functions whose name contains this")
	flag.Parse()
	samples, err := read(os.Stdin)
	if err != nil {
		fmt.Fprintln(os.Stderr, "perfagg:", err)
		os.Exit(1)
	}
	report(os.Stdout, samples, *top, *callers)
}

// A frame is one line of a sample's call chain, leaf first.
type frame struct {
	name   string
	guest  bool
	kernel bool
}

var (
	mapName  = regexp.MustCompile(`^\[\d+/\d+\]\.`)
	labelSfx = regexp.MustCompile(`:::::L\d+$`)
)

// read parses perf script output: a header line per sample, then its call
// chain as "ADDRESS SYMBOL" lines, then a blank line.
func read(r io.Reader) ([][]frame, error) {
	var samples [][]frame
	var cur []frame
	in := false
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		switch {
		case line == "":
			if in {
				samples = append(samples, cur)
			}
			cur, in = nil, false
		case !in:
			in = true // the header: time
		default:
			addr, sym, _ := strings.Cut(line, " ")
			f := frame{name: strings.TrimSpace(sym), kernel: strings.HasPrefix(addr, "ffffffff")}
			if mapName.MatchString(f.name) {
				f.guest = true
				f.name = labelSfx.ReplaceAllString(mapName.ReplaceAllString(f.name, ""), "")
			} else if i := strings.Index(f.name, "+0x"); i > 0 {
				f.name = f.name[:i]
			}
			cur = append(cur, f)
		}
	}
	if in {
		samples = append(samples, cur)
	}
	return samples, sc.Err()
}

func report(w io.Writer, samples [][]frame, top int, callers string) {
	start := slices.IndexFunc(samples, func(s []frame) bool { return slices.ContainsFunc(s, func(f frame) bool { return f.guest }) })
	if start < 0 {
		fmt.Fprintln(w, "perfagg: no sample in guest code: was the binary built with -tags perfmap, and did wazero compile the module (an empty cache directory)?")
		return
	}
	samples = samples[start:]
	var guest, kernel, host int
	self := map[string]int{}
	incl := map[string]int{}
	calledBy := map[string]int{}
	for _, s := range samples {
		if len(s) == 0 {
			continue
		}
		switch leaf := s[0]; {
		case leaf.guest:
			guest++
			self[leaf.name]++
		case leaf.kernel:
			kernel++
		default:
			host++
		}
		seen := map[string]bool{}
		for i, f := range s {
			if !f.guest || seen[f.name] {
				continue
			}
			seen[f.name] = true
			incl[f.name]++
			if callers != "" && strings.Contains(f.name, callers) && i+1 < len(s) {
				calledBy[f.name+"  <-  "+s[i+1].name]++
			}
		}
	}
	n := len(samples)
	pct := func(k, of int) string { return fmt.Sprintf("%5.1f%%", 100*float64(k)/float64(max(of, 1))) }
	fmt.Fprintf(w, "%d samples from the first in guest code: guest code %s, host Go %s, kernel %s\n",
		n, pct(guest, n), pct(host, n), pct(kernel, n))
	table := func(title string, m map[string]int, of int) {
		fmt.Fprintf(w, "\n%s\n", title)
		type row struct {
			name string
			k    int
		}
		var rows []row
		for name, k := range m {
			rows = append(rows, row{name, k})
		}
		slices.SortFunc(rows, func(a, b row) int { return cmp.Or(b.k-a.k, strings.Compare(a.name, b.name)) })
		for _, r := range rows[:min(top, len(rows))] {
			fmt.Fprintf(w, "  %s  %s\n", pct(r.k, of), r.name)
		}
	}
	table("guest functions, self (% of samples whose leaf is guest code):", self, guest)
	table("guest functions, inclusive (% of all samples):", incl, n)
	if callers != "" {
		table(fmt.Sprintf("callers of %q (%% of all samples):", callers), calledBy, n)
	}
}
