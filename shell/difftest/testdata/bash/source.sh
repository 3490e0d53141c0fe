# Sourcing and command lookup (bash manual, "Bourne Shell Builtins" for
# . and source, "Bash Builtins" for command, type and hash, "Command
# Search and Execution", "Bash Variables" for BASH_SOURCE, FUNCNAME,
# LINENO): positional parameters around source, return and exit in a
# sourced file, PATH search for source, bash and sh run as commands.

#### source runs in the current shell
echo 'x=1; f() { echo "f $x"; }' > lib.sh
source ./lib.sh
echo "x=$x"
f

#### dot is source
echo 'y=2' > lib.sh
. ./lib.sh
echo "y=$y"

#### source with arguments sets the positional parameters
printf 'echo "in: $# $*"\n' > a.sh
set -- 1 2
source ./a.sh p q
echo "after: $# $*"
source ./a.sh
echo "after2: $# $*"

#### set in a sourced file with arguments keeps its parameters
printf 'echo "in: $# $*"\nset -- x y z\n' > a.sh
set -- 1 2
source ./a.sh p q
echo "after: $# $*"

#### shift in a sourced file with arguments does not last
printf 'echo "in: $# $*"\nshift\necho "shifted: $*"\n' > b.sh
set -- 1 2
. ./b.sh k l m
echo "after: $# $*"
. ./b.sh
echo "after2: $# $*"

#### set in a sourced file without arguments
printf 'set -- new params\n' > c.sh
set -- old
. ./c.sh
echo "$# $*"

#### source with arguments in a function restores them
printf 'echo "in: $*"\nset -- x y z\n' > a.sh
f() { source ./a.sh p; echo "f: $*"; }
set -- top
f 9 8
echo "top: $*"

#### return from a sourced file
printf 'echo one\nreturn 3\necho never\n' > r.sh
. ./r.sh
echo "status $?"
printf 'return\n' > r0.sh
false
. ./r0.sh
echo "status $?"

#### return in a sourced file inside a function
printf 'echo in-file\nreturn 4\n' > r.sh
f() { . ./r.sh; echo "after source $?"; return 1; }
f
echo "f status $?"

#### return outside a function or sourced file
return 2
echo "status $?"

#### exit in a sourced file exits the shell
printf 'echo bye\nexit 5\n' > e.sh
. ./e.sh
echo never

#### source status is the last command's
printf 'false\n' > s.sh
. ./s.sh
echo "status $?"
printf 'true\n' > s.sh
. ./s.sh
echo "status $?"
: > empty.sh
false
. ./empty.sh
echo "empty $?"

#### source a missing file
source ./nosuch.sh
echo "status $?"
. nosuch2.sh
echo "status $?"

#### source without a file name
source
echo "status $?"
.
echo "status $?"

#### source a directory
mkdir d
source d
echo "status $?"

#### source searches PATH
mkdir bin
echo 'echo from-path' > bin/lib.sh
PATH=$PWD/bin:$PATH
source lib.sh
echo "status $?"

#### source falls back to the current directory
echo 'echo from-cwd' > here.sh
source here.sh
echo "status $?"

#### source with sourcepath off does not search PATH
mkdir bin
echo 'echo from-path' > bin/only.sh
PATH=$PWD/bin:$PATH
shopt -u sourcepath
source only.sh
echo "status $?"

#### source nested files
printf '. ./inner.sh\necho outer done\n' > outer.sh
printf 'echo inner\n' > inner.sh
. ./outer.sh

#### source defines functions and variables for later
printf 'greet() { echo "hello $1"; }\nNAME=world\n' > lib.sh
. ./lib.sh
greet "$NAME"

#### source reads the file each time
echo 'echo v1' > v.sh
. ./v.sh
echo 'echo v2' > v.sh
. ./v.sh

#### BASH_SOURCE and FUNCNAME in a sourced file
printf 'echo "src: ${BASH_SOURCE[0]}"\nf() { echo "in f: ${FUNCNAME[0]} ${BASH_SOURCE[0]}"; }\nf\n' > lib.sh
. ./lib.sh
f

#### BASH_SOURCE at the top level
echo "[${BASH_SOURCE[0]}]" "${#BASH_SOURCE[@]}"
f() { echo "[${BASH_SOURCE[0]}]" "${FUNCNAME[*]}"; }
f

#### FUNCNAME in nested functions
a() { b; }
b() { echo "${FUNCNAME[@]}" "${#FUNCNAME[@]}"; }
a
echo "top: [${FUNCNAME[0]}]"

#### FUNCNAME in a sourced file called from a function
printf 'echo "sourced: ${FUNCNAME[*]}"\n' > s.sh
g() { . ./s.sh; }
g

#### LINENO in a sourced file and a function
printf 'echo "line $LINENO"\n\necho "line $LINENO"\n' > l.sh
. ./l.sh
echo "main $LINENO"
f() {
  echo "func $LINENO"
}
f

#### LINENO after source returns
printf 'x=1\ny=2\nz=3\n' > l.sh
echo "a $LINENO"
. ./l.sh
echo "b $LINENO"

#### bash -c with arguments
bash -c 'echo "0=$0 1=$1 #=$#"' name one two
bash -c 'echo "$@"' x a b c
bash -c 'exit 7'
echo "status $?"

#### sh -c runs a command
sh -c 'echo "sh: $0 $1"' me arg
sh -c 'false'
echo "status $?"

#### bash runs a script file with arguments
printf 'echo "script $0 $# $*"\nexit 3\n' > s.sh
bash s.sh a b
echo "status $?"
sh ./s.sh c
echo "status $?"

#### bash on a missing script
bash nosuch.sh
echo "status $?"

#### bash -c does not see unexported variables
x=1
export y=2
bash -c 'echo "x=${x-unset} y=${y-unset}"'

#### bash -c does not see functions unless exported
f() { echo in-f; }
bash -c 'f' 2>/dev/null
echo "status $?"
export -f f
bash -c 'f'

#### bash reads a script from standard input
echo 'echo from-stdin "$0"' | bash
printf 'echo a\necho b\n' | sh

#### command -v with several names
f() { :; }
command -v echo f cd ls nosuch_cmd_x
echo "status $?"
command -v nosuch_cmd_x
echo "status $?"

#### command -v for keywords and aliases
command -v if
command -v for
command -v '[['
echo "status $?"

#### command -V
command -V echo
command -V if
command -V ls
command -V nosuch_cmd_x
echo "status $?"

#### type with several names
type echo if ls
echo "status $?"
type nosuch_cmd_x
echo "status $?"

#### type -t
f() { :; }
type -t echo if f cd nosuch_cmd_x
echo "status $?"
type -t ls

#### type -a
type -a echo
type -a true
echo "status $?"

#### type -p and -P
type -p echo
echo "status $?"
type -P nosuch_cmd_x
echo "status $?"
f() { :; }
type -p f
echo "status $?"

#### function shadows builtin and command bypasses it
echo() { builtin echo "wrapped: $*"; }
echo hi
command echo plain
builtin echo builtin
unset -f echo
echo back

#### command runs builtins and commands, not functions
ls() { echo fake; }
cd() { echo fake-cd; }
mkdir sub
command cd sub
pwd | sed 's|.*/||'
unset -f ls cd

#### command -p
command -p echo with-p

#### hash builtin
hash
echo "status $?"
hash -r
echo "status $?"
hash nosuch_cmd_x
echo "status $?"

#### command not found status
nosuch_cmd_x
echo "status $?"
./nosuch_file
echo "status $?"

#### running a directory
mkdir dd
./dd
echo "status $?"

#### empty PATH
PATH=
ls 2>/dev/null
echo "status $?"
echo still-builtin

#### errors in a sourced file name the file
printf 'cd /nope\nf() { cd /nope2; }\n' > e.sh
. ./e.sh
f
cd /nope3

#### type -a with a function and a builtin
echo() { builtin echo "my $*"; }
type -a -t echo
type -a -p echo
unset -f echo
type -at printf ls

#### hash remembers commands that ran
hash
ls > /dev/null
hash
hash -t ls
hash -l
type ls
hash -d ls
hash -t ls
echo "status $?"
hash -p /bin/true mytrue
hash -t mytrue
hash -r
hash

#### hash with several names
hash ls cat nosuch_cmd_x echo
echo "status $?"
hash -t ls cat

#### command -v for sh and bash
command -v sh bash
type -t bash
type -P sh

#### type -P and -a for commands in PATH order
PATH=/bin:/usr/bin
type -P ls
type -a ls
command -v ls
PATH=/usr/bin
type -a cat

#### unset PATH uses the default search path
unset PATH
ls / > /dev/null && echo found
command -v ls

#### source passes arguments with spaces and keeps $0
printf 'echo "0=$0 n=$# 1=[$1] 2=[$2]"\n' > a.sh
. ./a.sh 'x y' ''
echo "after $#"

#### source inside a loop with break and continue
printf 'if [ "$i" = 2 ]; then continue; fi\nif [ "$i" = 4 ]; then break; fi\necho "i=$i"\n' > loop.sh
for i in 1 2 3 4 5; do . ./loop.sh; done
echo done

#### source with redirections
printf 'read -r line\necho "got $line"\n' > r.sh
echo input > in.txt
. ./r.sh < in.txt
. ./r.sh <<< "here"
. ./r.sh > out.txt <<< "redirected"
cat out.txt

#### source output in a pipeline and command substitution
printf 'echo one\necho two\n' > p.sh
. ./p.sh | wc -l
x=$(. ./p.sh)
echo "$x"

#### source sees and sets local variables of the caller
printf 'echo "sees $loc"\nloc=changed\nnewvar=set\n' > v.sh
f() { local loc=mine; . ./v.sh; echo "loc=$loc"; }
f
echo "global loc=${loc-unset} newvar=$newvar"

#### source a file that defines and calls functions recursively
printf 'fact() { if [ "$1" -le 1 ]; then echo 1; else echo $(( $1 * $(fact $(($1-1))) )); fi; }\n' > m.sh
. ./m.sh
fact 5

#### source with set -e and a failing command
printf 'echo start\nfalse\necho never\n' > e.sh
set -e
. ./e.sh
echo never2

#### source status after return without argument
printf 'false\nreturn\n' > r.sh
. ./r.sh
echo "status $?"

#### exit inside a function in a sourced file
printf 'f() { echo in-f; exit 4; }\n' > x.sh
. ./x.sh
f
echo never

#### command builtin with source and dot
echo 'echo via-command' > c.sh
command . ./c.sh
command source ./c.sh
builtin source ./c.sh

#### type -t for every kind
alias ll='ls -l'
f() { :; }
for n in if f echo ls ll nosuch_cmd_x '[[' '['; do
  printf '%s: %s\n' "$n" "$(type -t "$n")"
done

#### type for keywords and builtins
type if then '{' '[[' case
type cd test '[' true
echo "status $?"

#### command -v prints builtins names and paths
command -v cd test printf sed awk
echo "status $?"

#### command -V for files and builtins
command -V cat
command -V printf
command -V nosuch_cmd_x nosuch2_x
echo "status $?"

#### type -P finds programs even for builtins
type -P echo printf test
type -P cd
echo "status $?"

#### which and type agree
which ls cat
type -P ls cat

#### PATH with the current directory
mkdir bin
printf 'echo local-script\n' > myscript
PATH=".:$PATH"
command -v myscript
type -t myscript

#### bash -c positional parameters and $0 defaults
bash -c 'echo "[$0] [$#]"'
bash -c 'echo "[$0] [$1] [$#]"' -- a
bash -c 'shift; echo "$@"' zero one two

#### bash -c status and output
out=$(bash -c 'echo out; echo err >&2; exit 3' 2>&1)
echo "$? [$out]"

#### sh -c with set options
sh -c 'set -e; false; echo never'
echo "status $?"

#### nested bash -c
bash -c 'bash -c "echo nested \$0" inner'

#### bash script with a function and FUNCNAME main
printf 'f() { echo "${FUNCNAME[*]} ${BASH_SOURCE[*]}"; }\nf\necho "$0 $#"\n' > s.sh
bash s.sh 1 2

#### bash script errors name the script
printf 'echo ok\ncd /nonexistent\nnosuch_cmd_x\n' > s.sh
bash s.sh
echo "status $?"

#### bash script with set -u exits 1
printf 'set -u\necho $nope\n' > s.sh
bash s.sh
echo "status $?"
bash -c 'set -u; echo $nope'
echo "status $?"

#### LINENO in a sourced file called twice
printf '\n\necho "line $LINENO"\n' > l.sh
. ./l.sh
. ./l.sh
echo "here $LINENO"

#### BASH_LINENO in nested calls
f() { g; }
g() { echo "${BASH_LINENO[*]}"; }
f

#### type prints functions as bash does
f() { echo "hi $1"; local x=1; }
type f
command -V f
type -a f

#### declare -f prints functions as bash does
f1() { echo hi; }
f2() { echo a; echo b; local x=1; x+=2; }
f3() { if [ -n "$1" ]; then echo yes; elif true; then :; else echo no; fi; }
f4() { for i in a "b c"; do echo $i; done; for ((i=0;i<3;i++)); do :; done; }
f5() { while read -r l; do echo "$l"; done < file; until false; do break; done; }
f6() { case $1 in a|b) echo ab;; *) echo other;; esac; }
f7() { echo a | grep a && echo ok || echo no; ! true; }
f8() { [[ -n $x && $y == *.c ]]; (( x++ )); x=$(( x + 1 )); }
f9() { ( cd /tmp; ls ); { echo g; } > out 2>&1; cat <<EOF
here $x
EOF
}
f10() { echo "$(date)" `pwd` > /dev/null & wait; }
f11() { local -a arr=(1 2 3); arr[1]=x; declare -A m=([k]=v); }
function f13 { echo kw; }
f14() ( echo subshell-body )

#### declare -f with more constructs
g1() {
  # a comment
  local n=0
  while [ $n -lt 3 ] && true; do n=$((n + 1)); done
  cat <<-'END'
	tabbed $n
	END
  grep -q x <<< "$n" 2> /dev/null
  exec 3>&1 4< /dev/null
  case $n in
    1) ;;
    2) echo two ;&
    3) echo three ;;&
    *) echo any
  esac
}
g2() { if a; b; then c; fi; for x; do echo "$x"; done; { a; b; } | cat; }
g3() { local -a arr=("a b" c); echo "${arr[@]}" >> log; echo done >&2; }
g4() { :; }
g5() { f() { echo inner; }; f; }
declare -f g1 g2 g3 g4 g5

#### BASH_EXECUTION_STRING in bash -c
bash -c 'echo "$BASH_EXECUTION_STRING"'
echo "${BASH_EXECUTION_STRING:0:4}"

#### errors in functions defined by bash -c name the environment
f() { cd /nope; }
f
g() {
  nosuch_cmd_x
}
g
h() { local 'a b'; local v=1; local -p; }
h
x=$(f)
echo 'k() { cd /nope2; }; k' | bash

#### source a process substitution
source <(echo 'echo from-procsubst "$1"') arg
. <(printf 'x=5\n')
echo "x=$x"


#### source /dev/stdin
. /dev/stdin <<< 'echo from-stdin'
echo 'echo piped' | source /dev/stdin

