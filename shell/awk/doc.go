// Package awk is cordon's AWK: a POSIX awk interpreter written for the
// sandbox shell. Commands returns the "awk" command; Compile and
// Program.Run are the reusable API behind it.
//
// # Command line
//
//	awk [-F fs] [-v var=val]... [-f progfile | -e program]... ['program'] [file | var=val]...
//
// The long forms --field-separator, --assign, --file and --source, "--" and
// "-" (for standard input) are accepted too. Program files and -e texts
// are joined in the order given. Program files and input files are read
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
// | (see below); all forms of getline; next,
// nextfile, exit, delete (of an element or a whole array), "in" with
// multi-dimensional subscripts; all loops and control statements; the
// string functions (length, substr, index, split, sub, gsub, match,
// sprintf, tolower, toupper), the math functions, system, close and
// fflush; user functions with scalars by value and arrays by reference,
// locals as extra parameters, and recursion. A call with more arguments
// than the function declares gets a warning on stderr and runs, the extra
// arguments evaluated and dropped, as in gawk and onetrueawk. The gawk
// spellings "**", "**=" and "func" are accepted. Concatenation takes an
// operand that starts with '!' ("print $1 !$2").
//
// gawk's extensions: gensub; and, or, xor, lshift, rshift, compl (on 53
// bits); strftime, systime and mktime (the sandbox's clock, in UTC); asort
// and asorti (with gawk's sort orders), PROCINFO["sorted_in"] for
// "for (k in a)"; length(array); ERRNO (set when getline cannot open a
// file); printf's %a; substr with a start below 1 starting at 1 as gawk
// does; split(s, a, //) into characters.
//
// Comparisons follow POSIX: input that looks numeric (fields, getline
// input, split elements, ARGV, ENVIRON, command-line assignments) compares
// numerically, everything else as strings; a field that does not exist is
// the empty string, so "$2 != 0" is true when there is no $2. Integral
// values print as integers (also large ones, as in gawk); other numbers
// use OFMT for output and CONVFMT for conversion to strings; infinities
// and NaN print signed ("+inf", "-nan"), as in gawk.
//
// Regular expressions are POSIX EREs, translated to Go's RE2 syntax by
// package ere, the translation grep -E and sed -E use too, so that the
// three agree on every edge case (an unmatched ")" and a "{" that starts
// no interval are literals, "a**", "(*a)", "[]a]", classes), and matched
// leftmost-longest. awk adds its string escapes, also inside brackets
// ("[\]]"), and gawk's \s, \S, \w, \W, \y, \B; "\<" and "\>" are
// approximated by a word boundary. Dynamic regexes are cached.
//
// # Choices and differences from gawk
//
//   - "for (k in a)" visits keys in insertion order (awk leaves the order
//     unspecified; pipe the output into sort for a defined order).
//   - Strings are UTF-8: length, substr, index, match and printf widths
//     count characters, as gawk does in a UTF-8 locale (mawk counts bytes).
//   - print ... | "cmd", "cmd" | getline and system("cmd") run "sh -c cmd"
//     through the shell's Exec callback, so any command line works.
//     Output sent to "| cmd" is collected and the command runs when the
//     pipe is closed (close() or the end of the program), so its output
//     follows awk's own output printed before that point. "cmd | getline"
//     streams: the command runs alongside, and close() waits for it and
//     returns its exit status. The commands of "cmd | getline" and
//     system() read awk's standard input, as a C awk's children inherit
//     it ("cat" | getline reads the next line of input). Output to
//     "/dev/null" is discarded.
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
// Messages use the One True AWK's wording ("division by zero in /=",
// "can't open file X", "return not in function"). Syntax errors are
// reported as "awk: line N: syntax error at or near X" (with the -f file's
// name), then " context is" and the line with the offending token between
// ">>>" and "<<<", then "awk: syntax error at source line N: illegal
// statement" for an error inside an action or "...: bailing out" outside
// one, then the brackets left unbalanced ("extra )", "missing }");
// runtime errors as "awk: message" and " source line number N", the line
// of the statement that failed (with " source file F" when the program
// has several -f and -e parts); both exit with status 2. log of a
// negative number and an exp that overflows warn on stderr and return nan
// and inf, as in gawk and onetrueawk. The interpreter never panics on any program or
// input: internal failures become runtime errors. It polls the context on
// every loop iteration, function call, input record and buffer refill, so
// canceling it stops even "BEGIN { while (1) {} }".
package awk
