package diffutil

// This file finds the lines that differ between two files the way GNU diff
// 3.x does, so that its hunks are GNU's hunks: the common prefix and suffix
// are set aside (keeping a horizon of context lines), lines that cannot
// match are discarded first, the rest is compared with Myers' O(ND)
// algorithm (bisecting on the middle snake, with GNU's bound on expensive
// comparisons), and the changed runs are then slid so that they merge and
// end as late as possible.

// change is one hunk of the edit script: deleted lines of the first file
// starting at line0, replaced by inserted lines of the second starting at
// line1 (0-based).
type change struct {
	line0, line1      int
	deleted, inserted int
}

// tooExpensiveMin is the least edit cost at which the comparison stops
// looking for a minimal script and takes the best diagonal so far.
const tooExpensiveMin = 4096

// analysis holds the state of one comparison.
type analysis struct {
	// equivs are the equivalence classes (1-based) of the buffered lines.
	equivs [2][]int
	// changed marks changed lines of the buffered region; index i+1 is
	// line i, and the first and last entries are always false sentinels.
	changed [2][]bool
	// undiscarded and realIndex are the lines that take part in the
	// comparison, and their index among the buffered lines.
	undiscarded [2][]int
	realIndex   [2][]int
	// fdiag and bdiag are the furthest-reaching diagonals.
	fdiag, bdiag []int
	dOff         int
	tooExpensive int
	minimal      bool
	cancel       func() bool
	canceled     bool
}

// diffLines compares the lines a and b (each with its newline, if it has
// one) and returns the changes in order. horizon is the number of context
// lines kept around the differing region; minimal disables the discarding
// of lines and the bound on expensive comparisons. cancel, polled as the
// comparison goes, stops it (returning nil, false) when it reports true.
//
// keysA and keysB, when not nil, are what the lines are compared as (the
// lines normalized for -i, -b or -w); the common ends are still found by
// comparing the lines themselves, as GNU does.
func diffLines(a, b, keysA, keysB []string, horizon int, minimal bool, cancel func() bool) ([]change, bool) {
	n0, n1 := len(a), len(b)
	prefix := 0
	for prefix < n0 && prefix < n1 && a[prefix] == b[prefix] {
		prefix++
	}
	if prefix == n0 && prefix == n1 {
		return nil, true
	}
	start := max(prefix-horizon, 0)
	suffix := 0
	for suffix < n0-start && suffix < n1-start && a[n0-1-suffix] == b[n1-1-suffix] {
		suffix++
	}
	end0 := min(n0-suffix+horizon, n0)
	end1 := min(n1-suffix+horizon, n1)

	an := &analysis{minimal: minimal, cancel: cancel}
	classes := map[string]int{}
	if keysA == nil {
		keysA, keysB = a, b
	}
	for f, lines := range [2][]string{keysA[start:end0], keysB[start:end1]} {
		eq := make([]int, len(lines))
		for i, l := range lines {
			c, ok := classes[l]
			if !ok {
				c = len(classes) + 1
				classes[l] = c
			}
			eq[i] = c
		}
		an.equivs[f] = eq
		an.changed[f] = make([]bool, len(lines)+2)
	}
	an.discardConfusingLines(len(classes) + 1)

	nd0, nd1 := len(an.undiscarded[0]), len(an.undiscarded[1])
	diags := nd0 + nd1 + 3
	an.fdiag = make([]int, diags)
	an.bdiag = make([]int, diags)
	an.dOff = nd1 + 1
	te := 1
	for d := diags; d != 0; d >>= 2 {
		te <<= 1
	}
	an.tooExpensive = max(te, tooExpensiveMin)
	if !an.compareseq(0, nd0, 0, nd1, minimal) {
		return nil, false
	}
	an.shiftBoundaries()

	// Build the script over the whole files.
	c0, c1 := an.changed[0], an.changed[1]
	isChanged := func(f, i int) bool {
		rel := i - start
		ch := c0
		if f == 1 {
			ch = c1
		}
		return rel >= 0 && rel+1 < len(ch)-1 && ch[rel+1]
	}
	var out []change
	i0, i1 := 0, 0
	for i0 < n0 || i1 < n1 {
		if isChanged(0, i0) || isChanged(1, i1) {
			s0, s1 := i0, i1
			for isChanged(0, i0) {
				i0++
			}
			for isChanged(1, i1) {
				i1++
			}
			out = append(out, change{line0: s0, line1: s1, deleted: i0 - s0, inserted: i1 - s1})
			continue
		}
		i0++
		i1++
	}
	return out, true
}

// discardConfusingLines sets aside the lines that match no line of the
// other file, and runs of lines that match too many, marking them changed
// without comparing them (GNU's discard_confusing_lines).
func (an *analysis) discardConfusingLines(nclasses int) {
	var counts [2][]int
	for f := range 2 {
		counts[f] = make([]int, nclasses)
		for _, e := range an.equivs[f] {
			counts[f][e]++
		}
	}
	var discards [2][]byte
	for f := range 2 {
		end := len(an.equivs[f])
		d := make([]byte, end)
		other := counts[1-f]
		many := 5
		for tem := end / 64; ; {
			tem >>= 2
			if tem <= 0 {
				break
			}
			many *= 2
		}
		for i, e := range an.equivs[f] {
			switch n := other[e]; {
			case n == 0:
				d[i] = 1
			case n > many:
				d[i] = 2
			}
		}
		discards[f] = d
	}
	for f := range 2 {
		d := discards[f]
		end := len(d)
		for i := 0; i < end; i++ {
			if d[i] == 2 {
				d[i] = 0
				continue
			}
			if d[i] == 0 {
				continue
			}
			// A run of discardable lines starting with a definite one.
			j := i
			provisional := 0
			for ; j < end && d[j] != 0; j++ {
				if d[j] == 2 {
					provisional++
				}
			}
			for j > i && d[j-1] == 2 {
				j--
				d[j] = 0
				provisional--
			}
			length := j - i
			if provisional*4 > length {
				for j > i {
					j--
					if d[j] == 2 {
						d[j] = 0
					}
				}
				continue
			}
			minimum := 1
			for tem := length >> 2; ; {
				tem >>= 2
				if tem <= 0 {
					break
				}
				minimum <<= 1
			}
			minimum++
			consec := 0
			for j = 0; j < length; j++ {
				switch {
				case d[i+j] != 2:
					consec = 0
				default:
					consec++
					if minimum == consec {
						j -= consec
					} else if minimum < consec {
						d[i+j] = 0
					}
				}
			}
			keepRunEnd(d, i, 1, length)
			i += length - 1
			keepRunEnd(d, i, -1, length)
		}
	}
	for f := range 2 {
		for i, e := range an.equivs[f] {
			if an.minimal || discards[f][i] == 0 {
				an.undiscarded[f] = append(an.undiscarded[f], e)
				an.realIndex[f] = append(an.realIndex[f], i)
			} else {
				an.changed[f][i+1] = true
			}
		}
	}
}

// keepRunEnd walks the run of length marks of d that starts at at (step
// 1) or ends there (step -1), from that end inward, and keeps (marks 0)
// the provisional lines (mark 2) it passes, as GNU does at both ends of a
// run of discardable lines: it stops after three definite ones (mark 1) in
// a row, or at a definite one past the eighth line.
func keepRunEnd(d []byte, at, step, length int) {
	consec := 0
	for j := 0; j < length; j++ {
		k := at + step*j
		if j >= 8 && d[k] == 1 {
			break
		}
		if d[k] == 2 {
			consec = 0
			d[k] = 0
		} else if d[k] == 0 {
			consec = 0
		} else {
			consec++
		}
		if consec == 3 {
			break
		}
	}
}

// compareseq compares undiscarded lines [xoff, xlim) of the first file
// with [yoff, ylim) of the second and marks the changed ones. It returns
// false when canceled.
func (an *analysis) compareseq(xoff, xlim, yoff, ylim int, minimal bool) bool {
	xv, yv := an.undiscarded[0], an.undiscarded[1]
	for xoff < xlim && yoff < ylim && xv[xoff] == yv[yoff] {
		xoff++
		yoff++
	}
	for xoff < xlim && yoff < ylim && xv[xlim-1] == yv[ylim-1] {
		xlim--
		ylim--
	}
	switch {
	case xoff == xlim:
		for ; yoff < ylim; yoff++ {
			an.changed[1][an.realIndex[1][yoff]+1] = true
		}
	case yoff == ylim:
		for ; xoff < xlim; xoff++ {
			an.changed[0][an.realIndex[0][xoff]+1] = true
		}
	default:
		if an.cancel != nil && an.cancel() {
			return false
		}
		xmid, ymid, loMin, hiMin := an.diag(xoff, xlim, yoff, ylim, minimal)
		if an.canceled {
			return false
		}
		if !an.compareseq(xoff, xmid, yoff, ymid, loMin) {
			return false
		}
		return an.compareseq(xmid, xlim, ymid, ylim, hiMin)
	}
	return true
}

// diag finds the midpoint of the shortest edit script for the given
// ranges, searching from both ends at once (Myers' middle snake). When the
// cost grows past tooExpensive and minimal is false it settles for the
// diagonal that got furthest.
func (an *analysis) diag(xoff, xlim, yoff, ylim int, minimal bool) (xmid, ymid int, loMin, hiMin bool) {
	xv, yv := an.undiscarded[0], an.undiscarded[1]
	fd, bd, o := an.fdiag, an.bdiag, an.dOff
	dmin, dmax := xoff-ylim, xlim-yoff
	fmid, bmid := xoff-yoff, xlim-ylim
	fmin, fmax, bmin, bmax := fmid, fmid, bmid, bmid
	odd := (fmid-bmid)&1 != 0
	fd[o+fmid] = xoff
	bd[o+bmid] = xlim
	const maxInt = int(^uint(0) >> 1)
	for c := 1; ; c++ {
		if c&63 == 0 && an.cancel != nil && an.cancel() {
			an.canceled = true
			return xoff, yoff, true, true
		}
		if fmin > dmin {
			fmin--
			fd[o+fmin-1] = -1
		} else {
			fmin++
		}
		if fmax < dmax {
			fmax++
			fd[o+fmax+1] = -1
		} else {
			fmax--
		}
		for d := fmax; d >= fmin; d -= 2 {
			tlo, thi := fd[o+d-1], fd[o+d+1]
			x0 := tlo + 1
			if tlo < thi {
				x0 = thi
			}
			x, y := x0, x0-d
			for x < xlim && y < ylim && xv[x] == yv[y] {
				x++
				y++
			}
			fd[o+d] = x
			if odd && bmin <= d && d <= bmax && bd[o+d] <= x {
				return x, y, true, true
			}
		}
		if bmin > dmin {
			bmin--
			bd[o+bmin-1] = maxInt
		} else {
			bmin++
		}
		if bmax < dmax {
			bmax++
			bd[o+bmax+1] = maxInt
		} else {
			bmax--
		}
		for d := bmax; d >= bmin; d -= 2 {
			tlo, thi := bd[o+d-1], bd[o+d+1]
			x0 := thi - 1
			if tlo < thi {
				x0 = tlo
			}
			x, y := x0, x0-d
			for xoff < x && yoff < y && xv[x-1] == yv[y-1] {
				x--
				y--
			}
			bd[o+d] = x
			if !odd && fmin <= d && d <= fmax && x <= fd[o+d] {
				return x, y, true, true
			}
		}
		if minimal || c < an.tooExpensive {
			continue
		}
		fxybest, fxbest := -1, 0
		for d := fmax; d >= fmin; d -= 2 {
			x := min(fd[o+d], xlim)
			y := x - d
			if ylim < y {
				x, y = ylim+d, ylim
			}
			if fxybest < x+y {
				fxybest, fxbest = x+y, x
			}
		}
		bxybest, bxbest := maxInt, 0
		for d := bmax; d >= bmin; d -= 2 {
			x := max(xoff, bd[o+d])
			y := x - d
			if y < yoff {
				x, y = yoff+d, yoff
			}
			if x+y < bxybest {
				bxybest, bxbest = x+y, x
			}
		}
		if (xlim+ylim)-bxybest < fxybest-(xoff+yoff) {
			return fxbest, fxybest - fxbest, true, false
		}
		return bxbest, bxybest - bxbest, false, true
	}
}

// shiftBoundaries slides each run of changed lines back while the line
// before it equals its last line, then forward while its first line
// equals the line after it, merging runs, and finally back again to line
// up with a run of changes in the other file where it can (GNU's
// shift_boundaries).
func (an *analysis) shiftBoundaries() {
	for f := range 2 {
		ch := an.changed[f][1:]  // ch[-1] is an.changed[f][0]
		other := an.changed[1-f] // other[j+1] is line j
		oc := func(j int) bool { return other[j+1] }
		eq := an.equivs[f]
		iEnd := len(eq)
		at := func(i int) bool { return an.changed[f][i+1] }
		i, j := 0, 0
		for {
			for i < iEnd && !ch[i] {
				for oc(j) {
					j++
				}
				j++
				i++
			}
			if i == iEnd {
				break
			}
			start := i
			i++
			for at(i) {
				i++
			}
			for oc(j) {
				j++
			}
			var runlength, corresponding int
			for {
				runlength = i - start
				for start > 0 && eq[start-1] == eq[i-1] {
					start--
					ch[start] = true
					i--
					ch[i] = false
					for at(start - 1) {
						start--
					}
					j--
					for oc(j) {
						j--
					}
				}
				corresponding = iEnd
				if oc(j - 1) {
					corresponding = i
				}
				for i != iEnd && eq[start] == eq[i] {
					ch[start] = false
					start++
					ch[i] = true
					i++
					for at(i) {
						i++
					}
					j++
					for oc(j) {
						j++
						corresponding = i
					}
				}
				if runlength == i-start {
					break
				}
			}
			for corresponding < i {
				start--
				ch[start] = true
				i--
				ch[i] = false
				j--
				for oc(j) {
					j--
				}
			}
		}
	}
}
