package coreutils

import (
	"io"

	"github.com/cordonhq/cordon/shell/command"
	"github.com/cordonhq/cordon/vfs"
)

// cmdTee implements tee [-a] [-i] [-p] [FILE]...
func cmdTee(env *command.Env) int {
	opts, files, st, ok := env.ParseOptions("aip", []string{"append", "ignore-interrupts", "output-error="}, false)
	if !ok {
		return st
	}
	flag := vfs.O_WRONLY | vfs.O_CREATE | vfs.O_TRUNC
	for _, o := range opts {
		if o.Name == "a" || o.Name == "append" {
			flag = vfs.O_WRONLY | vfs.O_CREATE | vfs.O_APPEND
		}
	}
	status := 0
	type out struct {
		name string
		w    io.Writer
		f    io.Closer
	}
	outs := []*out{{name: "standard output", w: command.NewCtxWriter(env.Ctx, env.Stdout)}}
	for _, name := range files {
		if name == "-" {
			outs = append(outs, &out{name: "standard output", w: command.NewCtxWriter(env.Ctx, env.Stdout)})
			continue
		}
		f, err := env.Create(name, flag)
		if err != nil {
			status = env.FileError(1, name, err)
			continue
		}
		defer f.Close()
		outs = append(outs, &out{name: name, w: f, f: f})
	}
	r := command.NewCtxReader(env.Ctx, env.Stdin)
	buf := make([]byte, 32<<10)
	for {
		n, err := r.Read(buf)
		if n > 0 {
			live := 0
			for _, o := range outs {
				if o.w == nil {
					continue
				}
				if _, werr := o.w.Write(buf[:n]); werr != nil {
					if command.IsCanceled(werr) {
						return command.StatusCanceled
					}
					if o.f == nil {
						return env.WriteError(werr)
					}
					status = env.FileError(1, o.name, werr)
					o.w = nil
					continue
				}
				live++
			}
			if live == 0 {
				return status
			}
		}
		if err == io.EOF {
			return status
		}
		if err != nil {
			return env.ReadError("standard input", err)
		}
	}
}
