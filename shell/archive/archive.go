// Package archive implements the archive commands of cordon's sandbox
// shell in Go, over the sandbox's in-memory file system: tar (create, list
// and extract ustar/GNU/pax archives, optionally gzip-compressed) and
// gzip, gunzip and zcat. They use archive/tar and compress/gzip from the
// standard library, so that what they write is readable by GNU tar and
// gzip, and what those write is readable here.
//
// Archives are hostile input. Extraction obeys the rules of the host's
// engine.Sandbox.ImportTar: an entry whose name is absolute, holds a ".."
// element or a NUL byte, or has an element that vfs.CheckName refuses is
// not extracted; links, devices and FIFOs are not extracted either. Each
// refusal is reported on stderr with the entry's name and the reason, the
// other entries are still extracted, and tar exits with status 2. Nothing
// is ever written outside the target directory. Contents stream from the
// archive (and the decompressor) into the file system, so a huge declared
// size or a gzip bomb stops at the file system's quota (ENOSPC, EFBIG),
// never in the host's memory; a truncated archive is an error. Creation
// stores relative names, as GNU tar does: leading "/" and "../" are
// removed, with GNU's message.
//
// The differences from GNU: directories are archived in byte-wise order of
// names; owners are stored and listed as user/user (uid and gid 1000), the
// sandbox having no users; bzip2, xz and other compressions are refused;
// gzip's compressed bytes differ from GNU gzip's (another deflate
// encoder), though they decompress to the same data.
//
// Every command polls Env.Ctx and stops with status 130, without a
// message, once it is canceled; a command whose output is closed by its
// reader stops with status 141.
package archive

import (
	"github.com/cordonhq/cordon/shell/command"
)

// Commands returns the commands of this package, keyed by name.
func Commands() command.Registry {
	return command.RecoverAll(command.Registry{
		"tar":    cmdTar,
		"gzip":   cmdGzip,
		"gunzip": cmdGunzip,
		"zcat":   cmdZcat,
	})
}

// writeStatus returns the status for a failed write of standard output.
func writeStatus(env *command.Env, err error) int {
	return env.WriteErrorStatus(err, 2)
}
