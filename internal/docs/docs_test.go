package docs_test

import (
	"encoding/json"
	"flag"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"
	"unicode"

	"github.com/cordonhq/cordon/internal/abi"
	"github.com/cordonhq/cordon/policy/compile"
)

// root is the repository's root, two levels up from this package.
var root = filepath.Join("..", "..")

// update rewrites the pages' marked snippets from their sources:
// go test ./internal/docs -run Snippets -update.
var update = flag.Bool("update", false, "copy each marked snippet's source into its page")

// pages returns README.md and every page of docs/, relative to the root.
func pages(t *testing.T) []string {
	t.Helper()
	docs, err := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	if len(docs) == 0 {
		t.Fatal("no pages in docs/")
	}
	out := []string{"README.md"}
	for _, d := range docs {
		rel, err := filepath.Rel(root, d)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, filepath.ToSlash(rel))
	}
	return out
}

func read(t *testing.T, rel string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(rel)))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// A block is a fenced code block of a page.
type block struct {
	line   int    // the line of its opening fence, from 1
	lang   string // the fence's info string
	text   string // its lines, without the fences
	marker string // what the snippet marker on the line before names, or ""
}

var (
	fence  = regexp.MustCompile("^(```+|~~~+)\\s*([^`\\s]*)\\s*$")
	marker = regexp.MustCompile(`^<!-- snippet: (\S+) -->$`)
)

// blocks returns the fenced code blocks of a page's text.
func blocks(t *testing.T, page, text string) []block {
	t.Helper()
	lines := strings.Split(text, "\n")
	var out []block
	for i := 0; i < len(lines); i++ {
		m := fence.FindStringSubmatch(lines[i])
		if m == nil {
			continue
		}
		b := block{line: i + 1, lang: m[2]}
		if i > 0 {
			if mm := marker.FindStringSubmatch(lines[i-1]); mm != nil {
				b.marker = mm[1]
			}
		}
		var body []string
		closed := false
		for i++; i < len(lines); i++ {
			if c := strings.TrimSpace(lines[i]); strings.HasPrefix(c, m[1]) && strings.Trim(c, m[1][:1]) == "" {
				closed = true
				break
			}
			body = append(body, lines[i])
		}
		if !closed {
			t.Fatalf("%s:%d: a code block that is never closed", page, b.line)
		}
		b.text = strings.Join(body, "\n")
		out = append(out, b)
	}
	return out
}

// A region is what a snippet marker names.
type region struct {
	file       string // relative to the root
	name       string // "" for the whole file
	text       string
	start, end int // the lines of its region markers, from 1 (0 for a whole file)
}

// readRegion returns what ref ("FILE" or "FILE#NAME") names: the lines
// between "// region NAME" (or "# region NAME") and the next "// endregion"
// (or "# endregion") in FILE, each less the indentation of the region's
// marker, or the whole file without its final newlines.
func readRegion(ref string) (region, error) {
	file, name, _ := strings.Cut(ref, "#")
	r := region{file: file, name: name}
	if strings.Contains(file, "..") || filepath.IsAbs(file) {
		return r, fmt.Errorf("snippet %s: the path must be inside the repository, relative to its root", ref)
	}
	b, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(file)))
	if err != nil {
		return r, fmt.Errorf("snippet %s: %v", ref, err)
	}
	if name == "" {
		r.text = strings.TrimRight(string(b), "\n")
		return r, nil
	}
	lines := strings.Split(string(b), "\n")
	var body []string
	indent := ""
	for i, l := range lines {
		switch s := strings.TrimSpace(l); {
		case s == "// region "+name || s == "# region "+name:
			if r.start != 0 {
				return r, fmt.Errorf("snippet %s: region %q starts twice (lines %d and %d)", ref, name, r.start, i+1)
			}
			r.start, indent = i+1, l[:len(l)-len(strings.TrimLeft(l, " \t"))]
		case r.start != 0 && r.end == 0 && (s == "// endregion" || s == "# endregion"):
			r.end = i + 1
		case r.start != 0 && r.end == 0 && (strings.HasPrefix(s, "// region ") || strings.HasPrefix(s, "# region ")):
			return r, fmt.Errorf("snippet %s: line %d starts a region inside region %q", ref, i+1, name)
		case r.start != 0 && r.end == 0:
			body = append(body, strings.TrimPrefix(l, indent))
		}
	}
	switch {
	case r.start == 0:
		return r, fmt.Errorf("snippet %s: %s has no line \"// region %s\" (or \"# region %s\")", ref, file, name, name)
	case r.end == 0:
		return r, fmt.Errorf("snippet %s: region %q has no \"// endregion\"", ref, name)
	}
	r.text = strings.Join(body, "\n")
	return r, nil
}

// compiledSource reports why a Go snippet's source is not one that the
// build checks: a package main under examples/, or an Example function of
// a _test.go file.
func compiledSource(r region) error {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, filepath.Join(root, filepath.FromSlash(r.file)), nil, parser.SkipObjectResolution)
	if err != nil {
		return err
	}
	switch {
	case strings.HasPrefix(r.file, "examples/") && !strings.HasSuffix(r.file, "_test.go"):
		if f.Name.Name != "main" {
			return fmt.Errorf("%s is package %s; a program under examples/ is package main", r.file, f.Name.Name)
		}
		return nil
	case strings.HasSuffix(r.file, "_test.go"):
		if r.name == "" {
			return fmt.Errorf("%s: name a region inside an Example function, not the whole file", r.file)
		}
		for _, d := range f.Decls {
			fn, ok := d.(*ast.FuncDecl)
			if !ok || fn.Recv != nil || !strings.HasPrefix(fn.Name.Name, "Example") {
				continue
			}
			if fset.Position(fn.Pos()).Line < r.start && r.end < fset.Position(fn.End()).Line {
				return nil
			}
		}
		return fmt.Errorf("%s: region %q is not inside an Example function", r.file, r.name)
	}
	return fmt.Errorf("%s is neither a program under examples/ nor a _test.go file", r.file)
}

// Every Go block of the README and the docs is a region of code that the
// build compiles, copied exactly, and so is every other block that names
// its source: change the source, and the page must follow.
func TestSnippets(t *testing.T) {
	snippets := 0
	for _, page := range pages(t) {
		text := read(t, page)
		lines := strings.Split(text, "\n")
		shift := 0 // lines added to the page by the updates above
		for _, b := range blocks(t, page, text) {
			if b.marker == "" {
				if b.lang == "go" {
					t.Errorf("%s:%d: a Go block without a snippet marker (<!-- snippet: examples/NAME/main.go#REGION --> on the line before): every Go snippet must come from code that compiles", page, b.line)
				}
				continue
			}
			snippets++
			r, err := readRegion(b.marker)
			if err != nil {
				t.Errorf("%s:%d: %v", page, b.line, err)
				continue
			}
			if b.lang == "go" {
				if err := compiledSource(r); err != nil {
					t.Errorf("%s:%d: snippet %s: %v", page, b.line, b.marker, err)
				}
			}
			if b.text == r.text {
				continue
			}
			if *update {
				start, old := b.line+shift, strings.Count(b.text, "\n")+1
				lines = slices.Concat(lines[:start], strings.Split(r.text, "\n"), lines[start+old:])
				shift += strings.Count(r.text, "\n") + 1 - old
				continue
			}
			t.Errorf("%s:%d: the block differs from %s; copy the region into the page (go test ./internal/docs -run Snippets -update):\n%s", page, b.line, b.marker, firstDifference(b.text, r.text))
		}
		if updated := strings.Join(lines, "\n"); *update && updated != text {
			if err := os.WriteFile(filepath.Join(root, filepath.FromSlash(page)), []byte(updated), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	if snippets < 10 {
		t.Errorf("only %d snippets found; the markers are not being read", snippets)
	}
}

// firstDifference shows the first line where the page's text and the
// source's differ.
func firstDifference(page, source string) string {
	p, s := strings.Split(page, "\n"), strings.Split(source, "\n")
	for i := 0; i < max(len(p), len(s)); i++ {
		var pl, sl string
		if i < len(p) {
			pl = p[i]
		}
		if i < len(s) {
			sl = s[i]
		}
		if pl != sl || i >= len(p) || i >= len(s) {
			return fmt.Sprintf("  line %d of the block:  %q\n  line %d of the source: %q", i+1, pl, i+1, sl)
		}
	}
	return ""
}

// prose returns text without its fenced blocks and inline code spans,
// where brackets are not links.
func prose(text string) string {
	var out strings.Builder
	inFence := ""
	for _, l := range strings.Split(text, "\n") {
		if m := fence.FindStringSubmatch(l); m != nil {
			switch {
			case inFence == "":
				inFence = m[1]
				continue
			case strings.HasPrefix(m[1], inFence[:1]) && len(m[1]) >= len(inFence):
				inFence = ""
				continue
			}
		}
		if inFence == "" {
			out.WriteString(l)
			out.WriteByte('\n')
		}
	}
	s := out.String()
	// Code spans: a run of backticks up to the next run of the same length.
	var b strings.Builder
	for i := 0; i < len(s); {
		if s[i] != '`' {
			b.WriteByte(s[i])
			i++
			continue
		}
		n := 0
		for i+n < len(s) && s[i+n] == '`' {
			n++
		}
		run := strings.Repeat("`", n)
		j := i + n
		for {
			k := strings.Index(s[j:], run)
			if k < 0 {
				j = -1
				break
			}
			j += k
			if j+n < len(s) && s[j+n] == '`' { // a longer run: not the end
				for j < len(s) && s[j] == '`' {
					j++
				}
				continue
			}
			break
		}
		if j < 0 { // no closing run: the backticks are text
			b.WriteString(run)
			i += n
			continue
		}
		i = j + n
	}
	return b.String()
}

// anchors returns the anchors GitHub gives a page's headings.
func anchors(text string) map[string]bool {
	out := map[string]bool{}
	heading := regexp.MustCompile(`^#{1,6} +(.+?) *#*$`)
	for _, l := range strings.Split(prose(text), "\n") {
		m := heading.FindStringSubmatch(l)
		if m == nil {
			continue
		}
		var b strings.Builder
		for _, r := range strings.ToLower(m[1]) {
			switch {
			case r == ' ':
				b.WriteByte('-')
			case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
				b.WriteRune(r)
			}
		}
		a := b.String()
		for i := 1; out[a]; i++ {
			a = fmt.Sprintf("%s-%d", b.String(), i)
		}
		out[a] = true
	}
	return out
}

var link = regexp.MustCompile(`\]\(([^)\s]+)\)`)

// Every relative link of the README and the docs names a file that exists
// and, for a page, an anchor it has.
func TestLinks(t *testing.T) {
	links := 0
	for _, page := range pages(t) {
		for _, m := range link.FindAllStringSubmatch(prose(read(t, page)), -1) {
			target := m[1]
			if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
				continue
			}
			links++
			file, anchor, _ := strings.Cut(target, "#")
			rel := page
			if file != "" {
				rel = filepath.ToSlash(filepath.Join(filepath.Dir(page), file))
			}
			if _, err := os.Stat(filepath.Join(root, filepath.FromSlash(rel))); err != nil {
				t.Errorf("%s: link %s: %s does not exist", page, target, rel)
				continue
			}
			if anchor != "" && strings.HasSuffix(rel, ".md") && !anchors(read(t, rel))[anchor] {
				t.Errorf("%s: link %s: %s has no heading with the anchor #%s", page, target, rel, anchor)
			}
		}
	}
	if links < 50 {
		t.Errorf("only %d relative links found; the links are not being read", links)
	}
}

// The index of docs/ names every page, and the README points at it.
func TestIndexNamesEveryPage(t *testing.T) {
	index := prose(read(t, "docs/README.md"))
	for _, page := range pages(t) {
		name := strings.TrimPrefix(page, "docs/")
		if page == "README.md" || name == "README.md" {
			continue
		}
		if !strings.Contains(index, "]("+name+")") {
			t.Errorf("docs/README.md does not link %s", page)
		}
	}
	if !strings.Contains(read(t, "README.md"), "](docs/README.md)") {
		t.Error("README.md does not link docs/README.md")
	}
}

// The README stays an overview: what is longer belongs in docs/.
func TestREADMEIsShort(t *testing.T) {
	if n := strings.Count(read(t, "README.md"), "\n"); n > 220 {
		t.Errorf("README.md has %d lines; keep it near 200 and move the details to a page of docs/", n)
	}
}

// section returns the part of a page under the heading "## title", up to
// the next heading of that level.
func section(t *testing.T, page, title string) string {
	t.Helper()
	_, s, ok := strings.Cut(read(t, page), "\n## "+title+"\n")
	if !ok {
		t.Fatalf("%s has no section %q", page, title)
	}
	s, _, _ = strings.Cut(s, "\n## ")
	return s
}

// The table of the input document in docs/policy.md has a row for every
// field of the input's JSON Schema, and no other.
func TestPolicyInputDocumented(t *testing.T) {
	var schema any
	if err := json.Unmarshal(compile.InputSchema(), &schema); err != nil {
		t.Fatal(err)
	}
	var want []string
	var walk func(prefix string, s map[string]any)
	walk = func(prefix string, s map[string]any) {
		props, _ := s["properties"].(map[string]any)
		if len(props) == 0 {
			want = append(want, prefix)
			return
		}
		for name, p := range props {
			walk(prefix+"."+name, p.(map[string]any))
		}
	}
	walk("input", schema.(map[string]any))
	sort.Strings(want)

	var got []string
	row := regexp.MustCompile("^\\| `(input\\.[^`]+)` \\|")
	for _, l := range strings.Split(section(t, "docs/policy.md", "The input document"), "\n") {
		if m := row.FindStringSubmatch(l); m != nil {
			got = append(got, m[1])
		}
	}
	sort.Strings(got)
	if !slices.Equal(got, want) {
		t.Errorf("docs/policy.md, \"The input document\", has rows for\n  %v\nthe input's schema (compile.InputSchema) has the fields\n  %v", got, want)
	}
}

// docs/javascript.md names every kind of ToolError a script can catch.
func TestToolErrorKindsDocumented(t *testing.T) {
	text := read(t, "docs/javascript.md")
	_, rest, ok := strings.Cut(text, "`kind` (one of ")
	if !ok {
		t.Fatal("docs/javascript.md has no \"`kind` (one of \" listing the ToolError kinds")
	}
	list, _, _ := strings.Cut(rest, ")")
	var got []string
	for _, m := range regexp.MustCompile("`\"([a-z_]+)\"`").FindAllStringSubmatch(list, -1) {
		got = append(got, m[1])
	}
	var want []string
	for _, k := range append(abi.ToolErrorKinds(), abi.ToolInvalidResult) {
		want = append(want, string(k))
	}
	sort.Strings(got)
	sort.Strings(want)
	if !slices.Equal(got, want) {
		t.Errorf("docs/javascript.md lists the ToolError kinds %v; the ABI's are %v", got, want)
	}
}
