package textutils

import (
	"context"
	"strings"
	"testing"
	"time"
)

// FuzzTranslateRE checks that no pattern panics the translator and that
// every translation compiles.
func FuzzTranslateRE(f *testing.F) {
	for _, s := range []string{`a\(b\)*`, `[]a-z[:alpha:]]`, `\{1,2\}`, `a{,3}|b`, `^*$`, `[[.a.]-[=b=]]`, `\x41\o101\d065\cA`} {
		f.Add(s, false)
		f.Add(s, true)
	}
	f.Fuzz(func(t *testing.T, pat string, ere bool) {
		for _, o := range []reOpts{{ere: ere}, {ere: ere, dotNL: true, sedEsc: true, icase: true}} {
			s, err := translateRE(pat, o)
			if err != nil {
				continue
			}
			if _, err := compileRE2(s); err != nil && err != errTooBig {
				t.Fatalf("%q (ere %v) -> %q: %v", pat, ere, s, err)
			}
		}
	})
}

// FuzzSed runs arbitrary scripts over a small input.
func FuzzSed(f *testing.F) {
	for _, s := range []string{"p", "s/a/b/g", "1~2{N;P;D}", ":a;N;$!ba", "y/ab/ba/", "a\\\nx", "$!{h;d};x;G", "0,/a/s//X/w /tmp/o", "l 5"} {
		f.Add(s, "a\nb\nab\n")
	}
	f.Fuzz(func(t *testing.T, script, input string) {
		ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
		defer cancel()
		runCmd(ctx, nil, input, "sed", "-n", "-e", script)
	})
}

// FuzzCommands runs every command with arbitrary arguments and input.
func FuzzCommands(f *testing.F) {
	f.Add(uint8(0), "-n\x00-C1\x00o", "foo\nbar\n")
	f.Add(uint8(1), "-k2,2n\x00-t\x00,", "a,2\nb,1\n")
	f.Add(uint8(2), "-c\x00-f1", "a b\na b\n")
	f.Add(uint8(3), "-d:\x00-f2-", "a:b:c\n")
	f.Add(uint8(4), "-s\x00a-z\x00[A*]", "hello\n")
	f.Add(uint8(5), "-E\x00s/(a|b)+/\\U&/g", "abc\n")
	names := []string{"grep", "sort", "uniq", "cut", "tr", "sed", "column"}
	f.Fuzz(func(t *testing.T, which uint8, args, input string) {
		ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
		defer cancel()
		argv := append([]string{names[int(which)%len(names)]}, strings.Split(args, "\x00")...)
		runCmd(ctx, map[string]string{"f": input}, input, argv...)
	})
}
