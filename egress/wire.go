package egress

import (
	"bytes"
	"net"
	"net/http"
	"net/textproto"
	"strings"
	"sync"
)

// wireConn is a connection of the tool's own transport that keeps the
// header section of the last HTTP/1.x response read through it, as the
// server wrote it: net/http parses headers into a map, which loses their
// order and the case of their names and drops the framing headers
// (Transfer-Encoding, Trailer), while curl -i prints them as received.
//
// It reads nothing itself: it looks at the bytes net/http reads. A response
// starts after a request was written (net/http's transport never pipelines,
// and returns a connection to its pool only once the last body was read),
// so each write after a complete response starts a new one. Interim (1xx)
// responses are skipped. On anything it does not recognise (a TLS
// connection's ciphertext, an HTTP/2 frame, a header section over the
// transport's limit) it records nothing, and the tool falls back to the
// parsed headers.
type wireConn struct {
	net.Conn

	mu    sync.Mutex
	state wireState
	buf   []byte       // the header section read so far
	last  []headerLine // the last final response's header lines
	proto string       // and its protocol ("HTTP/1.1")
}

type wireState uint8

const (
	wireScanning wireState = iota // reading a response's header section
	wireDone                      // the final response's headers were read
	wireFailed                    // not HTTP/1.x, or too large: nothing to record
)

// headerLine is one header field as the server wrote it.
type headerLine struct{ name, value string }

// maxWireHeader bounds the header section kept; it is the transport's
// MaxResponseHeaderBytes, past which net/http fails the response anyway.
const maxWireHeader = 256 << 10

func newWireConn(c net.Conn) *wireConn { return &wireConn{Conn: c} }

// Write starts a new response after a complete one: the next bytes read
// are the answer to the request written now.
func (c *wireConn) Write(p []byte) (int, error) {
	c.mu.Lock()
	if c.state != wireScanning {
		c.state, c.buf, c.last, c.proto = wireScanning, c.buf[:0], nil, ""
	}
	c.mu.Unlock()
	return c.Conn.Write(p)
}

// Read passes the bytes read to the header scanner.
func (c *wireConn) Read(p []byte) (int, error) {
	n, err := c.Conn.Read(p)
	if n > 0 {
		c.mu.Lock()
		c.scan(p[:n])
		c.mu.Unlock()
	}
	return n, err
}

// scan adds b to the header section being read. The caller holds c.mu.
func (c *wireConn) scan(b []byte) {
	for len(b) > 0 && c.state == wireScanning {
		start := len(c.buf)
		c.buf = append(c.buf, b...)
		if len(c.buf) >= 5 && !bytes.HasPrefix(c.buf, []byte("HTTP/")) || len(c.buf) < 5 && !bytes.HasPrefix([]byte("HTTP/"), c.buf) {
			c.state = wireFailed
			return
		}
		end := headerEnd(c.buf, start)
		if end < 0 {
			if len(c.buf) > maxWireHeader {
				c.state = wireFailed
			}
			return
		}
		block := c.buf[:end]
		rest := b[len(b)-(len(c.buf)-end):]
		proto, interim, lines, ok := parseWireHeader(block)
		switch {
		case !ok:
			c.state = wireFailed
			return
		case interim:
			c.buf = c.buf[:0]
			b = rest
			continue
		}
		c.last, c.proto, c.state = lines, proto, wireDone
		c.buf = c.buf[:0]
		return
	}
}

// headerEnd returns the length of the header section at the start of b,
// its blank line included, or -1 when it has not ended; the search starts a
// few bytes before from, where the last read ended.
func headerEnd(b []byte, from int) int {
	from = max(from-3, 0)
	for i := from; i < len(b); i++ {
		if b[i] != '\n' {
			continue
		}
		if i+1 < len(b) && b[i+1] == '\n' {
			return i + 2
		}
		if i+2 < len(b) && b[i+1] == '\r' && b[i+2] == '\n' {
			return i + 3
		}
	}
	return -1
}

// parseWireHeader reads a response's status line and header fields.
// interim is a 1xx response other than 101, which another response follows.
func parseWireHeader(block []byte) (proto string, interim bool, lines []headerLine, ok bool) {
	text := strings.ReplaceAll(string(block), "\r\n", "\n")
	rows := strings.Split(strings.TrimSuffix(text, "\n\n"), "\n")
	status := strings.Fields(rows[0])
	if len(status) < 2 || !strings.HasPrefix(status[0], "HTTP/1.") || len(status[1]) != 3 {
		return "", false, nil, false
	}
	proto = status[0]
	interim = status[1][0] == '1' && status[1] != "101"
	for _, row := range rows[1:] {
		if row == "" {
			continue
		}
		if row[0] == ' ' || row[0] == '\t' {
			// An obsolete line folding continues the last field.
			if len(lines) == 0 {
				return "", false, nil, false
			}
			lines[len(lines)-1].value += " " + strings.Trim(row, " \t")
			continue
		}
		name, value, found := strings.Cut(row, ":")
		if !found || name == "" || strings.ContainsAny(name, " \t") {
			return "", false, nil, false
		}
		lines = append(lines, headerLine{name, strings.Trim(value, " \t")})
	}
	return proto, interim, lines, true
}

// final returns the header lines and the protocol of the last final
// response read, if they were recorded.
func (c *wireConn) final() ([]headerLine, string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.state != wireDone {
		return nil, ""
	}
	return c.last, c.proto
}

// matches reports whether lines hold every header net/http parsed into h,
// value for value and in the same order for each name: the lines are then
// the response h came from, and may carry more (the framing headers
// net/http takes out of the map).
func matches(lines []headerLine, h http.Header) bool {
	seen := map[string][]string{}
	for _, l := range lines {
		k := textproto.CanonicalMIMEHeaderKey(l.name)
		seen[k] = append(seen[k], l.value)
	}
	for k, vs := range h {
		got := seen[k]
		if len(got) < len(vs) {
			return false
		}
		for i, v := range vs {
			if got[i] != v {
				return false
			}
		}
	}
	return true
}
