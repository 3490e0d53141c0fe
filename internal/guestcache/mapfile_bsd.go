//go:build darwin || freebsd

package guestcache

// mapPopulate is Linux's; here the pages of a mapped file fault in as they
// are read.
const mapPopulate = 0
