package fileutils

import (
	"strconv"
	"strings"

	"github.com/cordonhq/cordon/shell/command"

	"github.com/cordonhq/cordon/vfs"
)

// sizeSuffixes are the multipliers of GNU's size suffixes.
var sizeSuffixes = map[string]int64{
	"": 1, "K": 1 << 10, "KiB": 1 << 10, "KB": 1000, "M": 1 << 20, "MiB": 1 << 20, "MB": 1000 * 1000,
	"G": 1 << 30, "GiB": 1 << 30, "GB": 1000 * 1000 * 1000, "T": 1 << 40, "TiB": 1 << 40, "TB": 1000 * 1000 * 1000 * 1000,
	"P": 1 << 50, "PiB": 1 << 50, "PB": 1000 * 1000 * 1000 * 1000 * 1000,
	"E": 1 << 60, "EiB": 1 << 60, "EB": 1000 * 1000 * 1000 * 1000 * 1000 * 1000,
}

// parseGNUSize parses a size with an optional suffix (K, KiB, KB, M, ...)
// as coreutils do; lower-case k is K.
func parseGNUSize(s string) (int64, bool) {
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	if i == 0 {
		return 0, false
	}
	n, err := strconv.ParseInt(s[:i], 10, 64)
	suf := s[i:]
	if suf == "k" {
		suf = "K"
	}
	m, ok := sizeSuffixes[suf]
	if err != nil || !ok || (m > 1 && n > (1<<63-1)/m) {
		return 0, false
	}
	return n * m, true
}

// cmdTruncate implements truncate [-c] [-o] (-s SIZE | -r RFILE [-s
// ADJUST]) FILE...: SIZE may start with + (extend by), - (reduce by), <
// (at most), > (at least), / (round down to a multiple) or % (round up).
// Growth is zero-filled and counts against the file system's quota.
func cmdTruncate(env *command.Env) int {
	opts, files, st, ok := env.ParseOptions("cos:r:", []string{"no-create", "io-blocks", "size=", "reference="}, false)
	if !ok {
		return st
	}
	noCreate := false
	sizeArg, ref := "", ""
	for _, o := range opts {
		switch o.Name {
		case "c", "no-create":
			noCreate = true
		case "o", "io-blocks":
			return env.Errorf(1, "-o (sizes in I/O blocks) is not supported in this sandbox")
		case "s", "size":
			sizeArg = o.Value
		case "r", "reference":
			ref = o.Value
		}
	}
	if sizeArg == "" && ref == "" {
		return env.Usage(1, "you must specify either ‘--size’ or ‘--reference’", "")
	}
	if len(files) == 0 {
		return env.Usage(1, "missing file operand", "")
	}
	var op byte
	var size int64
	if sizeArg != "" {
		s := sizeArg
		if strings.ContainsRune("+-<>/%", rune(s[0])) {
			op, s = s[0], s[1:]
		}
		n, ok := parseGNUSize(s)
		if !ok {
			return env.Errorf(1, "Invalid number: %s", "‘"+sizeArg+"’")
		}
		if (op == '/' || op == '%') && n == 0 {
			return env.Errorf(1, "division by zero")
		}
		size = n
	}
	var refSize int64 = -1
	if ref != "" {
		fi, err := env.FS.Stat(env.Abs(ref))
		if err != nil {
			return env.Errorf(1, "cannot stat %s: %s", "'"+ref+"'", command.Strerror(err))
		}
		refSize = fi.Size()
		if sizeArg != "" && op == 0 {
			return env.Usage(1, "you must specify a relative ‘--size’ with ‘--reference’", "")
		}
	}
	status := 0
	for _, name := range files {
		if env.Canceled() {
			return command.StatusCanceled
		}
		abs := env.Abs(name)
		fi, err := env.FS.Stat(abs)
		if err != nil {
			if noCreate && vfs.Code(err) == "ENOENT" {
				continue
			}
			if vfs.Code(err) != "ENOENT" {
				status = env.Errorf(1, "cannot open %s for writing: %s", "'"+name+"'", command.Strerror(err))
				continue
			}
		}
		if fi != nil && fi.IsDir() {
			status = env.Errorf(1, "cannot open %s for writing: Is a directory", "'"+name+"'")
			continue
		}
		cur := int64(0)
		if fi != nil {
			cur = fi.Size()
		}
		base := cur
		if refSize >= 0 {
			base = refSize
		}
		target := size
		switch op {
		case '+':
			target = base + size
		case '-':
			target = max(base-size, 0)
		case '<':
			target = min(cur, size)
		case '>':
			target = max(cur, size)
		case '/':
			target = base / size * size
		case '%':
			target = (base + size - 1) / size * size
		case 0:
			if refSize >= 0 && sizeArg == "" {
				target = refSize
			}
		}
		if target < 0 || target > vfs.MaxFileSize {
			status = env.Errorf(1, "failed to truncate %s at %d bytes: %s", "'"+name+"'", target, "File too large")
			continue
		}
		f, err := env.FS.OpenFile(abs, vfs.O_WRONLY|vfs.O_CREATE, 0o644)
		if err != nil {
			status = env.Errorf(1, "cannot open %s for writing: %s", "'"+name+"'", command.Strerror(err))
			continue
		}
		err = f.Truncate(target)
		f.Close()
		if err != nil {
			status = env.Errorf(1, "failed to truncate %s at %d bytes: %s", "'"+name+"'", target, command.Strerror(err))
		}
	}
	return status
}
