package describe

import (
	"encoding/json"
	"net/url"
	"sort"
	"strconv"
	"strings"
)

// This file turns JSON Schema into TypeScript types: what a script may
// pass to a tool and what it gets back, in the notation models read best.
//
//   - type: string, number and integer (number), boolean, null, array,
//     object; a list of types is a union; "nullable": true (OpenAPI 3.0)
//     adds null.
//   - enum is a union of literals and const a literal.
//   - properties are fields, optional unless required; additionalProperties
//     (a schema or true) and patternProperties are an index signature. An
//     object with properties and no additionalProperties is closed, so
//     that a misspelled param is an error; an object with neither is
//     { [key: string]: unknown }.
//   - items is T[]; prefixItems (and items as a list, before 2020-12) a
//     tuple.
//   - anyOf and oneOf are unions, allOf an intersection, combined with the
//     schema's own type by intersection.
//   - $ref to a place in the same document ("#/$defs/Charge",
//     "#/definitions/User", "#/components/schemas/Issue", "#" itself, or
//     an $anchor) is a named type, declared once in the tool's namespace
//     (stripe.Charge); identical definitions of several tools share one
//     name. Any other $ref is unknown: no schema is ever fetched.
//   - description becomes JSDoc, with format, bounds, pattern, default,
//     an example and deprecation as notes after it.
//   - a schema that cannot be read, true and {} are unknown; false is
//     never.

// ts is a TypeScript type expression and how tightly it binds; a union
// keeps its members, so that unions flatten without reading the text.
type ts struct {
	s       string
	prec    int
	members []ts // of a union
}

const (
	precUnion   = iota // A | B
	precInter          // A & B
	precPrimary        // string, {...}, T[], "a"
)

func prim(s string) ts { return ts{s: s, prec: precPrimary} }

var (
	tsUnknown = prim("unknown")
	tsNever   = prim("never")
	tsNull    = prim("null")
)

// union returns A | B | ..., flattened and without duplicates; unknown
// absorbs everything and never disappears.
func union(parts ...ts) ts {
	var out []ts
	seen := map[string]bool{}
	var add func(p ts) bool
	add = func(p ts) bool {
		switch {
		case p.s == "unknown":
			return false
		case p.s == "never":
			return true
		case p.prec == precUnion:
			for _, m := range p.members {
				if !add(m) {
					return false
				}
			}
			return true
		}
		if !seen[p.s] {
			seen[p.s] = true
			out = append(out, p)
		}
		return true
	}
	for _, p := range parts {
		if !add(p) {
			return tsUnknown
		}
	}
	switch len(out) {
	case 0:
		return tsNever
	case 1:
		return out[0]
	}
	// null and undefined last: string | null reads better than null | string.
	sort.SliceStable(out, func(i, j int) bool { return !nullish(out[i].s) && nullish(out[j].s) })
	ss := make([]string, len(out))
	for i, p := range out {
		ss[i] = p.s
	}
	return ts{s: strings.Join(ss, " | "), prec: precUnion, members: out}
}

func nullish(s string) bool { return s == "null" || s == "undefined" }

// inter returns A & B & ..., without duplicates; unknown disappears.
func inter(parts ...ts) ts {
	var kept []ts
	seen := map[string]bool{}
	for _, p := range parts {
		if p.s == "unknown" || seen[p.s] {
			continue
		}
		if p.s == "never" {
			return tsNever
		}
		seen[p.s] = true
		kept = append(kept, p)
	}
	switch len(kept) {
	case 0:
		return tsUnknown
	case 1:
		return kept[0]
	}
	out := make([]string, len(kept))
	for i, p := range kept {
		if p.prec == precUnion {
			out[i] = "(" + p.s + ")"
		} else {
			out[i] = p.s
		}
	}
	return ts{s: strings.Join(out, " & "), prec: precInter}
}

// schemaDoc is one schema document: a tool's input or output schema, the
// scope of its "#..." references.
type schemaDoc struct {
	root   any
	prefix string // the tool's name in Pascal case, to tell its types apart ("ChargesCreate")
	role   string // "Params" or "Result": the name of the root when "#" is referenced
	keys   map[string]string
}

// closureKey identifies the definition at ptr together with every
// definition it refers to, whatever their names and places, so that two
// tools' identical definitions share a name and different ones never do:
// the definitions in the order they are first met, each with its
// references written as that order's numbers.
func (d *schemaDoc) closureKey(ptr string) string {
	if k, ok := d.keys[ptr]; ok {
		return k
	}
	index := map[string]int{}
	var defs []string
	var visit func(p string) int
	visit = func(p string) int {
		if i, ok := index[p]; ok {
			return i
		}
		i := len(defs)
		index[p] = i
		defs = append(defs, "")
		s, _ := d.resolve(p)
		var b strings.Builder
		canonicalJSON(&b, s, func(ref string) string {
			if p, ok := d.pointer(ref); ok {
				return "#" + strconv.Itoa(visit(p))
			}
			return ref
		})
		defs[i] = b.String()
		return i
	}
	visit(ptr)
	if d.keys == nil {
		d.keys = map[string]string{}
	}
	d.keys[ptr] = strings.Join(defs, "\n")
	return d.keys[ptr]
}

// pointer returns the JSON pointer a reference names within the document
// ("#/$defs/A" -> "/$defs/A", "#" -> "", "#name" -> where $anchor is
// name), and false for a reference to another document.
func (d *schemaDoc) pointer(ref string) (string, bool) {
	frag, ok := strings.CutPrefix(ref, "#")
	if !ok {
		return "", false
	}
	if f, err := url.PathUnescape(frag); err == nil {
		frag = f
	}
	if frag == "" || strings.HasPrefix(frag, "/") {
		_, found := d.resolve(frag)
		return frag, found
	}
	return findAnchor(d.root, "", frag)
}

func findAnchor(v any, at, name string) (string, bool) {
	switch x := v.(type) {
	case *object:
		if x.str("$anchor") == name {
			return at, true
		}
		for _, k := range x.keys {
			if p, ok := findAnchor(x.vals[k], at+"/"+escapePointer(k), name); ok {
				return p, true
			}
		}
	case []any:
		for i, e := range x {
			if p, ok := findAnchor(e, at+"/"+strconv.Itoa(i), name); ok {
				return p, true
			}
		}
	}
	return "", false
}

func escapePointer(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "~", "~0"), "/", "~1")
}

// resolve returns the value at a JSON pointer ("" is the root).
func (d *schemaDoc) resolve(ptr string) (any, bool) {
	v := d.root
	if ptr == "" {
		return v, true
	}
	for _, seg := range strings.Split(ptr[1:], "/") {
		seg = strings.ReplaceAll(strings.ReplaceAll(seg, "~1", "/"), "~0", "~")
		switch x := v.(type) {
		case *object:
			if !x.has(seg) {
				return nil, false
			}
			v = x.vals[seg]
		case []any:
			i, err := strconv.Atoi(seg)
			if err != nil || i < 0 || i >= len(x) {
				return nil, false
			}
			v = x[i]
		default:
			return nil, false
		}
	}
	return v, true
}

// typeSpace holds the named types of one TypeScript namespace (a tool
// root such as stripe): their names and declarations.
type typeSpace struct {
	ns    string
	byKey map[string]string
	taken map[string]bool
	decls []string
	queue []pendingDef
}

type pendingDef struct {
	doc  *schemaDoc
	ptr  string
	name string
}

func newTypeSpace(ns string) *typeSpace {
	return &typeSpace{ns: ns, byKey: map[string]string{}, taken: map[string]bool{}}
}

// nameFor returns the name of the definition at ptr, declaring it (later,
// in flush) the first time.
func (sp *typeSpace) nameFor(d *schemaDoc, ptr string) string {
	key := d.closureKey(ptr)
	if n, ok := sp.byKey[key]; ok {
		return n
	}
	base := d.prefix + d.role
	if ptr != "" {
		base = pascal(ptr[strings.LastIndexByte(ptr, '/')+1:])
	}
	name := base
	if sp.taken[name] && !strings.HasPrefix(name, d.prefix) {
		name = d.prefix + base
	}
	for i := 2; sp.taken[name]; i++ {
		name = base + strconv.Itoa(i)
	}
	sp.taken[name] = true
	sp.byKey[key] = name
	sp.queue = append(sp.queue, pendingDef{doc: d, ptr: ptr, name: name})
	return name
}

// flush declares the definitions named so far, and those they name.
func (sp *typeSpace) flush() {
	for len(sp.queue) > 0 {
		p := sp.queue[0]
		sp.queue = sp.queue[1:]
		s, _ := p.doc.resolve(p.ptr)
		r := &renderer{sp: sp, doc: p.doc}
		var b strings.Builder
		writeDoc(&b, 1, docText(s, false))
		b.WriteString("  ")
		if o, ok := s.(*object); ok && plainObject(o) {
			b.WriteString("interface " + p.name + " " + r.object(o, 1))
		} else {
			b.WriteString("type " + p.name + " = " + r.typ(s, 1).s + ";")
		}
		sp.decls = append(sp.decls, b.String())
	}
}

// plainObject reports whether a schema is an object type and nothing
// else, which a TypeScript interface can declare.
func plainObject(o *object) bool {
	for _, k := range []string{"$ref", "allOf", "anyOf", "oneOf", "enum", "const", "nullable", "x-nullable"} {
		if o.has(k) {
			return false
		}
	}
	types := schemaTypes(o)
	return len(types) == 1 && types[0] == "object"
}

// pascal makes a type name from a definition's name: "simple-user" and
// "simple_user" -> "SimpleUser".
func pascal(s string) string {
	var b strings.Builder
	up := true
	for _, c := range s {
		switch {
		case c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9':
			if b.Len() == 0 && c >= '0' && c <= '9' {
				b.WriteByte('T')
			}
			if up && c >= 'a' && c <= 'z' {
				c -= 'a' - 'A'
			}
			b.WriteRune(c)
			up = false
		default:
			up = true
		}
	}
	if b.Len() == 0 {
		return "Type"
	}
	return b.String()
}

// renderer renders the schemas of one document.
type renderer struct {
	sp    *typeSpace
	doc   *schemaDoc
	depth int
}

// maxDepth bounds the nesting of types rendered inline.
const maxDepth = 48

// typ returns the TypeScript type of a schema, laid out for a line indented
// ind levels (nested objects take several lines).
func (r *renderer) typ(s any, ind int) ts {
	if r.depth > maxDepth {
		return tsUnknown
	}
	r.depth++
	defer func() { r.depth-- }()
	o, ok := s.(*object)
	if !ok {
		if s == false {
			return tsNever
		}
		return tsUnknown
	}
	var parts []ts
	if ref := o.str("$ref"); ref != "" {
		parts = append(parts, r.ref(ref))
	}
	switch {
	case o.has("const"):
		parts = append(parts, prim(literal(o.get("const"))))
	case o.has("enum"):
		var lits []ts
		for _, v := range o.list("enum") {
			lits = append(lits, prim(literal(v)))
		}
		parts = append(parts, union(lits...))
	default:
		if t, ok := r.byType(o, ind); ok {
			parts = append(parts, t)
		}
	}
	for _, sub := range o.list("allOf") {
		parts = append(parts, r.typ(sub, ind))
	}
	for _, k := range []string{"anyOf", "oneOf"} {
		if alts := o.list(k); len(alts) > 0 {
			var ts []ts
			for _, a := range alts {
				ts = append(ts, r.typ(a, ind))
			}
			parts = append(parts, union(ts...))
		}
	}
	t := inter(parts...)
	if o.get("nullable") == true || o.get("x-nullable") == true {
		t = union(t, tsNull)
	}
	return t
}

// ref returns the named type a reference stands for.
func (r *renderer) ref(ref string) ts {
	ptr, ok := r.doc.pointer(ref)
	if !ok {
		return tsUnknown
	}
	return prim(r.sp.ns + "." + r.sp.nameFor(r.doc, ptr))
}

// schemaTypes returns the JSON types a schema declares, or infers from its
// keywords (properties: object; items: array).
func schemaTypes(o *object) []string {
	switch t := o.get("type").(type) {
	case string:
		return []string{t}
	case []any:
		var out []string
		for _, x := range t {
			if s, ok := x.(string); ok {
				out = append(out, s)
			}
		}
		return out
	}
	switch {
	case o.has("properties") || o.has("additionalProperties") || o.has("patternProperties"):
		return []string{"object"}
	case o.has("items") || o.has("prefixItems"):
		return []string{"array"}
	}
	return nil
}

// byType returns the type the schema's "type" gives, and false when it
// gives none.
func (r *renderer) byType(o *object, ind int) (ts, bool) {
	types := schemaTypes(o)
	if len(types) == 0 {
		return ts{}, false
	}
	var parts []ts
	for _, t := range types {
		switch t {
		case "string", "boolean", "null":
			parts = append(parts, prim(t))
		case "number", "integer":
			parts = append(parts, prim("number"))
		case "array":
			parts = append(parts, r.array(o, ind))
		case "object":
			parts = append(parts, prim(r.object(o, ind)))
		default:
			parts = append(parts, tsUnknown)
		}
	}
	return union(parts...), true
}

func (r *renderer) array(o *object, ind int) ts {
	tuple, rest := o.list("prefixItems"), o.get("items")
	if tuple == nil {
		if l, ok := rest.([]any); ok { // draft 4 to 2019-09
			tuple, rest = l, o.get("additionalItems")
		}
	}
	if tuple == nil {
		if rest == nil {
			return prim("unknown[]")
		}
		return prim(arrayOf(r.typ(rest, ind)))
	}
	elems := make([]string, 0, len(tuple)+1)
	for _, e := range tuple {
		elems = append(elems, r.typ(e, ind).s)
	}
	if rest != false {
		elems = append(elems, "..."+arrayOf(r.typ(rest, ind)))
	}
	return prim("[" + strings.Join(elems, ", ") + "]")
}

// literal is the TypeScript type of a JSON value: "a", 1, true, null,
// { shape: "circle"; r: 1 }, [1, 2].
func literal(v any) string {
	switch x := v.(type) {
	case *object:
		if len(x.keys) == 0 {
			return "{}"
		}
		parts := make([]string, len(x.keys))
		for i, k := range x.keys {
			parts[i] = propName(k) + ": " + literal(x.vals[k])
		}
		return "{ " + strings.Join(parts, "; ") + " }"
	case []any:
		parts := make([]string, len(x))
		for i, e := range x {
			parts[i] = literal(e)
		}
		return "[" + strings.Join(parts, ", ") + "]"
	}
	return jsonText(v)
}

func arrayOf(t ts) string {
	if t.prec != precPrimary {
		return "(" + t.s + ")[]"
	}
	return t.s + "[]"
}

// object returns an object type: fields with their JSDoc, and an index
// signature for additionalProperties and patternProperties.
func (r *renderer) object(o *object, ind int) string {
	props := o.obj("properties")
	required := map[string]bool{}
	for _, k := range o.list("required") {
		if s, ok := k.(string); ok {
			required[s] = true
		}
	}
	type field struct {
		doc, line string
	}
	var fields []field
	var fieldTypes []ts
	optional := false
	if props != nil {
		// Required fields first, then the optional ones, each in the
		// schema's order (a config's YAML may have sorted them by name).
		keys := make([]string, 0, len(props.keys))
		for _, k := range props.keys {
			if required[k] {
				keys = append(keys, k)
			}
		}
		for _, k := range props.keys {
			if !required[k] {
				keys = append(keys, k)
			}
		}
		for _, k := range keys {
			p := props.vals[k]
			t := r.typ(p, ind+1)
			opt := ""
			if !required[k] {
				opt, optional = "?", true
			}
			fieldTypes = append(fieldTypes, t)
			fields = append(fields, field{doc: docText(p, true), line: propName(k) + opt + ": " + t.s})
		}
	}
	var index []ts
	var indexDoc []string
	switch a := o.get("additionalProperties").(type) {
	case bool:
		if a {
			index = append(index, tsUnknown)
		}
	case *object:
		index = append(index, r.typ(a, ind+1))
	}
	if pp := o.obj("patternProperties"); pp != nil {
		for _, pat := range pp.keys {
			index = append(index, r.typ(pp.vals[pat], ind+1))
			indexDoc = append(indexDoc, "keys matching "+pat)
		}
	}
	if len(fields) == 0 && len(index) == 0 && o.get("additionalProperties") != false {
		index = append(index, tsUnknown)
	}
	if len(index) > 0 {
		it := union(index...)
		if len(fieldTypes) > 0 && it.s != "unknown" {
			// Every field must fit the index signature.
			all := append(append([]ts{}, index...), fieldTypes...)
			if optional {
				all = append(all, prim("undefined"))
			}
			it = union(all...)
		}
		fields = append(fields, field{doc: strings.Join(indexDoc, "; "), line: "[key: string]: " + it.s})
	}
	if len(fields) == 0 {
		return "{}"
	}
	inline := true
	width := 4
	for _, f := range fields {
		if f.doc != "" || strings.Contains(f.line, "\n") {
			inline = false
		}
		width += len(f.line) + 2
	}
	if inline && width+2*ind <= 80 {
		parts := make([]string, len(fields))
		for i, f := range fields {
			parts[i] = f.line
		}
		return "{ " + strings.Join(parts, "; ") + " }"
	}
	var b strings.Builder
	b.WriteString("{\n")
	pad := strings.Repeat("  ", ind+1)
	for _, f := range fields {
		writeDoc(&b, ind+1, f.doc)
		b.WriteString(pad + f.line + ";\n")
	}
	b.WriteString(strings.Repeat("  ", ind) + "}")
	return b.String()
}

// propName returns a property name as a TypeScript type literal writes it:
// bare when it is an identifier, else quoted.
func propName(k string) string {
	if isIdent(k) {
		return k
	}
	return quote(k)
}

// isIdent reports whether s is an ASCII JavaScript identifier name
// (keywords included, which are valid property names).
func isIdent(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' || c == '$' || i > 0 && c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

// docText returns a schema's description with its notes (format, bounds,
// default, example...) for JSDoc, or "". withNotes false gives the
// description alone (a named type's own notes show on its fields).
func docText(s any, withNotes bool) string {
	o, ok := s.(*object)
	if !ok {
		return ""
	}
	desc := cleanText(o.str("description"))
	if desc == "" {
		desc = cleanText(o.str("title"))
	}
	if !withNotes {
		return desc
	}
	n := notes(o)
	switch {
	case n == "":
		return desc
	case desc == "":
		return n
	case strings.Contains(desc, "\n"):
		return desc + "\n(" + n + ")"
	}
	return desc + " (" + n + ")"
}

// notes describes what a schema's type does not show, in a few words:
// integer, format, bounds, pattern, default, an example, deprecation.
func notes(o *object) string {
	var n []string
	for _, t := range schemaTypes(o) {
		if t == "integer" {
			n = append(n, "integer")
		}
	}
	if f := o.str("format"); f != "" {
		n = append(n, "format: "+f)
	}
	bound := func(key, op string) {
		switch v := o.get(key).(type) {
		case json.Number:
			n = append(n, op+" "+v.String())
		}
	}
	bound("minimum", ">=")
	bound("exclusiveMinimum", ">")
	bound("maximum", "<=")
	bound("exclusiveMaximum", "<")
	if o.get("exclusiveMinimum") == true || o.get("exclusiveMaximum") == true { // draft 4
		for i, s := range n {
			n[i] = strings.Replace(strings.Replace(s, ">= ", "> ", 1), "<= ", "< ", 1)
		}
	}
	span := func(minKey, maxKey, unit string) {
		lo, hasLo := o.get(minKey).(json.Number)
		hi, hasHi := o.get(maxKey).(json.Number)
		switch {
		case hasLo && hasHi && lo == hi:
			n = append(n, lo.String()+" "+unit)
		case hasLo && hasHi:
			n = append(n, lo.String()+" to "+hi.String()+" "+unit)
		case hasLo:
			n = append(n, "at least "+lo.String()+" "+unit)
		case hasHi:
			n = append(n, "at most "+hi.String()+" "+unit)
		}
	}
	span("minLength", "maxLength", "characters")
	span("minItems", "maxItems", "items")
	span("minProperties", "maxProperties", "keys")
	if p := o.str("pattern"); p != "" {
		n = append(n, "pattern: "+p)
	}
	if items := o.obj("items"); items != nil {
		if f := items.str("format"); f != "" {
			n = append(n, "items format: "+f)
		}
	}
	if o.has("default") {
		n = append(n, "default: "+jsonText(o.get("default")))
	}
	if ex := o.list("examples"); len(ex) > 0 {
		n = append(n, "example: "+jsonText(ex[0]))
	} else if o.has("example") {
		n = append(n, "example: "+jsonText(o.get("example")))
	}
	if o.get("deprecated") == true {
		n = append(n, "deprecated")
	}
	return cleanText(strings.Join(n, ", "))
}

// cleanText makes a text safe (SafeText), trims its lines and drops runs
// of blank lines.
func cleanText(s string) string {
	lines := strings.Split(strings.TrimSpace(SafeText(s)), "\n")
	out := lines[:0]
	for _, l := range lines {
		l = strings.TrimRight(l, " \t")
		if l == "" && len(out) > 0 && out[len(out)-1] == "" {
			continue
		}
		out = append(out, l)
	}
	return strings.Join(out, "\n")
}

// docWidth is the width JSDoc lines are wrapped at.
const docWidth = 100

// writeDoc writes text as a JSDoc comment indented ind levels: on one line
// when it is short, else as a block with its lines wrapped at docWidth.
func writeDoc(b *strings.Builder, ind int, text string) {
	if text == "" {
		return
	}
	pad := strings.Repeat("  ", ind)
	// The text may come from an upstream server: its lines are the ones
	// it shows (SafeText), it cannot end the comment, and it cannot end
	// the fenced block that Prompt puts the declarations in.
	text = strings.ReplaceAll(unfence(cleanText(text)), "*/", "*\\/")
	if !strings.Contains(text, "\n") && len(pad)+len(text)+7 <= docWidth {
		b.WriteString(pad + "/** " + text + " */\n")
		return
	}
	b.WriteString(pad + "/**\n")
	for _, l := range strings.Split(text, "\n") {
		if l == "" {
			b.WriteString(pad + " *\n")
			continue
		}
		for _, w := range wrap(l, docWidth-len(pad)-3) {
			b.WriteString(pad + " * " + w + "\n")
		}
	}
	b.WriteString(pad + " */\n")
}

// wrap breaks a line at spaces into lines of at most width bytes (a
// longer word stays whole).
func wrap(line string, width int) []string {
	if len(line) <= width {
		return []string{line}
	}
	var out []string
	cur := ""
	for _, w := range strings.Fields(line) {
		switch {
		case cur == "":
			cur = w
		case len(cur)+1+len(w) <= width:
			cur += " " + w
		default:
			out = append(out, cur)
			cur = w
		}
	}
	return append(out, cur)
}

// requiresParams reports whether a params schema requires any property,
// so that the params argument cannot be left out.
func requiresParams(d *schemaDoc, s any, depth int) bool {
	o, ok := s.(*object)
	if !ok || depth > 8 {
		return false
	}
	if len(o.list("required")) > 0 {
		return true
	}
	if ref := o.str("$ref"); ref != "" {
		if p, ok := d.pointer(ref); ok {
			if t, ok := d.resolve(p); ok && requiresParams(d, t, depth+1) {
				return true
			}
		}
	}
	for _, sub := range o.list("allOf") {
		if requiresParams(d, sub, depth+1) {
			return true
		}
	}
	return false
}
