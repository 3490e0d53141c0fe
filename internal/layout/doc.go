// Package layout holds no code, only tests that keep ARCHITECTURE.md true
// to the repository: its list of packages must name every package, and its
// rule for rebuilding the guest must name every folder the guest is built
// from.
package layout
