package shell

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"mvdan.cc/sh/v3/syntax"
)

// selectLoop runs "select NAME [in WORDS]; do ...; done" as bash does:
// it prints the numbered menu of the words on standard error in columns
// fitting $COLUMNS (80 by default), then $PS3 ("#? "), and reads a line
// into REPLY. An empty line shows the menu again; a number of the menu
// sets NAME to its word, anything else sets NAME to ""; then the body
// runs. As in ksh, the menu is shown again only when REPLY is empty
// after the body. The loop ends at break, or at the end of the input,
// where a newline goes to standard output and the status is 1.
func (r *runner) selectLoop(c *syntax.ForClause, l *syntax.WordIter) {
	var items []string
	if l.InPos.IsValid() {
		var ok bool
		if items, ok = r.fields(l.Items...); !ok {
			return
		}
	} else {
		items = append(items, r.params...)
	}
	name := l.Name.Value
	if !syntax.ValidName(name) {
		r.errf("`%s': not a valid identifier", name)
		r.status = 1
		return
	}
	r.status = 0
	if len(items) == 0 {
		return
	}
	r.loopDepth++
	defer func() { r.loopDepth-- }()
	status := 0
	show := true
	for {
		if r.ctxErr() != nil {
			return
		}
		sel, ok := r.selectQuery(items, show)
		if !ok {
			status = 1
			break
		}
		if err := r.assign(name, vstr(sel), false); err != nil {
			r.errf("%s", err)
			status = 1
			break
		}
		r.stmts(c.Do)
		status = r.status
		if r.loopControl() {
			break
		}
		show = r.getVar("REPLY") == ""
	}
	if !r.exiting && !r.returning {
		r.status = status
	}
}

// selectQuery shows the menu (when show is set) and the prompt, and reads
// replies until one is not empty; ok is false at the end of the input.
func (r *runner) selectQuery(items []string, show bool) (string, bool) {
	cols := 80
	if n, err := strconv.Atoi(r.getVar("COLUMNS")); err == nil && n > 0 {
		cols = n
	}
	maxLen := 0
	for _, it := range items {
		maxLen = max(maxLen, utf8.RuneCountInString(it))
	}
	indices := numberLen(len(items))
	maxLen += indices + 2 + 2
	prompt := "#? "
	if r.isSetVar("PS3") {
		prompt = r.getVar("PS3")
	}
	for {
		if show {
			fmt.Fprint(r.stderr(), selectMenu(items, cols, maxLen, indices))
		}
		fmt.Fprint(r.stderr(), prompt)
		if readBuiltin(r, []string{"read"}) != 0 {
			fmt.Fprintln(r.stdout())
			return "", false
		}
		reply := r.getVar("REPLY")
		if reply == "" {
			show = true
			continue
		}
		n, ok := legalNumber(reply)
		if !ok || n < 1 || n > len(items) {
			return "", true
		}
		return items[n-1], true
	}
}

// numberLen is the number of digits of n (at most six, as bash counts).
func numberLen(n int) int {
	switch {
	case n >= 100000:
		return 6
	case n >= 10000:
		return 5
	case n >= 1000:
		return 4
	case n >= 100:
		return 3
	case n >= 10:
		return 2
	}
	return 1
}

// selectMenu lays the menu out in columns, down then across, as bash's
// print_select_list does.
func selectMenu(items []string, width, maxLen, indices int) string {
	cols := max(width/maxLen, 1)
	n := len(items)
	rows := n/cols + b2i(n%cols != 0)
	cols = n/rows + b2i(n%rows != 0)
	if rows == 1 {
		rows, cols = cols, 1
	}
	firstLen := numberLen(rows)
	var b strings.Builder
	for row := range rows {
		ind, pos := row, 0
		for {
			w := indices
			if pos == 0 {
				w = firstLen
			}
			fmt.Fprintf(&b, "%*d) %s", w, ind+1, items[ind])
			elemLen := utf8.RuneCountInString(items[ind]) + w + 2
			ind += rows
			if ind >= n {
				break
			}
			selectIndent(&b, pos+elemLen, pos+maxLen)
			pos += maxLen
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// selectIndent pads from column from to column to with tabs and spaces.
func selectIndent(b *strings.Builder, from, to int) {
	const tab = 8
	for from < to {
		if to/tab > from/tab {
			b.WriteByte('\t')
			from += tab - from%tab
		} else {
			b.WriteByte(' ')
			from++
		}
	}
}

// b2i is 1 for true.
func b2i(v bool) int {
	if v {
		return 1
	}
	return 0
}
