package expansion

import (
	"fmt"
	"strings"

	"github.com/cordonhq/cordon/shell/internal/escape"
)

// Quoting: ${x@Q} quotes as printf %q does, and $'...' decodes its
// escapes as ${x@E} does.

// Quote quotes s as bash's printf %q does: with backslashes, or as
// $'...' when s holds control characters.
func Quote(s string) string {
	if s == "" {
		return "''"
	}
	needDollar := false
	for _, c := range []byte(s) {
		if c < 0x20 || c == 0x7f {
			needDollar = true
			break
		}
	}
	if needDollar {
		var b strings.Builder
		b.WriteString("$'")
		for _, c := range []byte(s) {
			switch c {
			case '\n':
				b.WriteString(`\n`)
			case '\t':
				b.WriteString(`\t`)
			case '\r':
				b.WriteString(`\r`)
			case 7:
				b.WriteString(`\a`)
			case 8:
				b.WriteString(`\b`)
			case 11:
				b.WriteString(`\v`)
			case 12:
				b.WriteString(`\f`)
			case 27:
				b.WriteString(`\E`)
			case '\'':
				b.WriteString(`\'`)
			case '\\':
				b.WriteString(`\\`)
			default:
				if c < 0x20 || c == 0x7f {
					fmt.Fprintf(&b, "\\%03o", c)
				} else {
					b.WriteByte(c)
				}
			}
		}
		b.WriteString("'")
		return b.String()
	}
	var b strings.Builder
	for i, c := range s {
		if strings.ContainsRune(" \t|&;()<>{}[]*?$`'\"\\!#^,=", c) || (c == '~' && i == 0) {
			b.WriteByte('\\')
		}
		b.WriteRune(c)
	}
	return b.String()
}

// ANSIC decodes the escapes of a $'...' string, which ends at the first
// NUL as in bash.
func ANSIC(s string) string {
	r, _ := escape.Decode(escape.ANSIC, s)
	if k := strings.IndexByte(r, 0); k >= 0 {
		r = r[:k]
	}
	return r
}
