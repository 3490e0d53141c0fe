package hexfmt

import (
	"bufio"
	"bytes"
	"encoding/base64"
	"errors"
	"io"

	"github.com/cordonhq/cordon/shell/command"
)

// cmdBase64 implements base64 [-d] [-i] [-w COLS] [FILE] as GNU does:
// RFC 4648 base64, lines wrapped at 76 columns (-w 0: never), encoded as
// it reads; -d decodes, ignoring newlines (and with -i every character
// outside the alphabet), and writes what is valid before "invalid input"
// (status 1).
func cmdBase64(env *command.Env) int {
	return runBase(env, base64.StdEncoding, base64Decode)
}

// baseEncoding is what base32 and base64 encode with: *base32.Encoding or
// *base64.Encoding.
type baseEncoding interface {
	Encode(dst, src []byte)
	EncodedLen(n int) int
}

// runBase runs base32 or base64: it parses the command line, then encodes
// the input with enc as it reads, or reads it all and decodes it with
// decode, which writes what it decodes to w and returns the status.
func runBase(env *command.Env, enc baseEncoding, decode func(env *command.Env, w *bufio.Writer, data []byte, ignore bool) int) int {
	decoding, ignore, wrap, name, st, ok := baseOptions(env)
	if !ok {
		return st
	}
	in, ok := env.OpenInput(name)
	if !ok {
		return 1
	}
	defer in.Close()
	w := env.NewOutput()
	status := 0
	if decoding {
		data, err := io.ReadAll(in.R)
		if err != nil {
			return env.ReadError(name, err)
		}
		if status = decode(env, w, data, ignore); status == command.StatusCanceled {
			return status
		}
	} else if err := baseEncode(w, in.R, enc, wrap); err != nil {
		if command.IsCanceled(err) {
			return command.StatusCanceled
		}
		if werr := w.Flush(); werr != nil {
			return env.WriteError(werr)
		}
		return env.ReadError(name, err)
	}
	if err := w.Flush(); err != nil {
		return env.WriteError(err)
	}
	return status
}

// baseEncode encodes r to w with enc as it reads, wrapping lines at wrap
// columns (never when wrap is 0).
func baseEncode(w *bufio.Writer, r io.Reader, enc baseEncoding, wrap int) error {
	// A multiple of 3 and of 5, so that only the last chunk of the input
	// can end in an incomplete group and be padded.
	buf := make([]byte, 15<<12)
	out := make([]byte, enc.EncodedLen(len(buf)))
	col := 0
	fill := 0
	put := func(data []byte) {
		n := enc.EncodedLen(len(data))
		enc.Encode(out, data)
		text := out[:n]
		for len(text) > 0 {
			k := len(text)
			if wrap > 0 && k > wrap-col {
				k = wrap - col
			}
			w.Write(text[:k])
			text = text[k:]
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

// base64Decode writes the decoded data, or as much of it as is valid
// followed by an "invalid input" error (status 1).
func base64Decode(env *command.Env, w *bufio.Writer, data []byte, ignore bool) int {
	clean := baseClean(data, ignore, func(c byte) bool {
		return c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '+' || c == '/' || c == '='
	})
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
	w.Flush()
	return env.Errorf(1, "invalid input")
}
