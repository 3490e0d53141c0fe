package command

import (
	"io"
	"reflect"
	"strings"
	"testing"
)

func TestGetopt(t *testing.T) {
	cases := []struct {
		args    []string
		posixly bool
		opts    []Opt
		rest    []string
		err     string
	}{
		{args: []string{"-rn", "x", "-k2", "-t", ",", "f"}, opts: []Opt{{"r", ""}, {"n", ""}, {"k", "2"}, {"t", ","}}, rest: []string{"x", "f"}},
		{args: []string{"--max-d=3", "a", "--", "-n"}, opts: []Opt{{"max-depth", "3"}}, rest: []string{"a", "-n"}},
		{args: []string{"a", "-n"}, posixly: true, rest: []string{"a", "-n"}},
		{args: []string{"-", "-Z"}, err: "invalid option -- 'Z'"},
		{args: []string{"-k"}, err: "option requires an argument -- 'k'"},
		{args: []string{"--bogus"}, err: "unrecognized option '--bogus'"},
	}
	for _, c := range cases {
		t.Run(strings.Join(c.args, " "), func(t *testing.T) {
			opts, rest, err := Getopt(c.args, "rnk:t:", []string{"max-depth=", "reverse"}, c.posixly)
			if c.err != "" {
				if err == nil || err.Error() != c.err {
					t.Errorf("%q: err %v, want %q", c.args, err, c.err)
				}
				return
			}
			if err != nil || !reflect.DeepEqual(opts, c.opts) || !reflect.DeepEqual(rest, c.rest) {
				t.Errorf("%q: got %v %q %v", c.args, opts, rest, err)
			}
		})
	}
}

func TestOpenDevices(t *testing.T) {
	env := &Env{Stdin: strings.NewReader("in"), Dir: "/workspace"}
	for name, want := range map[string]string{"-": "in", "/dev/null": "", "/dev/zero": "\x00\x00\x00"} {
		t.Run(name, func(t *testing.T) {
			env.Stdin = strings.NewReader("in")
			f, err := env.Open(name)
			if err != nil {
				t.Fatal(name, err)
			}
			buf := make([]byte, 3)
			n, _ := io.ReadFull(f, buf)
			if string(buf[:n]) != want {
				t.Errorf("%s: %q", name, buf[:n])
			}
		})
	}
}
