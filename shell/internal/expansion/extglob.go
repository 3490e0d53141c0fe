package expansion

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// extGlobPieces expands the text of an extended pattern such as
// @(a|"b c"|$x): the parser keeps it as raw text, in which quotes,
// backslashes and expansions still have their meaning in bash. The
// operators and the separators ( | ) stay pattern characters; each part
// between them is expanded as a word whose quoted characters match
// literally.
func (ex *Expander) extGlobPieces(p *syntax.ExtGlob) ([]piece, error) {
	raw := p.Pattern.Value
	out := []piece{{s: p.Op.String()}}
	if !strings.ContainsAny(raw, "'\"$`") {
		out = append(out, unquoteLit(raw, false)...)
		return append(out, piece{s: ")"}), nil
	}
	seg := 0
	flush := func(end int) error {
		if end <= seg {
			return nil
		}
		text := raw[seg:end]
		if !strings.ContainsAny(text, "'\"$`") {
			out = append(out, unquoteLit(text, false)...)
			return nil
		}
		ps, err := ex.segmentPieces(text)
		if err != nil {
			return err
		}
		out = append(out, ps...)
		return nil
	}
	for i := 0; i < len(raw); i++ {
		switch c := raw[i]; c {
		case '\\':
			i++
		case '\'':
			if j := strings.IndexByte(raw[i+1:], '\''); j >= 0 {
				i += j + 1
			}
		case '"':
			for i++; i < len(raw) && raw[i] != '"'; i++ {
				if raw[i] == '\\' {
					i++
				}
			}
		case '$':
			if i+1 < len(raw) && (raw[i+1] == '(' || raw[i+1] == '{') {
				i = skipBalanced(raw, i+1)
			}
		case '|', '(', ')':
			if err := flush(i); err != nil {
				return nil, err
			}
			out = append(out, piece{s: string(c)})
			seg = i + 1
		case '?', '*', '+', '@', '!':
			if i+1 < len(raw) && raw[i+1] == '(' {
				if err := flush(i); err != nil {
					return nil, err
				}
				out = append(out, piece{s: raw[i : i+2]})
				seg = i + 2
				i++
			}
		}
	}
	if err := flush(len(raw)); err != nil {
		return nil, err
	}
	return append(out, piece{s: ")"}), nil
}

// skipBalanced returns the index of the bracket closing the one at
// s[open], or the end of s.
func skipBalanced(s string, open int) int {
	o, c := s[open], byte(')')
	if o == '{' {
		c = '}'
	}
	depth := 0
	for i := open; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case o:
			depth++
		case c:
			depth--
			if depth == 0 {
				return i
			}
		}
	}
	return len(s) - 1
}

// segmentPieces expands one part of an extended pattern as a word.
func (ex *Expander) segmentPieces(text string) ([]piece, error) {
	if TooDeep(text) {
		return []piece{{s: text}}, nil
	}
	f, err := NewParser().Parse(strings.NewReader(text), "")
	if err != nil || len(f.Stmts) != 1 {
		return []piece{{s: text}}, nil
	}
	call, ok := f.Stmts[0].Cmd.(*syntax.CallExpr)
	if !ok || len(call.Args) != 1 || len(call.Assigns) != 0 || len(f.Stmts[0].Redirs) != 0 {
		return []piece{{s: text}}, nil
	}
	ps, err := ex.wordPieces(call.Args[0].Parts, false, false, false)
	if err != nil {
		return nil, err
	}
	for i := range ps {
		ps[i].split = false
	}
	return ps, nil
}
