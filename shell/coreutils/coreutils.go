// Package coreutils implements the file, text, data and miscellaneous
// commands of cordon's sandbox shell in Go, over the sandbox's in-memory
// file system: cat, head, tail, wc, tee, rev, nl, paste, comm, fold,
// expand, ls, mkdir, rm, rmdir, cp, mv, touch, mktemp, realpath, readlink,
// stat, du, find, xargs, basename, dirname, date, sha256sum,
// sha1sum, md5sum, seq, env, printenv, sleep and yes. jq is in package jq.
//
// The commands follow GNU coreutils 9 and GNU findutils 4.9 in their
// options, output, messages and exit statuses, with these differences:
//
//   - The file system has no users, links or special files: ls -l shows every
//     file as owned by "user user", with one link (directories: two plus
//     their subdirectories), directory sizes are 4096 and block counts
//     assume 4 KiB blocks; realpath and readlink -f only resolve "." and
//     ".."; readlink without -f/-e/-m always fails; find -type l never
//     matches.
//   - Directory contents are listed in byte-wise lexical order everywhere
//     (ls, find, du, cp -r, rm -r), where GNU find, du, cp and rm use the
//     unsorted directory order.
//   - Times are in UTC. date cannot set the clock; date -d understands the
//     common forms listed at parseDate, not every GNU form.
//   - tail -f is refused; xargs runs commands one at a time (-P is ignored)
//     and -p is refused.
//   - Standard output is never a terminal: ls prints one name per line.
//   - Every command polls Env.Ctx and stops with status 130, without a
//     message, once it is canceled; a command whose output is closed by
//     its reader stops with status 141, like a process killed by SIGPIPE.
package coreutils

import (
	"io/fs"

	"github.com/cordonhq/cordon/shell/command"
	"github.com/cordonhq/cordon/vfs"
)

// Commands returns the commands of this package, keyed by name.
func Commands() command.Registry {
	reg := command.Registry{
		"cat":       cmdCat,
		"head":      cmdHead,
		"tail":      cmdTail,
		"wc":        cmdWc,
		"tee":       cmdTee,
		"ls":        cmdLs,
		"mkdir":     cmdMkdir,
		"rm":        cmdRm,
		"rmdir":     cmdRmdir,
		"cp":        cmdCp,
		"mv":        cmdMv,
		"touch":     cmdTouch,
		"chmod":     cmdChmod,
		"find":      cmdFind,
		"basename":  cmdBasename,
		"dirname":   cmdDirname,
		"date":      cmdDate,
		"sha256sum": hashCommand("sha256"),
		"sha1sum":   hashCommand("sha1"),
		"md5sum":    hashCommand("md5"),
		"seq":       cmdSeq,
		"env":       cmdEnv,
		"printenv":  cmdPrintenv,
		"sleep":     cmdSleep,
		"yes":       cmdYes,
		"xargs":     cmdXargs,
		"mktemp":    cmdMktemp,
		"realpath":  cmdRealpath,
		"readlink":  cmdReadlink,
		"stat":      cmdStat,
		"du":        cmdDu,
		"rev":       cmdRev,
		"nl":        cmdNl,
		"paste":     cmdPaste,
		"comm":      cmdComm,
		"fold":      cmdFold,
		"expand":    cmdExpand,
	}
	return command.RecoverAll(reg)
}

// stat returns the file information of a name relative to the working
// directory.
func stat(env *command.Env, name string) (fs.FileInfo, error) {
	return env.FS.Stat(env.Abs(name))
}

// exists reports whether name exists.
func exists(env *command.Env, name string) bool {
	_, err := stat(env, name)
	return err == nil
}

// isNotExist reports whether err means "no such file".
func isNotExist(err error) bool { return vfs.Code(err) == "ENOENT" }
