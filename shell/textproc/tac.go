package textproc

import (
	"bytes"
	"fmt"

	"github.com/cordonhq/cordon/shell/command"
)

// cmdTac implements tac [-b] [-s SEP] [FILE]...: each file's records (lines
// by default) in reverse order. The separator ends a record, or with -b
// starts it; a last record without one is printed as it is, as GNU does.
// -r (a regular expression as separator) is refused.
func cmdTac(env *command.Env) int {
	opts, files, st, ok := env.ParseOptions("brs:", []string{"before", "regex", "separator="}, false)
	if !ok {
		return st
	}
	sep := []byte{'\n'}
	before := false
	for _, o := range opts {
		switch o.Name {
		case "b", "before":
			before = true
		case "r", "regex":
			return env.Errorf(1, "-r (a regular expression as separator) is not supported in this sandbox")
		case "s", "separator":
			if o.Value == "" {
				return env.Errorf(1, "separator cannot be empty")
			}
			sep = []byte(o.Value)
		}
	}
	if len(files) == 0 {
		files = []string{"-"}
	}
	w := env.NewOutput()
	status := 0
	for _, name := range files {
		data, err := env.ReadAll(name)
		if err != nil {
			if command.IsCanceled(err) {
				return command.StatusCanceled
			}
			fmt.Fprintf(env.Stderr, "tac: failed to open '%s' for reading: %s\n", name, command.Strerror(err))
			status = 1
			continue
		}
		for _, rec := range reverseRecords(data, sep, before) {
			if _, err := w.Write(rec); err != nil {
				return env.WriteError(err)
			}
		}
		if env.Canceled() {
			return command.StatusCanceled
		}
	}
	if err := w.Flush(); err != nil {
		return env.WriteError(err)
	}
	return status
}

// reverseRecords splits data into records at sep (ending each record, or
// with before starting it) and returns them last first.
func reverseRecords(data, sep []byte, before bool) [][]byte {
	var recs [][]byte
	for len(data) > 0 {
		i := bytes.Index(data, sep)
		if before {
			j := bytes.Index(data[min(len(sep), len(data)):], sep)
			if i == 0 {
				if j < 0 {
					recs = append(recs, data)
					break
				}
				j += len(sep)
				recs = append(recs, data[:j])
				data = data[j:]
				continue
			}
			if i < 0 {
				recs = append(recs, data)
				break
			}
			recs = append(recs, data[:i])
			data = data[i:]
			continue
		}
		if i < 0 {
			recs = append(recs, data)
			break
		}
		recs = append(recs, data[:i+len(sep)])
		data = data[i+len(sep):]
	}
	for l, r := 0, len(recs)-1; l < r; l, r = l+1, r-1 {
		recs[l], recs[r] = recs[r], recs[l]
	}
	return recs
}
