package coreutils

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/cordonhq/cordon/shell/command"
)

// forEachLine calls fn for every line of every file (standard input when
// there are none), without the trailing newline; hasNL tells whether the
// line had one. It returns the exit status.
func forEachLine(env *command.Env, files []string, fn func(line []byte, hasNL bool) error) int {
	if len(files) == 0 {
		files = []string{"-"}
	}
	status := 0
	for _, name := range files {
		in, ok := env.OpenInput(name)
		if !ok {
			status = 1
			continue
		}
		lr := env.NewLineReader(in.R, 64<<10)
		for {
			line, err := lr.ReadLine()
			if err == io.EOF {
				break
			}
			if err != nil {
				in.Close()
				return env.ReadError(name, err)
			}
			if env.Canceled() {
				in.Close()
				return command.StatusCanceled
			}
			hasNL := line[len(line)-1] == '\n'
			if hasNL {
				line = line[:len(line)-1]
			}
			if err := fn(line, hasNL); err != nil {
				in.Close()
				return env.WriteError(err)
			}
		}
		in.Close()
	}
	return status
}

// cmdRev implements rev [FILE]...: it reverses the characters of each line.
func cmdRev(env *command.Env) int {
	_, files, st, ok := env.ParseOptions("", nil, false)
	if !ok {
		return st
	}
	w := env.NewOutput()
	st = forEachLine(env, files, func(line []byte, hasNL bool) error {
		out := make([]byte, 0, len(line)+1)
		for i := len(line); i > 0; {
			_, size := utf8.DecodeLastRune(line[:i])
			out = append(out, line[i-size:i]...)
			i -= size
		}
		if hasNL {
			out = append(out, '\n')
		}
		_, err := w.Write(out)
		return err
	})
	if err := w.Flush(); err != nil && st == 0 {
		return env.WriteError(err)
	}
	return st
}

// cmdNl implements nl [-b STYLE] [-n FORMAT] [-w WIDTH] [-s SEP] [-v START]
// [-i INCR] [FILE]... Styles are a (all), t (non-empty), n (none) and
// pREGEX is not supported.
func cmdNl(env *command.Env) int {
	opts, files, st, ok := env.ParseOptions("b:n:w:s:v:i:h:f:d:pl:", []string{"body-numbering=", "number-format=", "number-width=", "number-separator=", "starting-line-number=", "line-increment=", "header-numbering=", "footer-numbering=", "section-delimiter=", "no-renumber", "join-blank-lines="}, false)
	if !ok {
		return st
	}
	style, format, width, sep := "t", "rn", 6, "\t"
	start, incr := int64(1), int64(1)
	for _, o := range opts {
		switch o.Name {
		case "b", "body-numbering":
			if o.Value != "a" && o.Value != "t" && o.Value != "n" {
				return env.Errorf(1, "invalid body numbering style: ‘%s’", o.Value)
			}
			style = o.Value
		case "n", "number-format":
			if o.Value != "ln" && o.Value != "rn" && o.Value != "rz" {
				return env.Errorf(1, "invalid line numbering format: ‘%s’", o.Value)
			}
			format = o.Value
		case "w", "number-width":
			n, err := strconv.Atoi(o.Value)
			if err != nil || n < 1 {
				return env.Errorf(1, "invalid line number field width: ‘%s’", o.Value)
			}
			width = min(n, 1024)
		case "s", "number-separator":
			sep = o.Value
		case "v", "starting-line-number", "i", "line-increment":
			n, err := strconv.ParseInt(o.Value, 10, 64)
			if err != nil {
				return env.Errorf(1, "invalid line number: ‘%s’", o.Value)
			}
			if o.Name == "v" || o.Name == "starting-line-number" {
				start = n
			} else {
				incr = n
			}
		}
	}
	w := env.NewOutput()
	n := start
	blank := strings.Repeat(" ", width+len(sep))
	st = forEachLine(env, files, func(line []byte, hasNL bool) error {
		if style == "a" || (style == "t" && len(line) > 0) {
			num := strconv.FormatInt(n, 10)
			switch format {
			case "ln":
				fmt.Fprintf(w, "%-*s", width, num)
			case "rz":
				fmt.Fprintf(w, "%0*d", width, n)
			default:
				fmt.Fprintf(w, "%*s", width, num)
			}
			w.WriteString(sep)
			n += incr
		} else {
			w.WriteString(blank)
		}
		w.Write(line)
		_, err := w.WriteString("\n")
		return err
	})
	if err := w.Flush(); err != nil && st == 0 {
		return env.WriteError(err)
	}
	return st
}

// cmdFold implements fold [-b] [-s] [-w WIDTH] [FILE]... Widths count
// bytes with -b and columns otherwise (tabs advance to the next multiple of
// 8, backspace moves back one column).
func cmdFold(env *command.Env) int {
	env2 := *env
	env2.Args = rewriteFoldWidth(env.Args)
	opts, files, st, ok := env2.ParseOptions("bsw:", []string{"bytes", "spaces", "width="}, false)
	if !ok {
		return st
	}
	bytesMode, spaces, width := false, false, 80
	for _, o := range opts {
		switch o.Name {
		case "b", "bytes":
			bytesMode = true
		case "s", "spaces":
			spaces = true
		case "w", "width":
			n, err := strconv.Atoi(o.Value)
			if err != nil || n < 1 {
				return env.Errorf(1, "invalid number of columns: ‘%s’", o.Value)
			}
			width = n
		}
	}
	w := env.NewOutput()
	st = forEachLine(env, files, func(line []byte, hasNL bool) error {
		foldLine(w, line, width, bytesMode, spaces)
		if hasNL {
			_, err := w.WriteString("\n")
			return err
		}
		return nil
	})
	if err := w.Flush(); err != nil && st == 0 {
		return env.WriteError(err)
	}
	return st
}

// rewriteFoldWidth turns the obsolete "-5" into "-w 5".
func rewriteFoldWidth(args []string) []string {
	out := []string{args[0]}
	for _, a := range args[1:] {
		if len(a) > 1 && a[0] == '-' && strings.Trim(a[1:], "0123456789") == "" {
			out = append(out, "-w", a[1:])
			continue
		}
		out = append(out, a)
	}
	return out
}

// foldLine writes line broken at width columns (at blanks with -s).
func foldLine(w *bufio.Writer, line []byte, width int, bytesMode, spaces bool) {
	col := 0
	start := 0
	lastSpace := -1
	for i := 0; i < len(line); {
		c := line[i]
		size := 1
		adv := 1
		if !bytesMode {
			switch {
			case c == '\t':
				adv = 8 - col%8
			case c == '\b':
				adv = -1
				if col == 0 {
					adv = 0
				}
			case c == '\r':
				adv = -col
			case c >= utf8.RuneSelf:
				_, size = utf8.DecodeRune(line[i:])
			}
		}
		if col+adv > width && i > start {
			if spaces && lastSpace >= start {
				w.Write(line[start : lastSpace+1])
				w.WriteByte('\n')
				start = lastSpace + 1
				lastSpace = -1
				col = 0
				for _, b := range line[start:i] {
					if b == '\t' && !bytesMode {
						col += 8 - col%8
					} else {
						col++
					}
				}
				continue
			}
			w.Write(line[start:i])
			w.WriteByte('\n')
			start = i
			col = 0
			lastSpace = -1
			continue
		}
		if c == ' ' || c == '\t' {
			lastSpace = i
		}
		col += adv
		i += size
	}
	w.Write(line[start:])
}
