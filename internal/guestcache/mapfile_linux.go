package guestcache

import "golang.org/x/sys/unix"

// mapPopulate makes mapFile map the whole file up front: one call instead
// of a page fault per page.
const mapPopulate = unix.MAP_POPULATE
