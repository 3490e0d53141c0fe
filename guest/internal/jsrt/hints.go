package jsrt

import (
	"slices"
	"strings"

	"github.com/cordonhq/cordon/internal/abi"
	"github.com/dop251/goja"
)

// A script that mistypes a tool fails with goja's error, which names only
// what was not found. When such an error is uncaught, its message gets the
// name of the tool the script probably meant (abi.Suggest):
//
//	ReferenceError: stripe_listTransaction is not defined; did you mean stripe_listTransactions?
//	TypeError: stripe.listTransaction is not a function; did you mean stripe.listTransactions?
//
// Nothing is computed until an error is uncaught: a tool call, and the
// lookup of an undefined global (typeof x), cost what they did. The second
// message needs the namespace the member was missing from, which goja's
// "Object has no member 'listTransaction'" does not say: each tool
// namespace has a prototype of its own (a missWatcher) that notes the last
// member looked up and not found on it, a field store on a path taken only
// by a miss.

// memberMiss is the last member a script looked up on a tool namespace
// and did not find there.
type memberMiss struct {
	path []string // the namespace's path (abi.ToolPath)
	key  string
}

// missWatcher is the prototype of one tool namespace, between it and the
// prototype it would have had (Object.prototype, or Function.prototype for a
// tool that is also a namespace). It has no properties of its own except
// what a script sets on it (a lazyObject with no keys), and it records every
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
	w.r.miss = memberMiss{path: w.path, key: key}
	return nil
}

// watchMisses puts a missWatcher for the namespace at path between obj and
// its prototype.
func (r *run) watchMisses(obj *goja.Object, path []string) {
	w := &missWatcher{r: r, path: path}
	w.self = r.rt.NewDynamicObject(w)
	_ = w.self.SetPrototype(obj.Prototype())
	_ = obj.SetPrototype(w.self)
}

// addHint adds a hint to the message of v, an uncaught error, when it says
// that a global or a member of a tool namespace does not exist and a tool
// has a name close to it. v is the script's: it may be any value, and
// reading it may throw, which leaves it as it was.
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
		hinted = r.memberHint(msg[len("Object has no member '") : len(msg)-1])
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

// memberHint returns the message of a TypeError for calling key, a member
// missing from the tool namespace where the script last missed one, with
// the member of that namespace it is close to; or "" when key was not
// missed on a tool namespace.
func (r *run) memberHint(key string) string {
	miss := r.miss
	if miss.key != key || miss.path == nil {
		return ""
	}
	var members []string
	for _, t := range r.opts.Tools {
		segs := abi.ToolPath(t.Name)
		if len(segs) > len(miss.path) && slices.Equal(segs[:len(miss.path)], miss.path) {
			if segs[len(miss.path)] == key {
				return "" // the namespace has it: the miss was elsewhere
			}
			members = append(members, segs[len(miss.path)])
		}
	}
	ns := strings.Join(miss.path, ".")
	msg := ns + "." + key + " is not a function"
	if best, ok := abi.Suggest(key, members); ok {
		msg += "; did you mean " + ns + "." + best + "?"
	}
	return msg
}
