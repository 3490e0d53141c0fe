package jsrt

import (
	"slices"
	"strconv"
	"strings"

	"github.com/cordonhq/cordon/guest/internal/gojax"
	"github.com/cordonhq/cordon/internal/abi"
	"github.com/dop251/goja"
)

// A script that mistypes a tool gets an error that names the tool it
// probably meant (abi.Suggest), at every depth of namespace, or, for a
// member of a namespace that is close to no tool, the tools in that
// namespace:
//
//	ReferenceError: stripe_listTransaction is not defined; did you mean stripe_listTransactions?
//	TypeError: stripe.listTransaction is not a function; did you mean stripe.listTransactions?
//	TypeError: Cannot read property 'create' of stripe.charge, which is undefined; did you mean stripe.charges.create?
//	TypeError: stripe.refund is not a function; the tools under stripe are stripe.charges.create, stripe.listTransactions
//
// The error is made where goja would have thrown its own, and is the same
// kind of error at the same place, so a script that catches it reads the
// hint in e.message. Lookups that do not throw are untouched:
// typeof stripe.x is "undefined", "x" in stripe is false, stripe.x?.()
// and stripe.x ?? y do not throw, and a script can assign stripe.x.
//
// How: each tool namespace has a prototype of its own (a missWatcher),
// between it and Object.prototype (or Function.prototype for a tool that
// is also a namespace), whose Get is reached only by a lookup the
// namespace missed. gojax.CurrentAccess tells it what the script does with
// the value. When the script calls it, Get returns a function that throws
// the TypeError made at the lookup, so that the arguments are evaluated
// first, as JavaScript does. When the script reads a property of it next,
// which throws on undefined, Get throws at once. The global object's API
// prototype (apiGlobals) does the same for a variable that is not defined
// and is close to a tool's global: it throws the ReferenceError goja would
// have, with the hint.
//
// What a lookup cannot see is a value read into a variable and called
// later (const f = stripe.listTransaction; f()): the call fails with
// goja's "Value is not an object: undefined". The watcher notes the last
// member read and missed, with where; when such an error is uncaught, or
// rejects a promise, its message gets that member and the tool it is close
// to. An uncaught error also gets the hints above when CurrentAccess
// cannot tell (gojax disabled): goja's "Object has no member 'k'" says
// only the key, and the note says which namespace missed it.

// maxListed is how many tools of a namespace a message lists.
const maxListed = 5

// memberMiss is the last member a script read from a tool namespace and
// did not find there.
type memberMiss struct {
	path   []string // the namespace's path (abi.ToolPath)
	key    string
	frame  goja.StackFrame // where the script read it
	framed bool            // frame is set
}

// missWatcher is the prototype of one tool namespace, between it and the
// prototype it would have had (Object.prototype, or Function.prototype for a
// tool that is also a namespace). It has no properties of its own except
// what a script sets on it (a lazyObject with no keys), and it sees every
// lookup that reaches it, which is every lookup the namespace itself missed.
type missWatcher struct {
	lazyObject
	r    *run
	path []string
}

// Get implements goja.DynamicObject.
func (w *missWatcher) Get(key string) goja.Value {
	if v := w.lazyObject.Get(key); v != nil {
		return v
	}
	r := w.r
	if r.installing {
		return nil
	}
	site := r.access(key)
	if site.Access != gojax.AccessOther && !r.inherits(w.self, key) {
		switch site.Access {
		case gojax.AccessCall:
			return r.thrower(r.rt.NewTypeError("%s", r.notAFunction(w.path, key)))
		case gojax.AccessMember:
			panic(r.rt.NewTypeError("%s", r.readThrough(w.path, key, site.Next)))
		}
	}
	r.miss = memberMiss{path: w.path, key: key}
	var buf [1]goja.StackFrame
	if f := r.rt.CaptureCallStack(1, buf[:0]); len(f) == 1 {
		r.miss.frame, r.miss.framed = f[0], true
	}
	return nil
}

// access is gojax.CurrentAccess, when this package uses gojax.
func (r *run) access(key string) gojax.Site {
	if !useGojax {
		return gojax.Site{}
	}
	return gojax.CurrentAccess(r.rt, key)
}

// watchMisses puts a missWatcher for the namespace at path between obj and
// its prototype.
func (r *run) watchMisses(obj *goja.Object, path []string) {
	w := &missWatcher{r: r, path: path}
	w.self = r.rt.NewDynamicObject(w)
	_ = w.self.SetPrototype(obj.Prototype())
	_ = obj.SetPrototype(w.self)
}

// inherits reports whether an object on obj's prototype chain, after obj,
// has key (hasOwnProperty on a namespace, call on a tool function), without
// running a getter. It says yes when it cannot tell.
func (r *run) inherits(obj *goja.Object, key string) bool {
	k := r.rt.ToValue(key)
	for p := obj.Prototype(); p != nil; p = p.Prototype() {
		prop, ok := gojax.OwnProp(p, k)
		if !ok || prop.Exists {
			return true
		}
	}
	return false
}

// thrower returns the callee of a call to a member that does not exist: a
// function that throws err, made at the lookup (so that its stack is the
// script's, not a native function's).
func (r *run) thrower(err *goja.Object) goja.Value {
	return r.rt.ToValue(func(goja.FunctionCall) goja.Value { panic(err) })
}

// notAFunction returns the message for calling key, a member missing from
// the tool namespace at path.
func (r *run) notAFunction(path []string, key string) string {
	return strings.Join(path, ".") + "." + key + " is not a function" + r.memberHint(path, key, "")
}

// readThrough returns the message for reading next from key, a member
// missing from the tool namespace at path.
func (r *run) readThrough(path []string, key, next string) string {
	return "Cannot read property '" + next + "' of " + strings.Join(path, ".") + "." + key + ", which is undefined" + r.memberHint(path, key, next)
}

// memberHint returns what an error about key, a member missing from the
// tool namespace at path, adds: the member it is close to ("; did you mean
// stripe.listTransactions?"), followed by next when the script reads next
// from it and that member has it; else the tools in the namespace.
func (r *run) memberHint(path []string, key, next string) string {
	var members []string
	for _, t := range r.opts.Tools {
		if segs := abi.ToolPath(t.Name); len(segs) > len(path) && slices.Equal(segs[:len(path)], path) {
			members = append(members, segs[len(path)])
		}
	}
	ns := strings.Join(path, ".")
	if best, ok := abi.Suggest(key, members); ok {
		meant := ns + "." + best
		if deeper := append(slices.Clone(path), best, next); next != "" && (r.isTool(deeper) || len(abi.ToolsUnder(r.opts.Tools, deeper)) > 0) {
			meant += "." + next
		}
		return "; did you mean " + meant + "?"
	}
	under := abi.ToolsUnder(r.opts.Tools, path)
	switch {
	case len(under) == 0:
		return ""
	case len(under) > maxListed:
		return "; the tools under " + ns + " include " + strings.Join(under[:maxListed], ", ") +
			" (listTools(" + strconv.Quote(ns) + ") lists all " + strconv.Itoa(len(under)) + ")"
	}
	return "; the tools under " + ns + " are " + strings.Join(under, ", ")
}

// isTool reports whether a tool has the path path.
func (r *run) isTool(path []string) bool {
	for _, t := range r.opts.Tools {
		if slices.Equal(abi.ToolPath(t.Name), path) {
			return true
		}
	}
	return false
}

// undefinedGlobal is apiGlobals' Get for a key that is no API global and
// no tool: when the script reads or calls it as a variable, it is not
// defined, and it is close to a tool's global, it throws goja's
// ReferenceError with the hint; else it returns nil, and goja goes on.
func (r *run) undefinedGlobal(api *goja.Object, key string) goja.Value {
	if r.installing || len(r.opts.Tools) == 0 || r.access(key).Access != gojax.AccessVar || r.inherits(api, key) {
		return nil
	}
	if msg := r.globalHint(key); msg != "" {
		panic(gojax.NewReferenceError(r.rt, msg))
	}
	return nil
}

// addHint adds a hint to the message of v, an uncaught error or the reason
// a promise was rejected, when it is goja's error for a global or a member
// of a tool namespace that does not exist, or for calling undefined just
// after a script read a missing member, and a tool has a name close to
// it. v is the script's: it may be any value, and reading it may throw,
// which leaves it as it was.
func (r *run) addHint(v goja.Value) {
	defer func() { _ = recover() }()
	obj, ok := v.(*goja.Object)
	if !ok || obj.ClassName() != "Error" || len(r.opts.Tools) == 0 {
		return
	}
	msg := stringProp(obj, "message")
	name := stringProp(obj, "name")
	var hinted string
	switch {
	case name == "ReferenceError" && strings.HasSuffix(msg, " is not defined"):
		hinted = r.globalHint(strings.TrimSuffix(msg, " is not defined"))
	case name == "TypeError" && strings.HasPrefix(msg, "Object has no member '") && strings.HasSuffix(msg, "'"):
		hinted = r.missedMemberHint(msg[len("Object has no member '") : len(msg)-1])
	case name == "TypeError" && msg == "Value is not an object: undefined":
		hinted = r.calledMissHint(msg)
	}
	if hinted == "" {
		return
	}
	if err := obj.Set("message", hinted); err != nil {
		return
	}
	// The stack is written from the message when a script first reads it:
	// if the script read it before, its first line is the old message.
	if stack := stringProp(obj, "stack"); strings.HasPrefix(stack, name+": "+msg) && !strings.HasPrefix(stack, name+": "+hinted) {
		_ = obj.Set("stack", name+": "+hinted+stack[len(name)+2+len(msg):])
	}
}

// stringProp returns obj[key] as a string, or "" when it is not a string.
func stringProp(obj *goja.Object, key string) string {
	s, _ := obj.Get(key).Export().(string)
	return s
}

// globalHint returns the message of a ReferenceError for the undefined
// global ident with the tool global (flat alias or first segment) it is
// close to, or "".
func (r *run) globalHint(ident string) string {
	names := make([]string, 0, len(r.plan.byRoot)+2*len(r.plan.eager))
	for root := range r.plan.byRoot {
		names = append(names, root)
	}
	for _, t := range r.plan.eager {
		names = append(names, toolGlobals(t.Name)...)
	}
	best, ok := abi.Suggest(ident, names)
	if !ok {
		return ""
	}
	return ident + " is not defined; did you mean " + best + "?"
}

// missedMemberHint returns the message of a TypeError for calling key, a
// member missing from the tool namespace where the script last missed one;
// or "" when key was not missed on a tool namespace.
func (r *run) missedMemberHint(key string) string {
	miss := r.miss
	if miss.key != key || miss.path == nil || r.isTool(append(slices.Clone(miss.path), key)) {
		return ""
	}
	return r.notAFunction(miss.path, key)
}

// calledMissHint returns msg, goja's error for calling undefined, with the
// member the script last read from a tool namespace and missed, where it
// read it, and the member it is close to; or "" when that member is close
// to none.
func (r *run) calledMissHint(msg string) string {
	miss := r.miss
	if miss.path == nil {
		return ""
	}
	hint := r.memberHint(miss.path, miss.key, "")
	if !strings.HasPrefix(hint, "; did you mean ") {
		return ""
	}
	where := ""
	if miss.framed {
		p := miss.frame.Position()
		where = " (read at " + p.Filename + ":" + strconv.Itoa(p.Line) + ":" + strconv.Itoa(p.Column) + ")"
	}
	return msg + "; " + strings.Join(miss.path, ".") + "." + miss.key + where + " is undefined" + hint
}
