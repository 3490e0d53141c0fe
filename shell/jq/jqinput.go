package jq

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"strings"

	"github.com/cordonhq/cordon/shell/command"
)

// jqInputs iterates over the input values of all files, which jq reads as
// one continuous stream; it implements gojq.Iter for input and inputs.
type jqInputs struct {
	env      *command.Env
	o        *jqOptions
	files    []string
	opened   bool
	dec      *jsonDecoder  // JSON mode: the concatenated input
	segments []jqSegment   // JSON mode: where each file starts in dec.data
	raw      *bufio.Reader // -R mode
	closers  []io.Closer
	status   int // 2 after a file could not be read
	// wherePos is the decoder's position after the last value (-1: none),
	// from which where computes "<stdin>:N" for an error message.
	wherePos int
	done     bool
	polls    uint   // Next calls, to check for an interruption every 64th
	name     string // the file of the last value, for input_filename
	// missing reports the files that could not be opened (shared by the
	// saved states, so that a message is written once).
	missing *jqMissing
	// nextNL caches the offset of the first newline at or after the
	// decoder's position, to compute positions in linear time.
	nextNL int
	// rawLines counts the lines read with -R.
	rawLines int
	// lost is set when input or inputs read past the end of an input that
	// does not end with a newline: jq then knows no position.
	lost bool
	// source, when not nil, supplies the values instead of the files (yq's
	// decoded documents): it returns false at the end and an error value
	// for an input that cannot be decoded.
	source func() (any, bool)
}

// jqSegment is one input file within the concatenated input.
type jqSegment struct {
	name  string
	start int
}

// jqMissing holds the messages about the input files that could not be
// opened, each with the place in the concatenated input where the file
// would have been.
type jqMissing struct {
	at   []int
	msgs []string
	next int // the first not yet reported
}

// report writes the messages of the files at or before pos.
func (m *jqMissing) report(w io.Writer, pos int) {
	for m.next < len(m.at) && m.at[m.next] <= pos {
		io.WriteString(w, m.msgs[m.next])
		m.next++
	}
}

// jqMissingReader stands for a file that could not be opened in -R mode:
// it reports it when the reading gets there.
type jqMissingReader struct {
	w    io.Writer
	msg  string
	done bool
}

// Read reports the file once and ends.
func (r *jqMissingReader) Read([]byte) (int, error) {
	if !r.done {
		r.done = true
		io.WriteString(r.w, r.msg)
	}
	return 0, io.EOF
}

// open opens all input files; files that cannot be opened are reported
// when the reading gets to them (jqMissing).
func (in *jqInputs) open() error {
	in.opened = true
	in.missing = &jqMissing{}
	var readers []io.Reader
	var data []byte
	for _, name := range in.files {
		rc, err := in.env.Open(name)
		if err != nil {
			// Reported when the reading gets there, after the values
			// of the files before it, as jq does.
			msg := fmt.Sprintf("jq: error: Could not open file %s: %s\n", name, command.Strerror(err))
			in.status = jqExitUsage
			if in.o.rawInput {
				readers = append(readers, &jqMissingReader{w: in.env.Stderr, msg: msg})
			} else {
				in.missing.at = append(in.missing.at, len(data))
				in.missing.msgs = append(in.missing.msgs, msg)
			}
			continue
		}
		shown := name
		if name == "-" {
			shown = "<stdin>"
		}
		r := command.NewCtxReader(in.env.Ctx, rc)
		if in.o.rawInput {
			readers = append(readers, r)
			in.closers = append(in.closers, rc)
			in.segments = append(in.segments, jqSegment{name: shown})
			continue
		}
		in.segments = append(in.segments, jqSegment{name: shown, start: len(data)})
		b, err := io.ReadAll(r)
		rc.Close()
		if err != nil {
			return err
		}
		data = append(data, b...)
	}
	if in.o.rawInput {
		in.raw = bufio.NewReaderSize(io.MultiReader(readers...), 64<<10)
		if len(in.segments) > 0 {
			in.name = in.segments[0].name
		}
		return nil
	}
	in.dec = &jsonDecoder{data: data, order: in.o.order}
	in.nextNL = -1
	in.wherePos = -1
	return nil
}

// close closes the files of -R mode.
func (in *jqInputs) close() {
	for _, c := range in.closers {
		c.Close()
	}
	in.closers = nil
}

// segmentAt returns the input file that holds the value ending at pos.
func (in *jqInputs) segmentAt(pos int) jqSegment {
	seg := in.segments[0]
	for _, s := range in.segments {
		if s.start < pos || (s.start == pos && pos == 0) {
			seg = s
		}
	}
	return seg
}

// where returns "FILE:LINE" for the last value read, for an error message,
// or "" when none was.
func (in *jqInputs) where() string {
	if in.raw != nil && in.name != "" {
		return fmt.Sprintf("%s:%d", in.name, in.rawLines)
	}
	if in.dec == nil || in.wherePos < 0 {
		return ""
	}
	if in.lost {
		return ""
	}
	d := in.dec
	saved := d.pos
	d.pos = in.wherePos
	s := in.position()
	d.pos = saved
	return s
}

// position returns "FILE:LINE" for the value that ends at the decoder's
// position the way jq reports it: the number of lines of the file read so
// far, counting the line that holds the end of the value when it is
// terminated.
func (in *jqInputs) position() string {
	name, lines := in.positionLine()
	return fmt.Sprintf("%s:%d", name, lines)
}

// lineNumber implements input_line_number: the number of lines read so far
// in the current file.
func (in *jqInputs) lineNumber() int {
	if in.raw != nil {
		return in.rawLines
	}
	if in.dec == nil || in.wherePos < 0 {
		return 0
	}
	d := in.dec
	saved := d.pos
	d.pos = in.wherePos
	_, n := in.positionLine()
	d.pos = saved
	return n
}

// positionLine returns the file and line count of position.
func (in *jqInputs) positionLine() (string, int) {
	d := in.dec
	pos := d.pos
	seg := in.segmentAt(pos)
	if in.nextNL < pos {
		k := bytes.IndexByte(d.data[pos:], '\n')
		if k < 0 {
			in.nextNL = len(d.data)
		} else {
			in.nextNL = pos + k
		}
	}
	lines := d.line() - 1 // newlines before pos
	if in.nextNL < len(d.data) {
		lines++
	}
	// Lines are counted per file.
	if seg.start > 0 {
		saved := d.pos
		d.pos = seg.start
		lines -= d.line() - 1
		d.pos = saved
		d.line()
	}
	return seg.name, lines
}

// Next returns the next input value, or an error value for a parse error.
func (in *jqInputs) Next() (any, bool) {
	if in.done {
		return nil, false
	}
	// A poll costs thousands of instructions in the guest, a small value a
	// few hundred to decode: check every 64th value. gojq itself polls every
	// 64 instructions (yieldingContext), so a filter still stops promptly.
	if in.polls++; in.polls&63 == 1 && in.env.Canceled() {
		in.done = true
		return command.ErrCanceled, true
	}
	if in.source != nil {
		v, ok := in.source()
		if !ok {
			in.done = true
		} else if _, isErr := asJQError(v); isErr {
			in.done = true
		}
		return v, ok
	}
	if !in.opened {
		if err := in.open(); err != nil {
			in.done = true
			return err, true
		}
	}
	if in.raw != nil {
		line, err := in.raw.ReadString('\n')
		if err != nil && err != io.EOF {
			in.done = true
			return err, true
		}
		if line == "" && err == io.EOF {
			in.done = true
			in.close()
			return nil, false
		}
		if strings.HasSuffix(line, "\n") {
			in.rawLines++
		}
		return strings.TrimSuffix(line, "\n"), true
	}
	if in.dec == nil {
		in.done = true
		return nil, false
	}
	d := in.dec
	next := d.pos
	for next < len(d.data) && isJSONSpace(d.data[next]) {
		next++
	}
	in.missing.report(in.env.Stderr, next)
	v, ok, err := in.dec.next()
	if err != nil {
		in.done = true
		in.missing.report(in.env.Stderr, len(d.data))
		return err, true
	}
	if !ok {
		in.done = true
		in.missing.report(in.env.Stderr, len(d.data))
		data := in.dec.data
		in.lost = !in.o.slurp && (len(data) == 0 || data[len(data)-1] != '\n')
		return nil, false
	}
	// The position is worked out only for an error message (where), but
	// input_filename needs the file now.
	in.wherePos = in.dec.pos
	in.name = in.segmentAt(in.wherePos).name
	return v, true
}

// slurp collects all remaining inputs: an array of values, or one string
// with -R.
func (in *jqInputs) slurp() (any, error) {
	if in.o.rawInput {
		if !in.opened {
			if err := in.open(); err != nil {
				return nil, err
			}
		}
		defer in.close()
		var sb strings.Builder
		if in.raw != nil {
			if _, err := io.Copy(&sb, in.raw); err != nil {
				return nil, err
			}
		}
		in.done = true
		in.rawLines = strings.Count(sb.String(), "\n")
		return sb.String(), nil
	}
	vals := []any{}
	for {
		v, ok := in.Next()
		if !ok {
			return vals, nil
		}
		if err, isErr := asJQError(v); isErr {
			return nil, err
		}
		vals = append(vals, v)
	}
}

// jqInputsState is a saved position in the input, to read it again.
type jqInputsState struct {
	in  jqInputs
	dec jsonDecoder
}

// save returns the reading state, or false when the input cannot be read
// again (-R reads a stream).
func (in *jqInputs) save() (jqInputsState, bool) {
	if in.source != nil {
		// The source's values are read once.
		return jqInputsState{}, false
	}
	if !in.opened && !in.o.rawInput {
		// Read the input now, to be able to read it again.
		if err := in.open(); err != nil {
			in.done = true
			return jqInputsState{}, false
		}
	}
	if in.raw != nil || in.dec == nil {
		return jqInputsState{}, false
	}
	st := jqInputsState{in: *in}
	if in.dec != nil {
		st.dec = *in.dec
	}
	return st, true
}

// restore goes back to a saved state.
func (in *jqInputs) restore(st jqInputsState) {
	dec := in.dec
	*in = st.in
	*dec = st.dec
	in.dec = dec
}

// isJSONSpace reports whether c is JSON white space.
func isJSONSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r'
}
