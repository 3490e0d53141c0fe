// Package awk is cordon's AWK: a POSIX awk interpreter written for the
// sandbox shell. Commands returns the "awk" command; Compile and
// Program.Run are the reusable API behind it.
//
// # Command line
//
//	awk [-F fs] [-v var=val]... [-f progfile]... ['program'] [file | var=val]...
//
// The long forms --field-separator, --assign and --file, "--" and "-" (for
// standard input) are accepted too. Program files and input files are read
// from the sandbox file system, relative to the working directory.
//
// # Language
//
// The whole POSIX language is implemented: BEGIN and END (several of
// each), expression, regex and range patterns; records and fields with
// FS (blank splitting, a single literal character, a regex, or "" for
// characters), RS (newline, any single character, "" for paragraph mode,
// and a regex when longer, as in gawk); NR, FNR, NF (assignable),
// FILENAME, OFS, ORS, SUBSEP, RSTART, RLENGTH, CONVFMT, OFMT, ENVIRON,
// ARGC and ARGV; print and printf with every C conversion, flag, width,
// precision and '*'; output redirection with >, >> (to sandbox files) and
// | (see below); all forms of getline except "cmd | getline"; next,
// nextfile, exit, delete (of an element or a whole array), "in" with
// multi-dimensional subscripts; all loops and control statements; the
// string functions (length, substr, index, split, sub, gsub, match,
// sprintf, tolower, toupper), the math functions, system, close and
// fflush; user functions with scalars by value and arrays by reference,
// locals as extra parameters, and recursion. The gawk spellings "**",
// "**=" and "func" are accepted.
//
// Comparisons follow POSIX: input that looks numeric (fields, getline
// input, split elements, ARGV, ENVIRON, command-line assignments) compares
// numerically, everything else as strings. Integral values print as
// integers (also large ones, as in gawk); other numbers use OFMT for
// output and CONVFMT for conversion to strings.
//
// Regular expressions are POSIX EREs, with bracket expressions, character
// classes, interval expressions and gawk's \s, \S, \w, \W, \y and \B,
// translated to Go's RE2 syntax and matched leftmost-longest. "\<" and
// "\>" are approximated by a word boundary. Dynamic regexes are cached.
//
// # Choices and differences from gawk
//
//   - "for (k in a)" visits keys in insertion order (awk leaves the order
//     unspecified; pipe the output into sort for a defined order).
//   - Strings are UTF-8: length, substr, index, match and printf widths
//     count characters, as gawk does in a UTF-8 locale (mawk counts bytes).
//   - print ... | "cmd" and system("cmd") run through the shell's Exec
//     callback. Only simple commands of plain or quoted words, optionally
//     joined by '|', are supported (no expansions, redirections or lists).
//     Output sent to "| cmd" is collected and the command runs when the
//     pipe is closed (close() or the end of the program), so its output
//     follows awk's own output printed before that point.
//   - "cmd | getline" is refused with a runtime error.
//   - Division and modulo by zero are fatal errors ("awk: division by
//     zero", status 2), as in gawk.
//   - rand() starts from a fixed seed, so runs are reproducible; srand()
//     without an argument seeds from the current time.
//   - Limits: user functions may nest 1000 calls deep, fields and NF are
//     limited to 1048576, printf widths and precisions to 16777216, and
//     the program's syntactic nesting to 1000 levels.
//
// # Errors and safety
//
// Syntax errors are reported as "awk: line N: syntax error at or near X"
// followed by the line and a caret; runtime errors as "awk: message"; both
// exit with status 2. The interpreter never panics on any program or
// input: internal failures become runtime errors. It polls the context on
// every loop iteration, function call, input record and buffer refill, so
// canceling it stops even "BEGIN { while (1) {} }".
package awk
