package shell

import (
	"strings"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"

	"github.com/cordonhq/cordon/shell/internal/expansion"
)

// declare -a a="(1 2)" and declare -A m="([k]=v)": a quoted compound
// assignment given to declare is read as one.

// compoundText returns the value of a declare operand when it is the
// text of a compound assignment, "(...)", given to an array.
func (r *runner) compoundText(v *variable, it declItem) (string, bool, bool) {
	if v.Kind != expand.Indexed && v.Kind != expand.Associative {
		return "", false, false
	}
	var s string
	app := false
	switch {
	case it.as != nil:
		if it.as.Array != nil || it.as.Index != nil || it.as.Value == nil {
			return "", false, false
		}
		lit, ok := r.literal(it.as.Value)
		if !ok {
			return "", false, false
		}
		s, app = lit, it.as.Append
	case strings.IndexByte(it.name, '[') < 0:
		s, app = it.val, strings.HasSuffix(it.name, "+")
	}
	if len(s) < 2 || s[0] != '(' || s[len(s)-1] != ')' {
		return "", false, false
	}
	return s, app, true
}

// assignCompoundString assigns the compound assignment in the text s,
// "(...)", to the array name.
func (r *runner) assignCompoundString(name, s string, app bool) bool {
	if expansion.TooDeep(s) {
		return false
	}
	f, err := expansion.NewParser().Parse(strings.NewReader("_="+s), "")
	if err != nil || len(f.Stmts) != 1 {
		return r.assignStmt(&syntax.Assign{Name: &syntax.Lit{Value: name}, Value: litWordOf(s), Append: app}, false)
	}
	ce, ok := f.Stmts[0].Cmd.(*syntax.CallExpr)
	if !ok || len(ce.Assigns) != 1 || ce.Assigns[0].Array == nil || len(ce.Args) != 0 {
		return r.assignStmt(&syntax.Assign{Name: &syntax.Lit{Value: name}, Value: litWordOf(s), Append: app}, false)
	}
	return r.assignArray(name, ce.Assigns[0].Array, app, false)
}

// litWordOf returns a word of the single-quoted text s.
func litWordOf(s string) *syntax.Word {
	return &syntax.Word{Parts: []syntax.WordPart{&syntax.SglQuoted{Value: s}}}
}
