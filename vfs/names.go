package vfs

import (
	"strconv"
	"strings"
	"syscall"
	"unicode/utf8"
)

// MaxNameLen is the longest name of one entry (one path element), in bytes.
// It is NAME_MAX on Linux and the limit of most file systems, so every
// entry can be extracted from an exported archive.
const MaxNameLen = 255

// NameError reports a name that the FS refuses for a new entry: a name that
// could not be extracted safely, or at all, on Linux, macOS or Windows (it
// matches [syscall.EINVAL] under errors.Is), or a name or path that is too
// long (it matches [syscall.ENAMETOOLONG]).
type NameError struct {
	// Name is the refused path element, or, for a path that would be too
	// long, the path.
	Name string
	// Reason says what is wrong, for example
	// "contains '\\' which is not portable".
	Reason string
	// Err is [syscall.EINVAL] or [syscall.ENAMETOOLONG].
	Err syscall.Errno
}

// Error describes the name and the reason, for example
// `invalid file name "a\\b": contains '\' which is not portable` or
// `file name too long: path would be 4100 bytes, more than 4096`.
func (e *NameError) Error() string {
	if e.Err == syscall.ENAMETOOLONG {
		return "file name too long: " + e.Reason
	}
	return "invalid file name " + strconv.Quote(shorten(e.Name)) + ": " + e.Reason
}

// Unwrap returns Err.
func (e *NameError) Unwrap() error { return e.Err }

// CheckName reports whether name is acceptable as the name of a new entry:
// one path element of at most MaxNameLen bytes that every common system
// can extract from an archive under that name. It returns nil or a
// *NameError. The refused names are:
//
//   - the empty name, "." and "..", and names containing "/";
//   - names longer than MaxNameLen bytes (ENAMETOOLONG);
//   - names containing a control character (0x00-0x1f, 0x7f), a backslash,
//     a colon, or one of the characters Windows forbids: < > " | ? *;
//   - names that are not valid UTF-8 (macOS and Windows cannot store them);
//   - names ending with a dot or a space, which Windows strips;
//   - Windows device names (CON, PRN, AUX, NUL, COM0-COM9, LPT0-LPT9,
//     also with the digits ¹ ² ³, CONIN$ and CONOUT$), in any case, alone
//     or followed by an extension ("nul.txt", "Com1.tar.gz", "CON .x").
func CheckName(name string) error {
	switch {
	case name == "":
		return &NameError{Name: name, Reason: "empty", Err: syscall.EINVAL}
	case name == "." || name == "..":
		return &NameError{Name: name, Reason: "is path syntax, not a name", Err: syscall.EINVAL}
	case len(name) > MaxNameLen:
		return &NameError{Name: name, Reason: strconv.Quote(shorten(name)) + " is " + strconv.Itoa(len(name)) +
			" bytes, more than " + strconv.Itoa(MaxNameLen), Err: syscall.ENAMETOOLONG}
	}
	for i := 0; i < len(name); i++ {
		switch c := name[i]; {
		case c < 0x20 || c == 0x7f:
			return &NameError{Name: name, Reason: "contains the control character 0x" + hex2(c) + ", which is not portable", Err: syscall.EINVAL}
		case c == '/':
			return &NameError{Name: name, Reason: "contains '/', the path separator", Err: syscall.EINVAL}
		case strings.IndexByte(`\:<>"|?*`, c) >= 0:
			return &NameError{Name: name, Reason: "contains '" + string(rune(c)) + "' which is not portable", Err: syscall.EINVAL}
		}
	}
	if !utf8.ValidString(name) {
		return &NameError{Name: name, Reason: "is not valid UTF-8, which is not portable", Err: syscall.EINVAL}
	}
	if last := name[len(name)-1]; last == '.' || last == ' ' {
		what := "a dot"
		if last == ' ' {
			what = "a space"
		}
		return &NameError{Name: name, Reason: "ends with " + what + ", which Windows strips", Err: syscall.EINVAL}
	}
	if windowsDevice(name) {
		return &NameError{Name: name, Reason: "is a reserved device name on Windows", Err: syscall.EINVAL}
	}
	return nil
}

// hex2 formats c as two hexadecimal digits.
func hex2(c byte) string {
	const digits = "0123456789abcdef"
	return string([]byte{digits[c>>4], digits[c&15]})
}

// windowsDevice reports whether Windows takes name for a device: the part
// before the first dot, without trailing spaces, is one of the reserved
// names, compared without regard to ASCII case.
func windowsDevice(name string) bool {
	base, _, _ := strings.Cut(name, ".")
	base = strings.TrimRight(base, " ")
	if len(base) < 3 || len(base) > 7 {
		return false
	}
	upper := []byte(base)
	for i, c := range upper {
		if 'a' <= c && c <= 'z' {
			upper[i] = c - ('a' - 'A')
		}
	}
	switch u := string(upper); u {
	case "CON", "PRN", "AUX", "NUL", "CONIN$", "CONOUT$":
		return true
	default:
		if p := u[:3]; p != "COM" && p != "LPT" {
			return false
		}
		switch u[3:] {
		case "0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "\u00b9", "\u00b2", "\u00b3":
			return true
		}
	}
	return false
}

// checkNew checks the names and the length of a new entry at the cleaned
// absolute path p whose last n elements do not exist yet (1 for a new
// entry, more for MkdirAll), and which will have entries below it whose
// paths are up to below bytes longer than p (the longest descendant of a
// renamed directory). It returns nil or a *NameError.
func checkNew(p string, n, below int) error {
	rest := p
	for range n {
		i := strings.LastIndexByte(rest, '/')
		if err := CheckName(rest[i+1:]); err != nil {
			return err
		}
		rest = rest[:i]
	}
	if total := len(p) + below; total > MaxPathLen {
		reason := "path is " + strconv.Itoa(total) + " bytes"
		if below > 0 {
			reason = "an entry below it would have a path of " + strconv.Itoa(total) + " bytes"
		}
		return &NameError{Name: p, Reason: reason + ", more than " + strconv.Itoa(MaxPathLen), Err: syscall.ENAMETOOLONG}
	}
	return nil
}

// below returns how many bytes the longest path below n adds to n's own
// path ("/a/bc" adds 5), or 0 for a file or an empty directory.
func (n *node) below() int {
	type item struct {
		n   *node
		len int
	}
	longest := 0
	stack := []item{{n, 0}}
	for len(stack) > 0 {
		it := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for name, c := range it.n.children {
			l := it.len + 1 + len(name)
			longest = max(longest, l)
			if len(c.children) > 0 {
				stack = append(stack, item{c, l})
			}
		}
	}
	return longest
}
