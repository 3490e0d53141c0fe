package policy

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/cordonhq/cordon/policy/authz"
	"github.com/cordonhq/cordon/policy/compile"
	regolib "github.com/cordonhq/cordon/policy/rego"
	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

// notInInput are the fields of authz.Input that are not part of the input
// document, and why.
var notInInput = map[string]string{
	"ParamsCanonical": "tells Decide that Params is already canonical",
}

// The input document a Rego policy sees and the JSON Schema that policies
// are type-checked against (compile.InputSchema, `cordon policy schema`)
// describe the same fields: every field of authz.Input (and of its Session
// and Tool) is a key of the document, under its json name or its name in
// snake case; the document is valid under the schema (which allows no
// other property); and every property the schema declares is in the
// document. A policy input field added to one of authz.Input, inputValue
// and the schema but not to the others fails here (CONTRIBUTING.md, "Add a
// policy input field").
func TestInputDocumentMatchesSchema(t *testing.T) {
	in := &authz.Input{
		Method:          "stripe/charges/create",
		Params:          json.RawMessage(`{"amount": 5}`),
		ParamsCanonical: true,
		Calls:           map[string]int{"stripe/charges/create": 2},
		CapabilityCalls: map[int]int{0: 1},
		Session: authz.Session{ID: "s1", Labels: map[string]string{"team": "a"}, Principal: "alice",
			Flow: authz.Flow{Labels: map[string]int{"private": 1}}},
		Language: "js",
		Tool: &authz.ToolInfo{Server: "github", Labels: []string{"egress"}, Annotations: map[string]bool{
			"readOnlyHint": true, "destructiveHint": false, "idempotentHint": true, "openWorldHint": false,
		}},
	}
	// The input above sets every field, so that each must show.
	var unset func(v reflect.Value, path string)
	unset = func(v reflect.Value, path string) {
		for i := range v.NumField() {
			f, fv := v.Type().Field(i), v.Field(i)
			if fv.IsZero() {
				t.Errorf("the test's input leaves %s.%s unset: set it, so that the test checks it", path, f.Name)
			}
			if fv.Kind() == reflect.Pointer && !fv.IsNil() {
				fv = fv.Elem()
			}
			if fv.Kind() == reflect.Struct {
				unset(fv, path+"."+f.Name)
			}
		}
	}
	unset(reflect.ValueOf(*in), "authz.Input")

	v, err := inputValue(in)
	if err != nil {
		t.Fatal(err)
	}
	native, err := ast.JSON(v)
	if err != nil {
		t.Fatal(err)
	}
	raw, err := json.Marshal(native)
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}

	// Every field is a key of the document.
	var fields func(typ reflect.Type, obj map[string]any, path string)
	fields = func(typ reflect.Type, obj map[string]any, path string) {
		for i := range typ.NumField() {
			f := typ.Field(i)
			if path == "input" && notInInput[f.Name] != "" {
				continue
			}
			key, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			if key == "" {
				key = snakeCase(f.Name)
			}
			val, ok := obj[key]
			if !ok {
				t.Errorf("authz.Input's %s.%s is not in the input document as %s.%s (policy/decide.go, inputValue)", path, f.Name, path, key)
				continue
			}
			ft := f.Type
			if ft.Kind() == reflect.Pointer {
				ft = ft.Elem()
			}
			if sub, ok := val.(map[string]any); ok && ft.Kind() == reflect.Struct {
				fields(ft, sub, path+"."+key)
			}
		}
	}
	fields(reflect.TypeFor[authz.Input](), doc, "input")

	// The document is valid under the schema.
	schemaDoc, err := jsonschema.UnmarshalJSON(bytes.NewReader(compile.InputSchema()))
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource("input.json", schemaDoc); err != nil {
		t.Fatal(err)
	}
	schema, err := c.Compile("input.json")
	if err != nil {
		t.Fatal(err)
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	if err := schema.Validate(inst); err != nil {
		t.Errorf("the input document is not valid under compile.InputSchema (policy/compile/schema.go): %v\n%s", err, raw)
	}

	// Every property the schema declares is in the document.
	var declared func(s map[string]any, obj map[string]any, path string)
	declared = func(s map[string]any, obj map[string]any, path string) {
		props, _ := s["properties"].(map[string]any)
		for key, sub := range props {
			val, ok := obj[key]
			if !ok {
				t.Errorf("the input schema declares %s.%s, which the input document does not have (policy/decide.go, inputValue)", path, key)
				continue
			}
			subSchema, _ := sub.(map[string]any)
			if subObj, ok := val.(map[string]any); ok && subSchema != nil {
				declared(subSchema, subObj, path+"."+key)
			}
		}
	}
	var s map[string]any
	if err := json.Unmarshal(compile.InputSchema(), &s); err != nil {
		t.Fatal(err)
	}
	declared(s, doc, "input")

	// The library's header lists every top-level key.
	lib := regolib.Modules()["cordon/authz.rego"]
	for key := range doc {
		if !strings.Contains(lib, "input."+key) {
			t.Errorf("policy/rego/authz.rego's header does not describe input.%s", key)
		}
	}
}

// snakeCase returns a Go field name as the input document names it:
// CapabilityCalls -> capability_calls, ID -> id.
func snakeCase(name string) string {
	var b strings.Builder
	for i, r := range name {
		if r >= 'A' && r <= 'Z' {
			prevLower := i > 0 && name[i-1] >= 'a' && name[i-1] <= 'z'
			nextLower := i+1 < len(name) && name[i+1] >= 'a' && name[i+1] <= 'z'
			if i > 0 && (prevLower || nextLower) {
				b.WriteByte('_')
			}
			r += 'a' - 'A'
		}
		b.WriteRune(r)
	}
	return b.String()
}
