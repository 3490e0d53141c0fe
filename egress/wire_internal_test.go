package egress

import (
	"reflect"
	"testing"
)

// The header section is found whatever the reads' boundaries.
func TestWireScanAnySplit(t *testing.T) {
	raw := "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nB: 1\r\na: 2\r\n\r\nbody\r\n\r\nHTTP/1.1 999 Not a response\r\n\r\n"
	want := []headerLine{{"B", "1"}, {"a", "2"}}
	for split := 1; split < len(raw); split++ {
		for _, chunk := range []int{split, 1} {
			c := &wireConn{}
			for i := 0; i < len(raw); i += chunk {
				c.scan([]byte(raw[i:min(i+chunk, len(raw))]))
			}
			lines, proto := c.final()
			if !reflect.DeepEqual(lines, want) || proto != "HTTP/1.1" {
				t.Fatalf("split %d chunk %d: %q %q", split, chunk, lines, proto)
			}
		}
	}
}

// What is not an HTTP/1.x response records nothing.
func TestWireScanRefuses(t *testing.T) {
	for _, raw := range []string{
		"\x16\x03\x01\x02\x00", // a TLS record
		"PRI * HTTP/2.0\r\n\r\n",
		"HTTP/2 200\r\n\r\n",
		"HTTP/1.1 20\r\n\r\n",
		"HTTP/1.1 200 OK\r\n folded first\r\n\r\n",
		"HTTP/1.1 200 OK\r\nno colon\r\n\r\n",
		"HTTP/1.1 200 OK\r\nbad name: x\r\n\r\n",
	} {
		c := &wireConn{}
		c.scan([]byte(raw))
		if lines, _ := c.final(); lines != nil {
			t.Errorf("%q: recorded %q", raw, lines)
		}
	}
}

func FuzzWireScan(f *testing.F) {
	f.Add([]byte("HTTP/1.1 200 OK\r\nA: b\r\n\r\n"), 3)
	f.Add([]byte("HTTP/1.1 101 Switching\r\n\r\nx"), 1)
	f.Add([]byte("HTTP/1.0 204 No\n\n"), 7)
	f.Fuzz(func(t *testing.T, raw []byte, chunk int) {
		if chunk <= 0 {
			chunk = 1
		}
		whole := &wireConn{}
		whole.scan(raw)
		parts := &wireConn{}
		for i := 0; i < len(raw); i += chunk {
			parts.scan(raw[i:min(i+chunk, len(raw))])
		}
		a, pa := whole.final()
		b, pb := parts.final()
		if !reflect.DeepEqual(a, b) || pa != pb {
			t.Fatalf("one read %q %q, reads of %d: %q %q", a, pa, chunk, b, pb)
		}
	})
}
