package abi

import (
	"encoding/base64"
	"unicode/utf8"
)

// FetchRequest is the params object that JavaScript's fetch and the shell's
// curl and wget send to the sandbox's fetch tool (ToolInfo.Fetch): the
// request as the script wrote it. The host parses it once (package egress)
// into the form the policy decides on and the request is made from; the
// guest parses nothing.
type FetchRequest struct {
	// URL is the absolute URL as the script wrote it.
	URL string `json:"url"`
	// Method is the HTTP method; empty means GET.
	Method string `json:"method,omitempty"`
	// Headers are the request headers in the order given, names as
	// written; the host lower-cases the names.
	Headers [][2]string `json:"headers,omitempty"`
	// Body is a body that is valid UTF-8; BodyBase64 is any other body,
	// in standard base64. At most one is set.
	Body       string `json:"body,omitempty"`
	BodyBase64 string `json:"body_base64,omitempty"`
	// Redirect is what to do with a redirect: "follow" (the default, each
	// hop decided by the policy again), "manual" (return the 3xx response)
	// or "error" (fail).
	Redirect string `json:"redirect,omitempty"`
}

// FetchResponse is the fetch tool's result.
type FetchResponse struct {
	Status     int    `json:"status"`
	StatusText string `json:"status_text"`
	// URL is the URL of the response, after the redirects followed.
	URL        string `json:"url"`
	Redirected bool   `json:"redirected"`
	// Proto is the response's protocol, as net/http names it
	// ("HTTP/1.1", "HTTP/1.0", "HTTP/2.0").
	Proto string `json:"proto,omitempty"`
	// Headers are the response headers. Over HTTP/1.x through the host's
	// own transport they are the header lines as the server wrote them,
	// in order, names in the server's case, framing headers
	// (Transfer-Encoding) included; otherwise they are the headers
	// net/http parsed, sorted by name, names in its canonical form.
	// Header names are matched without regard to case.
	Headers [][2]string `json:"headers"`
	// Body is a body that is valid UTF-8; BodyBase64 is any other body.
	Body       string `json:"body,omitempty"`
	BodyBase64 string `json:"body_base64,omitempty"`
}

// SetBody puts body into r: as Body when it is valid UTF-8 and either short
// (up to textBodyBytes, where the JSON string cannot matter) or its JSON
// string is at most half as long again as the body (base64 is a third
// longer), else as BodyBase64. A text body full of control characters (six
// bytes each in JSON) or of <, > and & (which encoding/json writes as
// \u003c) would otherwise make a body under the host's body limit a params
// object over the engine's params limit.
func (r *FetchRequest) SetBody(body []byte) {
	r.Body, r.BodyBase64 = "", ""
	if len(body) == 0 {
		return
	}
	if utf8.Valid(body) && (len(body) <= textBodyBytes || jsonStringLen(body) <= len(body)+len(body)/2+2) {
		r.Body = string(body)
		return
	}
	r.BodyBase64 = base64.StdEncoding.EncodeToString(body)
}

// textBodyBytes is the size up to which a UTF-8 body always goes as text:
// its JSON string is at most six times as long, far under the params limit.
const textBodyBytes = 16 << 10

// jsonStringLen is the length of the JSON string encoding/json.Marshal
// writes for the valid UTF-8 text s, quotes included.
func jsonStringLen(s []byte) int {
	n := 2
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == '"' || c == '\\' || c == '\n' || c == '\r' || c == '\t' || c == '\b' || c == '\f':
			n += 2
		case c < 0x20 || c == '<' || c == '>' || c == '&':
			n += 6
		case c == 0xE2 && i+2 < len(s) && s[i+1] == 0x80 && (s[i+2] == 0xA8 || s[i+2] == 0xA9):
			// U+2028 and U+2029 are written \u2028 and \u2029.
			n += 6
			i += 3
			continue
		default:
			n++
		}
		i++
	}
	return n
}
