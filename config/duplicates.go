package config

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	yaml3 "go.yaml.in/yaml/v3"
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
// yaml.Node tree by go.yaml.in/yaml/v3; each mapping is checked by the rule
// yaml/v3 applies when it decodes into Go values (two keys of the same
// kind with the same text are the same key, quoted or not: "1" and 1 are
// the same), and the same tree is converted to JSON (yamlToJSON). yaml/v3's
// own check runs only when it decodes into maps or structs, which would
// expand aliases, and it compares every pair of keys, which takes seconds
// for a mapping of 10,000 keys; here a set per mapping does it in linear
// time, and an alias is checked once, where its anchor stands.
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
	var doc yaml3.Node
	if err := yaml3.Unmarshal(data, &doc); err != nil {
		return nil, &Error{File: file, Msg: "not valid YAML or JSON: " + strings.TrimPrefix(err.Error(), "yaml: ")}
	}
	var path keyPath
	if err := walkYAML(file, &doc, &path); err != nil {
		return nil, err
	}
	return yamlToJSON(file, &doc)
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

func duplicateError(file string, path *keyPath, key string, line, first int) error {
	return &Error{File: file, Key: path.with(key), Msg: fmt.Sprintf("duplicate key at line %d (first at line %d); a key may appear once in a mapping", line, first)}
}

// walkYAML checks n and the nodes under it. Alias nodes are not followed:
// the node an alias names is checked where its anchor stands.
func walkYAML(file string, n *yaml3.Node, path *keyPath) error {
	switch n.Kind {
	case yaml3.DocumentNode:
		for _, c := range n.Content {
			if err := walkYAML(file, c, path); err != nil {
				return err
			}
		}
	case yaml3.SequenceNode:
		for i, c := range n.Content {
			*path = append(*path, fmt.Sprintf("[%d]", i))
			err := walkYAML(file, c, path)
			*path = (*path)[:len(*path)-1]
			if err != nil {
				return err
			}
		}
	case yaml3.MappingNode:
		type nodeKey struct {
			kind  yaml3.Kind
			value string
		}
		seen := make(map[nodeKey]int, len(n.Content)/2)
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i], n.Content[i+1]
			if k.Kind == yaml3.ScalarNode || k.Kind == yaml3.AliasNode {
				nk := nodeKey{k.Kind, k.Value}
				if first, ok := seen[nk]; ok {
					return duplicateError(file, path, k.Value, k.Line, first)
				}
				seen[nk] = k.Line
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
// tokenizer. json.Valid has bounded its nesting.
func checkJSONDuplicates(file string, data []byte) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var path keyPath
	lineAt := func(offset int64) int { return bytes.Count(data[:offset], []byte("\n")) + 1 }
	var walk func() error
	walk = func() error {
		tok, err := dec.Token()
		if err != nil {
			return err
		}
		switch tok {
		case json.Delim('{'):
			seen := map[string]int64{}
			for dec.More() {
				kt, err := dec.Token()
				if err != nil {
					return err
				}
				key, _ := kt.(string)
				// The offset is just past the key, on the key's line.
				at := dec.InputOffset()
				if first, ok := seen[key]; ok {
					return duplicateError(file, &path, key, lineAt(at), lineAt(first))
				}
				seen[key] = at
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
