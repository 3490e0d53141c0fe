package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// flagDefiners are the flag.FlagSet methods that define a flag, with the
// index of the argument that names it.
var flagDefiners = map[string]int{
	"Bool": 0, "Int": 0, "Int64": 0, "String": 0, "Duration": 0, "Func": 0, "BoolFunc": 0,
	"BoolVar": 1, "IntVar": 1, "Int64Var": 1, "StringVar": 1, "DurationVar": 1, "Var": 1,
}

// Every flag a command defines (fs.Bool("name", ...), fs.IntVar(&v,
// "name", ...) on a flag set named fs, in the command's source) is in the
// usage text that `cordon help` and COMMAND --help print: a flag added
// without its line there fails here.
func TestEveryFlagIsInTheUsage(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	found := 0
	for _, file := range files {
		if strings.HasSuffix(file, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, file, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			sel, ok := call.Fun.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			recv, ok := sel.X.(*ast.Ident)
			i, defines := flagDefiners[sel.Sel.Name]
			if !ok || recv.Name != "fs" || !defines || i >= len(call.Args) {
				return true
			}
			lit, ok := call.Args[i].(*ast.BasicLit)
			if !ok || lit.Kind != token.STRING {
				t.Errorf("%s: a flag whose name is not a string literal: this test cannot check it", fset.Position(call.Pos()))
				return true
			}
			name, _ := strconv.Unquote(lit.Value)
			found++
			dashes := "--"
			if len(name) == 1 {
				dashes = "-"
			}
			if !regexp.MustCompile(`(?:^|[^-\w])` + dashes + regexp.QuoteMeta(name) + `(?:[^-\w]|$)`).MatchString(usage) {
				t.Errorf("%s: flag %s%s is not in the usage text (main.go, usage)", fset.Position(call.Pos()), dashes, name)
			}
			return true
		})
	}
	if found < 40 {
		t.Errorf("found only %d flag definitions: has the flag set been renamed from fs?", found)
	}
}
