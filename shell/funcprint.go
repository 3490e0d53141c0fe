package shell

import (
	"fmt"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// This file prints functions the way bash does (declare -f, type):
//
//	name ()
//	{
//	    cmd1;
//	    cmd2
//	}
//
// (with a space after "()" and after "{"), with bash's layout of compound
// commands: four spaces per level, a ";"
// after each command of an if, while or for body, case items with their
// ";;" on a line of their own, "elif" as an "if" inside "else". Words,
// tests and arithmetic are printed from the syntax tree.

// printFunc prints the definition of a function.
func (r *runner) printFunc(name string) {
	body := r.funcs[name]
	if body == nil {
		return
	}
	fmt.Fprintln(r.stdout(), funcText(name, body))
}

// funcText returns the definition of a function as bash prints it.
func funcText(name string, body *syntax.Stmt) string {
	p := &funcPrinter{}
	p.b.WriteString(name + " () \n")
	if blk, ok := body.Cmd.(*syntax.Block); ok && !body.Negated && len(body.Redirs) == 0 {
		p.b.WriteString("{ \n")
		p.list(blk.Stmts, 1, false)
		p.b.WriteString("\n}")
	} else {
		p.b.WriteString("{ \n    ")
		p.stmt(body, 1)
		p.flushHdocs()
		p.b.WriteString("\n}")
	}
	return p.b.String()
}

// funcPrinter builds the text of a function.
type funcPrinter struct {
	b     strings.Builder
	hdocs []*syntax.Redirect // here-documents to print after the line
}

// indent writes the indentation of a level.
func (p *funcPrinter) indent(level int) {
	p.b.WriteString(strings.Repeat("    ", level))
}

// list prints statements one per line at level; every one ends with ";"
// when semi is set (bodies of if, while, for), all but the last
// otherwise. A background statement is followed by "&" and the next one
// on the same line.
func (p *funcPrinter) list(stmts []*syntax.Stmt, level int, semi bool) {
	newLine := true
	for i, st := range stmts {
		if newLine {
			p.indent(level)
		}
		p.stmt(st, level)
		last := i == len(stmts)-1
		switch {
		case st.Background && !last:
			p.b.WriteString(" & ")
			newLine = false
			continue
		case st.Background:
			p.b.WriteString(" &")
		case len(p.hdocs) > 0:
			// the here-document's body ends the command
		case !last || semi:
			p.b.WriteString(";")
		}
		newLine = true
		p.flushHdocs()
		if !last {
			p.b.WriteString("\n")
		}
	}
}

// flushHdocs writes the pending here-document bodies after a line.
func (p *funcPrinter) flushHdocs() {
	for _, rd := range p.hdocs {
		p.b.WriteString("\n")
		if rd.Hdoc != nil {
			body := wordSource(rd.Hdoc)
			if rd.Op == syntax.DashHdoc {
				lines := strings.SplitAfter(body, "\n")
				for i, l := range lines {
					lines[i] = strings.TrimLeft(l, "\t")
				}
				body = strings.Join(lines, "")
			}
			p.b.WriteString(body)
		}
		delim := strings.Map(func(c rune) rune {
			if c == '\'' || c == '"' || c == '\\' {
				return -1
			}
			return c
		}, wordSource(rd.Word))
		p.b.WriteString(delim + "\n")
	}
	p.hdocs = p.hdocs[:0]
}

// inline prints the statements of a condition: the first on the current
// line, the others on lines of their own at level.
func (p *funcPrinter) inline(stmts []*syntax.Stmt, level int) {
	for i, st := range stmts {
		if i > 0 {
			p.b.WriteString(";\n")
			p.indent(level)
		}
		p.stmt(st, level)
	}
}

// stmt prints one statement without its terminator.
func (p *funcPrinter) stmt(st *syntax.Stmt, level int) {
	if st.Negated {
		p.b.WriteString("! ")
	}
	if st.Cmd != nil {
		p.cmd(st.Cmd, level)
	}
	for _, rd := range st.Redirs {
		p.b.WriteString(" ")
		p.redir(rd)
	}
}

// redir prints a redirection: "> file", "2>&1", "<<EOF".
func (p *funcPrinter) redir(rd *syntax.Redirect) {
	switch {
	case rd.N != nil:
		p.b.WriteString(rd.N.Value)
	case rd.Op == syntax.DplOut:
		p.b.WriteString("1")
	case rd.Op == syntax.DplIn:
		p.b.WriteString("0")
	}
	p.b.WriteString(rd.Op.String())
	switch rd.Op {
	case syntax.DplIn, syntax.DplOut:
		p.b.WriteString(wordSource(rd.Word))
	case syntax.Hdoc, syntax.DashHdoc:
		p.b.WriteString(wordSource(rd.Word))
		p.hdocs = append(p.hdocs, rd)
	default:
		p.b.WriteString(" " + wordSource(rd.Word))
	}
}

// cmd prints a command.
func (p *funcPrinter) cmd(c syntax.Command, level int) {
	switch c := c.(type) {
	case *syntax.Block:
		p.b.WriteString("{ \n")
		p.list(c.Stmts, level+1, false)
		p.b.WriteString("\n")
		p.indent(level)
		p.b.WriteString("}")
	case *syntax.Subshell:
		p.b.WriteString("( ")
		for i, st := range c.Stmts {
			if i > 0 {
				p.b.WriteString(";\n")
				p.indent(level)
			}
			p.stmt(st, level)
		}
		p.b.WriteString(" )")
	case *syntax.IfClause:
		p.ifClause(c, level)
	case *syntax.WhileClause:
		if c.Until {
			p.b.WriteString("until ")
		} else {
			p.b.WriteString("while ")
		}
		p.inline(c.Cond, level)
		p.b.WriteString("; do\n")
		p.list(c.Do, level+1, true)
		p.b.WriteString("\n")
		p.indent(level)
		p.b.WriteString("done")
	case *syntax.ForClause:
		switch l := c.Loop.(type) {
		case *syntax.WordIter:
			p.b.WriteString("for " + l.Name.Value + " in")
			if !l.InPos.IsValid() {
				p.b.WriteString(` "$@"`)
			}
			for _, w := range l.Items {
				p.b.WriteString(" " + wordSource(w))
			}
			p.b.WriteString(";\n")
		case *syntax.CStyleLoop:
			part := func(x syntax.ArithmExpr) string {
				if x == nil {
					return ""
				}
				return wordSourceNode(x)
			}
			p.b.WriteString("for ((" + part(l.Init) + "; " + part(l.Cond) + "; " + part(l.Post) + "))\n")
		}
		p.indent(level)
		p.b.WriteString("do\n")
		p.list(c.Do, level+1, true)
		p.b.WriteString("\n")
		p.indent(level)
		p.b.WriteString("done")
	case *syntax.CaseClause:
		p.b.WriteString("case " + wordSource(c.Word) + " in \n")
		for _, it := range c.Items {
			p.indent(level + 1)
			for i, w := range it.Patterns {
				if i > 0 {
					p.b.WriteString(" | ")
				}
				p.b.WriteString(wordSource(w))
			}
			p.b.WriteString(")\n")
			p.list(it.Stmts, level+2, false)
			p.b.WriteString("\n")
			p.indent(level + 1)
			p.b.WriteString(it.Op.String() + "\n")
		}
		p.indent(level)
		p.b.WriteString("esac")
	case *syntax.BinaryCmd:
		p.stmt(c.X, level)
		p.b.WriteString(" " + c.Op.String() + " ")
		p.stmt(c.Y, level)
	case *syntax.ArithmCmd:
		p.b.WriteString("(( " + wordSourceNode(c.X) + " ))")
	case *syntax.FuncDecl:
		p.b.WriteString("function " + strings.ReplaceAll(funcText(c.Name.Value, c.Body), "\n", "\n"+strings.Repeat("    ", level)))
	default:
		p.b.WriteString(wordSourceNode(c))
	}
}

// ifClause prints if COND; then ...; else ...; fi, an elif as an if
// inside the else.
func (p *funcPrinter) ifClause(c *syntax.IfClause, level int) {
	p.b.WriteString("if ")
	p.inline(c.Cond, level)
	p.b.WriteString("; then\n")
	p.list(c.Then, level+1, true)
	p.b.WriteString("\n")
	if e := c.Else; e != nil {
		p.indent(level)
		p.b.WriteString("else\n")
		if len(e.Cond) > 0 {
			p.indent(level + 1)
			p.ifClause(e, level+1)
			p.b.WriteString(";\n")
		} else {
			p.list(e.Then, level+1, true)
			p.b.WriteString("\n")
		}
	}
	p.indent(level)
	p.b.WriteString("fi")
}
