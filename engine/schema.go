package engine

import (
	"bytes"
	"errors"
	"fmt"
	"math/big"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
)

// Input schemas are checked on the host, on every path a call can take (JS,
// the shell's `tool`, nested interpreters, the step API), after the params
// are put in canonical form and before the policy runs. The validator is
// github.com/santhosh-tekuri/jsonschema/v6 (draft 2020-12 by default, and
// the drafts a schema names with $schema: 2019-09, 7, 6, 4). Its regular
// expressions are Go's (RE2, linear time): a script chooses the strings a
// "pattern" runs over, on the host, so a backtracking engine is not an
// option.

// schemaURL is the address a tool's schema is compiled under. Nothing is
// ever loaded from it (noLoader); a relative $ref resolves against it and
// is refused as remote.
const (
	schemaBase = "cordon:///tool/"
	schemaURL  = schemaBase + "input-schema.json"
)

// noLoader refuses every schema the compiler would load: a tool's schema
// must be self-contained (its own $defs), so compiling it touches neither
// the network nor the host's files.
type noLoader struct{}

func (noLoader) Load(url string) (any, error) {
	url = strings.TrimPrefix(url, schemaBase) // a relative reference, as written
	return nil, fmt.Errorf("refers to %s, and cordon loads no schema from elsewhere (no network, no files): put it under $defs in the tool's schema", url)
}

// compiledSchemas caches compiled schemas by their text, for the process:
// an agent's sandboxes register the same tools again and again, and a
// compiled schema is immutable and safe for concurrent use. It is emptied
// when it holds maxCompiledSchemas.
var compiledSchemas struct {
	mu sync.Mutex
	m  map[string]*jsonschema.Schema
}

const maxCompiledSchemas = 4096

// compileSchema compiles a tool's input schema, or says what is wrong with
// it.
func compileSchema(raw []byte) (*jsonschema.Schema, error) {
	compiledSchemas.mu.Lock()
	s := compiledSchemas.m[string(raw)]
	compiledSchemas.mu.Unlock()
	if s != nil {
		return s, nil
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		return nil, errors.New("not JSON")
	}
	if _, ok := doc.(map[string]any); !ok {
		return nil, errors.New("not a JSON object")
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	c.UseLoader(noLoader{})
	if err := c.AddResource(schemaURL, doc); err != nil {
		return nil, schemaError(err)
	}
	s, err = c.Compile(schemaURL)
	if err != nil {
		return nil, schemaError(err)
	}
	compiledSchemas.mu.Lock()
	if compiledSchemas.m == nil || len(compiledSchemas.m) >= maxCompiledSchemas {
		compiledSchemas.m = map[string]*jsonschema.Schema{}
	}
	compiledSchemas.m[string(raw)] = s
	compiledSchemas.mu.Unlock()
	return s, nil
}

// schemaError rewords a compile error without the library's internal
// addresses.
func schemaError(err error) error {
	var sve *jsonschema.SchemaValidationError
	if errors.As(err, &sve) {
		var ve *jsonschema.ValidationError
		if errors.As(sve.Err, &ve) {
			return fmt.Errorf("not a valid JSON Schema: %s", strings.Join(violations(ve, "schema", maxViolations), "; "))
		}
	}
	var le *jsonschema.LoadURLError
	if errors.As(err, &le) {
		if le.Err != nil {
			return errors.New(le.Err.Error())
		}
		return fmt.Errorf("refers to %s, which cordon does not load", le.URL)
	}
	msg := strings.ReplaceAll(err.Error(), schemaURL, "") // "#/$defs/x"
	return errors.New(msg)
}

// validateParams checks canonical params against a tool's schema. It
// returns nil, or one reason per violation (at most maxViolations, the last
// saying how many more there were), each naming the param as the policy
// names it (items/0/sku) and the rule: "amount: expected number, got
// string".
func validateParams(s *jsonschema.Schema, params []byte) []string {
	// Numbers as float64s: canonical params hold only numbers that a
	// float64 reads back exactly (internal/canon).
	var v any
	if err := jsonv2.Unmarshal(params, &v); err != nil {
		// Canonical params are always JSON.
		return []string{"params: not JSON"}
	}
	err := s.Validate(v)
	if err == nil {
		return nil
	}
	var ve *jsonschema.ValidationError
	if !errors.As(err, &ve) {
		return []string{"params: " + err.Error()}
	}
	return violations(ve, "params", maxViolations)
}

// maxViolations bounds the reasons one refusal lists, and maxViolationLen
// each one's length: a 1 MiB string that fails a pattern is not repeated.
const (
	maxViolations   = 8
	maxViolationLen = 200
)

var schemaPrinter = message.NewPrinter(language.English)

// violations lists the leaf errors of a validation error, in the library's
// order, each as "PATH: RULE". root names the top level.
func violations(ve *jsonschema.ValidationError, root string, limit int) []string {
	var out []string
	n := 0
	add := func(path []string, msg string) {
		n++
		if len(out) < limit {
			p := strings.Join(path, "/")
			if p == "" {
				p = root
			}
			out = append(out, clip(p+": "+msg, maxViolationLen))
		}
	}
	var walk func(e *jsonschema.ValidationError)
	walk = func(e *jsonschema.ValidationError) {
		switch k := e.ErrorKind.(type) {
		case *kind.Schema, *kind.Reference, *kind.AllOf, *kind.Group:
			if len(e.Causes) > 0 {
				for _, c := range e.Causes {
					walk(c)
				}
				return
			}
			add(e.InstanceLocation, e.ErrorKind.LocalizedString(schemaPrinter))
		case *kind.Type:
			add(e.InstanceLocation, fmt.Sprintf("expected %s, got %s", strings.Join(k.Want, " or "), k.Got))
		case *kind.Required:
			for _, m := range k.Missing {
				add(append(e.InstanceLocation[:len(e.InstanceLocation):len(e.InstanceLocation)], m), "missing (required)")
			}
		case *kind.AdditionalProperties:
			for _, p := range k.Properties {
				add(append(e.InstanceLocation[:len(e.InstanceLocation):len(e.InstanceLocation)], p), "not allowed (additionalProperties)")
			}
		case *kind.FalseSchema:
			add(e.InstanceLocation, "not allowed by the schema")
		case *kind.AnyOf, *kind.OneOf:
			msg := k.KeywordPath()[0] + ": no subschema matched"
			if o, ok := k.(*kind.OneOf); ok && len(o.Subschemas) > 1 {
				msg = fmt.Sprintf("oneOf: subschemas %d and %d both matched", o.Subschemas[0], o.Subschemas[1])
			}
			if len(e.Causes) > 0 {
				inner := violations(&jsonschema.ValidationError{ErrorKind: &kind.Group{}, Causes: e.Causes}, root, limit)
				msg += " (" + strings.Join(inner, "; ") + ")"
			}
			add(e.InstanceLocation, msg)
		default:
			msg := rule(e.ErrorKind)
			if len(e.Causes) > 0 {
				// anyOf, oneOf, contains, ...: say why each branch failed.
				inner := violations(&jsonschema.ValidationError{ErrorKind: &kind.Group{}, Causes: e.Causes}, root, limit)
				msg += " (" + strings.Join(inner, "; ") + ")"
			}
			add(e.InstanceLocation, msg)
		}
	}
	walk(ve)
	if n > len(out) {
		out = append(out, fmt.Sprintf("and %d more", n-len(out)))
	}
	return out
}

// rule says which rule a value broke, led by its keyword ("maximum: got
// 20000, want at most 10000"). The library's own text is used where it
// has no numbers, which its printer would localize ("1×10⁶", "10,000").
func rule(k jsonschema.ErrorKind) string {
	var msg string
	switch k := k.(type) {
	case *kind.Minimum:
		msg = fmt.Sprintf("got %s, want at least %s", ratString(k.Got), ratString(k.Want))
	case *kind.Maximum:
		msg = fmt.Sprintf("got %s, want at most %s", ratString(k.Got), ratString(k.Want))
	case *kind.ExclusiveMinimum:
		msg = fmt.Sprintf("got %s, want more than %s", ratString(k.Got), ratString(k.Want))
	case *kind.ExclusiveMaximum:
		msg = fmt.Sprintf("got %s, want less than %s", ratString(k.Got), ratString(k.Want))
	case *kind.MultipleOf:
		msg = fmt.Sprintf("got %s, want a multiple of %s", ratString(k.Got), ratString(k.Want))
	case *kind.MinLength:
		msg = fmt.Sprintf("got %d characters, want at least %d", k.Got, k.Want)
	case *kind.MaxLength:
		msg = fmt.Sprintf("got %d characters, want at most %d", k.Got, k.Want)
	case *kind.MinItems:
		msg = fmt.Sprintf("got %d items, want at least %d", k.Got, k.Want)
	case *kind.MaxItems:
		msg = fmt.Sprintf("got %d items, want at most %d", k.Got, k.Want)
	case *kind.MinProperties:
		msg = fmt.Sprintf("got %d properties, want at least %d", k.Got, k.Want)
	case *kind.MaxProperties:
		msg = fmt.Sprintf("got %d properties, want at most %d", k.Got, k.Want)
	case *kind.UniqueItems:
		msg = fmt.Sprintf("items %d and %d are equal", k.Duplicates[0], k.Duplicates[1])
	case *kind.Pattern:
		msg = fmt.Sprintf("%s does not match %s", strconv.Quote(clip(k.Got, 40)), strconv.Quote(k.Want))
	default:
		msg = k.LocalizedString(schemaPrinter)
	}
	if kw := k.KeywordPath(); len(kw) > 0 && !strings.HasPrefix(msg, kw[0]+":") {
		msg = kw[0] + ": " + msg
	}
	return msg
}

// ratString writes a number of a schema or of params as JSON would.
func ratString(r *big.Rat) string {
	if r == nil {
		return "?"
	}
	if r.IsInt() {
		return r.Num().String()
	}
	f, _ := r.Float64()
	return strconv.FormatFloat(f, 'g', -1, 64)
}

// clip cuts s to at most n bytes, at a UTF-8 boundary, marking the cut.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	i := n - len("…")
	for i > 0 && !utf8.RuneStart(s[i]) {
		i--
	}
	return s[:i] + "…"
}
