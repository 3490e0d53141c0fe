package main

import (
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"unicode/utf8"
)

// isTerminal reports whether w is a terminal, where a script's output is
// neutralized (see neutralize) unless --raw-output is given. Tests replace
// it to cover both paths.
var isTerminal = func(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && fileIsTerminal(f)
}

// terminalSafe returns w, or, when w is a terminal and raw is false, a
// writer that neutralizes what is written to it (see neutralWriter; call
// flushOutput when done with it).
func terminalSafe(w io.Writer, raw bool) io.Writer {
	if raw || !isTerminal(w) {
		return w
	}
	return &neutralWriter{w: w}
}

// neutralWriter neutralizes what it is written, as one stream: the script's
// output comes in pieces as the script writes it (a shell command may cut
// a UTF-8 sequence or a CRLF in two), so a Write holds back the end of an
// incomplete UTF-8 sequence and a final carriage return until the next
// Write shows what follows them, and Flush writes what is held. Writes may
// come from several goroutines, one at a time.
type neutralWriter struct {
	mu   sync.Mutex
	w    io.Writer
	held []byte // at most 3 bytes: an unfinished UTF-8 sequence, or "\r"
}

func (n *neutralWriter) Write(p []byte) (int, error) {
	n.mu.Lock()
	defer n.mu.Unlock()
	data := p
	if len(n.held) > 0 {
		data = append(n.held[:len(n.held):len(n.held)], p...)
		n.held = n.held[:0]
	}
	cut := len(data) - unfinished(data)
	n.held = append(n.held, data[cut:]...)
	if cut > 0 {
		if _, err := io.WriteString(n.w, neutralize(string(data[:cut]))); err != nil {
			return 0, err
		}
	}
	return len(p), nil
}

// Flush writes what Write held back, neutralized as it stands: an
// unfinished UTF-8 sequence as \xNN, a final carriage return as \u000d.
// It leaves the writer alone while another goroutine writes to it (a write
// the engine gave up waiting for after the time limit).
func (n *neutralWriter) Flush() error {
	if !n.mu.TryLock() {
		return nil
	}
	defer n.mu.Unlock()
	if len(n.held) == 0 {
		return nil
	}
	s := neutralize(string(n.held))
	n.held = n.held[:0]
	_, err := io.WriteString(n.w, s)
	return err
}

// unfinished returns how many bytes at the end of p may change meaning
// with what comes next: a carriage return (a CRLF passes, a lone CR does
// not), or the start of a UTF-8 sequence that p cuts short.
func unfinished(p []byte) int {
	if len(p) > 0 && p[len(p)-1] == '\r' {
		return 1
	}
	for i := len(p) - 1; i >= 0 && i >= len(p)-utf8.UTFMax+1; i-- {
		if utf8.RuneStart(p[i]) {
			if !utf8.FullRune(p[i:]) {
				return len(p) - i
			}
			return 0
		}
	}
	return 0
}

// flushOutput flushes w if it is a neutralWriter.
func flushOutput(w io.Writer) {
	if n, ok := w.(*neutralWriter); ok {
		_ = n.Flush()
	}
}

// neutralize makes the control characters in s harmless for a terminal by
// writing them as visible escapes, so that a script cannot set the
// clipboard (OSC 52), the window title or hyperlinks, clear the screen,
// move the cursor, or overwrite a line it printed:
//
//   - tab, newline, and a carriage return followed by a newline (CRLF) pass;
//   - every other C0 control (ESC, BEL, backspace, a lone carriage return,
//     ...), DEL, the C1 controls U+0080-U+009F (8-bit CSI, OSC, DCS, ST)
//     and the bidirectional overrides and isolates (U+202A-U+202E,
//     U+2066-U+2069, which reorder what a line shows) become their \uXXXX
//     escape, as in JSON: ESC is written "\u001b";
//   - a byte that is not part of valid UTF-8 becomes \xNN.
//
// Printable text, including all other Unicode, passes unchanged. Since the
// escapes are JSON's own, neutralized JSON decodes to the same value (JSON
// already escapes C0 controls; the encoder leaves DEL, C1 and bidi raw).
func neutralize(s string) string {
	i := 0
	for i < len(s) && (s[i] >= 0x20 && s[i] < 0x7f || s[i] == '\n') {
		i++ // the common case: printable ASCII and newlines
	}
	if i == len(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 16)
	b.WriteString(s[:i])
	for i < len(s) {
		c := s[i]
		switch {
		case c >= 0x20 && c < 0x7f || c == '\t' || c == '\n':
			b.WriteByte(c)
			i++
		case c == '\r' && i+1 < len(s) && s[i+1] == '\n':
			b.WriteString("\r\n")
			i += 2
		case c < utf8.RuneSelf:
			fmt.Fprintf(&b, `\u%04x`, c)
			i++
		default:
			r, n := utf8.DecodeRuneInString(s[i:])
			switch {
			case r == utf8.RuneError && n == 1:
				fmt.Fprintf(&b, `\x%02x`, c)
			case r >= 0x80 && r <= 0x9f || r >= 0x202a && r <= 0x202e || r >= 0x2066 && r <= 0x2069:
				fmt.Fprintf(&b, `\u%04x`, r)
			default:
				b.WriteString(s[i : i+n])
			}
			i += n
		}
	}
	return b.String()
}
