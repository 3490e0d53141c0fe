//go:build race

package shellrt

// raceEnabled: the race detector allocates more, and its sync.Pool drops
// some of what it is given back.
const raceEnabled = true
