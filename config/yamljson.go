package config

import (
	"encoding/json"
	"fmt"
	"math"

	"go.yaml.in/yaml/v4"
)

// maxExpandedNodes bounds how many nodes a document may expand to through
// aliases, so that an alias bomb (anchors that each name the one before
// twice) is refused instead of filling memory.
const maxExpandedNodes = 1 << 20

// yamlToJSON converts a document parsed by go.yaml.in/yaml/v4 to JSON. It is
// the only YAML reading of a config: the duplicate-key check and this
// conversion walk the same node tree, so they cannot disagree about what a
// key or a value is. The YAML is read by YAML 1.2's core schema, as yaml/v4
// resolves it: `on`, `yes`, `NO` and `y` are strings, and only true and
// false are booleans (YAML 1.1 would turn a currency list [NO, SE] into
// [false, "SE"]).
//
// A mapping key is the key's text as written, which is what the duplicate
// check compares. Timestamps are kept as written. Keys that are not plain
// scalars, aliases that contain themselves, custom tags and values JSON
// cannot hold (.inf, .nan, 1e400) are refused with the line and column they
// are on.
func yamlToJSON(file string, doc *yaml.Node) ([]byte, error) {
	c := converter{file: file, budget: maxExpandedNodes}
	v, err := c.value(doc)
	if err != nil {
		return nil, err
	}
	js, err := json.Marshal(v)
	if err != nil {
		return nil, &Error{File: file, Msg: "cannot convert to JSON: " + err.Error()}
	}
	return js, nil
}

type converter struct {
	file   string
	budget int
	open   map[*yaml.Node]bool // the anchors being converted, to refuse a cycle
}

func (c *converter) errorf(n *yaml.Node, format string, args ...any) error {
	return &Error{File: c.file, Msg: at(n.Line, n.Column) + ": " + fmt.Sprintf(format, args...)}
}

func (c *converter) value(n *yaml.Node) (any, error) {
	c.budget--
	if c.budget < 0 {
		return nil, c.errorf(n, "the document expands to more than %d nodes through aliases", maxExpandedNodes)
	}
	switch n.Kind {
	case 0: // an empty document
		return nil, nil
	case yaml.DocumentNode:
		if len(n.Content) == 0 {
			return nil, nil
		}
		return c.value(n.Content[0])
	case yaml.AliasNode:
		if c.open[n.Alias] {
			return nil, c.errorf(n, "the alias *%s refers to a node that contains it", n.Value)
		}
		if c.open == nil {
			c.open = map[*yaml.Node]bool{}
		}
		c.open[n.Alias] = true
		defer delete(c.open, n.Alias)
		return c.value(n.Alias)
	case yaml.SequenceNode:
		list := make([]any, 0, len(n.Content))
		for _, e := range n.Content {
			v, err := c.value(e)
			if err != nil {
				return nil, err
			}
			list = append(list, v)
		}
		return list, nil
	case yaml.MappingNode:
		return c.mapping(n)
	case yaml.ScalarNode:
		return c.scalar(n)
	}
	return nil, c.errorf(n, "unexpected YAML node")
}

// mapping converts a mapping. Merge keys (<<) follow YAML's merge rule: a
// key written in the mapping wins over a merged one, and of several merged
// mappings the earlier wins.
func (c *converter) mapping(n *yaml.Node) (map[string]any, error) {
	m := make(map[string]any, len(n.Content)/2)
	var merges []*yaml.Node
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, e := n.Content[i], n.Content[i+1]
		if k.Kind != yaml.ScalarNode {
			return nil, c.errorf(k, "a key must be a plain value, not a list, a mapping or an alias")
		}
		if k.ShortTag() == "!!merge" {
			merges = append(merges, e)
			continue
		}
		v, err := c.value(e)
		if err != nil {
			return nil, err
		}
		m[k.Value] = v
	}
	for _, e := range merges {
		sources := []*yaml.Node{e}
		if e.Kind == yaml.SequenceNode {
			sources = e.Content
		}
		for _, src := range sources {
			v, err := c.value(src)
			if err != nil {
				return nil, err
			}
			merged, ok := v.(map[string]any)
			if !ok {
				return nil, c.errorf(src, "a merge key (<<) takes a mapping or a list of mappings")
			}
			for k, v := range merged {
				if _, ok := m[k]; !ok {
					m[k] = v
				}
			}
		}
	}
	return m, nil
}

func (c *converter) scalar(n *yaml.Node) (any, error) {
	switch tag := n.ShortTag(); tag {
	case "!!str", "!!timestamp":
		return n.Value, nil
	case "!!null":
		return nil, nil
	case "!!bool":
		var b bool
		if err := n.Decode(&b); err != nil {
			return nil, c.errorf(n, "%v", err)
		}
		return b, nil
	case "!!int", "!!float":
		var v any
		if err := n.Decode(&v); err != nil {
			return nil, c.errorf(n, "%v", err)
		}
		switch x := v.(type) {
		case float64:
			if math.IsInf(x, 0) || math.IsNaN(x) {
				return nil, c.errorf(n, "%s is not a number JSON can hold", n.Value)
			}
		case string:
			// yaml/v4 keeps a number it cannot represent (!!float 1e400)
			// as its text.
			return nil, c.errorf(n, "%s is out of range for a number", n.Value)
		}
		return v, nil
	case "!!binary":
		var s string
		if err := n.Decode(&s); err != nil {
			return nil, c.errorf(n, "%v", err)
		}
		return s, nil
	default:
		return nil, c.errorf(n, "the tag %s is not supported", tag)
	}
}

// at formats a position in a config file, as every error with a position
// gives it: "line L, column C" (both from 1).
func at(line, column int) string {
	return fmt.Sprintf("line %d, column %d", line, column)
}
