package coreutils

import (
	"bufio"
	"bytes"
	"fmt"
	"io"

	"github.com/cordonhq/cordon/shell/command"
)

// commRun is the state of one comm invocation.
type commRun struct {
	env      *command.Env
	w        *bufio.Writer
	hide     [4]bool   // columns 1-3 suppressed
	prefix   [4]string // the delimiters before each column
	check    bool      // check that the inputs are sorted
	strict   bool      // --check-order: check every line and stop at disorder
	rs       [2]*command.LineReader
	cur      [2][]byte // the current line of each input
	prev     [2][]byte // the previous line of each input
	has      [2]bool   // cur holds a line
	warned   [2]bool
	unsorted bool
	counts   [4]int
}

// cmdComm implements comm [-123] [--check-order|--nocheck-order]
// [--output-delimiter=STR] [--total] FILE1 FILE2.
func cmdComm(env *command.Env) int {
	opts, files, st, ok := env.ParseOptions("123z", []string{"check-order", "nocheck-order", "output-delimiter=", "total", "zero-terminated"}, false)
	if !ok {
		return st
	}
	c := &commRun{env: env, check: true}
	delim, total := "\t", false
	for _, o := range opts {
		switch o.Name {
		case "1", "2", "3":
			c.hide[o.Name[0]-'0'] = true
		case "nocheck-order":
			c.check, c.strict = false, false
		case "check-order":
			c.check, c.strict = true, true
		case "output-delimiter":
			delim = o.Value
		case "total":
			total = true
		}
	}
	switch len(files) {
	case 0:
		return env.Usage(1, "missing operand", "")
	case 1:
		return env.Usage(1, fmt.Sprintf("missing operand after ‘%s’", files[0]), "")
	case 2:
	default:
		return env.Usage(1, fmt.Sprintf("extra operand ‘%s’", files[2]), "")
	}
	for i, name := range files {
		in, ok := env.OpenInput(name)
		if !ok {
			return 1
		}
		defer in.Close()
		c.rs[i] = env.NewLineReader(in.R, 64<<10)
	}
	for col := 2; col <= 3; col++ {
		c.prefix[col] = c.prefix[col-1]
		if !c.hide[col-1] {
			c.prefix[col] += delim
		}
	}
	c.w = env.NewOutput()
	if st := c.merge(files); st != 0 {
		return st
	}
	if total {
		fmt.Fprintf(c.w, "%d%s%d%s%d%stotal\n", c.counts[1], delim, c.counts[2], delim, c.counts[3], delim)
	}
	if err := c.w.Flush(); err != nil {
		return env.WriteError(err)
	}
	if c.unsorted {
		return env.Errorf(1, "input is not in sorted order")
	}
	return 0
}

// merge walks both inputs in step, printing each line in its column.
func (c *commRun) merge(files []string) int {
	for i := range 2 {
		if err := c.read(i, false); err != nil {
			return c.env.ReadError(files[i], err)
		}
	}
	for c.has[0] || c.has[1] {
		if c.env.Canceled() {
			return command.StatusCanceled
		}
		var order int
		switch {
		case !c.has[1]:
			order = -1
		case !c.has[0]:
			order = 1
		default:
			order = bytes.Compare(c.cur[0], c.cur[1])
		}
		var err error
		switch {
		case order < 0:
			c.emit(1, c.cur[0])
			err = c.read(0, true)
		case order > 0:
			c.emit(2, c.cur[1])
			err = c.read(1, true)
		default:
			c.emit(3, c.cur[0])
			if err = c.read(0, false); err == nil {
				err = c.read(1, false)
			}
		}
		if err != nil {
			return c.env.ReadError("", err)
		}
		if c.unsorted && c.strict {
			c.w.Flush()
			return 1
		}
	}
	return 0
}

// read moves input i to its next line, warning once if it is out of order.
// Like GNU comm, the default mode checks the order only after an unpaired
// line (unpaired is true); --check-order checks every line.
func (c *commRun) read(i int, unpaired bool) error {
	line, err := c.rs[i].ReadLine()
	if err == io.EOF {
		c.has[i] = false
		return nil
	}
	if err != nil {
		return err
	}
	line = bytes.TrimSuffix(line, []byte{'\n'})
	if c.check && (unpaired || c.strict) && c.prev[i] != nil && bytes.Compare(line, c.prev[i]) < 0 {
		c.unsorted = true
		if !c.warned[i] {
			c.w.Flush()
			c.env.Errorf(1, "file %d is not in sorted order", i+1)
			c.warned[i] = true
		}
	}
	c.cur[i] = append(c.cur[i][:0], line...)
	c.prev[i] = append(c.prev[i][:0], line...)
	c.has[i] = true
	return nil
}

// emit prints a line in column col unless that column is hidden.
func (c *commRun) emit(col int, line []byte) {
	c.counts[col]++
	if c.hide[col] {
		return
	}
	c.w.WriteString(c.prefix[col])
	c.w.Write(line)
	c.w.WriteByte('\n')
}
