package abi

import (
	"fmt"
	"strings"
)

// Tool names are slash-separated segments: letters, digits and "_ - . :".
// The guest exposes a tool both as a namespaced function
// (stripe/charges/create -> stripe.charges.create) and as a flat alias
// (stripe_charges_create). These rules are shared by host and guest so that
// the host can refuse at registration a name the guest could not expose.
// No segment, between slashes or dots, may be __proto__, constructor or
// prototype.

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
	for i, seg := range strings.Split(name, "/") {
		if seg == "" {
			return fmt.Errorf("tool name %q: segment %d is empty", name, i+1)
		}
		for _, c := range seg {
			if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-' || c == '.' || c == ':') {
				return fmt.Errorf("tool name %q: character %q is not allowed (use letters, digits, _ - . : and / between segments)", name, c)
			}
		}
	}
	for _, seg := range strings.FieldsFunc(name, func(r rune) bool { return r == '/' || r == '.' }) {
		if reservedSegments[seg] {
			return fmt.Errorf("tool name %q: the segment %q is reserved (it would reach JavaScript's object machinery)", name, seg)
		}
	}
	root := strings.Split(name, "/")[0]
	if ReservedGlobals[root] {
		return fmt.Errorf("tool name %q: its first segment %q is a JavaScript global of the sandbox", name, root)
	}
	if flat := FlatName(name); ReservedGlobals[flat] {
		return fmt.Errorf("tool name %q: its alias %q is a JavaScript global of the sandbox", name, flat)
	}
	return nil
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
