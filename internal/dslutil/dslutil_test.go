package dslutil

import (
	"reflect"
	"strings"
	"testing"
)

func TestExpandPattern(t *testing.T) {
	for _, tc := range []struct {
		pattern string
		want    []string
	}{
		{"stripe/charges/*", []string{"stripe/charges/*"}},
		{"stripe/**", []string{"stripe", "stripe/**"}},
		{"**/create", []string{"create", "**/create"}},
		{"a/**/b", []string{"a/b", "a/**/b"}},
		{"a/**/**/b", []string{"a/b", "a/**/b"}},
		{"**", []string{"", "**"}},
		{"a/**/b/**", []string{"a/b", "a/**/b", "a/b/**", "a/**/b/**"}},
		{`a/\**`, []string{`a/\**`}},
		{"db/read_*", []string{"db/read_*"}},
	} {
		got, err := ExpandPattern(tc.pattern)
		if err != nil || !reflect.DeepEqual(got, tc.want) {
			t.Errorf("ExpandPattern(%q) = %q, %v; want %q", tc.pattern, got, err, tc.want)
		}
	}
	for _, tc := range []struct{ pattern, want string }{
		{"", "the method pattern is empty"},
		{"a**", `"**" must be a whole segment`},
		{"a/**b", `"**" must be a whole segment`},
		{"a/***", `"**" must be a whole segment`},
		{"a//b", "empty segment"},
		{"a/", "empty segment"},
		{"[a", "syntax error"},
		{"**/a/**/b/**/c/**/d/**", `5 "**" segments; at most 4`},
		{"a\xffb", "not valid UTF-8"},
	} {
		_, err := ExpandPattern(tc.pattern)
		if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.HasPrefix(err.Error(), "dsl: ") {
			t.Errorf("ExpandPattern(%q): error %v, want %q", tc.pattern, err, tc.want)
		}
	}
}
