# Builtins agents use: help (synopses and summaries), select, read and its
# options, mapfile/readarray, printf -v, getopts and caller (bash manual,
# "Bash Builtin Commands" and "Bourne Shell Builtins").

#### help -s for every builtin
for b in . : '[' alias break builtin cd command continue declare dirs echo eval exec exit export false getopts hash help jobs kill let local mapfile popd printf pushd pwd read readarray readonly return set shift shopt source test times trap true type typeset ulimit umask unalias unset wait caller enable; do
  help -s "$b"
done

#### help -d for every builtin
for b in . : '[' alias break builtin cd command continue declare dirs echo eval exec exit export false getopts hash help jobs kill let local mapfile popd printf pushd pwd read readarray readonly return set shift shopt source test times trap true type typeset ulimit umask unalias unset wait caller enable; do
  help -d "$b"
done

#### help -s for keywords
help -s if for while until case select function time '[[' '((' '{'

#### help with a glob pattern
help -d 'c*'

#### help with a prefix
help -s r

#### help with several patterns
help -s 'rea*' cd

#### help exact match wins over prefix
help -s read
help -s for

#### help with no match
help nosuch
echo "status $?"

#### help with some patterns matching
help -s nosuch cd
echo "status $?"

#### help invalid option
help -x
echo "status $?"

#### help -d wins over -s
help -ds cd
help -sd cd

#### read -r keeps backslashes
printf 'a\\b c\n' | { read -r x y; echo "$x|$y"; }
printf 'a\\b c\n' | { read x y; echo "$x|$y"; }

#### read splits into names with the rest in the last
echo "one two three four" | { read a b c; echo "$a|$b|$c"; }

#### read -a into an array
echo "x y z" | { read -a arr; echo "${#arr[@]} ${arr[1]}"; }

#### read -d with a delimiter
printf 'a:b:c' | { read -d : x; echo "$x"; }
printf 'one\0two\0' | { read -r -d '' x; echo "$x"; }

#### read -n reads at most n characters
echo "abcdef" | { read -n 3 x; echo "$x"; }
printf 'ab\ncd\n' | { read -n 5 x; echo "$x"; }

#### read -N reads exactly n characters
printf 'ab\ncd\n' | { read -N 4 x; printf '%q\n' "$x"; }

#### read -p prompt goes to stderr only on a terminal
echo hi | { read -p 'prompt: ' x; echo "$x"; }

#### read -t 0 tests for input
read -t 0 < /dev/null
echo "status $?"
read -t 0 x < /dev/null
echo "status $? [$x]"
read -t abc x < /dev/null
echo "status $?"

#### read -s is silent
echo secret | { read -s x; echo "$x"; }

#### read at end of file
read x < /dev/null
echo "status $? [$x]"
printf 'partial' | { read x; echo "status $? [$x]"; }

#### read with IFS
echo "a,b,c" | { IFS=, read x y z; echo "$x $y $z"; }
echo "  lead  trail  " | { read x; echo "[$x]"; }
echo "  lead  trail  " | { IFS= read -r x; echo "[$x]"; }

#### read into REPLY
echo "  hello  " | { read; echo "[$REPLY]"; }

#### read -u from a descriptor
exec 3< <(echo fromfd)
read -u 3 x
echo "$x"

#### read invalid option
read -Z x
echo "status $?"

#### read invalid name
echo x | { read 1abc; echo "status $?"; }

#### read -n invalid count
read -n abc x < /dev/null
echo "status $?"

#### mapfile basics
printf 'a\nb\nc\n' > f
mapfile -t arr < f
echo "${#arr[@]} ${arr[0]} ${arr[2]}"
mapfile arr2 < f
printf '%q\n' "${arr2[0]}"

#### mapfile into MAPFILE
printf 'x\ny\n' | { mapfile; echo "${#MAPFILE[@]} ${MAPFILE[1]}"; }

#### mapfile -n -s -O
printf '1\n2\n3\n4\n5\n' > f
mapfile -t -n 2 a < f; echo "${a[*]}"
mapfile -t -s 2 b < f; echo "${b[*]}"
c=(x y z)
mapfile -t -O 1 c < f; echo "${c[*]}"

#### mapfile -d delimiter
printf 'a,b,c' | { mapfile -t -d , arr; echo "${#arr[@]} ${arr[2]}"; }

#### readarray is mapfile
printf 'p\nq\n' | { readarray -t arr; declare -p arr; }

#### mapfile -C callback
printf 'a\nb\nc\nd\n' | { mapfile -t -C 'echo cb' -c 2 arr; echo "${arr[*]}"; }

#### mapfile -u descriptor
exec 4< <(printf 'one\ntwo\n')
mapfile -t -u 4 arr
echo "${arr[1]}"

#### mapfile invalid option
mapfile -Z arr
echo "status $?"

#### mapfile on a non-array
declare -A assoc
mapfile assoc < /dev/null
echo "status $?"

#### printf -v assigns
printf -v x '%05d' 42
echo "$x"
printf -v 'arr[2]' '%s' elem
echo "${arr[2]}"

#### printf -v with an invalid name
printf -v 1x '%s' a
echo "status $?"

#### printf -v reuses the format
printf -v x '%s,' a b c
echo "$x"

#### getopts basic
set -- -a -b val file
while getopts 'ab:' opt; do
  echo "opt=$opt arg=${OPTARG-unset} ind=$OPTIND"
done
echo "OPTIND=$OPTIND rest=${*:OPTIND}"

#### getopts invalid option message
set -- -x
getopts 'ab' opt
echo "status $? opt=$opt OPTARG=${OPTARG-unset}"

#### getopts missing argument message
set -- -b
getopts 'ab:' opt
echo "status $? opt=$opt OPTARG=${OPTARG-unset}"

#### getopts silent mode
set -- -x -b
getopts ':ab:' opt; echo "opt=$opt OPTARG=$OPTARG"
getopts ':ab:' opt; echo "opt=$opt OPTARG=$OPTARG"

#### getopts OPTERR=0
OPTERR=0
set -- -x
getopts 'ab' opt
echo "opt=$opt"

#### getopts combined options
set -- -abc -d
while getopts 'abcd' o; do printf '%s ' "$o"; done; echo "$OPTIND"

#### getopts argument attached
set -- -bvalue -a
while getopts 'ab:' o; do echo "$o ${OPTARG-}"; done

#### getopts stops at double dash
set -- -a -- -b
while getopts 'ab' o; do echo "$o"; done
echo "$OPTIND"

#### getopts stops at a non-option
set -- -a file -b
while getopts 'ab' o; do echo "$o"; done
echo "$OPTIND"

#### getopts with explicit args
while getopts 'x:' o -x 1 -x 2; do echo "$o $OPTARG"; done

#### getopts end status and resetting OPTIND
set -- -a
getopts a o; echo "$? $o"
getopts a o; echo "$? $o"
OPTIND=1
getopts a o; echo "$? $o"

#### getopts usage
getopts
echo "status $?"

#### getopts in a function with local OPTIND
f() { local OPTIND o; while getopts 'q' o; do echo "f:$o"; done; }
f -q
f -q

#### caller in a function
f() { caller; caller 0 | sed 's/ [^ ]*$//'; }
f

#### caller at top level
caller
echo "status $?"

#### caller with nested functions
g() { caller 0 | cut -d' ' -f1,2; caller 1 | cut -d' ' -f1,2; caller 2; echo "s $?"; }
f() { g; }
f

#### caller invalid argument
caller abc
echo "status $?"

#### select reads choices
printf '2\n' > in
select c in apple banana cherry; do echo "chose $c ($REPLY)"; break; done < in

#### select prints the menu to stderr
printf '1\n' | { select c in a b; do echo "$c"; break; done; } 2>&1

#### select ends at end of file
select c in a b; do echo "$c"; done < /dev/null
echo "status $?"

#### select with an invalid choice
printf 'x\n3\n1\n' | { select c in a b; do echo "[$c] [$REPLY]"; [ -n "$c" ] && break; done; } 2>/dev/null

#### select with an empty line redisplays
printf '\n2\n' | { select c in a b; do echo "$c"; break; done; } 2>&1

#### select uses PS3
printf '1\n' | { PS3='pick> '; select c in one two; do echo "$c"; break; done; } 2>&1

#### select over positional parameters
set -- p q
printf '2\n' | { select c; do echo "$c"; break; done; } 2>/dev/null

#### select with many items
printf '11\n' | { select c in a b c d e f g h i j k l; do echo "$c"; break; done; } 2>&1

#### type and command -V for builtins
type help pushd caller select
command -V kill

#### enable lists builtins
enable -a | grep -c enable >/dev/null && echo ok

#### select menu in columns
printf '1\n' | { select c in alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron pi rho sigma tau upsilon; do echo "$c"; break; done; } 2>&1

#### select menu with COLUMNS
printf '1\n' | { COLUMNS=30; select c in one two three four five six seven; do echo "$c"; break; done; } 2>&1

#### select redisplays after an empty REPLY
printf '1\n2\n' | { select c in a b; do echo "$c"; REPLY=; [ "$c" = b ] && break; done; } 2>&1

#### select with continue and the loop status
printf '1\n2\n' | { select c in a b; do [ "$c" = a ] && continue; echo "$c"; done; echo "status $?"; } 2>/dev/null

#### select with an empty list
select c in; do echo never; done
echo "status $?"

#### printf -v with no arguments for the format
printf -v x 'plain'
echo "[$x]"
printf -v y '%s-%s' a
echo "[$y]"

#### printf -v into an array element and a local
f() { local v; printf -v v '%d' 7; echo "$v"; }
f
declare -a arr
printf -v 'arr[1]' '%s' one
declare -p arr

#### printf -v missing name
printf -v
echo "status $?"

#### read -d '' over NUL separated input
printf 'a\0b\0c\0' | while IFS= read -r -d '' item; do echo "<$item>"; done

#### read -a with a custom IFS
echo "a:b::c" | { IFS=: read -r -a parts; echo "${#parts[@]}"; printf '[%s]' "${parts[@]}"; echo; }

#### read with a backslash at the end of a line
printf 'one \\\ntwo\n' | { read x; echo "[$x]"; }
printf 'one \\\ntwo\n' | { read -r x; echo "[$x]"; }

#### read -n 0 and -N 0
echo abc | { read -n 0 x; echo "$? [$x]"; }

#### read -e and -i are accepted without a terminal
echo typed | { read -e -i default x; echo "$x"; }

#### read several lines in a loop with the last line unterminated
printf 'l1\nl2' | while read -r line || [ -n "$line" ]; do echo "[$line]"; done

#### mapfile -t -d '' over NUL separated input
printf 'x\0y\0' | { mapfile -t -d '' arr; echo "${#arr[@]} ${arr[1]}"; }

#### mapfile with -s skipping past the end
printf 'a\nb\n' | { mapfile -s 5 arr; echo "${#arr[@]}"; }

#### getopts with a numeric option and a missing argument in silent mode
set -- -1 -n
while getopts ':1n:' o; do echo "$o ${OPTARG-}"; done

#### getopts sets OPTARG to the option in silent mode
set -- -z
getopts ':a' o
echo "$o $OPTARG"

#### getopts unsets OPTARG for options without arguments
OPTARG=stale
set -- -a
getopts 'a' o
echo "${OPTARG-unset}"

#### getopts with an invalid variable name
getopts a 1bad -a
echo "status $?"

#### help -s for the keywords and special topics
help -s variables '%' 'for ((' '{ ... }' '[[ ... ]]' '(( ... ))'

#### help -d for the job builtins
help -d bg fg disown suspend logout history fc bind complete compgen compopt coproc

#### help -m shows a manual page layout
help -m true | head -5
