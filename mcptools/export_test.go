package mcptools

import "time"

// SetStallTimeout sets how long a server may leave its input unread, for
// the duration of a test; it returns the function that restores it.
func SetStallTimeout(d time.Duration) (restore func()) {
	old := stallTimeout
	stallTimeout = d
	return func() { stallTimeout = old }
}

// SetFirstBackoff sets the first wait before a reconnection, for the
// duration of a test; it returns the function that restores it.
func SetFirstBackoff(d time.Duration) (restore func()) {
	old := firstBackoff
	firstBackoff = d
	return func() { firstBackoff = old }
}
