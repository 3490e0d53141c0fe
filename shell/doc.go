// Package shell is cordon's bash-like shell evaluator. It runs scripts
// written by untrusted agents inside the WebAssembly guest, over the
// sandbox's in-memory file system (package vfs), with the commands of a
// command.Registry (cat, grep, ...). It never touches the host: there are
// no processes, signals or terminals.
//
// Scripts are parsed with mvdan.cc/sh/v3/syntax in its bash dialect and
// run by this package's own evaluator, statement by statement as bash reads
// a script (a syntax error on line 10 lets lines 1 to 9 run). Parameter
// values come from mvdan.cc/sh/v3/expand; quoting, field splitting,
// globbing, arithmetic and everything else follow bash 5.2 and are done
// here. The package does not use mvdan's interp package.
//
// # Supported
//
//   - Pipelines whose stages run concurrently, connected by io.Pipe, really
//     streaming: "yes | head -1" ends. A stage that writes to a pipe whose
//     reader has gone ends with status 141, as if killed by SIGPIPE, and its
//     further error output is dropped. Every stage runs in a subshell,
//     except the last one with "shopt -s lastpipe". PIPESTATUS and
//     "set -o pipefail" work.
//   - Lists with && || ; and !, subshells ( ) (which copy variables,
//     functions, options and the working directory), groups { }, if, while,
//     until, for (both forms), case (with ;; ;& ;;&), select is refused,
//     break and continue with levels, functions with local variables and
//     return, (( )), [[ ]] (patterns, =~ with BASH_REMATCH, file tests,
//     -v, -o), let, time (reports zero times).
//   - Redirections: < > >> >| <> &> &>> >& <& n>file n<file n>&m n<&m
//     n>&- n>&m- {varname}>file here-documents (<<, <<- and quoted
//     delimiters) and here-strings. The VFS has no /dev, so /dev/null,
//     /dev/stdin, /dev/stdout, /dev/stderr, /dev/zero and /dev/fd/N are
//     emulated.
//     "exec" with only redirections makes them permanent. Commands reach
//     descriptors other than 0-2 through command.Env.FD (and FD).
//   - Process substitution: <(cmd) and >(cmd) expand to /dev/fd/N (63,
//     62, ... as in bash), one end of a pipe to cmd, which runs
//     concurrently in a subshell and streams ("diff <(sort a) <(sort b)",
//     "head -1 <(yes)"). The shell's redirections use either end;
//     command.Env.Open opens /dev/fd/N for reading and command.Env.Create
//     for writing. As in bash, cmd gets the descriptors from before the
//     command's redirections. When the statement ends (for exec, the
//     shell) the pipe is closed and the shell waits for cmd (a producer
//     still writing ends as if by SIGPIPE).
//   - Background jobs: "cmd &" runs cmd in a subshell on a goroutine of its
//     own; $! is its made-up process ID; wait (all, PID, %N, -n) and jobs
//     work with bash's statuses. A job whose standard input would be the
//     script's gets an empty one, as in bash without job control. Jobs
//     take turns with the script whenever one blocks (the guest has one
//     thread), and tool calls made by several jobs at once reach the host
//     together, which runs them in parallel. A shell waits for its jobs
//     before it ends, so that no goroutine outlives Run.
//   - Output order: when standard output and error reach the same place,
//     bytes come out in the order they were written. Commands buffer their
//     output through command.Env.NewWriter; the shell calls
//     command.Env.OrderStderr on every command's Env, so that a write to
//     Stderr first flushes that buffer, and flushes it before a command
//     runs another (xargs, find -exec).
//   - Variables, export, readonly, unset, local, declare/typeset (-a -A -i
//     -l -u -r -x -g -p -f -F -n), indexed (sparse, negative subscripts) and
//     associative arrays, a+=x and a+=(...), temporary assignments
//     ("VAR=x cmd"), set -a.
//   - All of bash's parameter expansions, $( ) and backticks (run in a
//     subshell of this evaluator; their output is bounded), $(( )) with
//     bash's integer arithmetic (64-bit wrapping, bases 2#..64#, variables
//     holding expressions), brace expansion, tilde expansion (also after =
//     and : in assignments), word splitting on IFS with bash's rules for
//     whitespace and non-whitespace separators, globbing against the VFS
//     (* ? [...], extglob, globstar, nullglob, failglob, dotglob,
//     nocaseglob), quoting of all kinds including $'...'.
//   - Special parameters $? $$ (a fixed number) $! (the last background
//     job, unset before one) $# $@ $* $0 $1..
//     $- $_ , and RANDOM (deterministic), LINENO, FUNCNAME, PIPESTATUS,
//     BASH_REMATCH, OPTIND/OPTARG, PWD/OLDPWD, IFS, PS4.
//   - set -e (with bash's exceptions: conditions, && || lists, !), set -u,
//     set -x (traced to standard error with PS4), set -f, set -C, set --,
//     set -o / +o.
//   - Builtins: : true false echo printf cd pwd exit return break continue
//     eval source . export readonly local declare typeset unset set shift
//     shopt read mapfile/readarray test [ type command builtin trap (EXIT
//     runs at exit; other signals are accepted and never fire) getopts let
//     alias (stored, not expanded) hash wait umask times ulimit jobs enable.
//     Builtins take precedence over registered commands and functions over
//     both, as in bash; xargs and find -exec reach all three through
//     command.Env.Exec, whose context bounds what it runs (timeout relies
//     on it: the command, a child shell or a function stops with it).
//   - Commands are looked up along $PATH: the registered commands, sh,
//     bash and the builtins that are programs on GNU systems (echo printf
//     test [ true false pwd) are in /usr/bin and /bin, the scripts of the
//     file system where they are. type (-a -p -P -t), command -v and -V,
//     hash and the which command agree on where a program is.
//   - "sh" and "bash", unless the registry has commands of these names, run
//     "-c script [name args...]", a script file or standard input in a fresh
//     shell state of this evaluator with the exported variables (options
//     -e -u -x -f -C -o name are honored).
//   - A command name containing a slash, or found in a $PATH directory of
//     the VFS, that names a file runs it as a shell script in a fresh shell
//     state with the exported variables (execute permission bits are not
//     checked: the VFS records but does not enforce them).
//
// # Not supported
//
// Coprocesses and select loops are refused: the script stops with a
// message such as "name: line 3: coprocesses are not supported in this
// sandbox" and status 2, so that it never goes on with a wrong result. A
// command that writes a file named by its arguments without
// command.Env.Create (sort -o, awk's print > FILE) does not know the
// /dev/fd/N of a process substitution. The job control
// builtins (fg, bg, kill, disown, ...) fail with a message and status 1. Alias expansion, the history, the ERR, DEBUG and RETURN traps,
// "read -t" timeouts and locales (the shell works in UTF-8) are not
// implemented. $(( )) is parsed when the script is read, so a few
// constructs that bash accepts at run time (x$foo=1 inside arithmetic) are
// syntax errors here.
//
// # Errors and limits
//
// Messages follow bash's format with the script name in place of "bash":
// "name: line N: foo: command not found" (status 127), "name: line N: cd:
// /nope: No such file or directory". Syntax errors print "name: line N:
// syntax error: ..." and end the script with status 2; they are not Go
// errors. Expansion errors end the current line (arithmetic) or the script
// (${x?}, set -u), as in bash.
//
// The context is polled before every command, loop iteration and function
// call, and by every long-running builtin; once it is canceled everything
// stops (pipes are closed so that all stages end) and Run returns
// CanceledStatus with the context's error. Nesting of function calls,
// command substitutions, eval and source is bounded by Config.MaxDepth
// ("f: maximum function nesting level exceeded (1000)", status 1), never by
// a Go stack overflow; the number of concurrent pipeline stages is bounded
// too. A panic in a command is recovered and turned into status 2 with a
// message. No goroutine outlives Run.
package shell
