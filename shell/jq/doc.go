// Package jq implements the jq command of cordon's sandbox shell, with
// github.com/itchyny/gojq as the engine, over the sandbox's in-memory file
// system. It follows jq 1.7.1 in its options, output format, error
// messages and exit statuses; the package tests run jq 1.7.1's own test
// files when they are present (see jq_conformance_test.go).
//
// Differences from jq 1.7.1:
//
//   - --stream and --stream-errors are refused.
//   - Standard output is never a terminal: jq never colors its output
//     (-C and -M are accepted and ignored).
//   - Modules (import, include) are read from the sandbox's file system.
//   - Objects keep jq's key order although gojq's objects are Go maps
//     (see keyOrder); where gojq words an error differently and no mapping
//     to jq's wording exists, the message is gojq's.
//   - The command polls Env.Ctx and stops with status 130, without a
//     message, once it is canceled; when its output is closed by its
//     reader it stops with status 141, like a process killed by SIGPIPE.
package jq

import "github.com/cordonhq/cordon/shell/command"

// Commands returns the jq and yq commands, keyed by their names.
func Commands() command.Registry {
	return command.Registry{"jq": command.Recover(cmdJq), "yq": command.Recover(cmdYq)}
}
