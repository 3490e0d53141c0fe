package describe

import (
	"encoding/json"
	"sort"
	"strconv"
	"strings"

	"github.com/cordonhq/cordon/dsl"
	"github.com/cordonhq/cordon/internal/abi"
)

// ToolSpec is what the description knows of one tool: what engine.ToolSpec
// registers, without the handler, and what the policy allows of it.
type ToolSpec struct {
	// Name is the registered name ("stripe/charges/create" or
	// "stripe.charges.create"), as engine.Tool.Name.
	Name string
	// Description says what the tool does; it becomes the JSDoc of its
	// function.
	Description string
	// InputSchema is the JSON Schema of the params object, or nil.
	InputSchema json.RawMessage
	// OutputSchema is the JSON Schema of the result, or nil (the result is
	// then unknown).
	OutputSchema json.RawMessage
	// Policy says in plain words what the policy allows of the tool, one
	// line per alternative in the order the policy tries them (see
	// Policy). When it is nil, [Options.Capabilities] fills it.
	Policy []string
}

// Language is the language of a script, "js" or "sh": the type of
// [github.com/cordonhq/cordon/engine.Language], which is the same type. In
// [Options] it selects what a description covers, and its zero value, Both,
// covers the two.
type Language = abi.Lang

const (
	// Both describes JavaScript and the shell; it is the zero value.
	Both Language = ""
	// JavaScript describes the tools as TypeScript declarations.
	JavaScript Language = abi.LangJS
	// Shell describes the tools as `tool NAME --flag <type>` lines.
	Shell Language = abi.LangShell
)

// coversJS and coversShell report whether a description for l covers
// JavaScript and the shell.
func coversJS(l Language) bool    { return l != Shell }
func coversShell(l Language) bool { return l != JavaScript }

// DefaultMaxBytes is the size of a prompt above which Prompt switches to
// the compact form, when [Options.MaxBytes] is 0: 32 KiB, about 8000 tokens.
const DefaultMaxBytes = 32 << 10

// Options tune a description. The zero value describes both languages,
// with an example, within DefaultMaxBytes.
type Options struct {
	// Language is what the description covers: Both (the zero value),
	// JavaScript or Shell.
	Language Language
	// Capabilities are the policy's capabilities: each tool whose Policy
	// is nil gets the plain words of what they allow of it (see Policy).
	Capabilities []*dsl.Capability
	// MaxBytes is the size of a prompt above which Prompt lists only the
	// tools' names and first lines and points to the sandbox's own
	// discovery (getToolInfo, listTools, tool --help, tool --list) for the
	// rest. 0 means DefaultMaxBytes and a negative value no limit.
	MaxBytes int
	// NoExample leaves out the example call.
	NoExample bool
}

func (o Options) maxBytes() int {
	switch {
	case o.MaxBytes == 0:
		return DefaultMaxBytes
	case o.MaxBytes < 0:
		return int(^uint(0) >> 1)
	}
	return o.MaxBytes
}

// entry is a tool ready to describe.
type entry struct {
	ToolSpec
	segs      []string // the JavaScript path ([abi.ToolPath])
	flat      string   // the flat alias ([abi.FlatName])
	reachable bool     // the path is a chain of properties from a global identifier
	in, out   *schemaDoc
}

// owner is the namespace of the tool's named types: the global that holds
// the tool.
func (e *entry) owner() string {
	if e.reachable {
		return e.segs[0]
	}
	return e.flat
}

// jsName is how a script calls the tool: its path when it starts at a
// global identifier (stripe.charges.create, api["get-user"]), else its
// flat alias.
func (e *entry) jsName() string {
	if !e.reachable {
		return e.flat
	}
	return e.segs[0] + memberPath(e.segs[1:])
}

// typeofPath is the tool's path as a TypeScript type query reads it: dots
// while the segments are identifiers, brackets from the first that is not.
func (e *entry) typeofPath() string {
	var b strings.Builder
	b.WriteString(e.segs[0])
	bracket := false
	for _, s := range e.segs[1:] {
		if !bracket && isIdent(s) {
			b.WriteString("." + s)
			continue
		}
		bracket = true
		b.WriteString("[" + quote(s) + "]")
	}
	return b.String()
}

// toolPath splits a tool name into the segments of its JavaScript path,
// at every "/" and "." (as [abi.ToolPath]).
func toolPath(name string) []string {
	return strings.FieldsFunc(name, func(r rune) bool { return r == '/' || r == '.' })
}

// prepare checks the tools, fills their policy and reads their schemas. A
// tool whose name the engine would refuse, or that shares a JavaScript
// name with an earlier one, is left out.
func prepare(tools []ToolSpec, opts Options) []*entry {
	names := make([]string, 0, len(tools))
	for _, t := range tools {
		names = append(names, t.Name)
	}
	var out []*entry
	dotted, flat := map[string]bool{}, map[string]bool{}
	for _, t := range tools {
		if abi.ValidateToolName(t.Name) != nil {
			continue
		}
		d, f := strings.ReplaceAll(t.Name, "/", "."), abi.FlatName(t.Name)
		if dotted[d] || flat[f] {
			continue
		}
		dotted[d], flat[f] = true, true
		e := &entry{ToolSpec: t, segs: toolPath(t.Name), flat: f}
		// A description may come from an upstream MCP server: it is
		// untrusted text (SafeText), here as in every renderer below.
		e.Description = unfence(SafeText(e.Description))
		e.reachable = len(e.segs) > 1 && isIdent(e.segs[0])
		if e.Policy == nil && opts.Capabilities != nil {
			e.Policy = Policy(opts.Capabilities, t.Name, names)
		}
		prefix := pascal(strings.Join(e.segs[min(1, len(e.segs)-1):], "_"))
		if v, ok := parseJSON(t.InputSchema); ok {
			e.in = &schemaDoc{root: v, prefix: prefix, role: "Params"}
		}
		if v, ok := parseJSON(t.OutputSchema); ok {
			e.out = &schemaDoc{root: v, prefix: prefix, role: "Result"}
		}
		out = append(out, e)
	}
	return out
}

// denied reports whether the policy allows no call of the tool.
func (e *entry) denied() bool {
	return len(e.Policy) == 1 && e.Policy[0] == Denied
}

// policyText is the tool's policy as its JSDoc and listings say it.
func (e *entry) policyText() string {
	switch len(e.Policy) {
	case 0:
		return ""
	case 1:
		return "Policy: " + e.Policy[0]
	}
	return "Policy (the first rule that fits a call applies):\n- " + strings.Join(e.Policy, "\n- ")
}

// firstLine returns the first line of a description, as SafeText shows
// its lines, with no run of backticks that would open a fenced block.
func firstLine(s string) string {
	s, _, _ = strings.Cut(cleanText(s), "\n")
	return unfence(strings.TrimSpace(s))
}

// TypeScript returns the complete TypeScript declarations of what a
// script can call: every tool at its path (a property of a declared
// global object, as in stripe.charges.create) and under its flat alias
// (stripe_charges_create), each taking one params object and returning a
// Promise of its result; the named types of their schemas' $defs, in a
// namespace per global (stripe.Charge); and the sandbox's globals
// (Globals). The text is a .d.ts file that `tsc --noEmit --strict`
// accepts, alone or with a script that uses it.
func TypeScript(tools []ToolSpec, opts Options) string {
	var b strings.Builder
	b.WriteString("// The API of the cordon sandbox: every function a script can call.\n")
	b.WriteString("/// <reference lib=\"es2022\" />\n\n")
	if d := declare(prepare(tools, opts)); d != "" {
		b.WriteString(d + "\n\n")
	}
	b.WriteString("// The sandbox's globals.\n")
	b.WriteString(globals)
	return b.String()
}

// Declaration returns the TypeScript declarations of one tool, as
// TypeScript declares it among others: its function at its path and its
// flat alias, and its named types. It is what getToolInfo can show of a
// tool, and it is "" for a name the engine would refuse.
func Declaration(tool ToolSpec, opts Options) string {
	return declare(prepare([]ToolSpec{tool}, opts))
}

// node is a place in the tree of tools' paths.
type node struct {
	name  string
	tool  *entry // the tool at this path
	alias *entry // at the root: the tool whose flat alias this is, when it is not tool
	kids  []*node
	index map[string]*node
}

func (n *node) kid(name string) *node {
	if k, ok := n.index[name]; ok {
		return k
	}
	if n.index == nil {
		n.index = map[string]*node{}
	}
	k := &node{name: name}
	n.index[name] = k
	n.kids = append(n.kids, k)
	return k
}

// declare returns the declarations of the tools: one global per root of
// their paths, in the order the tools come, then the flat aliases.
func declare(es []*entry) string {
	root := &node{}
	for _, e := range es {
		switch {
		case len(e.segs) == 1 && e.segs[0] == e.flat:
			root.kid(e.flat).tool = e
		case e.reachable:
			n := root
			for _, s := range e.segs {
				n = n.kid(s)
			}
			n.tool = e
			root.kid(e.flat).alias = e
		default:
			root.kid(e.flat).alias = e
		}
	}
	spaces := map[string]*typeSpace{}
	var order []*typeSpace
	space := func(e *entry) *typeSpace {
		o := e.owner()
		if spaces[o] == nil {
			spaces[o] = newTypeSpace(o)
			order = append(order, spaces[o])
		}
		return spaces[o]
	}
	var b, aliases strings.Builder
	for _, n := range root.kids {
		if len(n.kids) == 0 && n.tool == nil && n.alias != nil && n.alias.reachable {
			aliases.WriteString("declare const " + n.name + ": typeof " + n.alias.typeofPath() + ";\n")
			continue
		}
		e := n.tool
		if e == nil {
			e = n.alias
		}
		if len(n.kids) == 0 {
			writeDoc(&b, 0, toolDoc(e))
			b.WriteString("declare function " + n.name + signature(e, space(e), 0) + ";\n")
		} else {
			b.WriteString("declare const " + n.name + ": " + members(n, e, space, 0) + ";\n")
		}
		// The named types this global's tools use: in its namespace, or
		// in another global's when the tool there is reached from here
		// too (an alias that is also a namespace).
		for _, sp := range order {
			sp.flush()
			if len(sp.decls) > 0 {
				b.WriteString("declare namespace " + sp.ns + " {\n" + strings.Join(sp.decls, "\n") + "\n}\n")
				sp.decls = nil
			}
		}
		b.WriteString("\n")
	}
	if aliases.Len() > 0 {
		b.WriteString("// The same functions under their flat aliases.\n")
		b.WriteString(aliases.String())
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// members returns the object type of a namespace node: the call signature
// of the tool at its path, if any, and its members.
func members(n *node, e *entry, space func(*entry) *typeSpace, ind int) string {
	var b strings.Builder
	b.WriteString("{\n")
	pad := strings.Repeat("  ", ind+1)
	if e != nil {
		writeDoc(&b, ind+1, toolDoc(e))
		b.WriteString(pad + signature(e, space(e), ind+1) + ";\n")
	}
	for _, k := range n.kids {
		if len(k.kids) == 0 {
			writeDoc(&b, ind+1, toolDoc(k.tool))
			b.WriteString(pad + propName(k.name) + signature(k.tool, space(k.tool), ind+1) + ";\n")
			continue
		}
		b.WriteString(pad + propName(k.name) + ": " + members(k, k.tool, space, ind+1) + ";\n")
	}
	b.WriteString(strings.Repeat("  ", ind) + "}")
	return b.String()
}

// toolDoc is a tool's JSDoc: its description and its policy.
func toolDoc(e *entry) string {
	parts := []string{}
	if d := cleanText(e.Description); d != "" {
		parts = append(parts, d)
	}
	if len(e.segs) > 1 && !e.reachable {
		parts = append(parts, "Also globalThis["+quote(e.segs[0])+"]"+memberPath(e.segs[1:])+".")
	}
	if p := e.policyText(); p != "" {
		parts = append(parts, p)
	}
	return strings.Join(parts, "\n\n")
}

// memberPath is how JavaScript reaches members by name: .a["b-c"].d.
func memberPath(segs []string) string {
	var b strings.Builder
	for _, s := range segs {
		if isIdent(s) {
			b.WriteString("." + s)
		} else {
			b.WriteString("[" + quote(s) + "]")
		}
	}
	return b.String()
}

// signature is a tool's parameter list and result:
// (params: {...}): Promise<...>. params is optional when the schema
// requires nothing.
func signature(e *entry, sp *typeSpace, ind int) string {
	in := "{ [key: string]: unknown }"
	opt := "?"
	if e.in != nil {
		r := &renderer{sp: sp, doc: e.in}
		in = r.typ(e.in.root, ind).s
		if requiresParams(e.in, e.in.root, 0) {
			opt = ""
		}
	}
	out := "unknown"
	if e.out != nil {
		r := &renderer{sp: sp, doc: e.out}
		out = r.typ(e.out.root, ind).s
	}
	return "(params" + opt + ": " + in + "): Promise<" + out + ">"
}

// ShellUsage returns how the shell calls the tool: `tool NAME`, its
// required flags with their types, then its optional flags in brackets,
// as in
//
//	tool stripe/charges/create --amount <integer> --currency usd|eur [--description <string>] [--capture]
//
// A boolean flag alone means true. It is "" for a name the engine would
// refuse.
func ShellUsage(tool ToolSpec) string {
	es := prepare([]ToolSpec{tool}, Options{})
	if len(es) == 0 {
		return ""
	}
	return shellUsage(es[0])
}

// Prompt returns the whole text a model needs to write a correct script on
// the first try, in Markdown: the rules of the sandbox (top-level await,
// what a returned value prints, one object argument per tool,
// Promise.all, files, ToolError), the tools as TypeScript declarations
// (TypeScript) and as shell usage lines (ShellUsage), as opts.Language
// says, and an example call of a real tool. When that is longer than
// opts.MaxBytes, the tools are listed in a compact form instead, one line
// each (the call with its required params, the description's first line
// and the policy), with a pointer to the sandbox's own discovery
// (getToolInfo, listTools, tool --help, tool --list); tools that still do
// not fit are counted.
func Prompt(tools []ToolSpec, opts Options) string {
	es := prepare(tools, opts)
	full := prompt(es, opts, false)
	if len(full) <= opts.maxBytes() {
		return full
	}
	return prompt(es, opts, true)
}

func prompt(es []*entry, opts Options, compact bool) string {
	ex := pickExample(es)
	var b strings.Builder
	b.WriteString("# The sandbox\n\n")
	b.WriteString(rulesIntro)
	if coversJS(opts.Language) {
		b.WriteString("\n## JavaScript\n\n")
		b.WriteString(jsRules(ex))
	}
	if coversShell(opts.Language) {
		b.WriteString("\n## Shell\n\n")
		b.WriteString(rulesSh)
	}
	b.WriteString("\n## Tools\n\n")
	if len(es) == 0 {
		b.WriteString("There are no tools.\n")
		return b.String()
	}
	if compact {
		writeCompact(&b, es, opts)
		return b.String()
	}
	if coversJS(opts.Language) {
		b.WriteString("```ts\n" + declare(es) + "\n\n// The sandbox's globals.\n" + globals + "```\n")
	}
	if coversShell(opts.Language) {
		if coversJS(opts.Language) {
			b.WriteString("\nIn the shell:\n\n")
		}
		b.WriteString("```sh\n")
		for i, e := range es {
			if !coversJS(opts.Language) {
				if i > 0 {
					b.WriteString("\n")
				}
				if d := firstLine(e.Description); d != "" {
					b.WriteString("# " + d + "\n")
				}
				if p := unfence(SafeText(e.policyText())); p != "" {
					b.WriteString("# " + strings.ReplaceAll(p, "\n", "\n# ") + "\n")
				}
			}
			b.WriteString(shellUsage(e) + "\n")
		}
		b.WriteString("```\n")
	}
	if ex != nil && !opts.NoExample {
		b.WriteString("\n## Example\n\n")
		params := exampleParams(ex, opts.Capabilities)
		if coversJS(opts.Language) {
			b.WriteString("```js\n" + exampleJS(ex, params) + "```\n")
		}
		if coversShell(opts.Language) {
			if coversJS(opts.Language) {
				b.WriteString("\n")
			}
			b.WriteString("```sh\n" + exampleShell(ex, params) + "```\n")
		}
	}
	return b.String()
}

// jsRules returns the JavaScript rules, whose sample call is the example
// tool when there is one.
func jsRules(ex *entry) string {
	call := "Call it by its path, `await stripe.charges.create({...})`, or by its flat alias, `stripe_charges_create({...})`."
	switch {
	case ex == nil:
	case ex.reachable:
		call = "Call it by its path, `await " + ex.jsName() + "({...})`, or by its flat alias, `" + ex.flat + "({...})`."
	default:
		call = "Call it by its name, as in `await " + ex.flat + "({...})`."
	}
	return strings.Replace(rulesJS, "CALL", call, 1)
}

// writeCompact lists the tools one line each, within the budget.
func writeCompact(b *strings.Builder, es []*entry, opts Options) {
	switch {
	case coversJS(opts.Language) && coversShell(opts.Language):
		b.WriteString(discoveryJS + " In the shell, `tool --help NAME` shows a tool's flags.\n\n")
	case coversJS(opts.Language):
		b.WriteString(discoveryJS + "\n\n")
	default:
		b.WriteString(discoverySh + "\n\n")
	}
	budget := opts.maxBytes()
	for i, e := range es {
		line := compactLine(e, opts.Language)
		rest := len(es) - i
		room := 0 // for the line that counts the tools left, unless this is the last
		if rest > 1 {
			room = 64
		}
		if b.Len()+len(line)+room > budget {
			what := "listTools()"
			if !coversJS(opts.Language) {
				what = "tool --list"
			}
			tools := " more tools: "
			if rest == 1 {
				tools = " more tool: "
			}
			b.WriteString("... and " + strconv.Itoa(rest) + tools + what + " lists them all.\n")
			return
		}
		b.WriteString(line)
	}
}

// compactLine is one tool in the compact listing: the call with its
// required params, the description's first line, and the policy.
func compactLine(e *entry, lang Language) string {
	var call string
	if coversJS(lang) {
		var req []string
		if e.in != nil {
			props, required := shellProps(e.in, e.in.root, 0)
			for _, k := range props.keys {
				if required[k] {
					req = append(req, propName(k))
					delete(required, k)
				}
			}
			rest := make([]string, 0, len(required))
			for k := range required {
				rest = append(rest, propName(k))
			}
			sort.Strings(rest)
			req = append(req, rest...)
		}
		call = e.jsName() + "()"
		if len(req) > 0 {
			call = e.jsName() + "({ " + strings.Join(req, ", ") + " })"
		}
	} else {
		call = shellUsage(e)
	}
	line := "- `" + call + "`"
	if d := firstLine(e.Description); d != "" {
		line += " " + d
	}
	if len(e.Policy) > 0 {
		line += " [policy: " + safeLine(strings.Join(e.Policy, " | ")) + "]"
	}
	return line + "\n"
}

// jsonDoc is the machine-readable description.
type jsonDoc struct {
	Rules      string       `json:"rules"`
	TypeScript string       `json:"typescript,omitempty"`
	Tools      []jsonTool   `json:"tools"`
	Example    *jsonExample `json:"example,omitempty"`
}

type jsonTool struct {
	Name         string          `json:"name"`
	Path         string          `json:"path,omitempty"`
	Alias        string          `json:"alias"`
	Description  string          `json:"description,omitempty"`
	Policy       []string        `json:"policy,omitempty"`
	Declaration  string          `json:"declaration,omitempty"`
	Shell        string          `json:"shell,omitempty"`
	InputSchema  json.RawMessage `json:"input_schema,omitempty"`
	OutputSchema json.RawMessage `json:"output_schema,omitempty"`
}

type jsonExample struct {
	Tool       string `json:"tool"`
	JavaScript string `json:"javascript,omitempty"`
	Shell      string `json:"shell,omitempty"`
}

// JSON returns the description in machine-readable form, one JSON object:
//
//	{"rules": "...",                 the rules of Prompt, in Markdown
//	 "typescript": "...",            the declarations of TypeScript (JavaScript)
//	 "tools": [{"name": "stripe/charges/create",
//	            "path": "stripe.charges.create",  how JavaScript reaches it, when not by the alias only
//	            "alias": "stripe_charges_create",
//	            "description": "...",
//	            "policy": ["amount <= 1000; needs approval"],
//	            "declaration": "...",             Declaration (JavaScript)
//	            "shell": "tool stripe/charges/create --amount <number>",  ShellUsage (shell)
//	            "input_schema": {...}, "output_schema": {...}}],
//	 "example": {"tool": "...", "javascript": "...", "shell": "..."}}
//
// MaxBytes does not apply: the JSON is always complete.
func JSON(tools []ToolSpec, opts Options) ([]byte, error) {
	es := prepare(tools, opts)
	ex := pickExample(es)
	var rb strings.Builder
	rb.WriteString(rulesIntro)
	if coversJS(opts.Language) {
		rb.WriteString("\nJavaScript:\n" + jsRules(ex))
	}
	if coversShell(opts.Language) {
		rb.WriteString("\nShell:\n" + rulesSh)
	}
	doc := jsonDoc{Rules: rb.String(), Tools: []jsonTool{}}
	if coversJS(opts.Language) {
		doc.TypeScript = TypeScript(tools, opts)
	}
	for _, e := range es {
		t := jsonTool{
			Name:         e.Name,
			Alias:        e.flat,
			Description:  e.Description,
			Policy:       e.Policy,
			InputSchema:  rawJSON(e.InputSchema),
			OutputSchema: rawJSON(e.OutputSchema),
		}
		if e.reachable || len(e.segs) == 1 && e.segs[0] == e.flat {
			t.Path = e.jsName()
		}
		if coversJS(opts.Language) {
			t.Declaration = declare([]*entry{e})
		}
		if coversShell(opts.Language) {
			t.Shell = shellUsage(e)
		}
		doc.Tools = append(doc.Tools, t)
	}
	if ex != nil && !opts.NoExample {
		params := exampleParams(ex, opts.Capabilities)
		doc.Example = &jsonExample{Tool: ex.Name}
		if coversJS(opts.Language) {
			doc.Example.JavaScript = exampleJS(ex, params)
		}
		if coversShell(opts.Language) {
			doc.Example.Shell = exampleShell(ex, params)
		}
	}
	return json.MarshalIndent(doc, "", "  ")
}
