package config_test

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/cordonhq/cordon/config"
	"github.com/cordonhq/cordon/engine"
)

// configOnlyLimits are the fields of config.Limits that are not fields of
// engine.Limits, and where each goes instead.
var configOnlyLimits = map[string]string{
	"MemoryMB": "engine.Config.WithMemoryLimitMB",
}

// limitKeys returns the config key (the JSON name) of each field of
// config.Limits, by field name.
func limitKeys(t *testing.T) map[string]string {
	t.Helper()
	keys := map[string]string{}
	ct := reflect.TypeFor[config.Limits]()
	for i := range ct.NumField() {
		f := ct.Field(i)
		name, opts, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "" || name == "-" || opts != "omitempty" {
			t.Errorf("config.Limits.%s has json tag %q, want \"key,omitempty\" (a limit left out takes the engine's default)", f.Name, f.Tag.Get("json"))
			continue
		}
		keys[f.Name] = name
	}
	return keys
}

// Every engine limit has its config key: each field of engine.Limits has
// the field of the same name in config.Limits, of a kind that holds it;
// Parse reads the key and SandboxLimits hands its value to the engine;
// validation names the key of a negative value; and the documentation
// (README.md or docs/) names the key. Adding a field to engine.Limits
// without the rest fails here (CONTRIBUTING.md, "Add a limit").
func TestEveryEngineLimitHasAConfigKey(t *testing.T) {
	keys := limitKeys(t)
	et, ct := reflect.TypeFor[engine.Limits](), reflect.TypeFor[config.Limits]()
	for i := range et.NumField() {
		ef := et.Field(i)
		cf, ok := ct.FieldByName(ef.Name)
		if !ok {
			t.Errorf("engine.Limits.%s has no field in config.Limits: add it (key limits.%s), SandboxLimits and validate in config/config.go", ef.Name, snake(ef.Name))
			continue
		}
		if cf.Type.Kind() != ef.Type.Kind() {
			t.Errorf("config.Limits.%s is a %s, engine.Limits.%s a %s", cf.Name, cf.Type, ef.Name, ef.Type)
		}
	}
	for i := range ct.NumField() {
		name := ct.Field(i).Name
		if _, ok := et.FieldByName(name); !ok && configOnlyLimits[name] == "" {
			t.Errorf("config.Limits.%s is not a field of engine.Limits; if it goes elsewhere, say where in configOnlyLimits", name)
		}
	}
	if t.Failed() {
		return
	}

	// One config with every key set to a value of its own: each reaches
	// the engine field of the same name.
	var yaml strings.Builder
	want := map[string]int64{}
	yaml.WriteString("limits:\n")
	for i := range et.NumField() {
		f := et.Field(i)
		n := int64(1001 + i) // small enough for every limit's range
		fmt.Fprintf(&yaml, "  %s: %d\n", keys[f.Name], n)
		want[f.Name] = n
		if f.Type == reflect.TypeFor[time.Duration]() {
			want[f.Name] = n * int64(time.Second) // a bare number is seconds
		}
	}
	c, err := config.Parse("c.yaml", []byte(yaml.String()))
	if err != nil {
		t.Fatalf("%v\n%s", err, yaml.String())
	}
	got := reflect.ValueOf(c.SandboxLimits())
	for name, w := range want {
		if v := got.FieldByName(name).Int(); v != w {
			t.Errorf("limits.%s: %d reaches engine.Limits.%s as %d (SandboxLimits)", keys[name], w, name, v)
		}
	}

	// A negative value is refused, and the error names the key.
	for _, key := range keys {
		_, err := config.Parse("c.yaml", []byte("limits: {"+key+": -1}\n"))
		if err == nil || !strings.Contains(err.Error(), "limits."+key) {
			t.Errorf("limits.%s: -1: %v; want an error naming limits.%s (validate in config/config.go)", key, err, key)
		}
	}

	// The documentation names every key.
	docs := readDocs(t)
	for _, key := range keys {
		if !strings.Contains(docs, "limits."+key) {
			t.Errorf("neither README.md nor docs/ names limits.%s", key)
		}
	}
}

// readDocs returns README.md and every Markdown file under docs/.
func readDocs(t *testing.T) string {
	t.Helper()
	var b strings.Builder
	files := []string{filepath.Join("..", "README.md")}
	err := filepath.WalkDir(filepath.Join("..", "docs"), func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".md") {
			files = append(files, p)
		}
		return err
	})
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		b.Write(data)
	}
	return b.String()
}

// snake returns a Go field name as a config key: MaxToolCalls ->
// max_tool_calls, VFSBytes -> vfs_bytes.
func snake(name string) string {
	var b strings.Builder
	for i, r := range name {
		upper := r >= 'A' && r <= 'Z'
		if upper && i > 0 {
			prevLower := name[i-1] >= 'a' && name[i-1] <= 'z'
			nextLower := i+1 < len(name) && name[i+1] >= 'a' && name[i+1] <= 'z'
			if prevLower || nextLower {
				b.WriteByte('_')
			}
		}
		b.WriteString(strings.ToLower(string(r)))
	}
	return b.String()
}
