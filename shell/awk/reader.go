package awk

import (
	"bytes"
	"context"
	"io"
	"regexp"

	"github.com/cordonhq/cordon/shell/command"
)

// rsMode is how records are separated.
type rsMode uint8

const (
	rsByte  rsMode = iota // a single byte, newline by default
	rsPara                // RS == "": blank-line separated paragraphs
	rsRegex               // RS longer than one character: a regex (as gawk)
)

// recordSep is a compiled RS.
type recordSep struct {
	mode rsMode
	c    byte
	re   *regexp.Regexp
	rest *regexp.Regexp // re where "^" matches nowhere, after the first record
}

const readChunk = 64 << 10

// recReader splits a stream into records.
type recReader struct {
	r       io.Reader
	closer  io.Closer
	cmd     io.Closer // the closer given, kept after close
	buf     []byte
	start   int  // start of unread data in buf
	end     int  // end of data in buf
	scanned int  // bytes after start already searched for sepByte
	sepByte byte // the single-byte RS that scanned refers to
	eof     bool
	err     error
	started bool // a record has been read: "^" of a regex RS no longer matches
}

func newRecReader(r io.Reader, c io.Closer) *recReader {
	return &recReader{r: r, closer: c, cmd: c, sepByte: '\n'}
}

func (rr *recReader) close() {
	if rr.closer != nil {
		rr.closer.Close()
		rr.closer = nil
	}
}

// fill reads more data, growing the buffer when it is full. It polls ctx.
func (rr *recReader) fill(ctx context.Context) error {
	if err := command.Err(ctx); err != nil {
		return err
	}
	if rr.start > 0 {
		n := copy(rr.buf, rr.buf[rr.start:rr.end])
		rr.end = n
		rr.start = 0
	}
	if rr.end == len(rr.buf) {
		size := 2 * len(rr.buf)
		if size < readChunk {
			size = readChunk
		}
		nb := make([]byte, size)
		copy(nb, rr.buf[:rr.end])
		rr.buf = nb
	}
	for tries := 0; tries < 100; tries++ {
		n, err := rr.r.Read(rr.buf[rr.end:])
		rr.end += n
		if err == io.EOF {
			rr.eof = true
			return nil
		}
		if err != nil {
			rr.eof = true
			rr.err = err
			return err
		}
		if n > 0 {
			return nil
		}
	}
	return io.ErrNoProgress
}

// read returns the next record, or ok == false at the end of the input.
func (rr *recReader) read(ctx context.Context, sep *recordSep) (rec string, ok bool, err error) {
	switch sep.mode {
	case rsPara:
		return rr.readPara(ctx)
	case rsRegex:
		re := sep.re
		if rr.started && sep.rest != nil {
			re = sep.rest
		}
		rec, ok, err = rr.readRegex(ctx, re)
		rr.started = rr.started || ok
		return rec, ok, err
	}
	if sep.c != rr.sepByte {
		rr.scanned = 0
		rr.sepByte = sep.c
	}
	for {
		data := rr.buf[rr.start:rr.end]
		if i := bytes.IndexByte(data[rr.scanned:], sep.c); i >= 0 {
			i += rr.scanned
			rec = string(data[:i])
			rr.start += i + 1
			rr.scanned = 0
			return rec, true, nil
		}
		rr.scanned = len(data)
		if rr.eof {
			rr.scanned = 0
			if len(data) == 0 {
				return "", false, rr.err
			}
			rr.start = rr.end
			return string(data), true, nil
		}
		if err := rr.fill(ctx); err != nil && rr.err == nil {
			return "", false, err
		}
	}
}

// readPara reads a paragraph: records are separated by blank lines and
// leading newlines are skipped.
func (rr *recReader) readPara(ctx context.Context) (string, bool, error) {
	rr.scanned = 0
	for {
		for rr.start < rr.end && rr.buf[rr.start] == '\n' {
			rr.start++
		}
		if rr.start < rr.end || rr.eof {
			break
		}
		if err := rr.fill(ctx); err != nil && rr.err == nil {
			return "", false, err
		}
	}
	from := 0
	for {
		data := rr.buf[rr.start:rr.end]
		if i := bytes.Index(data[from:], []byte("\n\n")); i >= 0 {
			i += from
			rec := string(data[:i])
			rr.start += i + 2
			return rec, true, nil
		}
		if len(data) > 0 {
			from = len(data) - 1
		}
		if rr.eof {
			if len(data) == 0 {
				return "", false, rr.err
			}
			rr.start = rr.end
			return string(bytes.TrimRight(data, "\n")), true, nil
		}
		if err := rr.fill(ctx); err != nil && rr.err == nil {
			return "", false, err
		}
	}
}

// readRegex reads a record terminated by a match of re.
func (rr *recReader) readRegex(ctx context.Context, re *regexp.Regexp) (string, bool, error) {
	rr.scanned = 0
	for {
		data := rr.buf[rr.start:rr.end]
		loc := nonEmptyMatch(re, data)
		// A match that reaches the end of the buffer might grow with more
		// data, so read on unless at the end of the input.
		if loc != nil && (loc[1] < len(data) || rr.eof) {
			rec := string(data[:loc[0]])
			rr.start += loc[1]
			return rec, true, nil
		}
		if rr.eof {
			if len(data) == 0 {
				return "", false, rr.err
			}
			rr.start = rr.end
			return string(data), true, nil
		}
		if err := rr.fill(ctx); err != nil && rr.err == nil {
			return "", false, err
		}
	}
}

// nonEmptyMatch finds the first non-empty match of re in data.
func nonEmptyMatch(re *regexp.Regexp, data []byte) []int {
	off := 0
	for off <= len(data) {
		loc := re.FindIndex(data[off:])
		if loc == nil {
			return nil
		}
		if loc[1] > loc[0] {
			return []int{loc[0] + off, loc[1] + off}
		}
		off += loc[0] + 1
	}
	return nil
}
