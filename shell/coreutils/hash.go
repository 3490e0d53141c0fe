package coreutils

import (
	"crypto/md5"
	"crypto/sha1"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"hash"
	"io"
	"strings"

	"github.com/cordonhq/cordon/shell/command"
)

// hashCommand returns sha256sum, sha1sum or md5sum.
func hashCommand(algo string) command.Func {
	return func(env *command.Env) int {
		newHash := map[string]func() hash.Hash{"sha256": sha256.New, "sha1": sha1.New, "md5": md5.New}[algo]
		opts, files, st, ok := env.ParseOptions("bctwz", []string{"binary", "check", "text", "tag", "quiet", "status", "strict", "warn", "ignore-missing", "zero"}, false)
		if !ok {
			return st
		}
		check, binary, tag := false, false, false
		var co checkOptions
		for _, o := range opts {
			switch o.Name {
			case "c", "check":
				check = true
			case "b", "binary":
				binary = true
			case "tag":
				tag = true
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
		w := env.NewOutput()
		status := 0
		for _, name := range files {
			sum, err := hashFile(env, newHash, name)
			if err != nil {
				if command.IsCanceled(err) {
					return command.StatusCanceled
				}
				w.Flush()
				status = env.FileError(1, name, err)
				continue
			}
			if tag {
				fmt.Fprintf(w, "%s (%s) = %s\n", strings.ToUpper(algo), name, sum)
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
			return env.WriteError(err)
		}
		return status
	}
}

// hashFile returns the hex digest of a file.
func hashFile(env *command.Env, newHash func() hash.Hash, name string) (string, error) {
	rc, err := env.Open(name)
	if err != nil {
		return "", err
	}
	defer rc.Close()
	h := newHash()
	if _, err := io.Copy(h, command.NewCtxReader(env.Ctx, rc)); err != nil {
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
	w := env.NewOutput()
	defer w.Flush()
	status := 0
	hexLen := newHash().Size() * 2
	for _, list := range files {
		in, ok := env.OpenInput(list)
		if !ok {
			status = 1
			continue
		}
		data, err := io.ReadAll(in.R)
		in.Close()
		if err != nil {
			return env.ReadError(list, err)
		}
		failed, missing, good := 0, 0, 0
		for _, line := range strings.Split(string(data), "\n") {
			if env.Canceled() {
				return command.StatusCanceled
			}
			line = strings.TrimSuffix(line, "\r")
			want, name, ok := parseCheckLine(line, hexLen)
			if !ok {
				continue
			}
			if _, err := hex.DecodeString(want); err != nil {
				continue
			}
			good++
			sum, err := hashFile(env, newHash, name)
			if err != nil {
				if command.IsCanceled(err) {
					return command.StatusCanceled
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
			shown := list
			if list == "-" {
				shown = "'standard input'"
			}
			env.Errorf(1, "%s: no properly formatted checksum lines found", shown)
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

// parseCheckLine splits a checksum line, "HASH  NAME", "HASH *NAME", GNU's
// one-space form "HASH NAME" (a tab works too), or the --tag form
// "ALGO (NAME) = HASH". As in GNU, one blank follows the hash, then an
// optional ' ' or '*' (the text or binary mark), then the name.
func parseCheckLine(line string, hexLen int) (sum, name string, ok bool) {
	if i := strings.Index(line, " ("); i > 0 {
		if j := strings.LastIndex(line, ") = "); j > i && len(line)-(j+4) == hexLen {
			return line[j+4:], line[i+2 : j], true
		}
	}
	if len(line) < hexLen+2 || line[hexLen] != ' ' && line[hexLen] != '\t' {
		return "", "", false
	}
	rest := line[hexLen+1:]
	if len(rest) > 1 && (rest[0] == ' ' || rest[0] == '*') {
		rest = rest[1:]
	}
	return line[:hexLen], rest, true
}

// plural returns "s" unless n is 1.
func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}
