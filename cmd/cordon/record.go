package main

import (
	"errors"
	"fmt"
	"os"

	"github.com/cordonhq/cordon/engine"
	"github.com/cordonhq/cordon/trace"
)

// recording is the trace that `cordon run --record FILE` writes: the file
// is created before the script runs, so that a path that cannot be written
// fails the run at once, and the trace is written into it once the
// execution has ended.
type recording struct {
	file   *os.File
	t      trace.Trace
	closed bool
}

// startRecording creates path for the trace of a run, or returns nil when
// path is "" (no --record).
func startRecording(path string) (*recording, error) {
	if path == "" {
		return nil, nil
	}
	f, err := os.Create(path)
	if err != nil {
		return nil, usagef("run: --record: cannot create %s: %v", path, errors.Unwrap(err))
	}
	return &recording{file: f}, nil
}

// option returns the execute option that records the run, with the file
// system it started from, so that the trace holds all a replay needs.
func (r *recording) option() engine.ExecuteOption {
	return engine.WithRecord(&r.t, engine.RecordVFS())
}

// finish writes the trace and closes the file. An execution that did not
// start (the trace is empty) leaves the file empty.
func (r *recording) finish() error {
	if r == nil {
		return nil
	}
	var err error
	if r.t.Version != 0 {
		err = r.t.Write(r.file)
	}
	r.closed = true
	if cerr := r.file.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("run: --record: writing %s: %w", r.file.Name(), err)
	}
	return nil
}

// abandon closes the file of a run that ended before finish (its script
// did not run), leaving it empty.
func (r *recording) abandon() {
	if r != nil && !r.closed {
		_ = r.file.Close()
	}
}
