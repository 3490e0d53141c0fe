package mcptools

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
)

// tooLargeCode is the JSON-RPC error code of the response that stands for
// a message over the frame limit: one of the codes JSON-RPC leaves to
// implementations (-32000 to -32099).
const tooLargeCode = -32099

// errNotJSONRPC is the read error of a stream that holds something other
// than JSON-RPC messages (a log line on stdout, say): the connection ends,
// and the server is reconnected.
var errNotJSONRPC = errors.New("mcptools: the server wrote something that is not a JSON-RPC message")

// frameReader reads an upstream server's stream of JSON-RPC messages (JSON
// values, one after another) and passes them through, except that a value
// longer than limit bytes is not: it is read to its end and dropped, and
// when it answered requests (a response, or a batch of them), it is
// replaced by an error response to each, whose code is tooLargeCode and
// whose data carries nonce (so that the server cannot forge one). A value
// is held until it is complete, so no more than limit bytes of a message
// are ever kept, and the connection outlives the message.
type frameReader struct {
	r     io.Reader
	limit int
	nonce string

	buf  []byte // read from r, not yet processed
	out  []byte // processed, ready for Read
	held []byte // the value being read, while it is within the limit
	err  error  // what r returned last; given out once out is empty

	inValue bool
	over    bool // the value passed the limit: it is scanned, not held
	size    int  // the value's bytes so far
	depth   int
	inStr   bool
	esc     bool
	scan    msgScanner
}

func newFrameReader(r io.Reader, limit int, nonce string) *frameReader {
	return &frameReader{r: r, limit: limit, nonce: nonce, buf: make([]byte, 32<<10)}
}

// Read implements [io.Reader].
func (f *frameReader) Read(p []byte) (int, error) {
	for len(f.out) == 0 {
		if f.err != nil {
			return 0, f.err
		}
		n, err := f.r.Read(f.buf)
		if perr := f.process(f.buf[:n]); perr != nil {
			f.err = perr
		} else if err != nil {
			// An unfinished value goes on as it is: the reader of the
			// stream reports it cut short.
			f.out = append(f.out, f.held...)
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

// process moves the bytes of p to out (whitespace between values, and
// values within the limit once they are complete) or drops them (a value
// over the limit, whose replacement goes to out when it ends).
func (f *frameReader) process(p []byte) error {
	for i := 0; i < len(p); {
		if !f.inValue {
			c := p[i]
			switch c {
			case ' ', '\t', '\n', '\r':
				f.out = append(f.out, c)
				i++
				continue
			case '{', '[':
				f.inValue, f.over, f.size, f.depth = true, false, 0, 0
			default:
				return errNotJSONRPC
			}
		}
		// Inside a value: find where it ends, or the end of p.
		j := i
		end := false
		for j < len(p) && !end {
			c := p[j]
			if f.inStr {
				switch {
				case f.esc:
					f.esc = false
				case c == '\\':
					f.esc = true
				case c == '"':
					f.inStr = false
				default:
					// Skip to the next quote or backslash at once.
					if k := bytes.IndexAny(p[j:], `"\`); k > 0 {
						j += k
						continue
					} else if k < 0 {
						j = len(p)
						continue
					}
				}
				j++
				continue
			}
			switch c {
			case '"':
				f.inStr = true
			case '{', '[':
				f.depth++
			case '}', ']':
				f.depth--
				end = f.depth == 0
			}
			j++
		}
		chunk := p[i:j]
		f.size += len(chunk)
		if !f.over && f.size > f.limit {
			f.over = true
			f.scan = msgScanner{}
			f.scan.feed(f.held)
			if cap(f.held) > 1<<20 {
				f.held = nil // do not keep a large buffer for the next value
			}
			f.held = f.held[:0]
		}
		if f.over {
			f.scan.feed(chunk)
		} else {
			f.held = append(f.held, chunk...)
		}
		i = j
		if end {
			f.inValue = false
			if f.over {
				f.out = append(f.out, f.scan.replacement(f.limit, f.nonce)...)
			} else if len(f.out) == 0 {
				f.out, f.held = f.held, f.out[:0]
			} else {
				f.out = append(f.out, f.held...)
				f.held = f.held[:0]
			}
		}
	}
	return nil
}

// tooLargeMessage is the message of the error response that replaces a
// message over limit bytes.
func tooLargeMessage(limit int) string {
	return fmt.Sprintf("the server's message is over the limit of %d bytes", limit)
}

// msgScanner reads the JSON of one oversized message (or batch of them)
// as it streams, and keeps what a replacement needs: for each message
// object, its id and whether it has a method (a request or notification
// from the server, which needs no replacement).
type msgScanner struct {
	depth    int
	msgDepth int // the depth of message objects: 1, or 2 in a batch
	inStr    bool
	esc      bool

	inMsg     bool
	state     scanState
	key       []byte
	keyLong   bool
	isID      bool
	isMethod  bool
	val       []byte
	valLong   bool
	id        []byte
	hasMethod bool

	found []msgID
}

// msgID is what the scanner found of one message.
type msgID struct {
	id        []byte
	hasMethod bool
}

type scanState uint8

const (
	expectKey scanState = iota
	inKey
	afterKey
	expectValue
	inStrValue
	inScalar
	inContainer
	afterValue
)

// Bounds of what the scanner keeps: an id longer than maxIDLen (a real
// one is a short number or string) is not answered, nor more than
// maxBatch messages of a batch.
const (
	maxKeyLen = 16
	maxIDLen  = 128
	maxBatch  = 1024
)

func (s *msgScanner) atMsg() bool { return s.inMsg && s.depth == s.msgDepth }

func (s *msgScanner) feed(p []byte) {
	for _, c := range p {
		s.byte(c)
	}
}

func (s *msgScanner) keep(c byte) {
	switch s.state {
	case inKey:
		if len(s.key) < maxKeyLen {
			s.key = append(s.key, c)
		} else {
			s.keyLong = true
		}
	case inStrValue, inScalar:
		if !s.isID {
			return
		}
		if len(s.val) < maxIDLen {
			s.val = append(s.val, c)
		} else {
			s.valLong = true
		}
	}
}

func (s *msgScanner) byte(c byte) {
	if s.inStr {
		closing := !s.esc && c == '"'
		if s.atMsg() && !(closing && s.state == inKey) {
			s.keep(c)
		}
		switch {
		case s.esc:
			s.esc = false
		case c == '\\':
			s.esc = true
		case closing:
			s.inStr = false
			if s.atMsg() {
				s.endString()
			}
		}
		return
	}
	switch c {
	case ' ', '\t', '\n', '\r':
		s.endScalar()
	case '"':
		s.inStr = true
		if !s.atMsg() {
			return
		}
		switch s.state {
		case expectKey:
			s.state, s.key, s.keyLong = inKey, s.key[:0], false
		case expectValue:
			s.state, s.val, s.valLong = inStrValue, s.val[:0], false
			s.keep('"')
		}
	case '{', '[':
		s.endScalar()
		if s.atMsg() && s.state == expectValue {
			s.state = inContainer
			if s.isMethod {
				s.hasMethod = true
			}
		}
		s.depth++
		if s.depth == 1 {
			s.msgDepth = 1
			if c == '[' {
				s.msgDepth = 2
			}
		}
		if s.depth == s.msgDepth && c == '{' {
			s.inMsg, s.state, s.id, s.hasMethod = true, expectKey, nil, false
		}
	case '}', ']':
		s.endScalar()
		if s.atMsg() {
			if len(s.found) < maxBatch {
				s.found = append(s.found, msgID{id: s.id, hasMethod: s.hasMethod})
			}
			s.inMsg = false
		}
		s.depth--
		if s.atMsg() && s.state == inContainer {
			s.state = afterValue
		}
	case ':':
		if s.atMsg() && s.state == afterKey {
			s.state = expectValue
		}
	case ',':
		s.endScalar()
		if s.atMsg() {
			s.state = expectKey
		}
	default:
		if s.atMsg() && (s.state == expectValue || s.state == inScalar) {
			if s.state == expectValue {
				s.state, s.val, s.valLong = inScalar, s.val[:0], false
			}
			s.keep(c)
		}
	}
}

// endString ends a string at the message's level: a key or a value.
func (s *msgScanner) endString() {
	switch s.state {
	case inKey:
		name := string(s.key)
		if bytes.IndexByte(s.key, '\\') >= 0 {
			// A key written with escapes reads as what it stands for.
			var k string
			if json.Unmarshal([]byte(`"`+name+`"`), &k) == nil {
				name = k
			}
		}
		// encoding/json, which the SDK reads messages with, matches
		// keys regardless of case.
		s.isID = !s.keyLong && strings.EqualFold(name, "id")
		s.isMethod = !s.keyLong && strings.EqualFold(name, "method")
		s.state = afterKey
	case inStrValue:
		s.endValue()
	}
}

// endScalar ends a number or literal at the message's level.
func (s *msgScanner) endScalar() {
	if s.atMsg() && s.state == inScalar {
		s.endValue()
	}
}

func (s *msgScanner) endValue() {
	if s.isID {
		s.id = nil
		if !s.valLong && len(s.val) > 0 && s.val[0] != 'n' { // not null
			s.id = append([]byte(nil), s.val...)
		}
	}
	if s.isMethod {
		s.hasMethod = true
	}
	s.state = afterValue
}

// replacement returns the messages that stand for the scanned one: an
// error response to each response it held, or nothing.
func (s *msgScanner) replacement(limit int, nonce string) []byte {
	var out []byte
	data, _ := json.Marshal(map[string]any{"cordon": "too_large", "limit": limit, "nonce": nonce})
	for _, m := range s.found {
		if m.hasMethod || m.id == nil || !validID(m.id) {
			continue
		}
		if len(out) > 0 {
			out = append(out, '\n')
		}
		msg, _ := json.Marshal(map[string]any{
			"jsonrpc": "2.0",
			"id":      json.RawMessage(m.id),
			"error":   map[string]any{"code": tooLargeCode, "message": tooLargeMessage(limit), "data": json.RawMessage(data)},
		})
		out = append(out, msg...)
	}
	return out
}

// validID reports whether b is a JSON-RPC id: a number or a string.
func validID(b []byte) bool {
	if !json.Valid(b) {
		return false
	}
	return b[0] == '"' || b[0] == '-' || b[0] >= '0' && b[0] <= '9'
}
