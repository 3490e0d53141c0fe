// Package wasmtick instruments a WebAssembly module so that compiled code
// returns to the host every so many loop iterations, cheaply.
//
// Why: the Go runtime cannot preempt a goroutine that runs wazero-compiled
// code, so a guest that spins would block every stop-the-world of the host
// (its GC) until it returned to Go, and the timer meant to stop it could not
// run: the host process would hang. wazero's WithCloseOnContextDone solves
// that by leaving compiled code for Go at every loop back-edge, which made
// the guest many times slower (RATIONALE.md, "Timeouts", has the figures).
// Instrumented code instead counts down a global at the top of every loop
// and calls one imported host function when the count reaches zero. That call is the host's
// preemption point and its chance to end a guest that must stop; between
// calls the guest runs at full speed.
//
// Instrument adds a check where control enters a loop:
//
//	global.get $ticks ; i32.const 1 ; i32.sub ; global.set $ticks
//	global.get $ticks ; i32.eqz
//	if
//	  call $tick ; i32.const interval ; global.set $ticks
//	end
//
// $ticks is a new mutable i32 global appended after the module's own, and
// $tick is a function the module already imports (the guest declares it
// with go:wasmimport), so no index in the module moves. The check is
// stack-neutral. It goes before the loop instruction (falling into the
// loop) and before every branch instruction that can branch back to the
// loop's start (br, br_if, br_table), which is the same as a check at the
// top of the body, with one exception, below. Every non-leaf function Go
// compiles to wasm has a loop (its dispatch), so calls, recursion
// included, count too: no code runs long without a tick. The result
// carries a custom section named Marker.
//
// The exception: Go's wasm backend compiles a function to one dispatch
// loop (type dispatch) and makes most of its jumps, forward ones included,
// by setting the dispatch's local to a constant and branching to the
// loop's start. A branch whose target segment is later in the body than the
// segment it is made from cannot repeat without a backward jump, which is
// checked, so it gets no check. Only the exact sequence "i32.const K;
// local.set X; br" to a loop of that shape, with X the local its br_table
// reads, is taken as such a jump; anything else is checked. In a JavaScript
// loop, checks at forward jumps were 9% of the guest's time.
//
// Such a jump then also skips the detour: instead of branching to the
// loop's start, where br_table reads the local back and branches to the
// end of the block that the target segment follows, it branches to that
// block's end directly (the block is still open, since its segment comes
// later). The local is still set, so the state is the same. The br_table
// is an indirect jump, which the processor predicts poorly: going around
// it made a JavaScript loop 16% faster and a sort 13%. For the same
// reason the br_table gets, in front of it, a direct branch for X = 0,
// which is how every call starts: "local.get X; i32.eqz; br_if" to the
// label br_table has for 0 (unless that label is the loop itself): a
// further 8% off the JavaScript loop, 7% off a recursive function.
//
// Between two checks, then, one activation of a function only moves
// forward through its body (structured code, forward jumps), and every
// call enters a function (a check) or runs straight-line code: the work
// between ticks is bounded by the code's size, not by its input.
package wasmtick

import (
	"encoding/binary"
	"errors"
	"fmt"

	"github.com/cordonhq/cordon/internal/wasmbin"
)

// Marker names the custom section that marks an instrumented module.
const Marker = "cordon.wasmtick"

// Stats counts what Instrument found and did. The counts follow the shape
// of the code the toolchain emits: a dispatch loop is how Go's wasm backend
// compiles every non-leaf function, so few of them, or few forward jumps,
// means that shape has changed and Instrument has lost its fast paths.
type Stats struct {
	// Loops is how many loops the module's code has.
	Loops int
	// Dispatches is how many of them have the shape of Go's dispatch loop.
	Dispatches int
	// Checks is how many checks Instrument inserted: one where control
	// falls into each loop, and one before each branch back to a loop.
	Checks int
	// ForwardJumps is how many jumps through a dispatch to a later segment
	// became direct branches, without a check.
	ForwardJumps int
	// DirectEntries is how many dispatches got a direct branch for a call's
	// start (X = 0) in front of their br_table.
	DirectEntries int
}

// Instrument returns wasm with every loop counting down to a call of the
// imported function module.name, which must have type () -> (), and what
// it did.
func Instrument(wasm []byte, module, name string, interval uint32) ([]byte, Stats, error) {
	var st Stats
	if interval == 0 || interval > 1<<30 {
		return nil, st, fmt.Errorf("wasmtick: interval %d out of range", interval)
	}
	secs, err := wasmbin.Sections(wasm)
	if err != nil {
		return nil, st, err
	}
	var (
		tick      = -1
		nGlobals  uint32
		haveGlobs bool
	)
	for _, s := range secs {
		switch s.ID {
		case 0:
			if n, _, ok := wasmbin.Name(s.Body); ok && n == Marker {
				return nil, st, errors.New("wasmtick: module is already instrumented")
			}
		case 2:
			if tick, err = findImport(s.Body, module, name); err != nil {
				return nil, st, err
			}
		case 6:
			n, _, err := wasmbin.U32(s.Body, 0)
			if err != nil {
				return nil, st, fmt.Errorf("wasmtick: global section: %w", err)
			}
			nGlobals, haveGlobs = n, true
		}
	}
	if tick < 0 {
		return nil, st, fmt.Errorf("wasmtick: the module does not import %s.%s", module, name)
	}
	// Imported globals come first in the index space.
	for _, s := range secs {
		if s.ID == 2 {
			g, err := countImportedGlobals(s.Body)
			if err != nil {
				return nil, st, err
			}
			nGlobals += g
		}
	}
	check := checkSequence(nGlobals, uint32(tick), interval)
	out := append([]byte(nil), wasm[:8]...)
	wroteGlobal := false
	emit := func(id byte, body []byte) { out = wasmbin.AppendSection(out, id, body) }
	newGlobal := func() []byte {
		// (global (mut i32) (i32.const interval))
		g := []byte{0x7f, 0x01, 0x41}
		g = wasmbin.AppendSleb(g, int64(interval))
		return append(g, 0x0b)
	}
	for _, s := range secs {
		switch {
		case s.ID == 6:
			n, off, _ := wasmbin.U32(s.Body, 0)
			body := binary.AppendUvarint(nil, uint64(n+1))
			body = append(body, s.Body[off:]...)
			body = append(body, newGlobal()...)
			emit(6, body)
			wroteGlobal = true
		case s.ID == 10:
			body, err := instrumentCode(s.Body, check, &st)
			if err != nil {
				return nil, st, err
			}
			emit(10, body)
		case !haveGlobs && !wroteGlobal && s.ID >= 7:
			// No global section: put one before the first later section.
			emit(6, append([]byte{1}, newGlobal()...))
			wroteGlobal = true
			emit(s.ID, s.Body)
		default:
			emit(s.ID, s.Body)
		}
	}
	if !wroteGlobal {
		return nil, st, errors.New("wasmtick: module has no section to place the counter before")
	}
	marker := binary.AppendUvarint(nil, uint64(len(Marker)))
	marker = append(marker, Marker...)
	marker = binary.AppendUvarint(marker, uint64(interval))
	emit(0, marker)
	return out, st, nil
}

// IsInstrumented reports whether wasm carries the Marker section.
func IsInstrumented(wasm []byte) bool {
	secs, err := wasmbin.Sections(wasm)
	if err != nil {
		return false
	}
	for _, s := range secs {
		if s.ID == 0 {
			if n, _, ok := wasmbin.Name(s.Body); ok && n == Marker {
				return true
			}
		}
	}
	return false
}

func checkSequence(global, tick, interval uint32) []byte {
	var b []byte
	gget := func() { b = append(b, 0x23); b = binary.AppendUvarint(b, uint64(global)) }
	gset := func() { b = append(b, 0x24); b = binary.AppendUvarint(b, uint64(global)) }
	gget()
	b = append(b, 0x41, 0x01, 0x6b) // i32.const 1; i32.sub
	gset()
	gget()
	b = append(b, 0x45, 0x04, 0x40) // i32.eqz; if (no result)
	b = append(b, 0x10)             // call $tick
	b = binary.AppendUvarint(b, uint64(tick))
	b = append(b, 0x41)
	b = wasmbin.AppendSleb(b, int64(interval))
	gset()
	return append(b, 0x0b) // end
}

// findImport returns the function index of the import module.name.
func findImport(b []byte, module, name string) (int, error) {
	found := -1
	err := wasmbin.Imports(b, func(mod, nm string, kind byte, funcIndex int) {
		if kind == wasmbin.ImportFunc && mod == module && nm == name && found < 0 {
			found = funcIndex
		}
	})
	return found, err
}

func countImportedGlobals(b []byte) (uint32, error) {
	var n uint32
	err := wasmbin.Imports(b, func(_, _ string, kind byte, _ int) {
		if kind == wasmbin.ImportGlobal {
			n++
		}
	})
	return n, err
}

// instrumentCode copies the code section, inserting check where control
// enters every loop, and adds what it did to st.
func instrumentCode(b []byte, check []byte, st *Stats) ([]byte, error) {
	count, pos, err := wasmbin.U32(b, 0)
	if err != nil {
		return nil, fmt.Errorf("wasmtick: code section: %w", err)
	}
	out := binary.AppendUvarint(make([]byte, 0, len(b)+len(b)/8), uint64(count))
	var fn []byte
	for i := uint32(0); i < count; i++ {
		size, n, err := wasmbin.U32(b, pos)
		if err != nil {
			return nil, fmt.Errorf("wasmtick: function %d: %w", i, err)
		}
		pos += n
		end := pos + int(size)
		if end > len(b) {
			return nil, fmt.Errorf("wasmtick: function %d runs past the code section", i)
		}
		fn, err = instrumentBody(fn[:0], b[pos:end], check, st)
		if err != nil {
			return nil, fmt.Errorf("wasmtick: function %d: %w", i, err)
		}
		out = binary.AppendUvarint(out, uint64(len(fn)))
		out = append(out, fn...)
		pos = end
	}
	if pos != len(b) {
		return nil, errors.New("wasmtick: code section: trailing bytes")
	}
	return out, nil
}

func instrumentBody(out, b, check []byte, st *Stats) ([]byte, error) {
	pos, err := wasmbin.SkipLocals(b)
	if err != nil {
		return nil, err
	}
	out = append(out, b[:pos]...)
	var (
		stack []frame
		// How much of the pattern "i32.const K; local.set X; br" (a
		// jump through a dispatch) the instructions just before the
		// current one are: 0 none, 1 the const, 2 both.
		seen   int
		constK int64
		setX   uint32
	)
	var entry *dispatch // the dispatch whose br_table comes next
	for pos < len(b) {
		start := pos
		op := b[pos]
		if pos, err = wasmbin.Instruction(b, start); err != nil {
			return nil, err
		}
		if entry != nil && start == entry.at && int64(entry.table[0]) < int64(entry.blocks) {
			// A call that starts the function (X = 0, by far the most
			// common entry) branches where br_table would send it, by a
			// direct branch rather than br_table's indirect one.
			out = append(out, 0x20)
			out = binary.AppendUvarint(out, uint64(entry.local))
			out = append(out, 0x45, 0x0d) // i32.eqz; br_if
			out = binary.AppendUvarint(out, uint64(entry.table[0]))
			st.DirectEntries++
		}
		if entry != nil && start >= entry.at {
			entry = nil
		}
		switch op {
		case 0x02, 0x04: // block, if
			var f frame
			if op == 0x02 && len(stack) > 0 {
				// The blocks that open a dispatch loop come first in its
				// body, one inside the other.
				if d := stack[len(stack)-1].dispatchOrOf(); d != nil && d.opened < d.blocks {
					d.opened++
					f.of = d
					f.seg = d.blocks - d.opened // the first opened is the outermost
				}
			}
			stack = append(stack, f)
		case 0x03: // loop
			// The check runs where control enters the loop: here, falling
			// in, and before every branch back to it.
			out = append(out, check...)
			out = append(out, b[start:pos]...)
			entry = parseDispatch(b, pos)
			st.Loops++
			st.Checks++
			if entry != nil {
				st.Dispatches++
			}
			stack = append(stack, frame{loop: true, dispatch: entry})
			seen = 0
			continue
		case 0x0b: // end
			if len(stack) > 0 {
				if d := stack[len(stack)-1].of; d != nil {
					d.ended++
				}
				stack = stack[:len(stack)-1]
			}
		case 0x0c, 0x0d: // br, br_if
			l, _, _ := wasmbin.U32(b, start+1)
			if f := target(stack, l); f != nil && f.loop {
				if op == 0x0c && seen == 2 && f.dispatch != nil {
					if seg, ok := f.dispatch.forward(constK, setX); ok {
						if l, ok := segmentLabel(stack, f.dispatch, seg); ok {
							// No check, and no detour through the loop's
							// br_table: a branch to the end of the block
							// that the segment follows.
							out = append(out, 0x0c)
							out = binary.AppendUvarint(out, uint64(l))
							st.ForwardJumps++
							seen = 0
							continue
						}
					}
				}
				out = append(out, check...)
				st.Checks++
			}
		case 0x0e: // br_table
			k, m, _ := wasmbin.U32(b, start+1)
			for p, i := start+1+m, uint32(0); i <= k; i++ {
				l, m, _ := wasmbin.U32(b, p)
				p += m
				if f := target(stack, l); f != nil && f.loop {
					out = append(out, check...)
					st.Checks++
					break
				}
			}
		}
		// Remember i32.const K and local.set X for the pattern above.
		switch op {
		case 0x41:
			seen = 1
			constK, _ = sleb32(b[start+1 : pos])
		case 0x21:
			if seen == 1 {
				seen = 2
				setX, _, _ = wasmbin.U32(b, start+1)
			} else {
				seen = 0
			}
		default:
			seen = 0
		}
		out = append(out, b[start:pos]...)
	}
	return out, nil
}

// A frame is an open block, loop or if.
type frame struct {
	loop     bool
	dispatch *dispatch // a loop that is a Go dispatch loop
	of       *dispatch // one of the blocks that open that loop's body
	seg      int       // for those blocks, the segment that follows the block's end
}

func (f frame) dispatchOrOf() *dispatch {
	if f.dispatch != nil {
		return f.dispatch
	}
	return f.of
}

// target returns the frame a branch to label l leaves to, or nil for the
// function's own label.
func target(stack []frame, l uint32) *frame {
	if int64(l) >= int64(len(stack)) {
		return nil
	}
	return &stack[len(stack)-1-int(l)]
}

// dispatch describes a loop whose body opens with blocks nested one inside
// the other followed by local.get X; br_table: the shape in which Go's wasm
// backend compiles every function. The code after the end of the block d
// levels in from the innermost is segment d, so br_table's label for a
// value of X names the segment that value jumps to, and segments follow
// one another in the body in order. Go jumps within a function by
// "i32.const K; local.set X; br <the loop>": a jump to a later segment than
// the one it is made from is a forward jump, which cannot repeat without a
// backward jump, so it needs no check; every other entry to the loop does.
type dispatch struct {
	at     int // the offset of its local.get in the body
	local  uint32
	table  []uint32 // the br_table's labels, the default last
	blocks int      // how many blocks open the body
	opened int      // how many of them the scan has passed
	ended  int      // how many of them have ended
}

// parseDispatch returns the loop body at pos as a dispatch, or nil when it
// does not have the shape.
func parseDispatch(b []byte, pos int) *dispatch {
	d := &dispatch{}
	for pos+1 < len(b) && b[pos] == 0x02 && b[pos+1] == 0x40 {
		d.blocks++
		pos += 2
	}
	if d.blocks == 0 || pos >= len(b) || b[pos] != 0x20 {
		return nil
	}
	x, m, err := wasmbin.U32(b, pos+1)
	if err != nil {
		return nil
	}
	d.local, d.at = x, pos
	pos += 1 + m
	if pos >= len(b) || b[pos] != 0x0e {
		return nil
	}
	k, m, err := wasmbin.U32(b, pos+1)
	if err != nil || int64(k) >= int64(len(b)) {
		return nil
	}
	pos += 1 + m
	for range k + 1 {
		l, m, err := wasmbin.U32(b, pos)
		if err != nil {
			return nil
		}
		pos += m
		d.table = append(d.table, l)
	}
	return d
}

// forward reports whether local.set x of k, then a branch to the loop, from
// the code the scan is in now, jumps to a later segment, and which.
func (d *dispatch) forward(k int64, x uint32) (int, bool) {
	if x != d.local || d.ended == 0 || d.ended > d.blocks {
		return 0, false // before the first segment (the br_table itself), or after the last
	}
	i := uint64(uint32(k)) // br_table reads X as unsigned
	if i >= uint64(len(d.table)) {
		i = uint64(len(d.table) - 1)
	}
	seg := int64(d.table[i])
	return int(seg), seg < int64(d.blocks) && seg > int64(d.ended-1)
}

// segmentLabel returns the label, from the top of stack, of the block of d
// whose end segment seg follows. A later segment's block is still open in
// a well-formed body; if it is not, ok is false.
func segmentLabel(stack []frame, d *dispatch, seg int) (label int, ok bool) {
	for i := len(stack) - 1; i >= 0; i-- {
		if stack[i].of == d && stack[i].seg == seg {
			return len(stack) - 1 - i, true
		}
	}
	return 0, false
}

// sleb32 decodes the signed LEB128 number that is all of b.
func sleb32(b []byte) (int64, bool) {
	var v int64
	var shift uint
	for i, c := range b {
		v |= int64(c&0x7f) << shift
		shift += 7
		if c&0x80 == 0 {
			if shift < 64 && c&0x40 != 0 {
				v |= -1 << shift
			}
			return int64(int32(v)), i == len(b)-1
		}
	}
	return 0, false
}
