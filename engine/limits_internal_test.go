package engine

import (
	"encoding/json"
	"reflect"
	"testing"
	"time"
)

// limitValues returns Limits with every field set to a value of its own,
// none of them a default, so that a field that a step drops or mixes up
// shows.
func limitValues(t *testing.T) Limits {
	t.Helper()
	var l Limits
	v := reflect.ValueOf(&l).Elem()
	for i := range v.NumField() {
		f := v.Field(i)
		n := int64(3 + i)
		switch {
		case f.Type() == reflect.TypeFor[time.Duration]():
			f.SetInt(n * int64(time.Second))
		case f.CanInt():
			f.SetInt(n)
		default:
			t.Fatalf("Limits.%s is a %s: extend limitValues", v.Type().Field(i).Name, f.Type())
		}
	}
	return l
}

// Every limit has a default: a sandbox with zero Limits gets a positive
// value in each field, and a field the caller set is kept. Adding a field
// to Limits without its case in withDefaults fails here (CONTRIBUTING.md,
// "Add a limit").
func TestZeroLimitsTakeEveryDefault(t *testing.T) {
	for _, mb := range []int{MinMemoryMB, DefaultMemoryMB, MaxMemoryMB} {
		got := reflect.ValueOf(Limits{}.withDefaults(mb))
		for i := range got.NumField() {
			if got.Field(i).Int() <= 0 {
				t.Errorf("memory %d MiB: zero Limits.%s stays %d: give it a default in withDefaults (engine/sandbox.go)", mb, got.Type().Field(i).Name, got.Field(i).Int())
			}
		}
	}
	set := limitValues(t)
	if got := set.withDefaults(DefaultMemoryMB); got != set {
		t.Errorf("withDefaults changed limits the caller set:\n got %+v\nwant %+v", got, set)
	}
}

// A trace keeps every limit: what limitsByKey records, through the trace's
// JSON, limitsOfKeys reads back the same, so a replay runs under the
// recorded limits. Adding a field to Limits without its key in both fails
// here (CONTRIBUTING.md, "Add a limit").
func TestTraceKeepsEveryLimit(t *testing.T) {
	want := limitValues(t)
	m := limitsByKey(want, DefaultMemoryMB)
	if n := reflect.TypeFor[Limits]().NumField() + 1; len(m) != n {
		t.Errorf("limitsByKey records %d keys, want %d (every field of Limits, and memory_mb)", len(m), n)
	}
	b, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	var read map[string]any
	if err := json.Unmarshal(b, &read); err != nil {
		t.Fatal(err)
	}
	if got := limitsOfKeys(read); got != want {
		t.Errorf("limits through a trace (engine/record.go limitsByKey, engine/replay.go limitsOfKeys):\n got %+v\nwant %+v\n%s", got, want, b)
	}
}
