package config_test

import (
	"encoding/json"
	"os"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/cordonhq/cordon/config"
)

// keys returns the JSON keys of t's fields, and of the structs inside it,
// by slice and map elements; json.RawMessage fields (parsed by their own
// readers) are not entered.
func keys(t reflect.Type, out map[string]bool) {
	for t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice || t.Kind() == reflect.Map {
		if t == reflect.TypeOf(json.RawMessage{}) {
			return
		}
		t = t.Elem()
	}
	if t.Kind() != reflect.Struct {
		return
	}
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if !f.IsExported() || name == "" || name == "-" {
			continue
		}
		out[name] = true
		keys(f.Type, out)
	}
}

// The reference file of docs/config.md loads, and the page names every
// key of the config, at every depth, in its YAML; its table has a row for
// every top-level key.
func TestConfigDocsListEveryKey(t *testing.T) {
	b, err := os.ReadFile("../docs/config.md")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	_, ref, ok := strings.Cut(doc, "\n## Every key\n\n```yaml\n")
	if !ok {
		t.Fatal("docs/config.md has no YAML block opening its section \"Every key\"")
	}
	ref, table, _ := strings.Cut(ref, "\n```\n")
	if _, err := config.Parse("docs/config.md", []byte(ref)); err != nil {
		t.Errorf("the reference config of docs/config.md does not load: %v", err)
	}

	all := map[string]bool{}
	keys(reflect.TypeOf(config.Config{}), all)
	if len(all) < 30 {
		t.Fatalf("only %d keys found in config.Config", len(all))
	}
	for k := range all {
		if !regexp.MustCompile(`(^|[\s{,#-])` + regexp.QuoteMeta(k) + `:`).MatchString(ref) {
			t.Errorf("docs/config.md's reference config does not show the key %s: (commented out, if it cannot be combined with the rest)", k)
		}
	}

	table, _, _ = strings.Cut(table, "\n## ")
	top := map[string]bool{}
	ct := reflect.TypeOf(config.Config{})
	for i := 0; i < ct.NumField(); i++ {
		if name, _, _ := strings.Cut(ct.Field(i).Tag.Get("json"), ","); ct.Field(i).IsExported() && name != "" {
			top[name] = true
		}
	}
	rows := map[string]bool{}
	for _, l := range strings.Split(table, "\n") {
		if !strings.HasPrefix(l, "| `") {
			continue
		}
		first, _, _ := strings.Cut(strings.TrimPrefix(l, "| "), " |")
		for _, m := range regexp.MustCompile("`([a-z_]+)`").FindAllStringSubmatch(first, -1) {
			if !top[m[1]] {
				t.Errorf("docs/config.md's table has a row for %q, which is not a key of the config", m[1])
			}
			rows[m[1]] = true
		}
	}
	for k := range top {
		if !rows[k] {
			t.Errorf("docs/config.md's table has no row for the key %q", k)
		}
	}
}
