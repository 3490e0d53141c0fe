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
	decode, ignore, wrap, name, st, ok := baseOptions(env)
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
	if decode {
		data, err := io.ReadAll(in.R)
		if err != nil {
			return env.ReadError(name, err)
		}
		status = base64Decode(env, w, data, ignore)
	} else if err := base64Encode(w, in.R, wrap); err != nil {
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

// base64Decode writes the decoded data, or as much of it as is valid
// followed by an "invalid input" error (status 1).
func base64Decode(env *command.Env, w io.Writer, data []byte, ignore bool) int {
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
	if wf, ok := w.(interface{ Flush() error }); ok {
		wf.Flush()
	}
	return env.Errorf(1, "invalid input")
}
