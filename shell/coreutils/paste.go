package coreutils

import (
	"bufio"
	"bytes"
	"io"

	"github.com/cordonhq/cordon/shell/command"
)

// cmdPaste implements paste [-s] [-d LIST] [FILE]...
func cmdPaste(env *command.Env) int {
	opts, files, st, ok := env.ParseOptions("sd:z", []string{"serial", "delimiters=", "zero-terminated"}, false)
	if !ok {
		return st
	}
	serial, delims := false, []string{"\t"}
	for _, o := range opts {
		switch o.Name {
		case "s", "serial":
			serial = true
		case "d", "delimiters":
			delims = parsePasteDelims(o.Value)
		}
	}
	if len(files) == 0 {
		files = []string{"-"}
	}
	w := env.NewOutput()
	var status int
	if serial {
		status = pasteSerial(env, w, files, delims)
	} else {
		status = pasteParallel(env, w, files, delims)
	}
	if err := w.Flush(); err != nil && status == 0 {
		return env.WriteError(err)
	}
	return status
}

// parsePasteDelims expands paste's delimiter list ("\n", "\t", "\\", "\0").
func parsePasteDelims(s string) []string {
	var out []string
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '\\' && i+1 < len(s) {
			i++
			switch s[i] {
			case 'n':
				out = append(out, "\n")
			case 't':
				out = append(out, "\t")
			case '0':
				out = append(out, "")
			default:
				out = append(out, string(s[i]))
			}
			continue
		}
		out = append(out, string(c))
	}
	if len(out) == 0 {
		out = []string{""}
	}
	return out
}

// pasteSerial joins the lines of each file into one line (-s).
func pasteSerial(env *command.Env, w *bufio.Writer, files []string, delims []string) int {
	status := 0
	for _, name := range files {
		i := 0
		any := false
		st := forEachLine(env, []string{name}, func(line []byte, _ bool) error {
			if any {
				w.WriteString(delims[i%len(delims)])
				i++
			}
			any = true
			_, err := w.Write(line)
			return err
		})
		if st == command.StatusCanceled {
			return st
		}
		if st != 0 {
			status = st
			if !any {
				continue
			}
		}
		w.WriteByte('\n')
	}
	return status
}

// pasteParallel joins the nth lines of all files.
func pasteParallel(env *command.Env, w *bufio.Writer, files []string, delims []string) int {
	readers := make([]*command.LineReader, len(files))
	status := 0
	stdinReader := (*command.LineReader)(nil)
	for i, name := range files {
		if name == "-" {
			if stdinReader == nil {
				stdinReader = env.NewLineReader(command.NewCtxReader(env.Ctx, env.Stdin), 64<<10)
			}
			readers[i] = stdinReader
			continue
		}
		in, ok := env.OpenInput(name)
		if !ok {
			return 1
		}
		defer in.Close()
		readers[i] = env.NewLineReader(in.R, 64<<10)
	}
	for {
		if env.Canceled() {
			return command.StatusCanceled
		}
		var sb bytes.Buffer
		live := 0
		for i, r := range readers {
			if i > 0 {
				sb.WriteString(delims[(i-1)%len(delims)])
			}
			if r == nil {
				continue
			}
			line, err := r.ReadLine()
			if err != nil {
				if err != io.EOF {
					return env.ReadError(files[i], err)
				}
				readers[i] = nil
				continue
			}
			live++
			sb.Write(bytes.TrimSuffix(line, []byte{'\n'}))
		}
		if live == 0 {
			return status
		}
		sb.WriteByte('\n')
		if _, err := w.Write(sb.Bytes()); err != nil {
			return env.WriteError(err)
		}
	}
}
