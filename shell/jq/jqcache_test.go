package jq

import (
	"strings"
	"sync"
	"testing"
)

// A filter run twice is compiled once: the second run takes the program
// from the cache, bound to its own inputs.
func TestJqProgramsAreReused(t *testing.T) {
	filter := `.a + 1 | tostring + "-reuse"`
	key := jqProgramKey{filter: filter, varNames: "$ARGS\x00$__loc__"}
	takeJqProgram(key) // from an earlier run of the test, if any
	if r := run(t, nil, nil, `{"a":1}`, "jq", "-r", filter); r.Out != "2-reuse\n" {
		t.Fatalf("first run: %+v", r)
	}
	p := takeJqProgram(key)
	if p == nil {
		t.Fatal("the program was not kept")
	}
	if b := p.b; b.inputs != nil || b.order != nil || b.environ != nil {
		t.Errorf("a kept program still holds its invocation's state: %+v", *p.b)
	}
	returnJqProgram(p)
	if r := run(t, nil, nil, `{"a":41}`, "jq", "-r", filter); r.Out != "42-reuse\n" {
		t.Fatalf("second run: %+v", r)
	}
	if takeJqProgram(key) != p {
		t.Error("the second run compiled the filter again")
	}
}

// The environment is read when the filter is compiled, so a filter that
// reads it is compiled for every run.
func TestJqEnvironmentIsNotCached(t *testing.T) {
	for _, want := range []string{"one", "two"} {
		env := newTestEnv(t, "jq", "-rn", "$ENV.CACHE_TEST, env.CACHE_TEST")
		env.Environ = []string{"CACHE_TEST=" + want}
		var out strings.Builder
		env.Stdout = &out
		if st := cmdJq(env); st != 0 || out.String() != want+"\n"+want+"\n" {
			t.Fatalf("status %d, out %q, want %q twice", st, out.String(), want)
		}
	}
}

// Runs of one filter at the same time (jq . | jq .) each have a program
// of their own.
func TestJqConcurrentRunsOfOneFilter(t *testing.T) {
	var wg sync.WaitGroup
	errs := make(chan string, 16)
	for i := range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			in := `{"n":"` + string(rune('a'+i)) + `"}` + "\n"
			r := run(t, nil, nil, strings.Repeat(in, 200), "jq", "-rn", "inputs | .n")
			if want := strings.Repeat(string(rune('a'+i))+"\n", 200); r.Out != want {
				errs <- r.Out[:min(len(r.Out), 40)]
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Errorf("a run saw another's inputs: %q", e)
	}
}

// The cache holds a bounded number of programs, and none for long filters.
func TestJqCacheIsBounded(t *testing.T) {
	for i := range jqCacheEntries + 5 {
		if r := run(t, nil, nil, "", "jq", "-n", strings.Repeat(" ", i)+"1"); r.Out != "1\n" {
			t.Fatal(r)
		}
	}
	long := strings.Repeat(" ", jqCacheMaxFilter) + "1"
	run(t, nil, nil, "", "jq", "-n", long)
	jqCache.mu.Lock()
	defer jqCache.mu.Unlock()
	if n := len(jqCache.progs); n > jqCacheEntries {
		t.Errorf("%d programs kept", n)
	}
	for _, p := range jqCache.progs {
		if p.key.filter == long {
			t.Error("a long filter was kept")
		}
	}
}
