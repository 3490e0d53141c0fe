package jq

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"math/big"
	"regexp"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

// yqNodeFloor is the number of values that the documents of one YAML
// text may expand to whatever its size; past it, the bound grows with the
// text (see yqNodeBudget).
const yqNodeFloor = 1 << 20

// ErrYAML is the error of a YAML text that cannot be read as values: a
// syntax error, an alias that refers to itself, an expansion of aliases
// past the bound, or a scalar whose tag does not fit its text.
var ErrYAML = errors.New("jq: invalid YAML")

// yamlError is an error reading a YAML text; it matches ErrYAML.
type yamlError struct {
	msg string
}

func (e *yamlError) Error() string { return e.msg }

// Is makes a yamlError match ErrYAML.
func (e *yamlError) Is(target error) bool { return target == ErrYAML }

// yqNodeBudget returns the number of values that the documents of a YAML
// text of n bytes may expand to. Without aliases a text holds fewer
// values than bytes, so the bound only stops the expansion of aliases
// (a "billion laughs" text) at a size proportional to the input.
func yqNodeBudget(n int) int { return yqNodeFloor + 2*n }

// decodeYAML reads all the documents of a YAML text as jq values, with
// the key order of mappings recorded in order.
func decodeYAML(data []byte, order *keyOrder) ([]any, error) {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	limit := yqNodeBudget(len(data))
	c := &yamlConverter{order: order, limit: limit, budget: limit, active: map[*yaml.Node]bool{}}
	var docs []any
	for {
		var n yaml.Node
		if err := dec.Decode(&n); err != nil {
			if err == io.EOF {
				return docs, nil
			}
			return docs, &yamlError{strings.TrimPrefix(err.Error(), "yaml: ")}
		}
		v, err := c.value(&n, 0)
		if err != nil {
			return docs, err
		}
		docs = append(docs, v)
	}
}

// yamlConverter turns yaml.v3 nodes into jq values (nil, bool, int,
// float64, json.Number, *big.Int, string, []any, map[string]any) under
// YAML 1.2's core schema, as yaml.v3 resolves it: yes, no, on and off are
// strings, timestamps and binary data are strings, and tags other than
// the core schema's are dropped.
type yamlConverter struct {
	order *keyOrder
	// budget is the number of values still allowed (aliases expand), of
	// limit.
	budget, limit int
	// active holds the anchored nodes being converted, to refuse an alias
	// to a node from inside it.
	active map[*yaml.Node]bool
}

// failAt returns an error about node n.
func (c *yamlConverter) failAt(n *yaml.Node, format string, args ...any) error {
	return &yamlError{fmt.Sprintf("line %d: %s", n.Line, fmt.Sprintf(format, args...))}
}

// value converts n nested at depth.
func (c *yamlConverter) value(n *yaml.Node, depth int) (any, error) {
	if depth > maxJSONDepth {
		return nil, c.failAt(n, "exceeded max depth of %d", maxJSONDepth)
	}
	if c.budget--; c.budget < 0 {
		return nil, c.failAt(n, "aliases expand to more than %d values", c.limit)
	}
	if n.Anchor != "" {
		c.active[n] = true
		defer delete(c.active, n)
	}
	switch n.Kind {
	case yaml.DocumentNode:
		if len(n.Content) == 0 {
			return nil, nil
		}
		return c.value(n.Content[0], depth)
	case yaml.AliasNode:
		if n.Alias == nil {
			return nil, c.failAt(n, "unknown anchor %q", n.Value)
		}
		if c.active[n.Alias] {
			return nil, c.failAt(n, "anchor %q is used inside itself", n.Value)
		}
		return c.value(n.Alias, depth)
	case yaml.ScalarNode:
		return c.scalar(n)
	case yaml.SequenceNode:
		arr := make([]any, 0, len(n.Content))
		for _, x := range n.Content {
			v, err := c.value(x, depth+1)
			if err != nil {
				return nil, err
			}
			arr = append(arr, v)
		}
		return arr, nil
	case yaml.MappingNode:
		obj, keys, err := c.mapping(n, depth)
		if err != nil {
			return nil, err
		}
		c.order.record(obj, keys)
		return obj, nil
	}
	return nil, c.failAt(n, "unknown node kind %d", n.Kind)
}

// mapping converts a mapping, applying its merge keys (<<): the mapping's
// own keys win over merged ones, and an earlier merged mapping over a
// later one; merged keys take the place of the << key. A key repeated in
// the mapping keeps its first place and its last value, as in jq.
func (c *yamlConverter) mapping(n *yaml.Node, depth int) (map[string]any, []string, error) {
	obj := make(map[string]any, len(n.Content)/2)
	keys := make([]string, 0, len(n.Content)/2)
	for i := 0; i+1 < len(n.Content); i += 2 {
		kn, vn := n.Content[i], n.Content[i+1]
		if kn.Kind == yaml.ScalarNode && kn.ShortTag() == "!!merge" {
			if err := c.merge(vn, depth, obj, &keys); err != nil {
				return nil, nil, err
			}
			continue
		}
		key, err := c.key(kn, depth)
		if err != nil {
			return nil, nil, err
		}
		v, err := c.value(vn, depth+1)
		if err != nil {
			return nil, nil, err
		}
		if _, ok := obj[key]; !ok {
			keys = append(keys, key)
		}
		obj[key] = v
	}
	return obj, keys, nil
}

// merge adds the keys of the merge key's value vn (a mapping, or a
// sequence of mappings, possibly aliases) that obj lacks.
func (c *yamlConverter) merge(vn *yaml.Node, depth int, obj map[string]any, keys *[]string) error {
	sources := []*yaml.Node{vn}
	if r := resolveAlias(vn); r != nil && r.Kind == yaml.SequenceNode {
		sources = r.Content
	}
	for _, s := range sources {
		r := resolveAlias(s)
		if r == nil || r.Kind != yaml.MappingNode {
			return c.failAt(s, "the value of a merge key (<<) must be a mapping or a sequence of mappings")
		}
		v, err := c.value(s, depth+1)
		if err != nil {
			return err
		}
		m := v.(map[string]any)
		for _, k := range c.order.orderedKeys(m) {
			if _, ok := obj[k]; ok {
				continue
			}
			obj[k] = m[k]
			*keys = append(*keys, k)
		}
	}
	return nil
}

// resolveAlias returns the node an alias refers to (n itself when it is
// not an alias), or nil for an unknown anchor.
func resolveAlias(n *yaml.Node) *yaml.Node {
	for i := 0; n != nil && n.Kind == yaml.AliasNode && i < 2; i++ {
		n = n.Alias
	}
	return n
}

// key returns the text of a mapping key: a scalar's text as written, any
// other key in compact JSON.
func (c *yamlConverter) key(kn *yaml.Node, depth int) (string, error) {
	if r := resolveAlias(kn); r != nil && r.Kind == yaml.ScalarNode {
		return r.Value, nil
	}
	v, err := c.value(kn, depth+1)
	if err != nil {
		return "", err
	}
	return c.order.compact(v), nil
}

// scalar converts a scalar by its resolved tag.
func (c *yamlConverter) scalar(n *yaml.Node) (any, error) {
	switch n.ShortTag() {
	case "!!null":
		return nil, nil
	case "!!bool":
		switch strings.ToLower(n.Value) {
		case "true":
			return true, nil
		case "false":
			return false, nil
		}
	case "!!int":
		if v, ok := yamlInt(n.Value); ok {
			return v, nil
		}
	case "!!float":
		if v, ok := yamlFloat(n.Value); ok {
			return v, nil
		}
	case "!!str":
		if n.Style == 0 && yamlNumberText.MatchString(n.Value) {
			// A number beyond int64 and float64, which yaml.v3 leaves a
			// string: jq keeps such a literal.
			if v, ok := canonicalNumber(n.Value); ok {
				return v, nil
			}
		}
		return n.Value, nil
	default:
		return n.Value, nil
	}
	return nil, c.failAt(n, "cannot read %q as %s", n.Value, n.ShortTag())
}

// yamlInt reads an integer the way yaml.v3 writes them (underscores, a
// sign, 0x, 0o and 0b prefixes); decimal digits, of any number, are kept
// as jq keeps a number literal of JSON text.
func yamlInt(s string) (any, bool) {
	s = strings.ReplaceAll(s, "_", "")
	body := strings.TrimLeft(s, "+-")
	if len(s)-len(body) > 1 || body == "" {
		return nil, false
	}
	if len(body) > 2 && body[0] == '0' && strings.ContainsRune("xXoObB", rune(body[1])) {
		var b big.Int
		if _, ok := b.SetString(s, 0); !ok {
			return nil, false
		}
		if b.IsInt64() && b.Int64() >= math.MinInt && b.Int64() <= math.MaxInt {
			return int(b.Int64()), true
		}
		return &b, true
	}
	return canonicalNumber(s)
}

// yamlFloat reads a float: .inf and .nan in any case yaml.v3 accepts, or
// a number, kept as jq keeps a number literal of JSON text.
func yamlFloat(s string) (any, bool) {
	switch strings.ToLower(strings.TrimPrefix(s, "+")) {
	case ".inf":
		return math.Inf(1), true
	case "-.inf":
		return math.Inf(-1), true
	case ".nan":
		return math.NaN(), true
	}
	s = strings.ReplaceAll(s, "_", "")
	if s == "" || strings.ContainsAny(s, "iInN") {
		return nil, false
	}
	return canonicalNumber(s)
}

// yamlNumberText matches the numbers of YAML 1.2's core schema written
// in decimal.
var yamlNumberText = regexp.MustCompile(`^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$`)

// yamlOldBools are the words that YAML 1.1 readers (PyYAML, Ruby's Psych,
// older Go code) read as booleans: a string holding one is written
// quoted, so that they read a string. The single letters y and n, which
// the YAML 1.1 type repository lists but those readers do not take for
// booleans, stay bare, as keys named y and n are common.
var yamlOldBools = map[string]bool{
	"yes": true, "Yes": true, "YES": true,
	"no": true, "No": true, "NO": true,
	"on": true, "On": true, "ON": true, "off": true, "Off": true, "OFF": true,
}

// yamlNode converts a jq value to a yaml.v3 node for printing: mappings
// in jq's key order, strings tagged so that yaml.v3 quotes the ones a
// reader would take for another type, numbers as jq prints them.
func yamlNode(v any, order *keyOrder, depth int) (*yaml.Node, error) {
	if depth > maxPrintDepth {
		return nil, &yamlError{fmt.Sprintf("cannot print a value nested deeper than %d as YAML", maxPrintDepth)}
	}
	scalar := func(tag, s string) *yaml.Node { return &yaml.Node{Kind: yaml.ScalarNode, Tag: tag, Value: s} }
	switch v := v.(type) {
	case nil:
		return scalar("", "null"), nil
	case bool:
		return scalar("", strconv.FormatBool(v)), nil
	case int:
		return scalar("", strconv.Itoa(v)), nil
	case float64:
		switch {
		case math.IsNaN(v):
			return scalar("", ".nan"), nil
		case math.IsInf(v, 1):
			return scalar("", ".inf"), nil
		case math.IsInf(v, -1):
			return scalar("", "-.inf"), nil
		}
		return scalar("", formatJQNumber(v)), nil
	case json.Number:
		s := decimalString(string(v))
		if s == "" {
			f, _ := strconv.ParseFloat(string(v), 64)
			return yamlNode(f, order, depth)
		}
		return scalar("", s), nil
	case *big.Int:
		return scalar("", v.String()), nil
	case string:
		return yamlString(v), nil
	case []any:
		n := &yaml.Node{Kind: yaml.SequenceNode, Content: make([]*yaml.Node, 0, len(v))}
		for _, x := range v {
			c, err := yamlNode(x, order, depth+1)
			if err != nil {
				return nil, err
			}
			n.Content = append(n.Content, c)
		}
		return n, nil
	case map[string]any:
		n := &yaml.Node{Kind: yaml.MappingNode, Content: make([]*yaml.Node, 0, 2*len(v))}
		for _, k := range order.orderedKeys(v) {
			c, err := yamlNode(v[k], order, depth+1)
			if err != nil {
				return nil, err
			}
			n.Content = append(n.Content, yamlString(k), c)
		}
		return n, nil
	}
	return scalar("", "null"), nil
}

// yamlString returns the node of a string: invalid UTF-8 becomes U+FFFD
// (as jq prints it), and the words YAML 1.1 reads as booleans and the
// merge key << are double-quoted; yaml.v3 quotes the rest as needed.
func yamlString(s string) *yaml.Node {
	s = strings.ToValidUTF8(s, "\uFFFD")
	n := &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: s}
	if yamlOldBools[s] || s == "<<" {
		n.Style = yaml.DoubleQuotedStyle
	}
	return n
}
