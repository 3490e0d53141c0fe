package awk

import (
	"bytes"
	"context"
	"errors"
	"io"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/cordonhq/cordon/shell/command"
	"github.com/cordonhq/cordon/vfs"
)

// testFiles are the files every test finds in /workspace.
var testFiles = map[string]string{
	"data1.txt": "x 1\ny 2\nx 3\n",
	"data2.txt": "a:b\nc:d\n",
	"prog.awk":  "BEGIN { x = 1 }\n{ print x, $1 }\n",
	"lib.awk":   "function twice(n) { return 2 * n }\n",
	"bad.awk":   "BEGIN {\n]\n",
	"div.awk":   "BEGIN {\n\tprint 1/0\n}\n",
}

// fakeExec runs a few commands the way the shell would: cat, sort, true
// and false.
func fakeExec(ctx context.Context, args, environ []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 3 && args[0] == "sh" && args[1] == "-c" {
		stages, err := parsePipeline(args[2])
		if err != nil {
			io.WriteString(stderr, "sh: "+err.Error()+"\n")
			return 2
		}
		status := 0
		for i, st := range stages {
			if i == len(stages)-1 {
				return fakeExec(ctx, st, environ, stdin, stdout, stderr)
			}
			var buf bytes.Buffer
			status = fakeExec(ctx, st, environ, stdin, &buf, stderr)
			stdin = &buf
		}
		return status
	}
	switch args[0] {
	case "echo":
		io.WriteString(stdout, strings.Join(args[1:], " ")+"\n")
		return 0
	case "cat":
		io.Copy(stdout, stdin)
		return 0
	case "sort":
		data, _ := io.ReadAll(stdin)
		lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
		sort.Strings(lines)
		if len(args) > 1 && args[1] == "-r" {
			sort.Sort(sort.Reverse(sort.StringSlice(lines)))
		}
		io.WriteString(stdout, strings.Join(lines, "\n")+"\n")
		return 0
	case "true":
		return 0
	case "false":
		return 1
	}
	io.WriteString(stderr, args[0]+": command not found\n")
	return 127
}

// runAwk runs the awk command with the test files in a fresh VFS.
func runAwk(t testing.TB, ctx context.Context, args []string, stdin string) (stdout, stderr string, status int, fsys *vfs.FS) {
	t.Helper()
	fsys = newFS(t)
	var out, errb bytes.Buffer
	env := &command.Env{
		Ctx:     ctx,
		Args:    append([]string{"awk"}, args...),
		Stdin:   strings.NewReader(stdin),
		Stdout:  &out,
		Stderr:  &errb,
		Dir:     "/workspace",
		FS:      fsys,
		Environ: []string{"HOME=/root", "X=5"},
		Now:     func() time.Time { return time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC) },
		Exec:    fakeExec,
	}
	status = Commands()["awk"](env)
	return out.String(), errb.String(), status, fsys
}

// newFS returns a VFS holding testFiles in /workspace.
func newFS(t testing.TB) *vfs.FS {
	fsys := vfs.New(vfs.Limits{})
	for name, data := range testFiles {
		if err := fsys.WriteFile("/workspace/"+name, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return fsys
}

// testEnv returns an Env over a fresh VFS.
func testEnv(t testing.TB, ctx context.Context, stdin io.Reader, stdout io.Writer) *command.Env {
	return &command.Env{Ctx: ctx, Args: []string{"awk"}, Stdin: stdin, Stdout: stdout, Stderr: io.Discard, Dir: "/workspace", FS: newFS(t), Now: time.Now, Exec: fakeExec}
}

// parsePipeline splits a command line of the restricted form that
// fakeExec runs for "sh -c": simple commands of plain or quoted words, joined by
// '|'. Expansions, redirections, globs and command lists are refused.
func parsePipeline(s string) ([][]string, error) {
	var stages [][]string
	var words []string
	var w strings.Builder
	inWord := false
	endWord := func() {
		if inWord {
			words = append(words, w.String())
			w.Reset()
			inWord = false
		}
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch c {
		case ' ', '\t', '\n':
			endWord()
		case '|':
			endWord()
			if len(words) == 0 {
				return nil, errors.New("syntax error near `|'")
			}
			stages = append(stages, words)
			words = nil
		case '\'':
			j := strings.IndexByte(s[i+1:], '\'')
			if j < 0 {
				return nil, errors.New("unterminated quote")
			}
			w.WriteString(s[i+1 : i+1+j])
			inWord = true
			i += 1 + j
		case '"':
			inWord = true
			i++
			for ; i < len(s) && s[i] != '"'; i++ {
				switch s[i] {
				case '$', '`':
					return nil, errors.New("expansions are not supported")
				case '\\':
					if i+1 < len(s) && strings.IndexByte("\"\\$`\n", s[i+1]) >= 0 {
						i++
					}
				}
				w.WriteByte(s[i])
			}
			if i >= len(s) {
				return nil, errors.New("unterminated quote")
			}
		case '\\':
			if i+1 < len(s) {
				i++
				if s[i] != '\n' {
					w.WriteByte(s[i])
					inWord = true
				}
			}
		case '$', '`', ';', '&', '<', '>', '(', ')', '*', '?', '[', '{', '}', '~', '#':
			if c == '#' && inWord || c == '~' && inWord || (c == '{' || c == '}') && inWord {
				w.WriteByte(c)
				continue
			}
			return nil, errors.New("only simple commands and pipelines are supported")
		default:
			w.WriteByte(c)
			inWord = true
		}
	}
	endWord()
	if len(words) == 0 {
		if len(stages) > 0 {
			return nil, errors.New("syntax error near `|'")
		}
		return nil, errors.New("empty command")
	}
	return append(stages, words), nil
}
