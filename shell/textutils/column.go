package textutils

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"

	"github.com/cordonhq/cordon/shell/command"
)

var columnLong = []string{
	"table", "separator=", "output-separator=", "output-width=", "fillrows", "table-empty-lines", "help",
}

// columnOpts holds column's options (util-linux column 2.38).
type columnOpts struct {
	table, fillRows, keepEmpty bool
	sep                        string // "" means runs of blanks
	outSep                     string
	width                      int
}

func cmdColumn(env *command.Env) int {
	opts, operands, err := command.Getopt(env.Args[1:], "ts:o:c:xL", columnLong, false)
	if err != nil {
		return env.Usage(1, err.Error(), "")
	}
	o := columnOpts{outSep: "  ", width: 80}
	if v, ok := env.Getenv("COLUMNS"); ok {
		if n, err := strconv.Atoi(v); err == nil && n > 0 {
			o.width = n
		}
	}
	for _, op := range opts {
		switch op.Name {
		case "t", "table":
			o.table = true
		case "s", "separator":
			o.sep = op.Value
		case "o", "output-separator":
			o.outSep = op.Value
		case "c", "output-width":
			n, err := strconv.Atoi(op.Value)
			if err != nil || n <= 0 {
				return env.Errorf(1, "invalid columns argument: '%s'", op.Value)
			}
			o.width = n
		case "x", "fillrows":
			o.fillRows = true
		case "L", "table-empty-lines":
			o.keepEmpty = true
		case "help":
			fmt.Fprintln(env.Stdout, "Usage: column [options] [<file>...]")
			return 0
		}
	}
	if o.table && o.fillRows {
		return env.Errorf(1, "mutually exclusive arguments: --table --fillrows")
	}
	if len(operands) == 0 {
		operands = []string{"-"}
	}
	var lines []string
	status := 0
	for _, name := range operands {
		f, err := env.Open(name)
		if err != nil {
			env.FileError(1, name, err)
			status = 1
			continue
		}
		lr := env.NewLineReader(f, readBufSize)
		for {
			line, _, ok := lr.Next()
			if !ok {
				break
			}
			if len(line) == 0 && !o.keepEmpty {
				continue
			}
			lines = append(lines, string(line))
		}
		f.Close()
		if lr.Err() == command.ErrCanceled {
			return command.StatusCanceled
		}
		if lr.Err() != nil {
			env.FileError(1, name, lr.Err())
			status = 1
		}
	}
	out := newOutput(env, env.Stdout)
	defer out.Flush()
	if o.table {
		o.writeTable(out, lines)
	} else {
		o.writeColumns(out, lines)
	}
	return status
}

// writeTable aligns the fields of every line (column -t).
func (o *columnOpts) writeTable(out output, lines []string) {
	rows := make([][]string, len(lines))
	var widths []int
	for i, line := range lines {
		var cells []string
		if o.sep == "" {
			cells = strings.FieldsFunc(line, func(r rune) bool { return r == ' ' || r == '\t' })
		} else {
			cells = splitAny(line, o.sep)
		}
		rows[i] = cells
		for j, c := range cells {
			if j == len(widths) {
				widths = append(widths, 0)
			}
			widths[j] = max(widths[j], len(c))
		}
	}
	if len(widths) == 0 {
		widths = []int{0}
	}
	for _, cells := range rows {
		var b bytes.Buffer
		for j := range widths {
			c := ""
			if j < len(cells) {
				c = cells[j]
			}
			b.WriteString(c)
			if j < len(widths)-1 {
				b.WriteString(strings.Repeat(" ", widths[j]-len(c)))
				b.WriteString(o.outSep)
			}
		}
		out.Write(b.Bytes())
		out.WriteByte('\n')
	}
}

// splitAny splits s at every byte that occurs in seps, keeping empty fields.
func splitAny(s, seps string) []string {
	var cells []string
	start := 0
	for i := 0; i < len(s); i++ {
		if strings.IndexByte(seps, s[i]) >= 0 {
			cells = append(cells, s[start:i])
			start = i + 1
		}
	}
	return append(cells, s[start:])
}

// writeColumns fills the entries into columns separated by tabs, down the
// columns first (or across the rows with -x), like util-linux column.
func (o *columnOpts) writeColumns(out output, entries []string) {
	if len(entries) == 0 {
		return
	}
	maxLen := 0
	for _, e := range entries {
		maxLen = max(maxLen, len(e))
	}
	maxLen = (maxLen + 8) &^ 7
	if maxLen >= o.width {
		for _, e := range entries {
			out.WriteString(e)
			out.WriteByte('\n')
		}
		return
	}
	numCols := o.width / maxLen
	pad := func(chcnt, endcol int) int {
		for {
			cnt := (chcnt + 8) &^ 7
			if cnt > endcol {
				return chcnt
			}
			out.WriteByte('\t')
			chcnt = cnt
		}
	}
	if o.fillRows {
		chcnt, col, endcol := 0, 0, maxLen
		for _, e := range entries {
			if col > 0 {
				chcnt = pad(chcnt, endcol)
				endcol += maxLen
			}
			out.WriteString(e)
			chcnt += len(e)
			col++
			if col == numCols {
				chcnt, col, endcol = 0, 0, maxLen
				out.WriteByte('\n')
			}
		}
		if col > 0 {
			out.WriteByte('\n')
		}
		return
	}
	numRows := (len(entries) + numCols - 1) / numCols
	for row := 0; row < numRows; row++ {
		endcol, chcnt := maxLen, 0
		for base := row; ; {
			out.WriteString(entries[base])
			chcnt += len(entries[base])
			base += numRows
			if base >= len(entries) {
				break
			}
			chcnt = pad(chcnt, endcol)
			endcol += maxLen
		}
		out.WriteByte('\n')
	}
}
