// Package sysutils implements commands of cordon's sandbox shell that
// compute or run other commands: expr, timeout and which. They follow GNU
// coreutils 9 (and, for which, the usual which of GNU/Linux systems) in
// their options, output, messages and exit statuses; the differences are
// listed on each command.
//
// Every command polls Env.Ctx and stops with status 130, without a
// message, once it is canceled; a command whose output is closed by its
// reader stops with status 141.
package sysutils

import (
	"github.com/cordonhq/cordon/shell/command"
)

// Commands returns the commands of this package, keyed by name.
func Commands() command.Registry {
	return command.RecoverAll(command.Registry{
		"expr":    cmdExpr,
		"timeout": cmdTimeout,
		"which":   cmdWhich,
	})
}
