//go:build gnucompare

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
)

func TestZZDiff(t *testing.T) {
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

func TestZZSedDiff(t *testing.T) {
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
		got, _, gcode, _ := runCmd(context.Background(), sfiles, "", args...)
		if got != out.String() || gcode != code {
			bad++
			t.Errorf("%q\n ours %q %d\n GNU  %q %d", args, got, gcode, out.String(), code)
		}
	}
}
