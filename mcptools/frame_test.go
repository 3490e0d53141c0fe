package mcptools

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"strings"
	"testing"
	"testing/iotest"
)

// readAll reads r to its end through one-byte reads too, to cross every
// boundary.
func readAll(t *testing.T, mk func(io.Reader) io.Reader, in string) (string, error) {
	t.Helper()
	whole, err := io.ReadAll(mk(strings.NewReader(in)))
	bytewise, err2 := io.ReadAll(mk(iotest.OneByteReader(strings.NewReader(in))))
	if string(whole) != string(bytewise) || (err == nil) != (err2 == nil) {
		t.Errorf("%q: read whole %q (%v), byte by byte %q (%v)", in, whole, err, bytewise, err2)
	}
	return string(whole), err
}

// replacementFor is the replacement of an oversized answer to id.
func replacementFor(id string, limit int) string {
	data, _ := json.Marshal(map[string]any{"cordon": "too_large", "limit": limit, "nonce": "N"})
	b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": json.RawMessage(id),
		"error": map[string]any{"code": tooLargeCode, "message": tooLargeMessage(limit), "data": json.RawMessage(data)}})
	return string(b)
}

func TestFrameReader(t *testing.T) {
	const limit = 64
	big := strings.Repeat("x", 100)
	mk := func(r io.Reader) io.Reader { return newFrameReader(r, limit, "N") }
	for _, c := range []struct{ in, want string }{
		// Within the limit: unchanged, whitespace included.
		{`{"jsonrpc":"2.0","id":1,"result":{}}` + "\n", `{"jsonrpc":"2.0","id":1,"result":{}}` + "\n"},
		{"\r\n" + `[{"id":1},{"id":2}]` + "\r\n", "\r\n" + `[{"id":1},{"id":2}]` + "\r\n"},
		// Over it: the answer becomes an error with the same id.
		{`{"jsonrpc":"2.0","id":1,"result":"` + big + `"}` + "\n", replacementFor("1", limit) + "\n"},
		{`{"result":"` + big + `","id":"a\"b"}` + "\n", replacementFor(`"a\"b"`, limit) + "\n"},
		// Braces, quotes and "id" in strings and nested objects do not
		// confuse it; a key written with escapes, or in other case, is
		// the key it stands for.
		{`{"result":{"id":9,"t":"}\"{[","x":"` + big + `"},"\u0069d":3}` + "\n", replacementFor("3", limit) + "\n"},
		{`{"ID":4,"result":"` + big + `"}` + "\n", replacementFor("4", limit) + "\n"},
		// A batch: one answer per response, none for a notification.
		{`[{"id":5,"result":"` + big + `"},{"method":"n","params":{}},{"id":6,"error":{}}]` + "\n", replacementFor("5", limit) + "\n" + replacementFor("6", limit) + "\n"},
		// A notification or a request of the server: dropped.
		{`{"method":"notifications/message","params":"` + big + `"}` + "\n" + `{"id":7,"result":{}}` + "\n", "\n" + `{"id":7,"result":{}}` + "\n"},
		{`{"id":8,"method":"sampling/createMessage","params":"` + big + `"}` + "\n", "\n"},
		// An id that is not a number or a string, or none: nothing to
		// answer.
		{`{"id":null,"result":"` + big + `"}` + "\n", "\n"},
		{`{"id":{"a":1},"result":"` + big + `"}` + "\n", "\n"},
		{`{"result":"` + big + `"}` + "\n", "\n"},
		// Messages on, then after, an oversized one pass.
		{`{"id":1,"result":"` + big + `"}` + "\n" + `{"id":2,"result":{}}` + "\n", replacementFor("1", limit) + "\n" + `{"id":2,"result":{}}` + "\n"},
	} {
		got, err := readAll(t, mk, c.in)
		if err != nil || got != c.want {
			t.Errorf("%.60q...:\ngot  %q (%v)\nwant %q", c.in, got, err, c.want)
		}
	}
	// What is not JSON-RPC ends the stream with an error, after what came
	// before it.
	got, err := readAll(t, mk, `{"id":1}`+"\nhello\n")
	if !errors.Is(err, errNotJSONRPC) || got != `{"id":1}`+"\n" {
		t.Errorf("garbage: %q, %v", got, err)
	}
	// A value cut short goes on as it is, for the SDK to report.
	if got, err := readAll(t, mk, `{"id":1,"res`); err != nil || got != `{"id":1,"res` {
		t.Errorf("cut short: %q, %v", got, err)
	}
}

// TestFrameReaderHolds: a value is held until it is complete, and never
// more than the limit of it.
func TestFrameReaderHolds(t *testing.T) {
	pr, pw := io.Pipe()
	f := newFrameReader(pr, 1000, "N")
	go func() {
		pw.Write([]byte(`{"id":1,"result":"`))
		pw.Write(bytes.Repeat([]byte("x"), 1<<20))
		pw.Write([]byte(`"}` + "\n"))
		pw.Close()
	}()
	out, err := io.ReadAll(f)
	if err != nil || string(out) != replacementFor("1", 1000)+"\n" {
		t.Errorf("%.100q %v", out, err)
	}
	if cap(f.held) > 1<<20 {
		t.Errorf("held %d bytes", cap(f.held))
	}
}

func TestSSEFilter(t *testing.T) {
	const limit = 80
	big := strings.Repeat("x", 100)
	mk := func(r io.Reader) io.Reader { return newSSEFilter(r, limit, "N") }
	small := "event: message\nid: 1\ndata: {\"id\":1,\"result\":{}}\n\n"
	for _, c := range []struct{ in, want string }{
		{small, small},
		{": comment\n\n" + small, ": comment\n\n" + small},
		// Over the limit: the other lines are kept, the data replaced.
		{"event: message\nid: 7\ndata: {\"id\":2,\"result\":\"" + big + "\"}\n\n" + small,
			"event: message\nid: 7\ndata: " + replacementFor("2", limit) + "\n\n" + small},
		// Data on several lines, CRLF line ends.
		{"data: {\"result\":\r\ndata: \"" + big + "\",\r\ndata: \"id\":3}\r\n\r\n",
			"data: " + replacementFor("3", limit) + "\n\n"},
		// A notification: nothing to answer.
		{"data: {\"method\":\"m\",\"params\":\"" + big + "\"}\n\n", "\n"},
	} {
		got, err := readAll(t, mk, c.in)
		if err != nil || got != c.want {
			t.Errorf("%.60q...:\ngot  %q (%v)\nwant %q", c.in, got, err, c.want)
		}
	}
}

func TestBackoff(t *testing.T) {
	want := []string{"0s", "0s", "250ms", "500ms", "1s", "2s", "4s", "8s", "16s", "30s", "30s"}
	for i, w := range want {
		if got := backoff(i).String(); got != w {
			t.Errorf("backoff(%d) = %s, want %s", i, got, w)
		}
	}
}

func TestCommandEnv(t *testing.T) {
	s := Upstream{InheritEnv: []string{"KEEP"}, Env: map[string]string{"HOME": "/h", "NEW": "n"}}
	got := commandEnv(s, []string{"PATH=/bin", "HOME=/root", "SECRET=x", "KEEP=k", "=C:=weird", "LANG=C"})
	if strings.Join(got, " ") != "PATH=/bin KEEP=k LANG=C HOME=/h NEW=n" {
		t.Errorf("%q", got)
	}
}

func TestCheckSchema(t *testing.T) {
	for _, c := range []struct {
		in   any
		want string
		err  string
	}{
		{nil, "", ""},
		{json.RawMessage(`{"type":"object","description":"a\rb\u2028c` + "```" + `"}`), `{"type":"object","description":"a\nb\nc` + "`` `" + `"}`, ""},
		// Only the annotation keywords' strings change: a property named
		// description, an enum value, a pattern stay.
		{json.RawMessage(`{"properties":{"description":{"type":"string","enum":["a\rb"],"pattern":"\r"}}}`), `{"properties":{"description":{"type":"string","enum":["a\rb"],"pattern":"\r"}}}`, ""},
		{json.RawMessage(`[1]`), "", "not a JSON object"},
		{json.RawMessage(strings.Repeat(`{"a":`, 33) + `1` + strings.Repeat(`}`, 33)), "", "nested deeper than 32 levels"},
		{json.RawMessage(strings.Repeat(`{"a":`, 32) + `1` + strings.Repeat(`}`, 32)), strings.Repeat(`{"a":`, 32) + `1` + strings.Repeat(`}`, 32), ""},
		{json.RawMessage(`{"a":"` + strings.Repeat("x", DefaultMaxSchemaBytes) + `"}`), "", "over the budget of 262144"},
	} {
		got, err := checkSchema(c.in, budget{})
		if c.err != "" {
			if !errors.Is(err, ErrSchema) || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%.60s: %v, want %s", c.in, err, c.err)
			}
			continue
		}
		if err != nil || string(got) != c.want {
			t.Errorf("%.60s: %s %v, want %s", c.in, got, err, c.want)
		}
	}
}
