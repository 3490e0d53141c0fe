package fileutils

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"

	"github.com/cordonhq/cordon/shell/command"
)

// suffixer generates split's output names: PREFIX, a suffix (aa, ab, ...
// or 00, 01, ...) and the additional suffix. Without -a the suffix widens
// as GNU's does (..., yz, zaaa, ..., zyzz, zzaaaa, ...).
type suffixer struct {
	prefix, extra, additional string
	alphabet                  string
	width                     int
	fixed                     bool // -a given: running out is an error
	n                         int  // index within the current width
}

// next returns the next name, or false when suffixes are exhausted.
func (s *suffixer) next() (string, bool) {
	base := len(s.alphabet)
	limit := 1
	for range s.width {
		if limit > (1<<31)/base {
			limit = 1 << 31
			break
		}
		limit *= base
	}
	if !s.fixed && s.n == limit/base*(base-1) {
		// The first digit would be the last symbol: widen.
		s.extra += string(s.alphabet[base-1])
		s.width++
		s.n = 0
	}
	if s.n >= limit {
		return "", false
	}
	digits := make([]byte, s.width)
	v := s.n
	for i := s.width - 1; i >= 0; i-- {
		digits[i] = s.alphabet[v%base]
		v /= base
	}
	s.n++
	return s.prefix + s.extra + string(digits) + s.additional, true
}

// cmdSplit implements split [-l LINES | -b SIZE | -n CHUNKS] [-a LEN] [-d
// | -x] [--additional-suffix=SUF] [--verbose] [-e] [FILE [PREFIX]]: GNU's
// output names (xaa, xab, ...; -d 00, 01, ...; widening without -a) and
// contents. -n takes N (byte chunks) only.
func cmdSplit(env *command.Env) int {
	opts, operands, st, ok := env.ParseOptions("l:b:n:a:dxe", []string{"lines=", "bytes=", "number=", "suffix-length=", "numeric-suffixes", "hex-suffixes",
		"additional-suffix=", "verbose", "elide-empty-files"}, false)
	if !ok {
		return st
	}
	s := &suffixer{prefix: "x", alphabet: "abcdefghijklmnopqrstuvwxyz", width: 2}
	mode, amount := byte('l'), int64(1000)
	verbose, elide := false, false
	for _, o := range opts {
		switch o.Name {
		case "l", "lines":
			n, err := strconv.ParseInt(o.Value, 10, 64)
			if err != nil || n <= 0 {
				return env.Errorf(1, "invalid number of lines: ‘%s’: Numerical result out of range", o.Value)
			}
			mode, amount = 'l', n
		case "b", "bytes":
			n, ok := parseGNUSize(o.Value)
			if !ok || n <= 0 {
				return env.Errorf(1, "invalid number of bytes: ‘%s’", o.Value)
			}
			mode, amount = 'b', n
		case "n", "number":
			n, err := strconv.ParseInt(o.Value, 10, 64)
			if err != nil || n <= 0 {
				return env.Errorf(1, "invalid number of chunks: ‘%s’", o.Value)
			}
			mode, amount = 'n', n
		case "a", "suffix-length":
			n, err := strconv.Atoi(o.Value)
			if err != nil || n <= 0 || n > 64 {
				return env.Errorf(1, "invalid suffix length: ‘%s’", o.Value)
			}
			s.width, s.fixed = n, true
		case "d", "numeric-suffixes":
			s.alphabet = "0123456789"
		case "x", "hex-suffixes":
			s.alphabet = "0123456789abcdef"
		case "additional-suffix":
			if strings.Contains(o.Value, "/") {
				return env.Errorf(1, "invalid suffix ‘%s’, contains directory separator", o.Value)
			}
			s.additional = o.Value
		case "verbose":
			verbose = true
		case "e", "elide-empty-files":
			elide = true
		}
	}
	if len(operands) > 2 {
		return env.Usage(1, fmt.Sprintf("extra operand ‘%s’", operands[2]), "")
	}
	in := "-"
	if len(operands) > 0 {
		in = operands[0]
	}
	if len(operands) > 1 {
		s.prefix = operands[1]
	}
	if mode == 'n' && amount > 1<<20 {
		return env.Errorf(1, "invalid number of chunks: ‘%d’", amount)
	}
	data, err := env.ReadAll(in)
	if err != nil {
		if command.IsCanceled(err) {
			return command.StatusCanceled
		}
		return env.Errorf(1, "cannot open '%s' for reading: %s", in, command.Strerror(err))
	}
	var chunks [][]byte
	switch mode {
	case 'l':
		for len(data) > 0 {
			end := 0
			for i := int64(0); i < amount && end < len(data); i++ {
				k := bytes.IndexByte(data[end:], '\n')
				if k < 0 {
					end = len(data)
					break
				}
				end += k + 1
			}
			chunks = append(chunks, data[:end])
			data = data[end:]
		}
	case 'b':
		for len(data) > 0 {
			k := int(min(amount, int64(len(data))))
			chunks = append(chunks, data[:k])
			data = data[k:]
		}
	case 'n':
		size := int64(len(data))
		for i := int64(0); i < amount; i++ {
			start, end := i*(size/amount), (i+1)*(size/amount)
			if i == amount-1 {
				end = size
			}
			if elide && start == end {
				continue
			}
			chunks = append(chunks, data[start:end])
		}
	}
	inAbs := ""
	if in != "-" {
		inAbs = env.Abs(in)
	}
	for _, c := range chunks {
		if env.Canceled() {
			return command.StatusCanceled
		}
		name, ok := s.next()
		if !ok {
			return env.Errorf(1, "output file suffixes exhausted")
		}
		abs := env.Abs(name)
		if abs == inAbs {
			return env.Errorf(1, "‘%s’ would overwrite input; aborting", name)
		}
		if verbose {
			fmt.Fprintf(env.Stdout, "creating file '%s'\n", name)
		}
		if err := env.FS.WriteFile(abs, c, 0o644); err != nil {
			return env.Errorf(1, "%s: %s", name, command.Strerror(err))
		}
	}
	return 0
}
