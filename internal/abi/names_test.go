package abi

import (
	"strings"
	"testing"
)

// "." separates segments as "/" does: a dotted name's first segment and
// empty segments are checked as a slashed name's are.
func TestToolNamesWithDots(t *testing.T) {
	for _, ok := range []string{"stripe.listTransactions", "a/b.c/d", "gpt-4.1/complete", "x.y:z"} {
		if err := ValidateToolName(ok); err != nil {
			t.Errorf("%q: %v", ok, err)
		}
	}
	for bad, why := range map[string]string{
		"a..b":        "segment 2 is empty",
		".a":          "segment 1 is empty",
		"a.":          "segment 2 is empty",
		"a/.b":        "segment 2 is empty",
		"JSON.parse":  `first segment "JSON"`,
		"console.log": `first segment "console"`,
		"a.__proto__": `segment "__proto__" is reserved`,
	} {
		if err := ValidateToolName(bad); err == nil || !strings.Contains(err.Error(), why) {
			t.Errorf("%q: %v, want an error saying %q", bad, err, why)
		}
	}
	if got := strings.Join(ToolPath("a/b.c/d"), " "); got != "a b c d" {
		t.Errorf("ToolPath: %q", got)
	}
	if DottedName("a/b.c/d") != "a.b.c.d" {
		t.Error("DottedName")
	}
}

// Two names that would be one JS function or one alias are refused
// together; a tool that is also a namespace is not.
func TestCheckToolNames(t *testing.T) {
	for _, names := range [][]string{{"a"}, {"a/b", "a/b/c"}, {"a.b", "a.b.c", "a/c"}, {"stripe.listTransactions", "stripe/refund"}} {
		if err := CheckToolNames(names); err != nil {
			t.Errorf("%q: %v", names, err)
		}
	}
	for _, c := range []struct {
		names []string
		why   string
	}{
		{[]string{"a.b", "a/b"}, `tools "a.b" and "a/b" are the same function a.b in JavaScript`},
		{[]string{"x", "a/b.c", "a.b/c"}, `tools "a/b.c" and "a.b/c" are the same function a.b.c in JavaScript`},
		{[]string{"a/b_c", "a_b/c"}, `tools "a/b_c" and "a_b/c" have the same JS alias "a_b_c"`},
		{[]string{"a-b", "a:b"}, `have the same JS alias "a_b"`},
		{[]string{"a", "a"}, `tool "a" is registered twice`},
	} {
		if err := CheckToolNames(c.names); err == nil || !strings.Contains(err.Error(), c.why) {
			t.Errorf("%q: %v, want an error saying %q", c.names, err, c.why)
		}
	}
}

// Every form of a name finds the tool, "/" and "." interchangeable.
func TestLookupTool(t *testing.T) {
	tools := []ToolInfo{{Name: "stripe.listTransactions"}, {Name: "gh/repos/list"}, {Name: "x"}}
	for form, want := range map[string]string{
		"stripe.listTransactions": "stripe.listTransactions",
		"stripe/listTransactions": "stripe.listTransactions",
		"stripe_listTransactions": "stripe.listTransactions",
		"gh/repos/list":           "gh/repos/list",
		"gh.repos.list":           "gh/repos/list",
		"gh/repos.list":           "gh/repos/list",
		"gh_repos_list":           "gh/repos/list",
		"x":                       "x",
	} {
		if got, ok := LookupTool(tools, form); !ok || got.Name != want {
			t.Errorf("LookupTool(%q) = %q, %v; want %q", form, got.Name, ok, want)
		}
	}
	for _, form := range []string{"stripe", "gh.repos", "stripe.listTransaction", "gh_repos.list", ""} {
		if got, ok := LookupTool(tools, form); ok {
			t.Errorf("LookupTool(%q) = %q", form, got.Name)
		}
	}
	if !ToolHasPrefix("stripe.listTransactions", "stripe/") || !ToolHasPrefix("gh/repos/list", "gh.re") || !ToolHasPrefix("gh/repos/list", "gh_repos_") || ToolHasPrefix("gh/repos/list", "ghx") {
		t.Error("ToolHasPrefix")
	}
}

// Suggest names a candidate within the edit threshold (one edit per four
// bytes, one to three), counting a swap of neighbors as one edit.
func TestSuggest(t *testing.T) {
	cands := []string{"stripe_listTransactions", "stripe", "weather", "ab", "zz"}
	for name, want := range map[string]string{
		"stripe_listTransaction":   "stripe_listTransactions",
		"stripe_listtransactions":  "stripe_listTransactions",
		"stripe_lsitTransactions":  "stripe_listTransactions",
		"strpe":                    "stripe",
		"srtipe":                   "stripe",
		"wether":                   "weather",
		"ac":                       "ab",
		"stripe_listTransactionsX": "stripe_listTransactions",
	} {
		if got, ok := Suggest(name, cands); !ok || got != want {
			t.Errorf("Suggest(%q) = %q, %v; want %q", name, got, ok, want)
		}
	}
	for _, name := range []string{"stripe_list", "fetch", "strp", "stripe", "ab_listTransactions", "xy"} {
		if got, ok := Suggest(name, cands); ok {
			t.Errorf("Suggest(%q) = %q, want none", name, got)
		}
	}
	// Of equally close candidates, the first in byte order.
	if got, _ := Suggest("ax", []string{"ay", "aw"}); got != "aw" {
		t.Errorf("tie: %q", got)
	}
	if got, ok := SuggestTool([]ToolInfo{{Name: "stripe/listTransactions"}}, "stripe.listTransaction"); !ok || got != "stripe.listTransactions" {
		t.Errorf("SuggestTool: %q %v", got, ok)
	}
}

// ToolsUnder lists the dotted names below a namespace, at any depth and
// whichever separator each name uses, and not the namespace's own tool.
func TestToolsUnder(t *testing.T) {
	tools := []ToolInfo{{Name: "stripe/listTransactions"}, {Name: "stripe.charges/create"}, {Name: "stripe"}, {Name: "stripex/a"}, {Name: "a/b/c/d"}}
	for _, c := range []struct {
		path []string
		want string
	}{
		{[]string{"stripe"}, "stripe.charges.create stripe.listTransactions"},
		{[]string{"stripe", "charges"}, "stripe.charges.create"},
		{[]string{"a", "b"}, "a.b.c.d"},
		{[]string{"a", "b", "c", "d"}, ""},
		{[]string{"nothing"}, ""},
	} {
		if got := strings.Join(ToolsUnder(tools, c.path), " "); got != c.want {
			t.Errorf("ToolsUnder(%q) = %q, want %q", c.path, got, c.want)
		}
	}
}
