package coreutils

import (
	"bytes"
	"context"
	"math/rand/v2"
	"strings"
	"testing"
	"testing/iotest"
	"unicode/utf8"
)

// wcReference is wcCount's rules one rune at a time, with no fast path.
func wcReference(data []byte) wcCounts {
	var c wcCounts
	inWord := false
	var lineLen int64
	c.bytes = int64(len(data))
	for i := 0; i < len(data); {
		b := data[i]
		if b >= utf8.RuneSelf {
			r, sz := utf8.DecodeRune(data[i:])
			if r != utf8.RuneError || sz > 1 {
				c.chars++
				lineLen++
			}
			if !inWord {
				inWord = true
				c.words++
			}
			i += sz
			continue
		}
		c.chars++
		switch b {
		case '\n':
			c.lines++
			c.maxLine = max(c.maxLine, lineLen)
			lineLen = 0
			inWord = false
		case '\t':
			lineLen += 8 - lineLen%8
			inWord = false
		case ' ', '\v', '\f', '\r':
			if b == ' ' {
				lineLen++
			}
			inWord = false
		default:
			lineLen++
			if !inWord {
				inWord = true
				c.words++
			}
		}
		i++
	}
	c.maxLine = max(c.maxLine, lineLen)
	return c
}

// TestWcCountMatchesReference compares wcCount with wcReference on random
// text of spaces, tabs, control characters, multibyte and broken UTF-8,
// read in pieces of every size.
func TestWcCountMatchesReference(t *testing.T) {
	pieces := []string{"a", "word", " ", "  ", "\t", "\n", "\r\n", "\v", "\f", "\x01", "\x7f", "é", "日本", "😀", "\xff", "\xe6\x97", "x\ty",
		"a longer run of plain words ", "no-spaces-for-a-while-here", "\x1f\x20\x21\x08\x0e", "        "}
	rng := rand.New(rand.NewPCG(3, 4))
	for n := range 300 {
		var b bytes.Buffer
		for range rng.IntN(400) {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		data := b.Bytes()
		want := wcReference(data)
		buf := make([]byte, 1+rng.IntN(64))
		for _, maxLine := range []bool{true, false} {
			got, err := wcCount(context.Background(), buf, iotest.OneByteReader(bytes.NewReader(data)), false, maxLine)
			if n%2 == 0 {
				got, err = wcCount(context.Background(), buf, bytes.NewReader(data), false, maxLine)
			}
			if !maxLine {
				got.maxLine = want.maxLine // not counted without -L
			}
			if err != nil || got != want {
				t.Fatalf("%q (maxLine %v): got %+v, want %+v (%v)", data, maxLine, got, want, err)
			}
		}
	}
}

// tail reads a regular file backwards from its end (tailFile); it must
// print what reading it through (as from a pipe) prints.
func TestTailFileMatchesStream(t *testing.T) {
	var b bytes.Buffer
	for i := range 40000 {
		b.WriteString(strings.Repeat("x", i%13))
		b.WriteString("\n")
	}
	big := b.String()
	long := strings.Repeat("x", 1<<20) + "\n" + strings.Repeat("y", 300<<10) + "\nz\n"
	for _, content := range []string{big, big + "no newline at the end", "", "\n\n\n", "one line", long} {
		files := map[string]string{"f": content}
		for _, args := range [][]string{{"-n", "3"}, {"-n", "0"}, {"-n", "20000"}, {"-n", "100000"}, {"-c", "5"}, {"-c", "300000"}, {"-n", "+39990"}, {}} {
			fromFile := run(t, nil, files, "", append(append([]string{"tail"}, args...), "f")...)
			fromPipe := run(t, nil, nil, content, append([]string{"tail"}, args...)...)
			if fromFile.Out != fromPipe.Out || fromFile.Status != fromPipe.Status {
				t.Errorf("tail %q on %d bytes: the file gives %d bytes, the pipe %d", args, len(content), len(fromFile.Out), len(fromPipe.Out))
			}
		}
	}
}

// wcASCII against the reference for every ASCII byte at every position of
// a word, after a word byte and after a space.
func TestWcASCIIEveryByte(t *testing.T) {
	for b := range 128 {
		for pos := range 8 {
			for _, before := range []string{"x", " "} {
				data := []byte(before + "aaaaaaaa" + "aaaaaaa")
				data[1+pos] = byte(b)
				want := wcReference(data)
				got, err := wcCount(context.Background(), make([]byte, 64), bytes.NewReader(data), false, false)
				got.maxLine = want.maxLine
				if err != nil || got != want {
					t.Fatalf("byte %#x at %d after %q: got %+v, want %+v", b, pos, before, got, want)
				}
			}
		}
	}
}
