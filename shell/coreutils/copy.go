package coreutils

import (
	"fmt"
	"io"
	"io/fs"
	"path"
	"strings"

	"github.com/cordonhq/cordon/shell/command"
	"github.com/cordonhq/cordon/vfs"
)

// copyOptions are the options shared by cp and mv.
type copyOptions struct {
	recursive, preserve, noClobber, verbose, force, noTargetDir, update bool
	target                                                              string
}

// parseCopyArgs parses the options of cp (mv when isMv) and splits the
// operands into sources and the destination.
func parseCopyArgs(env *command.Env, isMv bool) (o copyOptions, srcs []string, dst string, dstIsDir bool, st int, ok bool) {
	short, long := "rRapfnvt:TdiuL", []string{"recursive", "archive", "preserve==", "force", "no-clobber", "verbose", "target-directory=", "no-target-directory", "interactive", "update", "no-dereference", "dereference"}
	if isMv {
		short, long = "fnvt:Tiu", []string{"force", "no-clobber", "verbose", "target-directory=", "no-target-directory", "interactive", "update"}
	}
	long = fixLong(long)
	opts, operands, st, ok := env.ParseOptions(short, long, false)
	if !ok {
		return o, nil, "", false, st, false
	}
	for _, op := range opts {
		switch op.Name {
		case "r", "R", "recursive":
			o.recursive = true
		case "a", "archive":
			o.recursive, o.preserve = true, true
		case "p", "preserve":
			o.preserve = true
		case "f", "force":
			o.force, o.noClobber = true, false
		case "n", "no-clobber":
			o.noClobber = true
		case "v", "verbose":
			o.verbose = true
		case "t", "target-directory":
			o.target = op.Value
		case "u", "update":
			o.update = true
		case "T", "no-target-directory":
			o.noTargetDir = true
		}
	}
	if o.target != "" {
		fi, err := stat(env, o.target)
		if err != nil {
			return o, nil, "", false, env.Errorf(1, "target directory '%s': %s", o.target, command.Strerror(err)), false
		}
		if !fi.IsDir() {
			return o, nil, "", false, env.Errorf(1, "target directory '%s': Not a directory", o.target), false
		}
		if len(operands) == 0 {
			return o, nil, "", false, env.Usage(1, "missing file operand", ""), false
		}
		return o, operands, o.target, true, 0, true
	}
	switch len(operands) {
	case 0:
		return o, nil, "", false, env.Usage(1, "missing file operand", ""), false
	case 1:
		return o, nil, "", false, env.Usage(1, fmt.Sprintf("missing destination file operand after '%s'", operands[0]), ""), false
	}
	dst = operands[len(operands)-1]
	srcs = operands[:len(operands)-1]
	fi, err := stat(env, dst)
	dstIsDir = err == nil && fi.IsDir() && !o.noTargetDir
	if strings.HasSuffix(dst, "/") && !dstIsDir && len(srcs) == 1 {
		// "DIR/" must name a directory.
		if sfi, serr := stat(env, srcs[0]); serr == nil && !sfi.IsDir() {
			if isMv {
				return o, nil, "", false, env.Errorf(1, "cannot move '%s' to '%s': Not a directory", srcs[0], dst), false
			}
			return o, nil, "", false, env.Errorf(1, "cannot create regular file '%s': Not a directory", dst), false
		}
	}
	if len(srcs) > 1 && !dstIsDir {
		if err != nil {
			return o, nil, "", false, env.Errorf(1, "target '%s': %s", dst, command.Strerror(err)), false
		}
		return o, nil, "", false, env.Errorf(1, "target '%s': Not a directory", dst), false
	}
	return o, srcs, dst, dstIsDir, 0, true
}

// fixLong turns the "name==" spelling (optional argument, unsupported by
// command.Getopt) into a flag without argument.
func fixLong(long []string) []string {
	out := make([]string, len(long))
	for i, l := range long {
		out[i] = strings.TrimSuffix(l, "==")
	}
	return out
}

// destFor returns where src goes.
func destFor(src, dst string, dstIsDir bool) string {
	if dstIsDir {
		return joinName(dst, path.Base(strings.TrimRight(src, "/")))
	}
	return dst
}

// cmdCp implements cp [-rRapfnvT] [-t DIR] SRC... DST.
func cmdCp(env *command.Env) int {
	o, srcs, dst, dstIsDir, st, ok := parseCopyArgs(env, false)
	if !ok {
		return st
	}
	status := 0
	for _, src := range srcs {
		if env.Canceled() {
			return command.StatusCanceled
		}
		fi, err := stat(env, src)
		if err != nil {
			status = env.Errorf(1, "cannot stat '%s': %s", src, command.Strerror(err))
			continue
		}
		to := destFor(src, dst, dstIsDir)
		if fi.IsDir() && !o.recursive {
			status = env.Errorf(1, "-r not specified; omitting directory '%s'", src)
			continue
		}
		sa, da := env.Abs(src), env.Abs(to)
		if sa == da {
			status = env.Errorf(1, "'%s' and '%s' are the same file", src, to)
			continue
		}
		if fi.IsDir() && strings.HasPrefix(da, sa+"/") {
			status = env.Errorf(1, "cannot copy a directory, '%s', into itself, '%s'", src, to)
			continue
		}
		if st := copyTree(env, src, to, fi, o); st != 0 {
			if st == command.StatusCanceled {
				return st
			}
			status = st
		}
	}
	return status
}

// copyTree copies src (described by fi) to dst.
func copyTree(env *command.Env, src, dst string, fi fs.FileInfo, o copyOptions) int {
	if env.Canceled() {
		return command.StatusCanceled
	}
	if !fi.IsDir() {
		return copyFile(env, src, dst, fi, o)
	}
	dfi, err := stat(env, dst)
	switch {
	case err == nil && !dfi.IsDir():
		return env.Errorf(1, "cannot overwrite non-directory '%s' with directory '%s'", dst, src)
	case err != nil:
		if err := env.FS.Mkdir(env.Abs(dst), fi.Mode().Perm()); err != nil {
			return env.Errorf(1, "cannot create directory '%s': %s", dst, command.Strerror(err))
		}
		if o.verbose {
			fmt.Fprintf(env.Stdout, "'%s' -> '%s'\n", src, dst)
		}
	}
	list, err := env.FS.ReadDir(env.Abs(src))
	if err != nil {
		return env.Errorf(1, "cannot access '%s': %s", src, command.Strerror(err))
	}
	status := 0
	for _, de := range list {
		cfi, err := de.Info()
		if err != nil {
			continue
		}
		if st := copyTree(env, joinName(src, de.Name()), joinName(dst, de.Name()), cfi, o); st != 0 {
			if st == command.StatusCanceled {
				return st
			}
			status = st
		}
	}
	if o.preserve {
		env.FS.Chtimes(env.Abs(dst), fi.ModTime())
	}
	return status
}

// copyFile copies one regular file.
func copyFile(env *command.Env, src, dst string, fi fs.FileInfo, o copyOptions) int {
	if dfi, err := stat(env, dst); err == nil {
		if o.noClobber || (o.update && !fi.ModTime().After(dfi.ModTime())) {
			return 0
		}
		if dfi.IsDir() {
			return env.Errorf(1, "cannot overwrite directory '%s' with non-directory", dst)
		}
	}
	in, err := env.FS.OpenFile(env.Abs(src), vfs.O_RDONLY, 0)
	if err != nil {
		return env.Errorf(1, "cannot open '%s' for reading: %s", src, command.Strerror(err))
	}
	defer in.Close()
	out, err := env.FS.OpenFile(env.Abs(dst), vfs.O_WRONLY|vfs.O_CREATE|vfs.O_TRUNC, fi.Mode().Perm())
	if err != nil {
		return env.Errorf(1, "cannot create regular file '%s': %s", dst, command.Strerror(err))
	}
	_, err = io.Copy(out, command.NewCtxReader(env.Ctx, in))
	out.Close()
	if err != nil {
		if command.IsCanceled(err) {
			return command.StatusCanceled
		}
		return env.Errorf(1, "error writing '%s': %s", dst, command.Strerror(err))
	}
	if o.preserve {
		env.FS.Chtimes(env.Abs(dst), fi.ModTime())
	}
	if o.verbose {
		fmt.Fprintf(env.Stdout, "'%s' -> '%s'\n", src, dst)
	}
	return 0
}

// cmdMv implements mv [-fnvT] [-t DIR] SRC... DST.
func cmdMv(env *command.Env) int {
	o, srcs, dst, dstIsDir, st, ok := parseCopyArgs(env, true)
	if !ok {
		return st
	}
	status := 0
	for _, src := range srcs {
		if env.Canceled() {
			return command.StatusCanceled
		}
		if _, err := stat(env, src); err != nil {
			status = env.Errorf(1, "cannot stat '%s': %s", src, command.Strerror(err))
			continue
		}
		to := destFor(src, dst, dstIsDir)
		sa, da := env.Abs(src), env.Abs(to)
		if sa == da {
			status = env.Errorf(1, "'%s' and '%s' are the same file", src, to)
			continue
		}
		if strings.HasPrefix(da, sa+"/") {
			status = env.Errorf(1, "cannot move '%s' to a subdirectory of itself, '%s'", src, to)
			continue
		}
		if dfi, err := stat(env, to); err == nil {
			sfi, _ := stat(env, src)
			if o.noClobber || (o.update && sfi != nil && !sfi.ModTime().After(dfi.ModTime())) {
				continue
			}
		}
		if err := env.FS.Rename(sa, da); err != nil {
			switch vfs.Code(err) {
			case "EISDIR":
				status = env.Errorf(1, "cannot overwrite directory '%s' with non-directory", to)
			case "ENOTDIR":
				status = env.Errorf(1, "cannot overwrite non-directory '%s' with directory '%s'", to, src)
			default:
				status = env.Errorf(1, "cannot move '%s' to '%s': %s", src, to, command.Strerror(err))
			}
			continue
		}
		if o.verbose {
			fmt.Fprintf(env.Stdout, "renamed '%s' -> '%s'\n", src, to)
		}
	}
	return status
}
