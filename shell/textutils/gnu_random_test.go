//go:build gnucompare

// Random differential tests against the real GNU tools (development only,
// like gnu_compare_test.go): thousands of generated invocations of grep,
// sed, sort, uniq, cut and column over the fixtures, reporting any
// difference in output or status. SEED varies the generator:
//
//	SEED=abc go test -tags gnucompare -run Diff ./shell/textutils/

package textutils

import (
	"bytes"
	"context"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestGrepDiff compares random grep invocations.
func TestGrepDiff(t *testing.T) {
	r := rand.New(rand.NewSource(int64(len(os.Getenv("SEED")))))
	opts := []string{"-i", "-v", "-c", "-n", "-o", "-w", "-x", "-h", "-H", "-l", "-L", "-m1", "-m2", "-A1", "-B1", "-C1", "-E", "-F", "-b", "-s", "-q", "-r", "-a", "-I", "-Z", "-z", "-A2", "-B2", "-m3", "-P", "-ow", "-vc", "-on", "-iw", "-x"}
	pats := []string{"foo", "o*", "^f", "bar$", "[ab]", `\(o\)\+`, "a|b", "o.", "", "x*", `\bfoo`, "[^o]", ".", "oo", "Foo", "(x)", `o\{2\}`, "a{1}", `^`, `$`, `\w+`, `[[:digit:]]+`, `1[0-9]`, `^.$`, "[.]", `\<f`, `o\>`, "foo\nbar", "b.*z", "f[aeiou]*"}
	files := [][]string{{"a.txt"}, {"b.txt"}, {"words"}, {"a.txt", "b.txt"}, {"re"}, {"a.txt", "words", "nope"}, {"s20"}, {"bin.dat"}, {"nonl.txt"}, {"d"}, {"s20", "bin.dat", "nonl.txt"}}
	dir := t.TempDir()
	for n, d := range gfiles {
		p := filepath.Join(dir, n)
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, []byte(d), 0o644)
	}
	bad := 0
	for i := 0; i < 6000 && bad < 30; i++ {
		args := []string{"grep"}
		for k := r.Intn(4); k > 0; k-- {
			args = append(args, opts[r.Intn(len(opts))])
		}
		args = append(args, "-e", pats[r.Intn(len(pats))])
		args = append(args, files[r.Intn(len(files))]...)
		cmd := exec.Command(args[0], args[1:]...)
		cmd.Dir = dir
		cmd.Env = []string{"LC_ALL=C"}
		var out bytes.Buffer
		cmd.Stdout = &out
		err := cmd.Run()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		}
		got, _, gcode, _ := runCmd(context.Background(), gfiles, "", args...)
		same := got == out.String() || sortedLines(got) == sortedLines(out.String())
		if !same || gcode != code {
			bad++
			t.Errorf("%s\n ours %q %d\n GNU  %q %d", strings.Join(args, " "), got, gcode, out.String(), code)
		}
	}
}

// TestSedDiff compares random sed scripts.
func TestSedDiff(t *testing.T) {
	r := rand.New(rand.NewSource(int64(len(os.Getenv("SEED")))))
	addrs := []string{"", "", "", "2", "$", "/o/", "1,3", "/t/,/f/", "2~2", "0,/o/", "$!", "3!", "/e/I", "2,+1", "1,~2", `\,w,`, "4,2"}
	cmds := []string{"p", "d", "s/o/0/g", `s/\(o\)\(.\)/\2\1/`, "y/abc/xyz/", "n", "N", "P", "D", "h", "H", "g", "G", "x", "=", "l", "a X", "i\\\nY", "c\\\nZ", "q", "Q", "s/e/E/2", "s/^/>/", "s/$/</", "z", "t", "T", "b", "s/[aeiou]/(&)/gp", `s/.*/\U&/`, "q3", "F", "r b"}
	flags := []string{"", "", "-n", "-s", "-E", "-z"}
	files := [][]string{{"a"}, {"b"}, {"nonl"}, {"a", "b"}, {"t"}, {"nonl", "b"}}
	dir := t.TempDir()
	for n, d := range sfiles {
		os.WriteFile(filepath.Join(dir, n), []byte(d), 0o644)
	}
	bad := 0
	for i := 0; i < 4000 && bad < 30; i++ {
		var parts []string
		for k := 1 + r.Intn(3); k > 0; k-- {
			c := cmds[r.Intn(len(cmds))]
			a := addrs[r.Intn(len(addrs))]
			if strings.HasSuffix(a, "!") || a == "" {
				parts = append(parts, a+c)
			} else if r.Intn(3) == 0 {
				parts = append(parts, a+"{"+c+"\n}")
			} else {
				parts = append(parts, a+c)
			}
		}
		script := strings.Join(parts, "\n")
		args := []string{"sed"}
		if f := flags[r.Intn(len(flags))]; f != "" {
			args = append(args, f)
		}
		args = append(args, script)
		args = append(args, files[r.Intn(len(files))]...)
		tctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		cmd := exec.CommandContext(tctx, args[0], args[1:]...)
		cmd.Dir = dir
		cmd.Env = []string{"LC_ALL=C"}
		var out bytes.Buffer
		cmd.Stdout = &out
		err := cmd.Run()
		cancel()
		if tctx.Err() != nil {
			continue
		}
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		}
		octx, ocancel := context.WithTimeout(context.Background(), 2*time.Second)
		got, _, gcode, _ := runCmd(octx, sfiles, "", args...)
		ocancel()
		if got != out.String() || gcode != code {
			bad++
			t.Errorf("%q\n ours %q %d\n GNU  %q %d", args, got, gcode, out.String(), code)
		}
	}
}

// TestSortDiff compares random sort, uniq, cut and column invocations.
func TestSortDiff(t *testing.T) {
	r := rand.New(rand.NewSource(int64(len(os.Getenv("SEED")))))
	type gen struct {
		name  string
		opts  []string
		files [][]string
	}
	gens := []gen{
		{"sort", []string{"-n", "-r", "-f", "-b", "-u", "-s", "-d", "-i", "-h", "-g", "-M", "-V", "-k2", "-k2,2", "-k2n", "-k1,1r", "-k2.2", "-k1.2,1.3", "-t,", "-t:", "-k3", "-k2,2n", "-c", "-z", "-k1b,1", "-k2,2g", "-k2h"},
			[][]string{{"w"}, {"n"}, {"h"}, {"k"}, {"csv"}, {"m"}, {"v"}, {"g"}, {"dup"}, {"col2"}, {"w", "n"}, {"nonl", "f2"}, {"dupf"}, {"tabs"}}},
		{"uniq", []string{"-c", "-d", "-u", "-i", "-f1", "-s1", "-w2", "-D", "-z", "--group", "-s2", "-f2"},
			[][]string{{"dup"}, {"dupf"}, {"w"}, {"nonl"}, {"k"}}},
		{"cut", []string{"-f1", "-f2", "-f1,3", "-f2-", "-f-2", "-c1-3", "-c2", "-b1,3-", "-d:", "-d,", "-d ", "-s", "--complement", "--output-delimiter=|", "-z"},
			[][]string{{"tabs"}, {"col2"}, {"csv"}, {"cols"}, {"k"}, {"nonl"}}},
		{"column", []string{"-t", "-s,", "-s:", "-x", "-c30", "-c60", "-o|", "-L"},
			[][]string{{"tabs"}, {"col2"}, {"csv"}, {"k"}, {"w"}, {"n"}}},
	}
	dir := t.TempDir()
	for n, d := range tfiles {
		os.WriteFile(filepath.Join(dir, n), []byte(d), 0o644)
	}
	bad := 0
	for i := 0; i < 4000 && bad < 30; i++ {
		g := gens[r.Intn(len(gens))]
		args := []string{g.name}
		for k := r.Intn(4); k > 0; k-- {
			args = append(args, g.opts[r.Intn(len(g.opts))])
		}
		args = append(args, g.files[r.Intn(len(g.files))]...)
		tctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		cmd := exec.CommandContext(tctx, args[0], args[1:]...)
		cmd.Dir = dir
		cmd.Env = []string{"LC_ALL=C"}
		var out bytes.Buffer
		cmd.Stdout = &out
		err := cmd.Run()
		cancel()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		}
		got, _, gcode, _ := runCmd(context.Background(), tfiles, "", args...)
		if got != out.String() || gcode != code {
			bad++
			t.Errorf("%q\n ours %q %d\n GNU  %q %d", args, got, gcode, out.String(), code)
		}
	}
}
