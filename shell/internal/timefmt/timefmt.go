// Package timefmt formats times the way GNU strftime does. It is the one
// implementation behind date +FORMAT, printf '%(FORMAT)T' and awk's
// strftime, so that they agree.
package timefmt

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Day and month names as date prints them.
var (
	dayNames   = []string{"Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"}
	monthNames = []string{"January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"}
)

// Options select the dialect of Format.
type Options struct {
	// Date enables GNU date's own directives: %N (nanoseconds, truncated
	// to the field width when one is given), %q (the quarter) and the
	// colon forms of the zone offset (%:z, %::z, %:::z). Without it they
	// are not directives and are copied to the output, as C's strftime
	// copies them.
	Date bool
	// Zone, when not empty, is the text of %Z; otherwise %Z is the
	// abbreviation of t's zone ("UTC"). gawk's strftime with its utc
	// argument set prints "GMT".
	Zone string
}

// Format formats t by format the way GNU strftime does in the C locale:
// the conversions of C99 and POSIX, GNU's %k %l %P %s %C %g %G %u %V, the
// flags "-" (no padding), "_" (spaces), "0" (zeros), "^" (upper case) and
// "#" (swap case), a field width, and the modifiers E and O, which are
// accepted and ignored. A directive it does not know is copied as is.
func Format(format string, t time.Time, o Options) string {
	var sb strings.Builder
	for i := 0; i < len(format); i++ {
		c := format[i]
		if c != '%' || i+1 >= len(format) {
			sb.WriteByte(c)
			continue
		}
		j := i + 1
		padc, upper, swap := byte(0), false, false
		for j < len(format) && strings.IndexByte("-_0^#", format[j]) >= 0 {
			switch format[j] {
			case '^':
				upper = true
			case '#':
				swap = true
			default:
				padc = format[j]
			}
			j++
		}
		width := 0
		for j < len(format) && format[j] >= '0' && format[j] <= '9' {
			width = min(width*10+int(format[j]-'0'), 1024)
			j++
		}
		for j+1 < len(format) && (format[j] == 'E' || format[j] == 'O') {
			j++
		}
		colons := 0
		for j < len(format) && format[j] == ':' {
			colons++
			j++
		}
		if j >= len(format) {
			sb.WriteString(format[i:])
			break
		}
		s, num, defPad := field(format[j], colons, width, t, o)
		if s == "\x00" {
			sb.WriteString(format[i : j+1])
			i = j
			continue
		}
		i = j
		if upper {
			s = strings.ToUpper(s)
		}
		if swap {
			if strings.ToUpper(s) == s {
				s = strings.ToLower(s)
			} else {
				s = strings.ToUpper(s)
			}
		}
		s = pad(s, num, defPad, padc, width)
		sb.WriteString(s)
	}
	return sb.String()
}

// padStrftime applies the padding rules: numeric fields have a natural
// width filled with defPad ('0' or '_'), which "-" removes and "_"/"0"
// change.
func pad(s string, natural int, defPad, pad byte, width int) string {
	if natural > 0 {
		digits := strings.TrimLeft(s, " 0")
		if digits == "" {
			digits = "0"
		}
		neg := false
		if strings.HasPrefix(s, "-") {
			neg = true
			digits = strings.TrimLeft(s[1:], " 0")
		}
		p := defPad
		if pad != 0 {
			p = pad
		}
		if p == '-' {
			if neg {
				return "-" + digits
			}
			return digits
		}
		w := natural
		if width > 0 {
			w = width
		}
		fill := "0"
		if p == '_' {
			fill = " "
		}
		for len(digits)+boolInt(neg) < w {
			digits = fill + digits
		}
		if neg {
			digits = "-" + digits
		}
		return digits
	}
	fill := " "
	if pad == '0' {
		fill = "0"
	}
	for len(s) < width {
		s = fill + s
	}
	return s
}

// boolInt returns 1 for true and 0 for false.
func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// field returns one directive's text, its natural numeric width (0 for
// text) and its default padding; the text is "\x00" when c is not a
// directive.
func field(c byte, colons, width int, t time.Time, o Options) (string, int, byte) {
	if colons > 0 && (!o.Date || c != 'z') {
		return "\x00", 0, 0
	}
	num := func(v, w int) (string, int, byte) { return strconv.Itoa(v), w, '0' }
	spc := func(v, w int) (string, int, byte) { return strconv.Itoa(v), w, '_' }
	switch c {
	case '%':
		return "%", 0, 0
	case 'a':
		return dayNames[t.Weekday()][:3], 0, 0
	case 'A':
		return dayNames[t.Weekday()], 0, 0
	case 'b', 'h':
		return monthNames[t.Month()-1][:3], 0, 0
	case 'B':
		return monthNames[t.Month()-1], 0, 0
	case 'c':
		return Format("%a %b %e %H:%M:%S %Y", t, o), 0, 0
	case 'C':
		return num(t.Year()/100, 2)
	case 'd':
		return num(t.Day(), 2)
	case 'D', 'x':
		return Format("%m/%d/%y", t, o), 0, 0
	case 'e':
		return spc(t.Day(), 2)
	case 'F':
		return Format("%Y-%m-%d", t, o), 0, 0
	case 'g':
		y, _ := t.ISOWeek()
		return num(y%100, 2)
	case 'G':
		y, _ := t.ISOWeek()
		return num(y, 4)
	case 'H':
		return num(t.Hour(), 2)
	case 'I':
		return num((t.Hour()+11)%12+1, 2)
	case 'j':
		return num(t.YearDay(), 3)
	case 'k':
		return spc(t.Hour(), 2)
	case 'l':
		return spc((t.Hour()+11)%12+1, 2)
	case 'm':
		return num(int(t.Month()), 2)
	case 'M':
		return num(t.Minute(), 2)
	case 'n':
		return "\n", 0, 0
	case 't':
		return "\t", 0, 0
	case 'N':
		if !o.Date {
			return "\x00", 0, 0
		}
		s := fmt.Sprintf("%09d", t.Nanosecond())
		if width > 0 && width < 9 {
			s = s[:width]
		}
		return s, 0, 0
	case 'p':
		if t.Hour() < 12 {
			return "AM", 0, 0
		}
		return "PM", 0, 0
	case 'P':
		if t.Hour() < 12 {
			return "am", 0, 0
		}
		return "pm", 0, 0
	case 'q':
		if !o.Date {
			return "\x00", 0, 0
		}
		return num((int(t.Month())-1)/3+1, 1)
	case 'r':
		return Format("%I:%M:%S %p", t, o), 0, 0
	case 'R':
		return Format("%H:%M", t, o), 0, 0
	case 's':
		return strconv.FormatInt(t.Unix(), 10), 1, '0'
	case 'S':
		return num(t.Second(), 2)
	case 'T', 'X':
		return Format("%H:%M:%S", t, o), 0, 0
	case 'u':
		return num((int(t.Weekday())+6)%7+1, 1)
	case 'U':
		return num((t.YearDay()+6-int(t.Weekday()))/7, 2)
	case 'V':
		_, w := t.ISOWeek()
		return num(w, 2)
	case 'w':
		return num(int(t.Weekday()), 1)
	case 'W':
		return num((t.YearDay()+6-(int(t.Weekday())+6)%7)/7, 2)
	case 'y':
		return num(t.Year()%100, 2)
	case 'Y':
		return num(t.Year(), 4)
	case 'z':
		return offset(t, colons), 0, 0
	case 'Z':
		if o.Zone != "" {
			return o.Zone, 0, 0
		}
		name, _ := t.Zone()
		return name, 0, 0
	}
	return "\x00", 0, 0
}

// offset returns t's zone offset as %z prints it: "+hhmm"; with colons,
// as %:z "+hh:mm", %::z "+hh:mm:ss" and %:::z "+hh" (with ":mm" when the
// minutes are not zero).
func offset(t time.Time, colons int) string {
	_, secs := t.Zone()
	sign := byte('+')
	if secs < 0 {
		sign, secs = '-', -secs
	}
	h, m, s := secs/3600, secs/60%60, secs%60
	switch colons {
	case 1:
		return fmt.Sprintf("%c%02d:%02d", sign, h, m)
	case 2:
		return fmt.Sprintf("%c%02d:%02d:%02d", sign, h, m, s)
	case 3:
		if m != 0 {
			return fmt.Sprintf("%c%02d:%02d", sign, h, m)
		}
		return fmt.Sprintf("%c%02d", sign, h)
	}
	return fmt.Sprintf("%c%02d%02d", sign, h, m)
}
