package coreutils

import (
	"bufio"
	"bytes"
	"crypto/md5"
	"crypto/sha1"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"io"
	"math"
	"path"
	"strconv"
	"strings"
	"time"

	"github.com/cordonhq/cordon/shell/command"
)

// cmdBasename implements basename NAME [SUFFIX] and basename -a|-s SUFFIX NAME...
func cmdBasename(env *command.Env) int {
	opts, names, st, ok := getopt(env, "as:z", []string{"multiple", "suffix=", "zero"}, false)
	if !ok {
		return st
	}
	multiple, suffix, end := false, "", "\n"
	for _, o := range opts {
		switch o.Name {
		case "a", "multiple":
			multiple = true
		case "s", "suffix":
			multiple, suffix = true, o.Value
		case "z", "zero":
			end = "\x00"
		}
	}
	if len(names) == 0 {
		return usage(env, 1, "missing operand")
	}
	if !multiple {
		if len(names) > 2 {
			return usage(env, 1, fmt.Sprintf("extra operand ‘%s’", names[2]))
		}
		if len(names) == 2 {
			suffix = names[1]
		}
		names = names[:1]
	}
	var sb strings.Builder
	for _, n := range names {
		b := baseName(n)
		if suffix != "" && b != suffix && strings.HasSuffix(b, suffix) {
			b = strings.TrimSuffix(b, suffix)
		}
		sb.WriteString(b + end)
	}
	if _, err := io.WriteString(env.Stdout, sb.String()); err != nil {
		return writeError(env, err)
	}
	return 0
}

// baseName is POSIX basename: "/" for "/", the last component otherwise.
func baseName(n string) string {
	t := strings.TrimRight(n, "/")
	if t == "" {
		if n == "" {
			return ""
		}
		return "/"
	}
	return path.Base(t)
}

// cmdDirname implements dirname NAME...
func cmdDirname(env *command.Env) int {
	opts, names, st, ok := getopt(env, "z", []string{"zero"}, false)
	if !ok {
		return st
	}
	end := "\n"
	if len(opts) > 0 {
		end = "\x00"
	}
	if len(names) == 0 {
		return usage(env, 1, "missing operand")
	}
	var sb strings.Builder
	for _, n := range names {
		sb.WriteString(dirName(n) + end)
	}
	if _, err := io.WriteString(env.Stdout, sb.String()); err != nil {
		return writeError(env, err)
	}
	return 0
}

// dirName is POSIX dirname.
func dirName(n string) string {
	t := strings.TrimRight(n, "/")
	if t == "" {
		if strings.HasPrefix(n, "/") {
			return "/"
		}
		return "."
	}
	i := strings.LastIndexByte(t, '/')
	if i < 0 {
		return "."
	}
	d := strings.TrimRight(t[:i], "/")
	if d == "" {
		return "/"
	}
	return d
}

// cmdBase64 implements base64 [-d] [-i] [-w COLS] [FILE].
func cmdBase64(env *command.Env) int {
	opts, files, st, ok := getopt(env, "diw:", []string{"decode", "ignore-garbage", "wrap="}, false)
	if !ok {
		return st
	}
	decode, ignore, wrap := false, false, 76
	for _, o := range opts {
		switch o.Name {
		case "d", "decode":
			decode = true
		case "i", "ignore-garbage":
			ignore = true
		case "w", "wrap":
			n, err := strconv.Atoi(o.Value)
			if err != nil || n < 0 {
				return env.Errorf(1, "invalid wrap size: ‘%s’", o.Value)
			}
			wrap = n
		}
	}
	if len(files) > 1 {
		return usage(env, 1, fmt.Sprintf("extra operand ‘%s’", files[1]))
	}
	name := "-"
	if len(files) == 1 {
		name = files[0]
	}
	in, ok := openInput(env, name)
	if !ok {
		return 1
	}
	defer in.Close()
	w := newWriter(env)
	status := 0
	if decode {
		data, err := io.ReadAll(in.r)
		if err != nil {
			return readError(env, name, err)
		}
		status = base64Decode(env, w, data, ignore)
	} else if err := base64Encode(w, in.r, wrap); err != nil {
		if isCanceled(err) {
			return canceledStatus
		}
		if werr := w.Flush(); werr != nil {
			return writeError(env, werr)
		}
		return readError(env, name, err)
	}
	if err := w.Flush(); err != nil {
		return writeError(env, err)
	}
	return status
}

// base64Encode encodes r to w as it reads, wrapping lines at wrap columns
// (never when wrap is 0).
func base64Encode(w *bufio.Writer, r io.Reader, wrap int) error {
	buf := make([]byte, 48<<10) // a multiple of 3
	enc := make([]byte, base64.StdEncoding.EncodedLen(len(buf)))
	col := 0
	fill := 0
	put := func(data []byte) {
		n := base64.StdEncoding.EncodedLen(len(data))
		base64.StdEncoding.Encode(enc, data)
		out := enc[:n]
		for len(out) > 0 {
			k := len(out)
			if wrap > 0 && k > wrap-col {
				k = wrap - col
			}
			w.Write(out[:k])
			out = out[k:]
			col += k
			if wrap > 0 && col == wrap {
				w.WriteByte('\n')
				col = 0
			}
		}
	}
	for {
		n, err := r.Read(buf[fill:])
		fill += n
		if fill == len(buf) {
			put(buf)
			fill = 0
		}
		if err == io.EOF {
			if fill > 0 {
				put(buf[:fill])
			}
			if wrap > 0 && col > 0 {
				w.WriteByte('\n')
			}
			return nil
		}
		if err != nil {
			return err
		}
		if _, werr := w.Write(nil); werr != nil {
			return werr
		}
	}
}

func base64Decode(env *command.Env, w io.Writer, data []byte, ignore bool) int {
	clean := make([]byte, 0, len(data))
	for _, c := range data {
		switch {
		case c == '\n' || c == '\r':
		case ignore && !(c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '+' || c == '/' || c == '='):
		default:
			clean = append(clean, c)
		}
	}
	out := make([]byte, base64.StdEncoding.DecodedLen(len(clean)))
	n, err := base64.StdEncoding.Decode(out, clean)
	if err == nil {
		w.Write(out[:n])
		return 0
	}
	var ce base64.CorruptInputError
	if errors.As(err, &ce) {
		good := int(ce) / 4 * 4
		n, _ := base64.StdEncoding.Decode(out, clean[:good])
		w.Write(out[:n])
		tail := clean[good:]
		if len(tail) < 4 && !bytes.ContainsAny(tail, "=") {
			if m, err := base64.RawStdEncoding.Decode(out, tail); err == nil {
				w.Write(out[:m])
			}
		}
	}
	if wf, ok := w.(interface{ Flush() error }); ok {
		wf.Flush()
	}
	return env.Errorf(1, "invalid input")
}

// hashCommand returns sha256sum, sha1sum or md5sum.
func hashCommand(algo string) command.Func {
	return func(env *command.Env) int {
		newHash := map[string]func() hash.Hash{"sha256": sha256.New, "sha1": sha1.New, "md5": md5.New}[algo]
		opts, files, st, ok := getopt(env, "bctwz", []string{"binary", "check", "text", "tag", "quiet", "status", "strict", "warn", "ignore-missing", "zero"}, false)
		if !ok {
			return st
		}
		check, binary := false, false
		var co checkOptions
		for _, o := range opts {
			switch o.Name {
			case "c", "check":
				check = true
			case "b", "binary":
				binary = true
			case "quiet":
				co.quiet = true
			case "status":
				co.status = true
			case "ignore-missing":
				co.ignoreMissing = true
			case "w", "warn", "strict":
			}
		}
		if len(files) == 0 {
			files = []string{"-"}
		}
		if check {
			return hashCheck(env, newHash, files, co)
		}
		w := newWriter(env)
		status := 0
		for _, name := range files {
			sum, err := hashFile(env, newHash, name)
			if err != nil {
				if isCanceled(err) {
					return canceledStatus
				}
				w.Flush()
				status = env.FileError(1, name, err)
				continue
			}
			mark := " "
			if binary {
				mark = "*"
			}
			prefix := ""
			if strings.ContainsAny(name, "\\\n") {
				prefix = "\\"
				name = strings.NewReplacer("\\", "\\\\", "\n", "\\n").Replace(name)
			}
			fmt.Fprintf(w, "%s%s %s%s\n", prefix, sum, mark, name)
		}
		if err := w.Flush(); err != nil {
			return writeError(env, err)
		}
		return status
	}
}

func hashFile(env *command.Env, newHash func() hash.Hash, name string) (string, error) {
	rc, err := env.Open(name)
	if err != nil {
		return "", err
	}
	defer rc.Close()
	h := newHash()
	if _, err := io.Copy(h, ctxReader{env.Ctx, rc}); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// checkOptions are the options of -c.
type checkOptions struct {
	quiet, status, ignoreMissing bool
}

// hashCheck implements sha256sum -c.
func hashCheck(env *command.Env, newHash func() hash.Hash, files []string, co checkOptions) int {
	w := newWriter(env)
	defer w.Flush()
	status := 0
	hexLen := newHash().Size() * 2
	for _, list := range files {
		in, ok := openInput(env, list)
		if !ok {
			status = 1
			continue
		}
		data, err := io.ReadAll(in.r)
		in.Close()
		if err != nil {
			return readError(env, list, err)
		}
		failed, missing, good := 0, 0, 0
		for _, line := range strings.Split(string(data), "\n") {
			if canceled(env) {
				return canceledStatus
			}
			line = strings.TrimSuffix(line, "\r")
			if len(line) < hexLen+2 || line[hexLen] != ' ' {
				continue
			}
			want, name := line[:hexLen], line[hexLen+2:]
			if _, err := hex.DecodeString(want); err != nil {
				continue
			}
			good++
			sum, err := hashFile(env, newHash, name)
			if err != nil {
				if isCanceled(err) {
					return canceledStatus
				}
				if co.ignoreMissing && isNotExist(err) {
					continue
				}
				w.Flush()
				if !co.status {
					env.FileError(1, name, err)
					fmt.Fprintf(w, "%s: FAILED open or read\n", name)
				}
				missing++
				continue
			}
			if !strings.EqualFold(sum, want) {
				failed++
				if !co.status {
					fmt.Fprintf(w, "%s: FAILED\n", name)
				}
			} else if !co.quiet && !co.status {
				fmt.Fprintf(w, "%s: OK\n", name)
			}
		}
		w.Flush()
		if good == 0 {
			env.Errorf(1, "%s: no properly formatted checksum lines found", list)
			status = 1
			continue
		}
		if !co.status {
			if missing > 0 {
				env.Errorf(1, "WARNING: %d listed file%s could not be read", missing, plural(missing))
			}
			if failed > 0 {
				s := "checksum did NOT match"
				if failed > 1 {
					s = "checksums did NOT match"
				}
				env.Errorf(1, "WARNING: %d computed %s", failed, s)
			}
		}
		if failed > 0 || missing > 0 {
			status = 1
		}
	}
	return status
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// cmdEnv implements env [-i] [-u NAME] [NAME=VALUE]... [COMMAND [ARG]...].
// Running a command with changed variables is not supported, because
// Env.Exec cannot pass an environment.
func cmdEnv(env *command.Env) int {
	opts, rest, st, ok := getopt(env, "iu:0", []string{"ignore-environment", "unset=", "null"}, true)
	if !ok {
		return usageStatus(st, 125)
	}
	vars := append([]string(nil), env.Environ...)
	changed, end := false, "\n"
	for _, o := range opts {
		switch o.Name {
		case "i", "ignore-environment":
			vars, changed = nil, true
		case "u", "unset":
			vars, changed = unsetVar(vars, o.Value), true
		case "0", "null":
			end = "\x00"
		}
	}
	if len(rest) > 0 && rest[0] == "-" {
		vars, changed = nil, true
		rest = rest[1:]
	}
	for len(rest) > 0 && strings.Contains(rest[0], "=") {
		name, _, _ := strings.Cut(rest[0], "=")
		if name == "" {
			return env.Errorf(125, "cannot set '%s': Invalid argument", rest[0])
		}
		vars = append(unsetVar(vars, name), rest[0])
		changed = true
		rest = rest[1:]
	}
	if len(rest) == 0 {
		var sb strings.Builder
		for _, v := range vars {
			sb.WriteString(v + end)
		}
		if _, err := io.WriteString(env.Stdout, sb.String()); err != nil {
			return writeError(env, err)
		}
		return 0
	}
	if changed {
		return env.Errorf(125, "running a command with a modified environment is not supported; use 'NAME=VALUE command' instead")
	}
	if env.Exec == nil {
		return env.Errorf(126, "%s: command execution is not available", rest[0])
	}
	return env.Exec(env.Ctx, rest, env.Stdin, env.Stdout, env.Stderr)
}

func unsetVar(vars []string, name string) []string {
	out := vars[:0:0]
	for _, v := range vars {
		if !strings.HasPrefix(v, name+"=") {
			out = append(out, v)
		}
	}
	return out
}

// cmdSleep implements sleep NUMBER[smhd]... ("infinity" sleeps until the
// context is canceled). It sleeps in slices of 10ms, checking the context.
func cmdSleep(env *command.Env) int {
	args := env.Args[1:]
	if len(args) > 0 && args[0] == "--" {
		args = args[1:]
	}
	if len(args) == 0 {
		return usage(env, 1, "missing operand")
	}
	var total float64
	for _, a := range args {
		if strings.HasPrefix(a, "--") {
			return usage(env, 1, fmt.Sprintf("unrecognized option '%s'", a))
		}
		if strings.HasPrefix(a, "-") && len(a) > 1 {
			return usage(env, 1, fmt.Sprintf("invalid option -- '%c'", a[1]))
		}
		d, ok := parseDuration(a)
		if !ok {
			return usage(env, 1, fmt.Sprintf("invalid time interval ‘%s’", a))
		}
		total += d
	}
	deadline := time.Now().Add(time.Duration(math.Min(total, 1e9) * float64(time.Second)))
	for {
		if canceled(env) {
			return canceledStatus
		}
		left := time.Until(deadline)
		if left <= 0 {
			return 0
		}
		time.Sleep(min(left, 10*time.Millisecond))
	}
}

// parseDuration parses a sleep interval in seconds.
func parseDuration(s string) (float64, bool) {
	mult := 1.0
	if s != "" {
		switch s[len(s)-1] {
		case 's':
			s = s[:len(s)-1]
		case 'm':
			mult, s = 60, s[:len(s)-1]
		case 'h':
			mult, s = 3600, s[:len(s)-1]
		case 'd':
			mult, s = 86400, s[:len(s)-1]
		}
	}
	if s == "inf" || s == "infinity" {
		return math.Inf(1), true
	}
	if s == "" || strings.ContainsAny(s, "xXpPnN_") {
		return 0, false
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || v < 0 || math.IsNaN(v) {
		return 0, false
	}
	return v * mult, true
}

// cmdYes implements yes [STRING]... It stops when the context is canceled or
// when writing fails (the reader went away).
func cmdYes(env *command.Env) int {
	_, args, st, ok := getopt(env, "", nil, true)
	if !ok {
		return st
	}
	line := "y\n"
	if len(args) > 0 {
		line = strings.Join(args, " ") + "\n"
	}
	var buf []byte
	for len(buf) < 8<<10 {
		buf = append(buf, line...)
	}
	for {
		if canceled(env) {
			return canceledStatus
		}
		if _, err := env.Stdout.Write(buf); err != nil {
			return writeError(env, err)
		}
	}
}
