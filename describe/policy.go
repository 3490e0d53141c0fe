package describe

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/cordonhq/cordon/dsl"
	"github.com/cordonhq/cordon/internal/dslutil"
)

// Denied is the policy text of a tool that no capability matches.
const Denied = "denied (no capability allows this tool)"

// Policy says in plain words what capabilities allow of the tool called
// name: one line per capability whose method pattern matches it, in the
// order the policy tries them, each with its constraints, its call limit
// and whether a human must approve, as in
//
//	amount <= 1000; currency in USD, EUR; at most 10 calls; needs approval
//
// The first capability that fits a call is the one that allows it, so the
// list stops at one that fits every call (no constraints, and no call
// limit or an ask). It is nil when caps is empty, or when the first
// matching capability allows every call without limit; it is [Denied]
// when none matches. names are the other tools of the sandbox: a call
// limit that they share is said to be shared.
//
// Parameter paths are written as a script writes them (body/user/email is
// body.user.email, items/0 is items[0]); strings are bare when they are
// plain words (USD) and quoted otherwise ("2026-01-01"). Capabilities
// that do not validate allow nothing and are left out.
func Policy(caps []*dsl.Capability, name string, names []string) []string {
	if len(caps) == 0 {
		return nil
	}
	var out []string
	for _, c := range caps {
		if c == nil || c.Validate() != nil {
			continue
		}
		if ok, err := dsl.MatchMethod(c.Pattern(), name); err != nil || !ok {
			continue
		}
		var parts []string
		for _, k := range c.Constraints() {
			parts = append(parts, plainConstraint(k))
		}
		if n := c.CallLimit(); n > 0 {
			limit := "at most " + strconv.Itoa(n) + " call"
			if n != 1 {
				limit += "s"
			}
			if sharedLimit(c, name, names) {
				limit += ", shared by all tools matching " + c.Pattern()
			}
			parts = append(parts, limit)
		}
		if c.Asks() {
			parts = append(parts, "needs approval")
		}
		if labels := c.UnlessTouchedLabels(); len(labels) > 0 {
			parts = append(parts, "only until a tool labelled "+strings.Join(labels, " or ")+" is called")
		}
		catchesAll := len(c.Constraints()) == 0 && (c.CallLimit() == 0 || c.Asks()) && len(c.UnlessTouchedLabels()) == 0
		if len(parts) == 0 {
			if len(out) == 0 {
				return nil
			}
			parts = []string{"any other call"}
		}
		out = append(out, strings.Join(parts, "; "))
		if catchesAll {
			break
		}
	}
	if len(out) == 0 {
		return []string{Denied}
	}
	return out
}

// sharedLimit reports whether another of names matches c's pattern, and so
// draws on the same call limit.
func sharedLimit(c *dsl.Capability, name string, names []string) bool {
	for _, n := range names {
		if n == name {
			continue
		}
		if ok, err := dsl.MatchMethod(c.Pattern(), n); err == nil && ok {
			return true
		}
	}
	return false
}

// plainConstraint writes a constraint as a script's author reads it:
// "amount <= 1000", "currency in USD, EUR", "path starts with "/tmp/"",
// "(a or b)".
func plainConstraint(k dsl.Constraint) string {
	if k.Op.IsGroup() {
		word := " or "
		if k.Op == dsl.OpAllOf {
			word = " and "
		}
		parts := make([]string, len(k.Members))
		for i, m := range k.Members {
			parts[i] = plainConstraint(m)
		}
		return "(" + strings.Join(parts, word) + ")"
	}
	p := jsParam(k.Param)
	switch k.Op {
	case dsl.OpExists:
		return p + " is given"
	case dsl.OpNotExists:
		return p + " is not given"
	case dsl.OpIn, dsl.OpNotIn:
		list, _ := k.Value.([]any)
		vs := make([]string, len(list))
		for i, v := range list {
			vs[i] = plainValue(v)
		}
		op := " in "
		if k.Op == dsl.OpNotIn {
			op = " not in "
		}
		if len(vs) == 0 {
			return p + op + "(nothing)"
		}
		return p + op + strings.Join(vs, ", ")
	case dsl.OpStartsWith:
		return p + " starts with " + plainValue(k.Value)
	case dsl.OpEndsWith:
		return p + " ends with " + plainValue(k.Value)
	case dsl.OpContains:
		return p + " contains " + plainValue(k.Value)
	}
	return fmt.Sprintf("%s %s %s", p, k.Op, plainValue(k.Value))
}

// jsParam writes a constraint's parameter path as JavaScript reaches it:
// body/user/email -> body.user.email, items/0/sku -> items[0].sku.
func jsParam(path string) string {
	segs, err := dslutil.SplitParam(path)
	if err != nil {
		return dslutil.FormatParam(path)
	}
	var b strings.Builder
	for i, s := range segs {
		switch s := s.(type) {
		case int:
			b.WriteString("[" + strconv.Itoa(s) + "]")
		case string:
			switch {
			case !isIdent(s):
				b.WriteString("[" + quote(s) + "]")
			case i > 0:
				b.WriteString("." + s)
			default:
				b.WriteString(s)
			}
		}
	}
	return b.String()
}

// plainValue writes a constraint's value: a string that is a plain word
// (a letter or _ first, then letters, digits and _ - . : / @) bare, any
// other value as JSON.
func plainValue(v any) string {
	if s, ok := v.(string); ok && plainWord(s) {
		return s
	}
	return dslutil.FormatValue(v)
}

func plainWord(s string) bool {
	if s == "" || s == "true" || s == "false" || s == "null" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		letter := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_'
		if i == 0 && !letter {
			return false
		}
		if !letter && !(c >= '0' && c <= '9') && !strings.ContainsRune("-.:/@", rune(c)) {
			return false
		}
	}
	return true
}
