package hexfmt

import (
	"bufio"
	"encoding/base32"
	"fmt"
	"strconv"
	"strings"

	"github.com/cordonhq/cordon/shell/command"
)

// cmdBase32 implements base32 [-d] [-i] [-w COLS] [FILE] as GNU does:
// RFC 4648 base32, lines wrapped at 76 columns (-w 0: never), encoded as
// it reads; -d decodes, ignoring newlines (and with -i every character
// outside the alphabet), and stops with "invalid input" (status 1) at the
// first bad 8-character block, after writing the blocks before it.
func cmdBase32(env *command.Env) int {
	return runBase(env, base32.StdEncoding, base32Decode)
}

// base32Decode writes the decoded data block by block, up to the first bad
// 8-character block, and then "invalid input" (status 1).
func base32Decode(env *command.Env, w *bufio.Writer, data []byte, ignore bool) int {
	clean := baseClean(data, ignore, func(c byte) bool { return c >= 'A' && c <= 'Z' || c >= '2' && c <= '7' || c == '=' })
	out := make([]byte, 5)
	for len(clean) > 0 {
		if env.Canceled() {
			return command.StatusCanceled
		}
		if len(clean) < 8 {
			break
		}
		n, err := base32.StdEncoding.Decode(out, clean[:8])
		if err != nil {
			// The bytes complete before the first bad character are
			// written, as GNU does.
			w.Write(partialBase32(clean[:8]))
			break
		}
		w.Write(out[:n])
		clean = clean[8:]
	}
	if len(clean) == 0 {
		return 0
	}
	if err := w.Flush(); err != nil {
		return env.WriteError(err)
	}
	return env.Errorf(1, "invalid input")
}

// partialBase32 decodes the characters of a block up to the first one
// outside the alphabet, keeping only whole bytes.
func partialBase32(block []byte) []byte {
	const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"
	var out []byte
	acc, bits := 0, 0
	for _, c := range block {
		v := strings.IndexByte(alphabet, c)
		if v < 0 {
			break
		}
		acc = acc<<5 | v
		bits += 5
		if bits >= 8 {
			bits -= 8
			out = append(out, byte(acc>>bits))
			acc &= 1<<bits - 1
		}
	}
	return out
}

// baseOptions parses the command line of base32 and base64: -d
// (--decode), -i (--ignore-garbage), -w COLS (--wrap, 76 by default) and
// at most one operand ("-" when there is none). ok is false, with the
// status to return, after a reported error.
func baseOptions(env *command.Env) (decode, ignore bool, wrap int, name string, status int, ok bool) {
	opts, files, st, ok := env.ParseOptions("diw:", []string{"decode", "ignore-garbage", "wrap="}, false)
	if !ok {
		return false, false, 0, "", st, false
	}
	wrap = 76
	for _, o := range opts {
		switch o.Name {
		case "d", "decode":
			decode = true
		case "i", "ignore-garbage":
			ignore = true
		case "w", "wrap":
			n, err := strconv.Atoi(o.Value)
			if err != nil || n < 0 {
				return false, false, 0, "", env.Errorf(1, "invalid wrap size: %s", quote(o.Value)), false
			}
			wrap = n
		}
	}
	if len(files) > 1 {
		return false, false, 0, "", env.Usage(1, fmt.Sprintf("extra operand %s", quote(files[1])), ""), false
	}
	name = "-"
	if len(files) == 1 {
		name = files[0]
	}
	return decode, ignore, wrap, name, 0, true
}

// baseClean returns the characters of data to decode: all but newlines
// and carriage returns, and with ignore only those of the alphabet.
func baseClean(data []byte, ignore bool, alphabet func(byte) bool) []byte {
	clean := make([]byte, 0, len(data))
	for _, c := range data {
		switch {
		case c == '\n' || c == '\r':
		case ignore && !alphabet(c):
		default:
			clean = append(clean, c)
		}
	}
	return clean
}
