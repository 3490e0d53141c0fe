package coreutils

import (
	"bufio"
	"io"
	"strconv"

	"github.com/cordonhq/cordon/shell/command"
)

// catOptions are the formatting options of cat.
type catOptions struct {
	number, nonblank, squeeze, ends, tabs, nonprint bool
}

// plain reports whether cat can copy its input unchanged.
func (o catOptions) plain() bool {
	return !o.number && !o.nonblank && !o.squeeze && !o.ends && !o.tabs && !o.nonprint
}

// cmdCat implements cat [-AbeEnstTuv] [FILE]...
func cmdCat(env *command.Env) int {
	opts, files, st, ok := env.ParseOptions("AbeEnstTuv", []string{"show-all", "number-nonblank", "show-ends", "number", "squeeze-blank", "show-tabs", "show-nonprinting"}, false)
	if !ok {
		return st
	}
	var o catOptions
	for _, op := range opts {
		switch op.Name {
		case "A", "show-all":
			o.nonprint, o.ends, o.tabs = true, true, true
		case "b", "number-nonblank":
			o.nonblank = true
		case "e":
			o.nonprint, o.ends = true, true
		case "E", "show-ends":
			o.ends = true
		case "n", "number":
			o.number = true
		case "s", "squeeze-blank":
			o.squeeze = true
		case "t":
			o.nonprint, o.tabs = true, true
		case "T", "show-tabs":
			o.tabs = true
		case "v", "show-nonprinting":
			o.nonprint = true
		}
	}
	if len(files) == 0 {
		files = []string{"-"}
	}
	w := env.NewOutput()
	status := 0
	state := &catState{}
	for _, name := range files {
		if env.Canceled() {
			return command.StatusCanceled
		}
		in, ok := env.OpenInput(name)
		if !ok {
			status = 1
			continue
		}
		var err error
		if o.plain() {
			_, err = io.Copy(w, in.R)
		} else {
			err = catFormat(env, w, in.R, o, state)
		}
		in.Close()
		if err != nil {
			if command.IsCanceled(err) || env.Canceled() {
				return command.StatusCanceled
			}
			if _, werr := w.Write(nil); werr != nil {
				return env.WriteError(werr)
			}
			status = env.ReadError(name, err)
		}
	}
	if err := w.Flush(); err != nil {
		return env.WriteError(err)
	}
	return status
}

// catState carries line numbering and blank squeezing across files.
type catState struct {
	line      int
	prevBlank bool
	midLine   bool // the previous file ended without a newline
}

// catFormat copies r to w applying the numbering and display options.
func catFormat(env *command.Env, w *bufio.Writer, r io.Reader, o catOptions, s *catState) error {
	lr := env.NewLineReader(r, 64<<10)
	for {
		line, err := lr.ReadLine()
		if err != nil {
			if err == io.EOF {
				return nil
			}
			return err
		}
		if env.Canceled() {
			return command.ErrCanceled
		}
		body := line
		nl := len(line) > 0 && line[len(line)-1] == '\n'
		if nl {
			body = line[:len(line)-1]
		}
		blank := len(body) == 0 && nl
		if o.squeeze && blank && s.prevBlank {
			continue
		}
		s.prevBlank = blank
		continued := s.midLine
		s.midLine = !nl
		if !continued && ((o.nonblank && !blank) || (o.number && !o.nonblank)) {
			s.line++
			num := strconv.Itoa(s.line)
			for i := len(num); i < 6; i++ {
				w.WriteByte(' ')
			}
			w.WriteString(num)
			w.WriteByte('\t')
		}
		for _, c := range body {
			writeCatByte(w, c, o)
		}
		if nl {
			if o.ends {
				w.WriteByte('$')
			}
			if _, err := w.Write([]byte{'\n'}); err != nil {
				return err
			}
		}
	}
}

// writeCatByte writes one byte with cat's -v and -T notation.
func writeCatByte(w *bufio.Writer, c byte, o catOptions) {
	switch {
	case c == '\t':
		if o.tabs {
			w.WriteString("^I")
		} else {
			w.WriteByte(c)
		}
	case !o.nonprint:
		w.WriteByte(c)
	case c >= 128:
		w.WriteString("M-")
		writeCatByte(w, c-128, catOptions{nonprint: true, tabs: true})
	case c < 32:
		w.WriteByte('^')
		w.WriteByte(c + 64)
	case c == 127:
		w.WriteString("^?")
	default:
		w.WriteByte(c)
	}
}
