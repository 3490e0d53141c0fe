package main

import "testing"

func TestCheckRewrites(t *testing.T) {
	if err := checkRewrites(39, 120, 222); err != nil {
		t.Errorf("counts of go1.26.8: %v", err)
	}
	for _, c := range [][3]int{{0, 120, 222}, {39, 0, 222}, {39, 120, 0}} {
		if err := checkRewrites(c[0], c[1], c[2]); err == nil {
			t.Errorf("%v: a rewrite that found nothing passed", c)
		}
	}
}
