// Package approval shows a tool call to the person who approves it, the
// same way for every approver: the MCP elicitation of package mcpserver,
// and the [engine.Approver] callbacks that embedders write (NewApprover,
// ForCall).
//
// A script controls its call's params, and a policy's reasons often
// repeat them (a Rego sprintf), so an approval request is built to show
// the whole call and to let nothing in it pass for something else:
//
//   - Every param is listed, one per line, as "path = value", with nested
//     objects and arrays flattened to paths in the capability DSL's syntax
//     (body/user/email, items/0). No key is ever dropped.
//   - The params the charged capability's constraints read come first, in
//     the order of the constraints, then numbers, then booleans and null,
//     then short strings, then empty objects and arrays, then long
//     strings; within each group the paths are sorted, so the script's key
//     order does not matter.
//   - Constrained params and numbers are shown in full. Any other string
//     longer than Limits.StringBytes is cut in the middle, and its full
//     length is stated: "head" … "tail" (5000 bytes).
//   - Everything that comes from the script or the policy (keys, string
//     values, reasons) is quoted as a JSON string with every line break,
//     control character and invisible or bidirectional formatting
//     character escaped (Quote), so that none of it can start a line of
//     its own or reorder the text. Keys are shown bare only when they are
//     plain ASCII (letters, digits, _ . : -) and not all digits, else
//     quoted in ASCII.
//   - When the call cannot be shown so within the Limits (too many params,
//     a path too long, too many reasons, a request too long), Render
//     refuses it with an error that matches ErrUnshowable, and the call is
//     denied (DenyReason) rather than shown in part.
package approval

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/cordonhq/cordon/dsl"
	"github.com/cordonhq/cordon/engine"
	"github.com/cordonhq/cordon/internal/canon"
	"github.com/cordonhq/cordon/internal/dslutil"
)

// The default Limits.
const (
	// DefaultMaxBytes bounds the text of a request ([Request.Text]).
	DefaultMaxBytes = 8192
	// DefaultMaxParams bounds the params a request lists.
	DefaultMaxParams = 64
	// DefaultStringBytes is the longest quoted string shown whole; a
	// longer one that no constraint reads is cut in the middle.
	DefaultStringBytes = 160
	// DefaultMaxPathBytes bounds the shown path of one param.
	DefaultMaxPathBytes = 160
	// DefaultMaxReasons bounds the policy's reasons a request lists.
	DefaultMaxReasons = 16
	// DefaultReasonBytes is the longest quoted reason shown whole; a
	// longer one is cut in the middle.
	DefaultReasonBytes = 400
)

// Limits is the budget of an approval request. A call that cannot be
// shown in full within it is refused (ErrUnshowable). A zero field means
// its default.
type Limits struct {
	// MaxBytes bounds the request's text ([Request.Text]), in bytes.
	MaxBytes int
	// MaxParams bounds how many params (paths to a value, after
	// flattening) a request lists.
	MaxParams int
	// StringBytes is the longest quoted string value shown whole (at
	// least 16); a longer one that no constraint reads is cut in the
	// middle to this many bytes, with its full length stated.
	StringBytes int
	// MaxPathBytes bounds the shown path of one param. Paths are never
	// cut: a longer one refuses the call.
	MaxPathBytes int
	// MaxReasons bounds how many of the policy's reasons a request
	// lists.
	MaxReasons int
	// ReasonBytes is the longest quoted reason shown whole (at least 16);
	// a longer one is cut in the middle, with its full length stated.
	ReasonBytes int
}

func (l Limits) withDefaults() Limits {
	def := func(v *int, d, least int) {
		if *v <= 0 {
			*v = d
		}
		*v = max(*v, least)
	}
	def(&l.MaxBytes, DefaultMaxBytes, 1)
	def(&l.MaxParams, DefaultMaxParams, 1)
	def(&l.StringBytes, DefaultStringBytes, 16)
	def(&l.MaxPathBytes, DefaultMaxPathBytes, 1)
	def(&l.MaxReasons, DefaultMaxReasons, 1)
	def(&l.ReasonBytes, DefaultReasonBytes, 16)
	return l
}

// ErrUnshowable is matched ([errors.Is]) by the error of Render and ForCall
// when the call cannot be shown in full within the Limits. Such a call
// must be denied, not shown in part.
var ErrUnshowable = errors.New("approval: the call cannot be shown in full")

func unshowable(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrUnshowable, fmt.Sprintf(format, args...))
}

// DenyReason returns the reason a call the policy asked about is denied
// with when it could not be shown to an approver (err from Render or
// ForCall): "approval required and refused without asking: " and what
// went wrong.
func DenyReason(err error) string {
	return "approval required and refused without asking: " + strings.TrimPrefix(err.Error(), "approval: ")
}

// Call is a tool call to show: what Render reads.
type Call struct {
	// Method is the tool's name.
	Method string
	// Params is the call's JSON object of params. It is read in the
	// canonical form the engine gives handlers; params that have no
	// canonical form (duplicate keys, invalid UTF-8, inexact numbers)
	// cannot be shown faithfully and are refused.
	Params json.RawMessage
	// Reasons are the policy's reasons for asking.
	Reasons []string
	// Constrained lists the param paths, in the capability DSL's syntax
	// ("amount", "body/user/email", "items/0"), that the policy's
	// constraints read: they are shown first, in this order, and in full.
	Constrained []string
}

// Request is a tool call as shown to the person who approves it. Every
// string in it is safe to show as it is: what came from the script or
// the policy is quoted and escaped. It marshals to JSON with the fields'
// lower-case names (mcpserver sends it in the elicitation's _meta).
type Request struct {
	// Method is the tool's name (quoted, should it not be a plain name).
	Method string `json:"method"`
	// Reasons are the policy's reasons, each quoted (see Quote) and cut in
	// the middle past [Limits.ReasonBytes].
	Reasons []string `json:"reasons"`
	// Params lists every param, in the order shown.
	Params []Param `json:"params"`
	// ParamsBytes is the size of the call's canonical params.
	ParamsBytes int `json:"params_bytes"`
	// Text is the request as text: a line that names the method, the
	// reasons, one line per param ("path = value"), and the question.
	Text string `json:"text"`
}

// Param is one value of a call's params, at the end of a path.
type Param struct {
	// Path is the param's path in the capability DSL's syntax: segments
	// separated by "/", array indices as numbers, and a key that is not
	// plain ASCII (letters, digits, _ . : -) or is all digits quoted in
	// ASCII, so that every path reads one way ("body/user/email",
	// "items/0", `"e-mail address"`).
	Path string `json:"path"`
	// Type is the JSON type of the value: "string", "number", "boolean",
	// "null", or, for an empty one, "object" or "array".
	Type string `json:"type"`
	// Value is the value as shown: a number as the canonical params write
	// it, true, false, null, {} or [], or a string quoted by Quote. A cut
	// string reads `"head" … "tail" (N bytes)`.
	Value string `json:"value"`
	// Bytes is the length of a string value in bytes (UTF-8), whether or
	// not it was cut.
	Bytes int `json:"bytes,omitempty"`
	// Cut is set when the string was cut in the middle.
	Cut bool `json:"cut,omitempty"`
	// Constrained is set when a constraint of the policy reads the param
	// ([Call.Constrained]).
	Constrained bool `json:"constrained,omitempty"`
}

// Line returns the param's line in [Request.Text], without indentation:
// "path = value".
func (p Param) Line() string { return p.Path + " = " + p.Value }

// ForCall renders a call that the policy asked about, as an
// [engine.Approver] receives it. The params that the charged capability's
// constraints read (see Constrained) come first; when the policy does not
// say (a Rego rule allowed or asked, or the policy has no capabilities),
// numbers come first. It fails, with an error that matches ErrUnshowable,
// when the call cannot be shown in full within l.
func ForCall(c *engine.Call, l Limits) (*Request, error) {
	if c == nil {
		return nil, errors.New("approval: no call")
	}
	var constrained []string
	if pol := c.Policy(); pol != nil {
		constrained = Constrained(pol, c.Info().CapabilityIndex)
	}
	return Render(Call{Method: c.Method, Params: c.Params, Reasons: c.Reasons, Constrained: constrained}, l)
}

// Constrained returns the param paths that capability i of pol reads in
// its constraints, each once, in the order they first appear. It returns
// nil when pol does not list its capabilities (a Capabilities() method,
// as policy.Policy and authz.CapabilityPolicy have) or i is not one of
// them.
func Constrained(pol engine.Policy, i int) []string {
	lister, ok := pol.(interface{ Capabilities() []*dsl.Capability })
	if !ok {
		return nil
	}
	caps := lister.Capabilities()
	if i < 0 || i >= len(caps) || caps[i] == nil {
		return nil
	}
	var out []string
	for _, c := range caps[i].Constraints() {
		for _, p := range c.Params() {
			if !slices.Contains(out, p) {
				out = append(out, p)
			}
		}
	}
	return out
}

// NewApprover returns an [engine.Approver] that renders each call with
// ForCall under l and passes it to ask, which decides it (for example by
// showing r.Text to a person). A call that cannot be shown in full is
// denied with DenyReason, and ask is not called.
func NewApprover(l Limits, ask func(ctx context.Context, call *engine.Call, r *Request) (approve bool, reason string)) engine.Approver {
	return func(ctx context.Context, call *engine.Call) (bool, string) {
		r, err := ForCall(call, l)
		if err != nil {
			return false, DenyReason(err)
		}
		return ask(ctx, call, r)
	}
}

// segment is one step of a param's path: an object key, or an array
// index when key is false.
type segment struct {
	key   string
	index int
	isKey bool
}

func (s segment) String() string {
	if !s.isKey {
		return strconv.Itoa(s.index)
	}
	if plainSegment(s.key) {
		return s.key
	}
	return quote(s.key, true)
}

// leaf is a value at the end of a path, before it is shown.
type leaf struct {
	path   []segment
	typ    string
	text   string // numbers, literals, {} and []
	str    string // strings
	group  int    // the display group (see groupOf)
	cindex int    // for a constrained leaf, the index of the first constraint path that reads it
}

// The display groups, in order.
const (
	groupConstrained = iota
	groupNumber
	groupLiteral
	groupShortString
	groupEmpty
	groupLongString
)

// Render shows a call within l, or fails with an error that matches
// ErrUnshowable when it cannot be shown in full.
func Render(c Call, l Limits) (*Request, error) {
	l = l.withDefaults()
	params, err := canon.Params(c.Params)
	if err != nil {
		return nil, unshowable("its params have no canonical form: %v", err)
	}
	var cpaths [][]any
	for _, p := range c.Constrained {
		segs, err := dslutil.SplitParam(p)
		if err != nil {
			return nil, fmt.Errorf("approval: constrained param: %w", err)
		}
		cpaths = append(cpaths, segs)
	}
	if len(c.Reasons) > l.MaxReasons {
		return nil, unshowable("the policy gave %d reasons, more than the %d an approval request lists", len(c.Reasons), l.MaxReasons)
	}

	leaves, n, err := flatten(params, l.MaxParams)
	if err != nil {
		return nil, fmt.Errorf("approval: params: %w", err)
	}
	if n > l.MaxParams {
		return nil, unshowable("it has %d params (counting each value in nested objects and arrays), more than the %d an approval request lists", n, l.MaxParams)
	}

	r := &Request{Method: c.Method, Reasons: []string{}, Params: make([]Param, 0, len(leaves)), ParamsBytes: len(params)}
	if !plainMethod(c.Method) {
		r.Method = Quote(c.Method)
	}
	for _, why := range c.Reasons {
		text, cut := cutQuoted(why, l.ReasonBytes)
		if cut {
			text += fmt.Sprintf(" (%d bytes)", len(why))
		}
		r.Reasons = append(r.Reasons, text)
	}

	for i := range leaves {
		lf := &leaves[i]
		lf.cindex = -1
		for j, cp := range cpaths {
			if related(lf.path, cp) {
				lf.cindex = j
				break
			}
		}
		switch {
		case lf.cindex >= 0:
			lf.group = groupConstrained
		case lf.typ == "number":
			lf.group = groupNumber
		case lf.typ == "boolean", lf.typ == "null":
			lf.group = groupLiteral
		case lf.typ == "object", lf.typ == "array":
			lf.group = groupEmpty
		case len(Quote(lf.str)) <= l.StringBytes:
			lf.group = groupShortString
		default:
			lf.group = groupLongString
		}
	}
	slices.SortStableFunc(leaves, func(a, b leaf) int {
		if a.group != b.group {
			return a.group - b.group
		}
		if a.cindex != b.cindex {
			return a.cindex - b.cindex
		}
		return comparePaths(a.path, b.path)
	})

	for _, lf := range leaves {
		var path strings.Builder
		for i, s := range lf.path {
			if i > 0 {
				path.WriteByte('/')
			}
			path.WriteString(s.String())
		}
		if path.Len() > l.MaxPathBytes {
			return nil, unshowable("the path of a param takes %d bytes, more than the %d an approval request shows", path.Len(), l.MaxPathBytes)
		}
		p := Param{Path: path.String(), Type: lf.typ, Value: lf.text, Constrained: lf.group == groupConstrained}
		if lf.typ == "string" {
			p.Bytes = len(lf.str)
			if p.Constrained {
				p.Value = Quote(lf.str)
			} else {
				p.Value, p.Cut = cutQuoted(lf.str, l.StringBytes)
				if p.Cut {
					p.Value += fmt.Sprintf(" (%d bytes)", len(lf.str))
				}
			}
		}
		r.Params = append(r.Params, p)
	}

	r.Text = r.text()
	if len(r.Text) > l.MaxBytes {
		return nil, unshowable("the request would take %d bytes, more than the %d an approval request shows", len(r.Text), l.MaxBytes)
	}
	return r, nil
}

// text writes the request as lines: every line break in it is one of
// these, since everything that comes from the script or the policy is
// quoted.
func (r *Request) text() string {
	var b strings.Builder
	fmt.Fprintf(&b, "A script in the cordon sandbox wants to call %s.\n", r.Method)
	if len(r.Reasons) == 0 {
		b.WriteString("The policy asks for approval.\n")
	} else {
		b.WriteString("The policy asks for approval:\n")
		for _, why := range r.Reasons {
			b.WriteString("  - ")
			b.WriteString(why)
			b.WriteByte('\n')
		}
	}
	switch n := len(r.Params); n {
	case 0:
		b.WriteString("It has no params.\n")
	default:
		if n == 1 {
			b.WriteString("Its one param")
		} else {
			fmt.Fprintf(&b, "All %d params", n)
		}
		b.WriteString(" (constrained ones and numbers first, in full; long strings cut in the middle, with their length):\n")
		for _, p := range r.Params {
			b.WriteString("  ")
			b.WriteString(p.Line())
			b.WriteByte('\n')
		}
	}
	b.WriteString("Approve this call?")
	return b.String()
}

// related reports whether a leaf at path is read by a constraint on the
// param path cp: cp names the leaf or an object or array around it, or
// goes deeper than the leaf (a constraint on a/b/c reads a/b when a/b is
// a string: it finds nothing there, and the approver should see why).
func related(path []segment, cp []any) bool {
	for i := 0; i < len(path) && i < len(cp); i++ {
		switch s := cp[i].(type) {
		case string:
			if !path[i].isKey || path[i].key != s {
				return false
			}
		case int:
			if path[i].isKey || path[i].index != s {
				return false
			}
		}
	}
	return true
}

func comparePaths(a, b []segment) int {
	for i := 0; i < len(a) && i < len(b); i++ {
		x, y := a[i], b[i]
		switch {
		case x.isKey != y.isKey:
			if x.isKey {
				return 1
			}
			return -1
		case x.isKey:
			if c := strings.Compare(x.key, y.key); c != 0 {
				return c
			}
		default:
			if x.index != y.index {
				return x.index - y.index
			}
		}
	}
	return len(a) - len(b)
}

// flatten returns the leaves of canonical params, and how many there are
// in all; it keeps at most limit of them (it only counts the rest).
func flatten(params []byte, limit int) ([]leaf, int, error) {
	dec := json.NewDecoder(bytes.NewReader(params))
	dec.UseNumber()
	var leaves []leaf
	n := 0
	var path []segment
	add := func(lf leaf) {
		n++
		if len(leaves) < limit {
			lf.path = slices.Clone(path)
			leaves = append(leaves, lf)
		}
	}
	var value func(top bool) error
	value = func(top bool) error {
		tok, err := dec.Token()
		if err != nil {
			return err
		}
		switch t := tok.(type) {
		case json.Delim:
			isObject := t == '{'
			empty := true
			for i := 0; dec.More(); i++ {
				empty = false
				seg := segment{index: i}
				if isObject {
					k, err := dec.Token()
					if err != nil {
						return err
					}
					key, ok := k.(string)
					if !ok {
						return fmt.Errorf("a key is %T, not a string", k)
					}
					seg = segment{key: key, isKey: true}
				}
				path = append(path, seg)
				if err := value(false); err != nil {
					return err
				}
				path = path[:len(path)-1]
			}
			if _, err := dec.Token(); err != nil { // the closing delimiter
				return err
			}
			if empty && !top {
				if isObject {
					add(leaf{typ: "object", text: "{}"})
				} else {
					add(leaf{typ: "array", text: "[]"})
				}
			}
		case string:
			add(leaf{typ: "string", str: t})
		case json.Number:
			add(leaf{typ: "number", text: string(t)})
		case bool:
			add(leaf{typ: "boolean", text: strconv.FormatBool(t)})
		case nil:
			add(leaf{typ: "null", text: "null"})
		}
		return nil
	}
	if err := value(true); err != nil {
		return nil, 0, err
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, 0, errors.New("text after the params object")
	}
	return leaves, n, nil
}
