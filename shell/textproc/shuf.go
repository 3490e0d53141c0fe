package textproc

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"hash/fnv"
	"io"
	"math/rand/v2"
	"strconv"
	"strings"

	"github.com/cordonhq/cordon/shell/command"

	"github.com/cordonhq/cordon/vfs"
)

// maxShufRange bounds -i LO-HI without -n or with -r's output.
const maxShufRange = 1 << 24

// shufSeed draws a seed from the shell's $RANDOM (through Env.Exec, so
// that it advances the script's own sequence): runs are reproducible, as
// $RANDOM is, and two shuf calls of one script differ.
func shufSeed(env *command.Env) (uint64, uint64) {
	if env.Exec == nil {
		return 12345, 0
	}
	var out bytes.Buffer
	st := env.Exec(env.Ctx, []string{"builtin", "eval", `printf '%s %s %s %s' $RANDOM $RANDOM $RANDOM $RANDOM`}, nil, strings.NewReader(""), &out, io.Discard)
	var seed uint64
	if st == 0 {
		for _, f := range strings.Fields(out.String()) {
			n, _ := strconv.ParseUint(f, 10, 64)
			seed = seed<<15 | n
		}
	}
	return seed, 0x5eed
}

// cmdShuf implements shuf [-n COUNT] [-r] [-z] [-o FILE]
// [--random-source=FILE] (FILE | -e ARG... | -i LO-HI): a random
// permutation of the lines (or arguments, or numbers). The randomness is
// the shell's: a generator seeded from $RANDOM, so a script's shuffles are
// the same on every run until it sets RANDOM, as its $RANDOM values are;
// --random-source seeds it from the file's bytes instead. The order
// differs from GNU shuf's for the same source.
func cmdShuf(env *command.Env) int {
	opts, operands, st, ok := env.ParseOptions("ei:n:o:rz", []string{"echo", "input-range=", "head-count=", "output=", "random-source=", "repeat", "zero-terminated"}, false)
	if !ok {
		return st
	}
	echo, repeat := false, false
	count := int64(-1)
	rangeArg, output, source := "", "", ""
	delim := byte('\n')
	for _, o := range opts {
		switch o.Name {
		case "e", "echo":
			echo = true
		case "i", "input-range":
			if rangeArg != "" {
				return env.Usage(1, "multiple -i options specified", "")
			}
			rangeArg = o.Value
		case "n", "head-count":
			n, err := strconv.ParseInt(o.Value, 10, 64)
			if err != nil || n < 0 {
				return env.Errorf(1, "invalid line count: ‘%s’", o.Value)
			}
			if count < 0 || n < count {
				count = n
			}
		case "o", "output":
			output = o.Value
		case "random-source":
			source = o.Value
		case "r", "repeat":
			repeat = true
		case "z", "zero-terminated":
			delim = 0
		}
	}
	var items [][]byte
	var lo, hi uint64
	useRange := false
	switch {
	case echo && rangeArg != "":
		return env.Usage(1, "cannot combine -e and -i options", "")
	case echo:
		for _, a := range operands {
			items = append(items, []byte(a))
		}
	case rangeArg != "":
		if len(operands) > 0 {
			return env.Usage(1, fmt.Sprintf("extra operand ‘%s’", operands[0]), "")
		}
		a, b, found := strings.Cut(rangeArg, "-")
		x, err1 := strconv.ParseUint(a, 10, 64)
		y, err2 := strconv.ParseUint(b, 10, 64)
		if !found || err1 != nil || err2 != nil || y+1 < x {
			return env.Errorf(1, "invalid input range: ‘%s’", rangeArg)
		}
		lo, hi, useRange = x, y, true
	default:
		if len(operands) > 1 {
			return env.Usage(1, fmt.Sprintf("extra operand ‘%s’", operands[1]), "")
		}
		name := "-"
		if len(operands) == 1 {
			name = operands[0]
		}
		data, err := env.ReadAll(name)
		if err != nil {
			return env.ReadError(name, err)
		}
		for len(data) > 0 {
			i := bytes.IndexByte(data, delim)
			if i < 0 {
				items = append(items, data)
				break
			}
			items = append(items, data[:i])
			data = data[i+1:]
		}
	}
	var s1, s2 uint64
	if source != "" {
		data, err := env.ReadAll(source)
		if err != nil {
			return env.ReadError(source, err)
		}
		h := fnv.New128a()
		h.Write(data)
		sum := h.Sum(nil)
		s1, s2 = binary.BigEndian.Uint64(sum[:8]), binary.BigEndian.Uint64(sum[8:])
	} else {
		s1, s2 = shufSeed(env)
	}
	rng := rand.New(rand.NewPCG(s1, s2))
	n := uint64(len(items))
	if useRange {
		n = hi - lo + 1
	}
	item := func(i uint64) []byte {
		if useRange {
			return strconv.AppendUint(nil, lo+i, 10)
		}
		return items[i]
	}
	w := env.NewOutput()
	var file interface{ Close() error }
	if output != "" {
		f, err := env.FS.OpenFile(env.Abs(output), vfs.O_WRONLY|vfs.O_CREATE|vfs.O_TRUNC, 0o644)
		if err != nil {
			return env.FileError(1, output, err)
		}
		file = f
		w = env.NewWriter(command.NewCtxWriter(env.Ctx, f), 32<<10)
	}
	put := func(b []byte) error {
		w.Write(b)
		_, err := w.Write([]byte{delim})
		return err
	}
	var err error
	switch {
	case repeat:
		if n == 0 {
			if count != 0 {
				return env.Errorf(1, "no lines to repeat")
			}
			break
		}
		for i := int64(0); count < 0 || i < count; i++ {
			if env.Canceled() {
				return command.StatusCanceled
			}
			if err = put(item(rng.Uint64N(n))); err != nil {
				break
			}
		}
	default:
		k := n
		if count >= 0 && uint64(count) < k {
			k = uint64(count)
		}
		if useRange && k > maxShufRange {
			return env.Errorf(1, "the range holds more than %d numbers; use -n", maxShufRange)
		}
		// A partial Fisher-Yates shuffle over a sparse permutation, so
		// that -n 3 of a huge range costs three steps.
		perm := map[uint64]uint64{}
		at := func(i uint64) uint64 {
			if v, ok := perm[i]; ok {
				return v
			}
			return i
		}
		for i := uint64(0); i < k; i++ {
			if i&1023 == 0 && env.Canceled() {
				return command.StatusCanceled
			}
			j := i + rng.Uint64N(n-i)
			vi, vj := at(i), at(j)
			perm[i], perm[j] = vj, vi
			if err = put(item(vj)); err != nil {
				break
			}
		}
	}
	if err == nil {
		err = w.Flush()
	}
	if file != nil {
		file.Close()
	}
	if err != nil {
		return env.WriteError(err)
	}
	return 0
}
