// Package textproc implements text commands of cordon's sandbox shell in
// Go, over the sandbox's in-memory file system: tac, shuf and join. They
// follow GNU coreutils 9 in their options, output, messages and exit
// statuses; the differences are listed on each command.
//
// Every command polls Env.Ctx and stops with status 130, without a
// message, once it is canceled; a command whose output is closed by its
// reader stops with status 141.
package textproc

import (
	"github.com/cordonhq/cordon/shell/command"
)

// Commands returns the commands of this package, keyed by name.
func Commands() command.Registry {
	return command.RecoverAll(command.Registry{
		"tac":  cmdTac,
		"shuf": cmdShuf,
		"join": cmdJoin,
	})
}
