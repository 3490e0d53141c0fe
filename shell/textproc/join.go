package textproc

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/cordonhq/cordon/shell/command"
)

// joinSpec is one item of -o: the join field (file 0) or field N of file
// 1 or 2.
type joinSpec struct{ file, field int }

// joinRun is one join command.
type joinRun struct {
	env          *command.Env
	w            *bufio.Writer
	field        [2]int // join fields, 0-based
	sep          byte   // 0: runs of blanks
	hasSep       bool
	unpaired     [2]bool
	paired       bool
	empty        string
	hasEmpty     bool
	format       []joinSpec
	autoFormat   bool
	ignoreCase   bool
	checkOrder   int // 0 default, 1 enabled, -1 disabled
	header       bool
	delim        byte
	names        [2]string
	readers      [2]*bufio.Reader
	lineNo       [2]int
	prev         [2][]byte
	warned       [2]bool
	seenUnpaired bool
	fatal        bool
	err          error
}

// cmdJoin implements join [-i] [-t CHAR] [-1 FIELD] [-2 FIELD] [-j FIELD]
// [-a FILENUM] [-v FILENUM] [-e STRING] [-o FORMAT|auto] [--header] [-z]
// [--check-order|--nocheck-order] FILE1 FILE2 with GNU's merge of sorted
// inputs, output format and order checks ("join: FILE:N: is not sorted:
// LINE", then "input is not in sorted order" and status 1). Keys compare
// byte by byte (the C.UTF-8 collation).
func cmdJoin(env *command.Env) int {
	opts, operands, st, ok := env.ParseOptions("1:2:j:t:a:v:e:o:iz", []string{"ignore-case", "check-order", "nocheck-order", "header", "zero-terminated"}, false)
	if !ok {
		return st
	}
	j := &joinRun{env: env, paired: true, delim: '\n'}
	fieldNum := func(s string) (int, bool) {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 {
			env.Usage(1, fmt.Sprintf("invalid field number: ‘%s’", s), "")
			return 0, false
		}
		return n - 1, true
	}
	fileNum := func(s string) (int, bool) {
		if s != "1" && s != "2" {
			env.Usage(1, fmt.Sprintf("invalid file number: ‘%s’", s), "")
			return 0, false
		}
		return int(s[0] - '1'), true
	}
	for _, o := range opts {
		var ok = true
		switch o.Name {
		case "1":
			j.field[0], ok = fieldNum(o.Value)
		case "2":
			j.field[1], ok = fieldNum(o.Value)
		case "j":
			var n int
			n, ok = fieldNum(o.Value)
			j.field = [2]int{n, n}
		case "t":
			if len(o.Value) != 1 {
				if o.Value == "" {
					return env.Errorf(1, "empty tab")
				}
				return env.Errorf(1, "multi-character tab ‘%s’", o.Value)
			}
			j.sep, j.hasSep = o.Value[0], true
		case "a":
			var f int
			f, ok = fileNum(o.Value)
			j.unpaired[f] = true
		case "v":
			var f int
			f, ok = fileNum(o.Value)
			j.unpaired[f] = true
			j.paired = false
		case "e":
			j.empty, j.hasEmpty = o.Value, true
		case "o":
			if o.Value == "auto" {
				j.autoFormat = true
				continue
			}
			for _, item := range strings.FieldsFunc(o.Value, func(r rune) bool { return r == ',' || r == ' ' || r == '\t' }) {
				if item == "0" {
					j.format = append(j.format, joinSpec{0, 0})
					continue
				}
				f, n, found := strings.Cut(item, ".")
				num, err := strconv.Atoi(n)
				if !found || (f != "1" && f != "2") || err != nil || num < 1 {
					return env.Usage(1, fmt.Sprintf("invalid field specifier: ‘%s’", item), "")
				}
				j.format = append(j.format, joinSpec{int(f[0] - '0'), num - 1})
			}
		case "i", "ignore-case":
			j.ignoreCase = true
		case "check-order":
			j.checkOrder = 1
		case "nocheck-order":
			j.checkOrder = -1
		case "header":
			j.header = true
		case "z", "zero-terminated":
			j.delim = 0
		}
		if !ok {
			return 1
		}
	}
	switch {
	case len(operands) == 0:
		return env.Usage(1, "missing operand", "")
	case len(operands) == 1:
		return env.Usage(1, fmt.Sprintf("missing operand after ‘%s’", operands[0]), "")
	case len(operands) > 2:
		return env.Usage(1, fmt.Sprintf("extra operand ‘%s’", operands[2]), "")
	}
	for i, name := range operands {
		if name == "-" && i == 1 && operands[0] == "-" {
			return env.Errorf(1, "both files cannot be standard input")
		}
		in, ok := env.OpenInput(name)
		if !ok {
			return 1
		}
		defer in.Close()
		j.readers[i] = bufio.NewReaderSize(in.R, 64<<10)
		j.names[i] = name
	}
	j.w = env.NewOutput()
	j.run()
	if j.err != nil {
		return env.WriteError(j.err)
	}
	if err := j.w.Flush(); err != nil {
		return env.WriteError(err)
	}
	if j.fatal {
		return 1
	}
	if env.Canceled() {
		return command.StatusCanceled
	}
	if j.warned[0] || j.warned[1] {
		return env.Errorf(1, "input is not in sorted order")
	}
	return 0
}

// fields splits a line into fields.
func (j *joinRun) fields(line []byte) [][]byte {
	if j.hasSep {
		return bytes.Split(line, []byte{j.sep})
	}
	return bytes.FieldsFunc(line, func(r rune) bool { return r == ' ' || r == '\t' })
}

// key returns a line's join field of file f.
func (j *joinRun) key(fields [][]byte, f int) []byte {
	if j.field[f] < len(fields) {
		return fields[j.field[f]]
	}
	return nil
}

func (j *joinRun) compare(a, b []byte) int {
	if j.ignoreCase {
		return bytes.Compare(bytes.ToLower(a), bytes.ToLower(b))
	}
	return bytes.Compare(a, b)
}

// jline is a read line and its fields.
type jline struct {
	text   []byte
	fields [][]byte
}

// get reads the next line of file f (nil at the end), checking the order.
func (j *joinRun) get(f int) *jline {
	if j.fatal || j.err != nil || j.env.Canceled() {
		return nil
	}
	text, err := j.readers[f].ReadBytes(j.delim)
	if len(text) == 0 && err != nil {
		if err != io.EOF {
			j.env.FileError(1, j.names[f], err)
			j.fatal = true
		}
		return nil
	}
	text = bytes.TrimSuffix(text, []byte{j.delim})
	j.lineNo[f]++
	l := &jline{text: text, fields: j.fields(text)}
	key := j.key(l.fields, f)
	if j.prev[f] != nil && j.checkOrder >= 0 && (j.checkOrder == 1 || j.seenUnpaired) && !j.warned[f] {
		if j.compare(j.prev[f], key) > 0 {
			fmt.Fprintf(j.env.Stderr, "join: %s:%d: is not sorted: %s\n", j.names[f], j.lineNo[f], text)
			j.warned[f] = true
			if j.checkOrder == 1 {
				j.w.Flush()
				j.fatal = true
				return nil
			}
		}
	}
	j.prev[f] = append(j.prev[f][:0], key...)
	return l
}

// output writes a joined line; a nil side is missing (an unpaired line).
func (j *joinRun) output(l1, l2 *jline) {
	sep := byte(' ')
	if j.hasSep {
		sep = j.sep
	}
	var b bytes.Buffer
	first := true
	put := func(s []byte) {
		if !first {
			b.WriteByte(sep)
		}
		first = false
		b.Write(s)
	}
	if len(j.format) > 0 {
		for _, s := range j.format {
			var v []byte
			found := false
			switch {
			case s.file == 0:
				if l1 != nil {
					v, found = j.key(l1.fields, 0), j.field[0] < len(l1.fields)
				} else if l2 != nil {
					v, found = j.key(l2.fields, 1), j.field[1] < len(l2.fields)
				}
			default:
				l := l1
				if s.file == 2 {
					l = l2
				}
				if l != nil && s.field < len(l.fields) {
					v, found = l.fields[s.field], true
				}
			}
			if !found {
				v = []byte(j.empty)
			}
			put(v)
		}
	} else {
		if l1 != nil {
			put(j.key(l1.fields, 0))
		} else {
			put(j.key(l2.fields, 1))
		}
		for f, l := range []*jline{l1, l2} {
			if l == nil {
				continue
			}
			for i, v := range l.fields {
				if i != j.field[f] {
					put(v)
				}
			}
		}
	}
	b.WriteByte(j.delim)
	if _, err := j.w.Write(b.Bytes()); err != nil {
		j.err = err
	}
}

// run merges the two inputs.
func (j *joinRun) run() {
	a, b := j.get(0), j.get(1)
	if j.header {
		if a != nil || b != nil {
			j.output(a, b)
		}
		j.prev = [2][]byte{}
		a, b = j.get(0), j.get(1)
	}
	if j.autoFormat {
		j.format = nil
		if a != nil || b != nil {
			j.format = append(j.format, joinSpec{0, 0})
		}
		for f, l := range []*jline{a, b} {
			if l == nil {
				continue
			}
			for i := range l.fields {
				if i != j.field[f] {
					j.format = append(j.format, joinSpec{f + 1, i})
				}
			}
		}
		if len(j.format) == 0 {
			j.format = []joinSpec{{0, 0}}
		}
	}
	for a != nil && b != nil && j.err == nil {
		d := j.compare(j.key(a.fields, 0), j.key(b.fields, 1))
		if d < 0 {
			if j.unpaired[0] {
				j.output(a, nil)
			}
			a = j.get(0)
			j.seenUnpaired = true
			continue
		}
		if d > 0 {
			if j.unpaired[1] {
				j.output(nil, b)
			}
			b = j.get(1)
			j.seenUnpaired = true
			continue
		}
		// Gather the runs of equal keys on both sides.
		group1 := []*jline{a}
		for {
			a = j.get(0)
			if a == nil || j.compare(j.key(a.fields, 0), j.key(b.fields, 1)) != 0 {
				break
			}
			group1 = append(group1, a)
		}
		group2 := []*jline{b}
		for {
			b = j.get(1)
			if b == nil || j.compare(j.key(group1[0].fields, 0), j.key(b.fields, 1)) != 0 {
				break
			}
			group2 = append(group2, b)
		}
		if j.fatal {
			return
		}
		if j.paired {
			for _, x := range group1 {
				for _, y := range group2 {
					j.output(x, y)
				}
			}
		}
	}
	// GNU reads the tails for their order (and -a), without counting
	// them as unpairable for the order check.
	if a != nil {
		for ; a != nil && j.err == nil; a = j.get(0) {
			if j.unpaired[0] {
				j.output(a, nil)
			} else if j.checkOrder < 0 || j.warned[0] {
				break
			}
		}
	}
	if b != nil {
		for ; b != nil && j.err == nil; b = j.get(1) {
			if j.unpaired[1] {
				j.output(nil, b)
			} else if j.checkOrder < 0 || j.warned[1] {
				break
			}
		}
	}
}
