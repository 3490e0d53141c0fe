// Package difftest holds the differential tests of cordon's shell: each
// case is a bash script run twice, once by the machine's own bash 5.2 (with
// GNU sed, GNU coreutils and jq) in a fresh directory and once by cordon's
// shell over an in-memory file system with the sandbox's commands, and the
// two runs must agree byte for byte on stdout, stderr and exit status.
//
// The cases live in testdata, one file per class of behaviour, written from
// the bash and GNU sed manuals. testdata/differences.txt lists the few
// deliberate differences (what the sandbox cannot have), each with its
// reason; docs/shell.md documents them. The package has no code of its
// own: see difftest_test.go for the file format and the knobs.
package difftest
