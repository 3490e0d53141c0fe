package engine

import (
	"strings"
	"testing"
)

// The WASI functions the engine serves with real behaviour are few and
// reviewed; every other import is answered ENOSYS. This test pins the list
// so that adding a service is a deliberate change.
func TestWASIServices(t *testing.T) {
	served := map[string]bool{}
	for name := range wasiImpl(&Engine{}) {
		served[name] = true
	}
	want := "args_get args_sizes_get clock_res_get clock_time_get environ_get environ_sizes_get fd_fdstat_get fd_prestat_dir_name fd_prestat_get fd_write poll_oneoff proc_exit random_get sched_yield"
	var got []string
	for _, name := range strings.Fields(want) {
		if !served[name] {
			t.Errorf("%s is not served", name)
		}
		delete(served, name)
	}
	for name := range served {
		got = append(got, name)
	}
	if len(got) > 0 {
		t.Errorf("unreviewed WASI services: %v", got)
	}
}
