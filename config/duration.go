package config

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// ParseDuration reads a duration as the config's limits.timeout and the
// CLI's --timeout take it: a Go duration ("5s", "1m30s", "250ms") or a bare
// number, which is seconds ("5", "2.5"). Anything else is an error that
// says to use a unit.
func ParseDuration(s string) (time.Duration, error) {
	t := strings.TrimSpace(s)
	if secs, err := strconv.ParseFloat(t, 64); err == nil && t != "" && !strings.ContainsAny(t, "xXpPnN_") {
		// Beyond about 292 years the conversion to nanoseconds would overflow.
		if secs > maxDurationSeconds || secs < -maxDurationSeconds {
			return 0, fmt.Errorf("%s seconds is too long a duration", t)
		}
		return time.Duration(secs * float64(time.Second)), nil
	}
	d, err := time.ParseDuration(t)
	if err != nil {
		return 0, fmt.Errorf("%q is not a duration: use a unit, such as 5s, 500ms or 1m (a bare number is seconds)", s)
	}
	return d, nil
}

// durationError is a Duration that does not read: the only one in a
// config is limits.timeout (decodeError names it).
type durationError struct{ msg string }

func (e *durationError) Error() string { return e.msg }
