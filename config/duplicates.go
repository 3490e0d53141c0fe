package config

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"go.yaml.in/yaml/v4"
)

// parseDocument reads a config document once and returns it as JSON. A
// key that appears twice in one mapping of the document, at any depth, is
// refused: a conversion to JSON keeps the last of them and silently drops
// the others, so that a second "capabilities:" block would replace the
// first one a reviewer read.
//
// A document that is valid JSON is used as it is, after a walk with
// encoding/json's tokenizer, which compares keys after unescaping ("a" and
// "\u0061" are the same key). Any other document is parsed once into a
// yaml.Node tree by go.yaml.in/yaml/v4; each mapping is checked by the rule
// yaml/v4 applies when it decodes into Go values (two keys of the same
// kind with the same text are the same key, quoted or not: "1" and 1 are
// the same), and the same tree is converted to JSON (yamlToJSON). yaml/v4's
// own check runs only when it decodes into maps or structs, which would
// expand aliases, and it compares every pair of keys, which takes seconds
// for a mapping of 10,000 keys; here a set per mapping does it in linear
// time, and an alias is checked once, where its anchor stands.
//
// A syntax error is reported at the line and column where the parser
// found it (yamlSyntaxError), and a duplicate key at the line and column
// of both of its occurrences.
func parseDocument(file string, data []byte) ([]byte, error) {
	if t := bytes.TrimSpace(data); len(t) > 0 && t[0] == '{' && json.Valid(t) {
		if err := checkJSONDuplicates(file, data); err != nil {
			return nil, err
		}
		var compact bytes.Buffer
		if err := json.Compact(&compact, t); err != nil {
			return nil, &Error{File: file, Msg: "not valid JSON: " + err.Error()}
		}
		return compact.Bytes(), nil
	}
	loader, err := yaml.NewLoader(bytes.NewReader(data))
	if err != nil {
		return nil, &Error{File: file, Msg: "cannot read YAML: " + err.Error()}
	}
	var doc yaml.Node
	switch err := loader.Load(&doc); {
	case errors.Is(err, io.EOF):
		return []byte("null"), nil // no document: an empty file, or only comments
	case err != nil:
		return nil, yamlSyntaxError(file, data, err)
	}
	// singleDocument has refused a second document marker; this refuses
	// whatever else the parser reads as one.
	var next yaml.Node
	switch err := loader.Load(&next); {
	case errors.Is(err, io.EOF):
	case err != nil:
		return nil, yamlSyntaxError(file, data, err)
	default:
		return nil, &Error{File: file, Msg: at(next.Line, next.Column) + ": more than one YAML document; a config is one document"}
	}
	var path keyPath
	if err := walkYAML(file, &doc, &path); err != nil {
		return nil, err
	}
	return yamlToJSON(file, &doc)
}

// yamlSyntaxError is the config error for an error of the YAML parser
// reading data: at the line and column where the parser found the error
// (said to be the end of the file when it is), and, when the parser says
// what it was reading, where that began ("while scanning a quoted scalar
// started at line 2, column 9": an unclosed quote).
func yamlSyntaxError(file string, data []byte, err error) error {
	var le *yaml.LoadError
	if !errors.As(err, &le) || le.Mark.Line == 0 {
		return &Error{File: file, Msg: "not valid YAML or JSON: " + strings.TrimPrefix(err.Error(), "yaml: ")}
	}
	msg := at(le.Mark.Line, le.Mark.Column)
	// The parser's index counts characters; at the end of a file that
	// does not end with a newline it may place the mark on the next line.
	if end := positionAt(data, len(data)); le.Mark.Index >= utf8.RuneCount(data) || end == (position{le.Mark.Line, le.Mark.Column}) {
		msg = at(end.line, end.column) + " (the end of the file)"
	}
	msg += ": " + strings.TrimPrefix(le.Message, "yaml: ")
	if c := le.ContextMark; le.ContextMsg != "" && c.Line > 0 && (c.Line != le.Mark.Line || c.Column != le.Mark.Column) {
		msg += fmt.Sprintf(" (%s started at %s)", le.ContextMsg, at(c.Line, c.Column))
	}
	return &Error{File: file, Msg: "not valid YAML or JSON: " + msg}
}

// keyPath is the path to the node being checked, as segments: a key, or
// "[i]" for a list element. It is formatted only for an error.
type keyPath []string

func (p keyPath) with(key string) string {
	var b strings.Builder
	for _, s := range append(p[:len(p):len(p)], pathKey(key)) {
		if b.Len() > 0 && !strings.HasPrefix(s, "[") {
			b.WriteByte('.')
		}
		b.WriteString(s)
	}
	return b.String()
}

// pathKey returns a key as a segment of a key path: as it is when it is a
// plain name, else quoted (a key with a dot, a space or a control
// character).
func pathKey(key string) string {
	for _, r := range key {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '-' || r == '/') {
			return fmt.Sprintf("%q", key)
		}
	}
	if key == "" {
		return `""`
	}
	return key
}

// position is a line and a column in a config file, both from 1.
type position struct{ line, column int }

func duplicateError(file string, path *keyPath, key string, pos, first position) error {
	return &Error{File: file, Key: path.with(key), Msg: fmt.Sprintf("duplicate key at %s (first at %s); a key may appear once in a mapping",
		at(pos.line, pos.column), at(first.line, first.column))}
}

// walkYAML checks n and the nodes under it. Alias nodes are not followed:
// the node an alias names is checked where its anchor stands.
func walkYAML(file string, n *yaml.Node, path *keyPath) error {
	switch n.Kind {
	case yaml.DocumentNode:
		for _, c := range n.Content {
			if err := walkYAML(file, c, path); err != nil {
				return err
			}
		}
	case yaml.SequenceNode:
		for i, c := range n.Content {
			*path = append(*path, fmt.Sprintf("[%d]", i))
			err := walkYAML(file, c, path)
			*path = (*path)[:len(*path)-1]
			if err != nil {
				return err
			}
		}
	case yaml.MappingNode:
		type nodeKey struct {
			kind  yaml.Kind
			value string
		}
		seen := make(map[nodeKey]position, len(n.Content)/2)
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i], n.Content[i+1]
			if k.Kind == yaml.ScalarNode || k.Kind == yaml.AliasNode {
				nk := nodeKey{k.Kind, k.Value}
				pos := position{k.Line, k.Column}
				if first, ok := seen[nk]; ok {
					return duplicateError(file, path, k.Value, pos, first)
				}
				seen[nk] = pos
			}
			*path = append(*path, pathKey(k.Value))
			err := walkYAML(file, v, path)
			*path = (*path)[:len(*path)-1]
			if err != nil {
				return err
			}
		}
	}
	return nil
}

// checkJSONDuplicates walks a valid JSON document with encoding/json's
// tokenizer. [json.Valid] has bounded its nesting.
func checkJSONDuplicates(file string, data []byte) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var path keyPath
	var walk func() error
	walk = func() error {
		tok, err := dec.Token()
		if err != nil {
			return err
		}
		switch tok {
		case json.Delim('{'):
			seen := map[string]position{}
			for dec.More() {
				// The key starts after the white space and the comma that
				// follow the offset of the token before it.
				start := int(dec.InputOffset())
				for start < len(data) && strings.IndexByte(" \t\r\n,", data[start]) >= 0 {
					start++
				}
				kt, err := dec.Token()
				if err != nil {
					return err
				}
				key, _ := kt.(string)
				pos := positionAt(data, start)
				if first, ok := seen[key]; ok {
					return duplicateError(file, &path, key, pos, first)
				}
				seen[key] = pos
				path = append(path, pathKey(key))
				err = walk()
				path = path[:len(path)-1]
				if err != nil {
					return err
				}
			}
			_, err = dec.Token() // '}'
			return err
		case json.Delim('['):
			for i := 0; dec.More(); i++ {
				path = append(path, fmt.Sprintf("[%d]", i))
				err := walk()
				path = path[:len(path)-1]
				if err != nil {
					return err
				}
			}
			_, err = dec.Token() // ']'
			return err
		}
		return nil
	}
	err := walk()
	var ce *Error
	if err == nil || errors.As(err, &ce) {
		return err
	}
	if errors.Is(err, io.EOF) {
		err = io.ErrUnexpectedEOF
	}
	return &Error{File: file, Msg: "not valid JSON: " + err.Error()}
}

// positionAt returns the line and column of data[offset], counting
// columns in characters, as the YAML parser does.
func positionAt(data []byte, offset int) position {
	offset = min(offset, len(data))
	lineStart := bytes.LastIndexByte(data[:offset], '\n') + 1
	return position{
		line:   bytes.Count(data[:offset], []byte("\n")) + 1,
		column: utf8.RuneCount(data[lineStart:offset]) + 1,
	}
}
