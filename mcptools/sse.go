package mcptools

import "io"

// sseFilter is frameReader for a stream of server-sent events (the
// streamable HTTP transport's answers): an event longer than limit bytes
// is read to its end and dropped, and its data, when they held responses,
// is replaced by an error response to each (msgScanner.replacement); its
// other lines (id, event, retry) are kept. An event within the limit passes
// unchanged once it is complete. Lines end at "\n", as the SDK's reader
// reads them.
type sseFilter struct {
	r     io.Reader
	limit int
	nonce string

	buf []byte
	out []byte
	err error

	// The event being read.
	held []byte // its bytes, while it is within the limit
	size int
	over bool
	kept []byte // over: its lines that are not data
	scan msgScanner

	// The line being read.
	lineLen  int    // its bytes but "\r"
	field    []byte // its field name, up to ':'
	inValue  bool   // past the ':'
	isData   bool
	line     []byte // over: a line that is not data, as it comes
	lineLong bool
}

// Bounds of what an oversized event keeps of its other lines.
const (
	maxSSELine = 4 << 10
	maxSSEKept = 16 << 10
)

func newSSEFilter(r io.Reader, limit int, nonce string) *sseFilter {
	return &sseFilter{r: r, limit: limit, nonce: nonce, buf: make([]byte, 32<<10)}
}

// Read implements [io.Reader].
func (f *sseFilter) Read(p []byte) (int, error) {
	for len(f.out) == 0 {
		if f.err != nil {
			return 0, f.err
		}
		n, err := f.r.Read(f.buf)
		for _, c := range f.buf[:n] {
			f.byte(c)
		}
		if err != nil {
			if !f.over {
				f.out = append(f.out, f.held...)
			}
			f.held = nil
			f.err = err
		}
	}
	n := copy(p, f.out)
	f.out = f.out[n:]
	if len(f.out) == 0 {
		f.out = nil
	}
	return n, nil
}

func (f *sseFilter) byte(c byte) {
	f.size++
	if f.over {
		f.overByte(c)
	} else {
		f.held = append(f.held, c)
	}
	end := f.lineByte(c)
	if !f.over && !end && f.size > f.limit {
		f.startOver()
	}
	if end {
		f.endEvent()
	}
}

// lineByte follows the line structure; it reports whether c ends the
// event (it ends a blank line).
func (f *sseFilter) lineByte(c byte) bool {
	switch {
	case c == '\n':
		blank := f.lineLen == 0
		f.lineLen, f.field, f.inValue, f.isData = 0, f.field[:0], false, false
		return blank
	case c == '\r':
	case !f.inValue && c == ':':
		f.lineLen++
		f.inValue = true
		f.isData = string(f.field) == "data"
	default:
		f.lineLen++
		if !f.inValue && len(f.field) < 16 {
			f.field = append(f.field, c)
		}
	}
	return false
}

// overByte takes c of an oversized event, with the line state as it was
// before c: data goes to the scanner, other lines to kept.
func (f *sseFilter) overByte(c byte) {
	switch {
	case f.isData && c == '\n':
		f.scan.byte('\n')
		f.line, f.lineLong = f.line[:0], false
	case f.isData:
		f.scan.byte(c)
	case c == '\n':
		if f.lineLen > 0 && !f.lineLong && len(f.kept)+len(f.line)+1 <= maxSSEKept {
			f.kept = append(append(f.kept, f.line...), '\n')
		}
		f.line, f.lineLong = f.line[:0], false
	case len(f.line) < maxSSELine:
		f.line = append(f.line, c)
	default:
		f.lineLong = true
	}
}

// startOver turns the event into an oversized one: what was held of it is
// taken again as an oversized event's bytes.
func (f *sseFilter) startOver() {
	f.over = true
	f.scan, f.kept = msgScanner{}, f.kept[:0]
	f.line, f.lineLong = f.line[:0], false
	held := f.held
	f.held = nil
	f.lineLen, f.field, f.inValue, f.isData = 0, nil, false, false
	for _, c := range held {
		f.overByte(c)
		f.lineByte(c)
	}
}

// endEvent passes the event on, or its replacement.
func (f *sseFilter) endEvent() {
	if !f.over {
		f.out = append(f.out, f.held...)
		f.held = f.held[:0]
	} else {
		f.out = append(f.out, f.kept...)
		if rep := f.scan.replacement(f.limit, f.nonce); len(rep) > 0 {
			// One event per response: the SDK reads one message from
			// the data of an event.
			for i, msg := range splitLines(rep) {
				if i > 0 {
					f.out = append(f.out, "\n"...)
				}
				f.out = append(append(append(f.out, "data: "...), msg...), '\n')
			}
		}
		f.out = append(f.out, '\n')
		f.over, f.kept, f.line = false, nil, nil
	}
	f.size = 0
}

// splitLines splits b at its newlines.
func splitLines(b []byte) [][]byte {
	var out [][]byte
	for len(b) > 0 {
		i := 0
		for i < len(b) && b[i] != '\n' {
			i++
		}
		out = append(out, b[:i])
		if i < len(b) {
			i++
		}
		b = b[i:]
	}
	return out
}
