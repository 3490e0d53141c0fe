package coreutils

import (
	"fmt"
	"path"
	"strconv"
	"strings"
	"time"

	"github.com/cordonhq/cordon/shell/internal/escape"
	"github.com/cordonhq/cordon/shell/internal/timefmt"
)

// findPrintf expands a -printf format for one file. Its escapes are
// GNU find's (escape.Find); a \c ends the output for this file.
func findPrintf(format string, ff *findFile) string {
	var sb strings.Builder
	for i := 0; i < len(format); i++ {
		c := format[i]
		switch {
		case c == '\\':
			b, next, stop := escape.Append(escape.Find, nil, format, i)
			sb.Write(b)
			if stop {
				return sb.String()
			}
			i = next - 1
		case c == '%' && i+1 < len(format):
			j := i + 1
			for j < len(format) && strings.IndexByte("-+ #0123456789.", format[j]) >= 0 {
				j++
			}
			if j >= len(format) {
				sb.WriteString(format[i:])
				return sb.String()
			}
			flags := format[i+1 : j]
			i = j
			var s string
			num := false
			switch format[j] {
			case '%':
				s = "%"
			case 'p':
				s = ff.name
			case 'f':
				s = findBase(ff.name)
			case 'h':
				s = path.Dir(strings.TrimRight(ff.name, "/"))
				if !strings.Contains(strings.TrimRight(ff.name, "/"), "/") {
					s = "."
				}
			case 'P':
				s = ff.name
				if ff.depth == 0 {
					s = ""
				} else if k := findRootLen(ff); k > 0 {
					s = ff.name[k:]
				}
			case 's':
				s, num = strconv.FormatInt(lsSize(ff.info), 10), true
			case 'd':
				s, num = strconv.Itoa(ff.depth), true
			case 'm':
				s = strconv.FormatUint(uint64(ff.info.Mode().Perm()), 8)
			case 'M':
				s = modeString(ff.info)
			case 'y', 'Y':
				s = "f"
				if ff.info.IsDir() {
					s = "d"
				}
			case 'u', 'g':
				s = "user"
			case 'U', 'G':
				s = "0"
			case 'n':
				s = "1"
			case 'k':
				s = strconv.FormatInt(lsBlocks(ff.info), 10)
			case 'b':
				s = strconv.FormatInt(lsBlocks(ff.info)*2, 10)
			case 't', 'a', 'c':
				s = ff.info.ModTime().UTC().Format("Mon Jan _2 15:04:05.0000000000 2006")
			case 'T', 'A', 'C':
				if j+1 < len(format) {
					i++
					s = findTimeField(format[i], ff.info.ModTime().UTC())
				}
			default:
				s = "%" + flags + string(format[j])
				flags = ""
			}
			sb.WriteString(padField(s, flags, num))
		default:
			sb.WriteByte(c)
		}
	}
	return sb.String()
}

// findRootLen returns the length of the starting point's prefix (with the
// following slash) in ff.name.
func findRootLen(ff *findFile) int {
	name := ff.name
	k := len(name)
	for d := ff.depth; d > 0; d-- {
		k = strings.LastIndexByte(name[:k], '/')
		if k < 0 {
			return 0
		}
	}
	return k + 1
}

// findTimeField formats one -printf %T field.
func findTimeField(c byte, t time.Time) string {
	switch c {
	case '@':
		return strconv.FormatInt(t.Unix(), 10) + "." + fmt.Sprintf("%09d0", t.Nanosecond())
	case '+':
		return t.Format("2006-01-02+15:04:05.0000000000")
	}
	return timefmt.Format("%"+string(c), t, timefmt.Options{Date: true})
}
