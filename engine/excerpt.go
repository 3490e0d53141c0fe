package engine

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"unicode/utf8"
)

// DefaultExcerptBytes is the size, in bytes, up to which an Excerpt keeps a
// JSON document whole, and the size of the text it keeps of a larger one:
// 4 KiB, enough for the params and results of ordinary tool calls, while
// 1000 calls of a megabyte each fit in about 8 MiB of report.
const DefaultExcerptBytes = 4096

// Excerpt is a bounded view of a JSON document (a tool call's params or
// result) for logs and reports. A document of at most the excerpt's size
// that is valid JSON is kept whole in JSON; any other document is kept as
// Text, its first bytes up to the size, cut at a UTF-8 boundary. Bytes and
// SHA256 always describe the whole document, so that a report can name a
// value it does not hold and a reader can check a copy of it.
//
// As JSON an excerpt is an object:
//
//	{"json": {...}, "bytes": 42, "sha256": "9f86...", "truncated": false}
//	{"text": "{\"data\":\"aaaa", "bytes": 1048576, "sha256": "…", "truncated": true}
//
// An empty document (the nil params of a call refused before they were
// read) has neither json nor text, and bytes 0.
type Excerpt struct {
	// JSON is the whole document, when it is valid JSON within the size.
	JSON json.RawMessage `json:"json,omitempty"`
	// Text is the start of the document when JSON is not set: all of it
	// when it is within the size but not valid JSON, else its first bytes
	// up to the size. Bytes that are not UTF-8 marshal as U+FFFD.
	Text string `json:"text,omitempty"`
	// Bytes is the length of the whole document.
	Bytes int `json:"bytes"`
	// SHA256 is the hex SHA-256 of the whole document.
	SHA256 string `json:"sha256"`
	// Truncated reports that Text holds only the start of the document.
	Truncated bool `json:"truncated"`
}

// NewExcerpt returns the excerpt of doc at most max bytes long (see
// Excerpt); a max of 0 or less means DefaultExcerptBytes. The excerpt
// holds a copy of what it keeps, never doc itself, so that a large doc can
// be freed once it is excerpted.
func NewExcerpt(doc []byte, max int) Excerpt {
	if max <= 0 {
		max = DefaultExcerptBytes
	}
	sum := sha256.Sum256(doc)
	e := Excerpt{Bytes: len(doc), SHA256: hex.EncodeToString(sum[:])}
	switch {
	case len(doc) == 0:
	case len(doc) <= max && json.Valid(doc):
		e.JSON = json.RawMessage(append([]byte(nil), doc...))
	case len(doc) <= max:
		e.Text = string(doc)
	default:
		e.Text, e.Truncated = string(doc[:utf8Cut(doc, max)]), true
	}
	return e
}

// utf8Cut returns where to cut doc, which is longer than max, so that the
// first part is at most max bytes and does not end inside a UTF-8
// sequence. In bytes that are not UTF-8 it cuts at max.
func utf8Cut(doc []byte, max int) int {
	for cut := max; cut > 0 && cut > max-utf8.UTFMax; cut-- {
		if utf8.RuneStart(doc[cut]) {
			return cut
		}
	}
	return max
}
