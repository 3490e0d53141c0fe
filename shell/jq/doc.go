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
//
// The package also implements yq: jq over YAML in and out, with the
// command line of mikefarah's yq v4 (the yq most scripts are written for)
// and jq's language, run by the same compiler, program cache and error
// reporting as jq. mikefarah's expression language only resembles jq's;
// yq here takes jq 1.7.1's, so `.a |= . + 1`, `select`, `del`, `map`,
// `to_entries` and the rest mean what they mean in jq, while mikefarah's
// own operators (`*+` deep merge flags, `style`, `line`, comment
// operators, `load`) do not exist, and a compile error says so.
//
//	yq [eval|e|eval-all|ea] [flags] EXPRESSION [FILE...]
//
// Without a FILE yq reads standard input; with a single operand naming a
// regular file, that is the file and the expression is ".", as in yq v4.
// eval runs the expression on each document of each file in turn (input
// and inputs read the following documents); eval-all runs it once, on the
// array of all the documents (jq's --slurp). The flags are yq v4's: -p
// and -o choose the input and output format (yaml or json; by default a
// file named *.json is read as JSON, anything else as YAML, and the output
// has the first input's format, or YAML with -P), -i rewrites each file
// with its own results (in its format; a file is left as it was when its
// run fails), -r (default: true for YAML output, false for JSON) prints
// strings bare, -n runs once on null, -e exits 1 when there is no output
// or the last one is false or null, -I sets the indentation (0 to 9, 2 by
// default; 0 prints JSON compact), -N drops the --- between documents,
// -j is -o json, -M and -C are accepted and ignored (output is never
// colored), --arg and --argjson define variables as in jq, and
// --version prints a line that names this yq as cordon's, so that a
// script testing for mikefarah's does not take it for that one. A lone
// operand meant as a file that does not exist is read as the expression,
// as in yq v4; when it does not compile, a second line says so.
//
// YAML is read with go.yaml.in/yaml/v3 into nodes, which become jq's
// values under YAML 1.2's core schema: yes, no, on and off are strings;
// integers (also 0x, 0o and 0b ones) and floats become numbers, a literal
// keeping its digits until it is changed as jq keeps those of JSON text
// (123456789012345678901234567890 and 1.50 print as read, 0644 prints as
// 644); timestamps, binary data and scalars with other tags are strings;
// a key that is not a string becomes its text (a mapping or sequence key,
// its compact JSON); a repeated key keeps its last value; merge keys (<<)
// follow the YAML merge rules, the mapping's own keys winning. Aliases
// are expanded: the documents of a text of n bytes may expand to at most
// 1<<20 + 2n values, an alias inside its own anchor is refused, and
// nesting is bounded at 10000 levels, so a hostile text fails with a
// message instead of exhausting memory. Documents separated by --- are
// separate inputs, and the results of different documents are separated
// by --- in YAML output.
//
// YAML is written by yaml.v3's encoder from nodes built in jq's key order:
// block style, the indentation of -I, comments, anchors, tags and the
// input's quoting styles dropped. A string is quoted when a reader would
// take it for something else ("1", "true", "", "~", "null",
// "2001-12-14", "a: b"), and also when YAML 1.1 readers take it for a
// boolean ("yes", "no", "on", "off") and for "<<"; invalid UTF-8 prints
// as U+FFFD. JSON output is jq's, indented by -I.
//
// Every error (a YAML or JSON syntax error, a file that cannot be read, a
// compile error of the expression, an error raised by it) prints a
// message starting with "yq:" and exits 1, as yq v4 does, except
// halt_error, which keeps its status; the first error stops yq, as in
// yq v4.
package jq

import "github.com/cordonhq/cordon/shell/command"

// Commands returns the jq and yq commands, keyed by their names.
func Commands() command.Registry {
	return command.Registry{"jq": command.Recover(cmdJq), "yq": command.Recover(cmdYq)}
}
