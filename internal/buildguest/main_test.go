package main

import (
	"strconv"
	"strings"
	"testing"
)

// pinned returns every count at its pin.
func pinned() []count {
	var cs []count
	for name, pin := range pins {
		cs = append(cs, count{name, pin})
	}
	return cs
}

func TestCheckCountsAcceptsThePins(t *testing.T) {
	if err := checkCounts(pinned()); err != nil {
		t.Errorf("the pinned counts: %v", err)
	}
	for name, pin := range pins {
		if pin < 1 {
			t.Errorf("%s is pinned at %d: a rewrite that finds nothing must fail", name, pin)
		}
		lo, hi := pinnedRange(pin)
		for _, got := range []int{lo, hi} {
			cs := pinned()
			for i := range cs {
				if cs[i].name == name {
					cs[i].got = got
				}
			}
			if err := checkCounts(cs); err != nil {
				t.Errorf("%s at %d, the edge of %d..%d: %v", name, got, lo, hi, err)
			}
		}
	}
}

// TestCheckCountsRefuses: a count outside its range fails, with a message
// that names the rewrite, the count and the range; so does a count of 0,
// and a count that has no pin.
func TestCheckCountsRefuses(t *testing.T) {
	wrappers := pins[countWrappers]
	lo, hi := pinnedRange(wrappers)
	for _, got := range []int{0, 3, lo - 1, hi + 1} {
		cs := pinned()
		for i := range cs {
			if cs[i].name == countWrappers {
				cs[i].got = got
			}
		}
		err := checkCounts(cs)
		if err == nil {
			t.Errorf("%d wrappers passed", got)
			continue
		}
		for _, want := range []string{countWrappers, ": " + strconv.Itoa(got) + ",", strconv.Itoa(lo) + ".." + strconv.Itoa(hi)} {
			if !strings.Contains(err.Error(), want) {
				t.Errorf("%d wrappers: %q does not say %q", got, err, want)
			}
		}
	}
	if err := checkCounts(append(pinned(), count{"wasmnew.Rewrite: things", 5})); err == nil || !strings.Contains(err.Error(), "wasmnew.Rewrite: things: 5, which has no pin") {
		t.Errorf("an unpinned count: %v", err)
	}
	for pin := 1; pin <= 8; pin++ {
		if lo, hi := pinnedRange(pin); lo < 1 || lo > pin || hi < pin {
			t.Errorf("a pin of %d accepts %d..%d", pin, lo, hi)
		}
	}
}
