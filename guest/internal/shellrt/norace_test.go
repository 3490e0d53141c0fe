//go:build !race

package shellrt

const raceEnabled = false
