package main

import (
	"strings"
	"testing"
)

// Four samples: one before the guest started (left out), two with a guest
// leaf, one in the kernel under guest code.
const script = `100.000001: 
	55d0 github.com/tetratelabs/wazero/internal/wasm.(*Module).Validate+0x12
	55d1 main.main

100.000002: 
	7f01 [12/99].runtime.mallocgc:::::L3
	7f02 [40/99].github.com_dop251_goja.__vm_.run:::::L104
	7f03 wasm_pc_f_loop

100.000003: 
	7f04 [40/99].github.com_dop251_goja.__vm_.run:::::L7
	7f02 [40/99].github.com_dop251_goja.__vm_.run:::::L104
	7f03 wasm_pc_f_loop

100.000004: 
	ffffffff81000c82 asm_exc_page_fault
	7f01 [12/99].runtime.mallocgc:::::L9
	7f02 [40/99].github.com_dop251_goja.__vm_.run:::::L104
`

func TestReport(t *testing.T) {
	samples, err := read(strings.NewReader(script))
	if err != nil {
		t.Fatal(err)
	}
	if len(samples) != 4 {
		t.Fatalf("%d samples, want 4", len(samples))
	}
	var out strings.Builder
	report(&out, samples, 10, "mallocgc")
	got := out.String()
	for _, want := range []string{
		"3 samples from the first in guest code: guest code  66.7%, host Go   0.0%, kernel  33.3%",
		// self: one leaf each in mallocgc and vm.run, of the two guest leaves
		" 50.0%  runtime.mallocgc\n",
		" 50.0%  github.com_dop251_goja.__vm_.run\n",
		// inclusive: vm.run is on all three stacks (counted once each)
		"100.0%  github.com_dop251_goja.__vm_.run\n",
		" 66.7%  runtime.mallocgc\n",
		" 66.7%  runtime.mallocgc  <-  github.com_dop251_goja.__vm_.run\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("report lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "Validate") {
		t.Errorf("a sample from before the guest started was counted:\n%s", got)
	}
}

func TestReportWithoutGuestCode(t *testing.T) {
	samples, _ := read(strings.NewReader("1.0: \n\t55d0 main.main\n"))
	var out strings.Builder
	report(&out, samples, 10, "")
	if !strings.Contains(out.String(), "no sample in guest code") {
		t.Errorf("got %q", out.String())
	}
}
