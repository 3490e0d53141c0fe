// Package server is the guest's request loop: it takes requests from the
// host (set up, run a script, put or get files), serves them against the
// guest's VFS and JS runtime, and answers each one.
//
// It is portable Go so that it can be tested natively with a fake Host; the
// guest binary (package main above) connects it to the host ABI.
package server

import (
	"fmt"
	"io/fs"
	"path"
	"runtime"
	"runtime/metrics"
	"sort"

	"github.com/cordonhq/cordon/guest/internal/hub"
	"github.com/cordonhq/cordon/guest/internal/jsrt"
	"github.com/cordonhq/cordon/guest/internal/shellrt"
	"github.com/cordonhq/cordon/internal/abi"
	"github.com/cordonhq/cordon/vfs"
)

// state is what persists across requests: the VFS and the tools.
type state struct {
	host     hub.Host
	fs       *vfs.FS
	tools    []abi.ToolInfo
	plan     *jsrt.ToolPlan // how tools appear in JS, made by the first execution
	maxDepth int
}

// Serve runs the request loop until the host ends it.
func Serve(h hub.Host) error {
	s := &state{host: h, fs: vfs.New(vfs.Limits{})}
	var resp []byte
	for {
		req, err := h.Next(resp)
		if err != nil {
			return err
		}
		if cap(resp) > keepResponse {
			// A large export: free its copy now, before the next request
			// allocates, so that exports of a VFS at its quota do not pile
			// up garbage until the guest runs out of memory.
			resp = nil
			runtime.GC()
		}
		out := s.handle(req)
		resp = abi.EncodeResponse(resp[:0], out)
	}
}

// keepResponse is the largest response buffer Serve keeps for the next
// response.
const keepResponse = 1 << 20

func errResponse(code abi.ErrCode, err error) *abi.Response {
	return &abi.Response{Status: abi.StatusError, ErrCode: code, ErrMsg: err.Error()}
}

func (s *state) handle(b []byte) *abi.Response {
	req, err := abi.DecodeRequest(b)
	if err != nil {
		return errResponse(abi.CodeInvalid, err)
	}
	switch req.Op {
	case abi.OpSetup:
		s.fs = vfs.New(vfs.Limits{MaxBytes: req.Setup.VFSMaxBytes, MaxFiles: int(req.Setup.VFSMaxFiles)})
		s.tools = append([]abi.ToolInfo(nil), req.Setup.Tools...)
		for i := range s.tools { // decoded fields alias the request buffer
			s.tools[i].Schema = append([]byte(nil), s.tools[i].Schema...)
		}
		s.plan = nil
		s.maxDepth = int(req.Setup.MaxCallDepth)
		return &abi.Response{}
	case abi.OpExec:
		return s.exec(req.Exec)
	case abi.OpPutFiles:
		return s.putFiles(req.Files)
	case abi.OpGetFiles:
		if b, _ := s.fs.Usage(); b > keepResponse {
			// The response may hold every file once more: collect what
			// the last script left first, so that it is made from that
			// memory rather than by growing the guest's toward its limit
			// (the host exports the whole VFS after an execution that
			// grew the memory, to give it back).
			runtime.GC()
		}
		return s.getFiles(req.Path)
	case abi.OpWarm:
		if err := jsrt.Warm(); err != nil {
			return errResponse(abi.CodeInvalid, err)
		}
		if err := jsrt.Prepare(); err != nil {
			return errResponse(abi.CodeInvalid, err)
		}
		return &abi.Response{}
	case abi.OpPrepare:
		if err := jsrt.Prepare(); err != nil {
			return errResponse(abi.CodeInvalid, err)
		}
		return &abi.Response{}
	}
	return errResponse(abi.CodeInvalid, fmt.Errorf("server: unknown op %d", req.Op))
}

func (s *state) exec(x *abi.Exec) *abi.Response {
	hits := s.fs.QuotaHits()
	resp := s.run(x)
	resp.QuotaHit = s.fs.QuotaHits() > hits
	collectLarge()
	return resp
}

// collectLarge collects the garbage an execution left when the collector's
// heap goal is over largeGoal. The goal is twice what was live at the last
// collection, so after a large execution it is large, and what the script
// built is garbage once it has ended: left alone, the next execution
// would grow the heap to that goal, with the last one's data still on it,
// before the collector ran, which in a sandbox near its memory limit runs
// the guest out of memory on a script that ran there before. A collection
// now resets the goal to what is live between executions. The guest's Go
// runtime has no soft memory limit, so that a script that outgrows its
// memory fails at once instead of collecting again and again until its
// time limit (RATIONALE.md, "The guest's garbage collector"). After a
// small execution the goal is small and nothing is done: a collection
// would cost more than the execution, and reading the goal costs a few
// loads (unlike the heap's size, which sums the allocator's statistics).
func collectLarge() {
	goal := []metrics.Sample{{Name: "/gc/heap/goal:bytes"}}
	metrics.Read(goal)
	if goal[0].Value.Kind() == metrics.KindUint64 && goal[0].Value.Uint64() > largeGoal {
		runtime.GC()
	}
}

// largeGoal is the heap goal above which collectLarge collects: four
// times the Go runtime's minimum goal.
const largeGoal = 16 << 20

func (s *state) run(x *abi.Exec) *abi.Response {
	if s.plan == nil {
		// Made here rather than at setup, which a sandbox taken from the
		// pool waits for.
		s.plan = jsrt.PlanTools(s.tools)
	}
	h := hub.New(s.host)
	common := jsrt.Common{Host: s.host, Hub: h, FS: s.fs, Tools: s.tools, Plan: s.plan, MaxCallDepth: s.maxDepth}
	sh := shellrt.Options{Common: common}
	switch x.Lang {
	case abi.LangJS:
		out := jsrt.Run(jsrt.Options{Common: common, Shell: shellrt.Capture(sh)}, x.Name, x.Code)
		return &abi.Response{
			ErrCode:  out.ErrCode,
			ErrMsg:   out.ErrMsg,
			ExitCode: int32(out.ExitCode),
			HasValue: out.HasValue,
			Value:    out.Value,
		}
	case abi.LangShell:
		out := shellrt.Run(sh, x.Name, x.Code)
		return &abi.Response{ErrCode: out.ErrCode, ErrMsg: out.ErrMsg, ExitCode: int32(out.ExitCode)}
	}
	return errResponse(abi.CodeInvalid, fmt.Errorf("unsupported language %q", x.Lang))
}

// putFiles writes files with the host's privileges (read-only areas
// included), creating parent directories. It stops at the first error.
func (s *state) putFiles(files []abi.File) *abi.Response {
	pfs := s.fs.Privileged()
	for _, f := range files {
		p := path.Clean("/" + f.Path)
		mode := fs.FileMode(f.Mode)
		var err error
		if mode.IsDir() {
			// The exact mode, also of a directory that exists (one put
			// again after its contents): the host's view writes into a
			// directory whatever its bits.
			if err = pfs.MkdirAll(p, mode.Perm()); err == nil && !builtinDir(p) {
				err = pfs.Chmod(p, mode&(fs.ModePerm|fs.ModeSetuid|fs.ModeSetgid|fs.ModeSticky))
			}
		} else {
			if err = pfs.MkdirAll(path.Dir(p), 0o755); err == nil {
				err = pfs.WriteFile(p, f.Data, mode.Perm())
			}
		}
		if err == nil && f.ModTime != 0 {
			err = pfs.Chtimes(p, timeFromNanos(f.ModTime))
		}
		if err != nil {
			return errResponse(abi.ErrCode(vfs.Code(err)), err)
		}
	}
	return &abi.Response{}
}

// builtinDir reports whether p is one of the directories every VFS has,
// whose modes the host does not set.
func builtinDir(p string) bool { return p == "/" || p == "/workspace" || p == "/tmp" }

// getFiles returns the file at p, or the directory p and everything below it
// (directories first, then in lexical order).
func (s *state) getFiles(p string) *abi.Response {
	p = path.Clean("/" + p)
	// The host reads with its own privileges: permission bits a script
	// set (chmod 000) do not hide anything from it.
	rfs := s.fs.Privileged()
	fi, err := rfs.Stat(p)
	if err != nil {
		return errResponse(abi.ErrCode(vfs.Code(err)), err)
	}
	var files []abi.File
	add := func(name string, fi fs.FileInfo) error {
		f := abi.File{Path: name, Mode: uint32(fi.Mode()), ModTime: fi.ModTime().UnixNano()}
		if !fi.IsDir() {
			// No copy: the response is encoded before anything else
			// runs, and a VFS at its quota must fit in guest memory
			// once more, not twice more.
			data, err := rfs.View(name)
			if err != nil {
				return err
			}
			f.Data = data
		}
		files = append(files, f)
		return nil
	}
	if !fi.IsDir() {
		if err := add(p, fi); err != nil {
			return errResponse(abi.ErrCode(vfs.Code(err)), err)
		}
		return &abi.Response{Files: files}
	}
	var walk func(dir string, fi fs.FileInfo) error
	walk = func(dir string, fi fs.FileInfo) error {
		if err := add(dir, fi); err != nil {
			return err
		}
		entries, err := rfs.ReadDir(dir)
		if err != nil {
			return err
		}
		sort.Slice(entries, func(i, j int) bool { return entries[i].Name() < entries[j].Name() })
		for _, e := range entries {
			child := path.Join(dir, e.Name())
			info, err := e.Info()
			if err != nil {
				return err
			}
			if info.IsDir() {
				err = walk(child, info)
			} else {
				err = add(child, info)
			}
			if err != nil {
				return err
			}
		}
		return nil
	}
	if err := walk(p, fi); err != nil {
		return errResponse(abi.ErrCode(vfs.Code(err)), err)
	}
	return &abi.Response{Files: files}
}
