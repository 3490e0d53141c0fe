package abi

import (
	"fmt"
	"slices"
	"strings"
)

// The naming rule of tools lives here so that the host and the guest agree
// on it, and the host refuses at registration a name the guest could not
// expose. It is the rule of engine.Tool.Name and docs/embedding.md:
//
// A tool name is segments of letters, digits and "_ - :", separated by "/"
// or "." (no empty segment, at most 256 bytes). Each tool has three forms
// of its name: the registered name (stripe/listTransactions), the dotted
// form, with every "/" written "." (stripe.listTransactions, DottedName),
// and the flat alias, with "_" for each of "/ . - :"
// (stripe_listTransactions, FlatName). JavaScript calls the tool at its
// dotted path (ToolPath) or by its alias; getToolInfo, listTools(prefix)
// and the shell's tool command accept all three forms, with "/" and "."
// interchangeable (LookupTool, ToolHasPrefix); the policy and the audit
// see the registered name.
// Registration refuses two tools that share a dotted form or an alias
// (CheckToolNames), a name whose first segment or alias is a JavaScript
// global or part of the sandbox API (ReservedGlobals), and a segment named
// __proto__, constructor or prototype (ValidateToolName). A tool can also
// be the namespace of longer names (a/b and a/b/c give a.b() and a.b.c()).

// MaxToolNameLen bounds the length of a tool name.
const MaxToolNameLen = 256

// ValidateToolName reports why name is not a valid tool name, or nil.
func ValidateToolName(name string) error {
	if name == "" {
		return fmt.Errorf("tool name is empty")
	}
	if len(name) > MaxToolNameLen {
		return fmt.Errorf("tool name %.40q... is longer than %d bytes", name, MaxToolNameLen)
	}
	for _, c := range name {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-' || c == '.' || c == ':' || c == '/') {
			return fmt.Errorf("tool name %q: character %q is not allowed (use letters, digits, _ - : and / or . between segments)", name, c)
		}
	}
	segs := ToolPath(name)
	for i, seg := range segs {
		if seg == "" {
			return fmt.Errorf("tool name %q: segment %d is empty (segments are separated by / or .)", name, i+1)
		}
		if reservedSegments[seg] {
			return fmt.Errorf("tool name %q: the segment %q is reserved (it would reach JavaScript's object machinery)", name, seg)
		}
	}
	if ReservedGlobals[segs[0]] {
		return fmt.Errorf("tool name %q: its first segment %q is a JavaScript global of the sandbox", name, segs[0])
	}
	if flat := FlatName(name); ReservedGlobals[flat] {
		return fmt.Errorf("tool name %q: its alias %q is a JavaScript global of the sandbox", name, flat)
	}
	return nil
}

// ToolPath returns the segments of a tool name, split at every "/" and
// ".": the path of its function in JavaScript (a/b.c/d -> a, b, c, d).
// An empty segment (a//b, .a) is an empty string: ValidateToolName
// refuses such names.
func ToolPath(name string) []string {
	segs := make([]string, 0, strings.Count(name, "/")+strings.Count(name, ".")+1)
	start := 0
	for i := 0; i < len(name); i++ {
		if name[i] == '/' || name[i] == '.' {
			segs = append(segs, name[start:i])
			start = i + 1
		}
	}
	return append(segs, name[start:])
}

// DottedName returns the dotted form of a tool name, its JavaScript path
// with "." between segments: every "/" becomes "." (stripe/charges/create
// -> stripe.charges.create).
func DottedName(name string) string {
	return strings.ReplaceAll(name, "/", ".")
}

// CheckToolNames reports why a set of valid tool names cannot be
// registered together, or nil: a name given twice, two names with the
// same dotted form (a.b and a/b would both be a.b() in JavaScript), or two
// with the same flat alias (a/b_c and a_b/c). Every form of a name then
// names one tool (LookupTool).
func CheckToolNames(names []string) error {
	seen := make(map[string]string, len(names))
	dotted := make(map[string]string, len(names))
	flat := make(map[string]string, len(names))
	for _, n := range names {
		if _, dup := seen[n]; dup {
			return fmt.Errorf("tool %q is registered twice", n)
		}
		seen[n] = n
		d := DottedName(n)
		if other, dup := dotted[d]; dup {
			return fmt.Errorf("tools %q and %q are the same function %s in JavaScript (\"/\" and \".\" both separate segments)", other, n, d)
		}
		dotted[d] = n
		a := FlatName(n)
		if other, dup := flat[a]; dup {
			return fmt.Errorf("tools %q and %q have the same JS alias %q", other, n, a)
		}
		flat[a] = n
	}
	return nil
}

// LookupTool returns the tool that name names: by its registered name,
// its dotted form or its flat alias, with "/" and "." interchangeable
// (stripe/listTransactions also finds a tool registered as
// stripe.listTransactions). Tools that passed CheckToolNames give at most
// one match.
func LookupTool(tools []ToolInfo, name string) (ToolInfo, bool) {
	for _, t := range tools {
		if t.Name == name {
			return t, true
		}
	}
	dotted := DottedName(name)
	for _, t := range tools {
		if DottedName(t.Name) == dotted || FlatName(t.Name) == name {
			return t, true
		}
	}
	return ToolInfo{}, false
}

// ToolHasPrefix reports whether a form of a tool's name (registered,
// dotted or flat alias, "/" and "." interchangeable) starts with prefix,
// so that a listing by prefix finds a tool by any of them.
func ToolHasPrefix(name, prefix string) bool {
	return strings.HasPrefix(DottedName(name), DottedName(prefix)) || strings.HasPrefix(FlatName(name), prefix)
}

// SuggestTool returns the form of a tool's name (registered, dotted or
// flat alias) closest to name, a name that names no tool, when it is close
// enough to be what the writer meant (Suggest).
func SuggestTool(tools []ToolInfo, name string) (string, bool) {
	forms := make([]string, 0, 3*len(tools))
	for _, t := range tools {
		forms = append(forms, t.Name, DottedName(t.Name), FlatName(t.Name))
	}
	return Suggest(name, forms)
}

// ToolsUnder returns the dotted names of the tools in the namespace at
// path (the segments of a name, ToolPath): those whose path is longer and
// starts with it, sorted. Error messages list them for a name that is not
// close to any tool (a.b.x names no tool; the tools under a.b are ...).
func ToolsUnder(tools []ToolInfo, path []string) []string {
	var out []string
	for _, t := range tools {
		segs := ToolPath(t.Name)
		if len(segs) > len(path) && slices.Equal(segs[:len(path)], path) {
			out = append(out, DottedName(t.Name))
		}
	}
	slices.Sort(out)
	return out
}

// Suggest returns the candidate closest to name by edit distance
// (insertions, deletions, substitutions and swaps of two neighbors, one
// each), if it is close enough to be a typo of it: at most one edit for
// every four bytes of name, at least one and at most three. Of equally
// close candidates, the smallest in byte order wins. A candidate equal to
// name is never suggested.
func Suggest(name string, candidates []string) (string, bool) {
	limit := min(3, max(1, len(name)/4))
	best, bestDist := "", limit+1
	for _, c := range candidates {
		if c == name || abs(len(c)-len(name)) > limit {
			continue
		}
		d := editDistance(name, c, bestDist+1)
		if d < bestDist || d == bestDist && c < best {
			best, bestDist = c, d
		}
	}
	return best, bestDist <= limit
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

// editDistance returns the optimal string alignment distance between a and
// b (Levenshtein's edits plus swaps of adjacent bytes), or a value of at
// least bound when it is bound or more.
func editDistance(a, b string, bound int) int {
	// Three rows of the dynamic-programming table: names are short (at
	// most MaxToolNameLen), and this runs only when a script already
	// failed.
	prev2 := make([]int, len(b)+1)
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		rowMin := cur[0]
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			d := min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				d = min(d, prev2[j-2]+1)
			}
			cur[j] = d
			rowMin = min(rowMin, d)
		}
		if rowMin >= bound {
			return bound
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(b)]
}

// reservedSegments are the names a segment of a tool name may not have: a
// tool namespace is a JavaScript object, and a member with one of these
// names would change its prototype or shadow what every object inherits.
var reservedSegments = map[string]bool{"__proto__": true, "constructor": true, "prototype": true}

// FlatName returns the flat JS alias of a tool: "/", ".", "-" and ":" become
// "_" (stripe/charges/create -> stripe_charges_create). A name that starts
// with a digit gets a leading "_".
func FlatName(name string) string {
	b := []byte(name)
	for i, c := range b {
		switch c {
		case '/', '.', '-', ':':
			b[i] = '_'
		}
	}
	if len(b) > 0 && b[0] >= '0' && b[0] <= '9' {
		return "_" + string(b)
	}
	return string(b)
}

// ReservedGlobals are the global names a tool's first segment or flat alias
// may not take: the sandbox API and the ECMAScript built-ins.
var ReservedGlobals = map[string]bool{
	// sandbox API
	"console": true, "fs": true, "listTools": true, "getToolInfo": true, "shell": true,
	"ToolError": true, "setTimeout": true, "clearTimeout": true, "setInterval": true,
	"clearInterval": true, "setImmediate": true, "queueMicrotask": true, "atob": true, "btoa": true,
	"fetch": true, "Headers": true, "Request": true, "Response": true, "URL": true, "URLSearchParams": true,
	// ECMAScript
	"globalThis": true, "Object": true, "Function": true, "Array": true, "Number": true,
	"Boolean": true, "String": true, "Symbol": true, "BigInt": true, "Math": true, "JSON": true,
	"Date": true, "RegExp": true, "Error": true, "TypeError": true, "RangeError": true,
	"SyntaxError": true, "ReferenceError": true, "EvalError": true, "URIError": true,
	"AggregateError": true, "Promise": true, "Proxy": true, "Reflect": true, "Map": true,
	"Set": true, "WeakMap": true, "WeakSet": true, "WeakRef": true, "ArrayBuffer": true,
	"DataView": true, "Int8Array": true, "Uint8Array": true, "Uint8ClampedArray": true,
	"Int16Array": true, "Uint16Array": true, "Int32Array": true, "Uint32Array": true,
	"Float32Array": true, "Float64Array": true, "BigInt64Array": true, "BigUint64Array": true,
	"eval": true, "isFinite": true, "isNaN": true, "parseFloat": true, "parseInt": true,
	"decodeURI": true, "decodeURIComponent": true, "encodeURI": true, "encodeURIComponent": true,
	"escape": true, "unescape": true, "undefined": true, "NaN": true, "Infinity": true,
	// keywords and literals that cannot be identifiers
	"this": true, "null": true, "true": true, "false": true, "new": true, "delete": true,
	"typeof": true, "void": true, "in": true, "instanceof": true, "function": true,
	"class": true, "return": true, "if": true, "else": true, "for": true, "while": true,
	"do": true, "break": true, "continue": true, "switch": true, "case": true,
	"default": true, "throw": true, "try": true, "catch": true, "finally": true,
	"var": true, "let": true, "const": true, "with": true, "yield": true, "await": true,
	"async": true, "import": true, "export": true, "super": true, "extends": true,
	"debugger": true, "enum": true, "static": true, "implements": true, "interface": true,
	"package": true, "private": true, "protected": true, "public": true, "arguments": true,
}
