package timefmt

import (
	"testing"
	"time"
)

func TestFormat(t *testing.T) {
	utc := time.Date(2026, 3, 5, 14, 7, 9, 123456789, time.UTC)
	early := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	east := time.Date(2026, 3, 5, 14, 7, 9, 0, time.FixedZone("IST", 5*3600+1800))
	west := time.Date(2026, 3, 5, 14, 7, 9, 0, time.FixedZone("XYZ", -(3*3600+30*60+15)))
	date := Options{Date: true}
	cases := []struct {
		name   string
		format string
		t      time.Time
		o      Options
		want   string
	}{
		{"numbers", "%Y-%m-%d %H:%M:%S %j %C %y %u %w", utc, Options{}, "2026-03-05 14:07:09 064 20 26 4 4"},
		{"names", "%a %A %b %B %h %p %P", utc, Options{}, "Thu Thursday Mar March Mar PM pm"},
		{"composites", "%c|%D|%F|%r|%R|%T|%x|%X", utc, Options{}, "Thu Mar  5 14:07:09 2026|03/05/26|2026-03-05|02:07:09 PM|14:07|14:07:09|03/05/26|14:07:09"},
		{"space padded", "[%e] [%k] [%l]", early, Options{}, "[ 1] [ 0] [12]"},
		{"weeks", "%U %W %V %G %g", early, Options{}, "00 00 01 2026 26"},
		{"epoch", "%s", utc, Options{}, "1772719629"},
		{"flags", "%-d|%_m|%^a|%#b|%10Y|%-j|%_5H|%05e", utc, Options{}, "5| 3|THU|MAR|0000002026|64|   14|00005"},
		{"E and O are ignored", "%Ec %OH %EY", utc, Options{}, "Thu Mar  5 14:07:09 2026 14 2026"},
		{"literal percent, tab, newline", "100%% %t%n", utc, Options{}, "100% \t\n"},
		{"unknown directive", "%Q %-Q %", utc, Options{}, "%Q %-Q %"},
		{"zone UTC", "%Z %z", utc, Options{}, "UTC +0000"},
		{"zone override (gawk utc)", "%Z", utc, Options{Zone: "GMT"}, "GMT"},
		{"zone east", "%Z %z", east, Options{}, "IST +0530"},
		{"zone west", "%z", west, Options{}, "-0330"},
		{"date: nanoseconds", "%N %3N", utc, date, "123456789 123"},
		{"date: quarter", "%q", utc, date, "1"},
		{"date: colon offsets", "%:z %::z %:::z", west, date, "-03:30 -03:30:15 -03:30"},
		{"date: colon offset whole hours", "%:::z", utc, date, "+00"},
		{"C: no nanoseconds or quarter", "%N %q", utc, Options{}, "%N %q"},
		{"C: no colon offsets", "%:z", utc, Options{}, "%:z"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := Format(c.format, c.t, c.o); got != c.want {
				t.Errorf("Format(%q) = %q, want %q", c.format, got, c.want)
			}
		})
	}
}
