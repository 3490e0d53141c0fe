# Shell options (bash manual, "The Set Builtin" and "The Shopt Builtin"):
# set -n, -x traces of every kind of command in bash's exact format, PS4,
# set -v, set -o and +o listings, $-, shopt -s -u -q -p -o, set -e, -a,
# -u, -f, -C and pipefail.

#### noexec stops running commands
echo before
set -n
echo after
exit 3

#### noexec with set -o noexec
echo one
set -o noexec
echo two
false

#### xtrace simple commands
set -x
echo hello world
echo 'a b' "c d" e\ f
true
set +x
echo done

#### xtrace quoting of words
set -x
echo '' "x y" 'it'\''s' '$HOME' 'a*b' $'tab\there' 'new
line'
: "semi;colon" 'pipe|x' '&' '<' 'b\c' '#x' x#y '~' '!'
set +x

#### xtrace assignments
set -x
a=1
b="two words"
c=$a$b d=
e=(1 2 'x y')
f[3]=z
g+=more
declare -i n=5
set +x

#### xtrace assignments before a command
set -x
A=1 B='x y' true
X=1 echo hi
set +x

#### xtrace arithmetic commands
set -x
(( x = 3 + 4 ))
((x++))
(( 0 )) || true
let 'y = x * 2'
echo $(( x + y ))
set +x

#### xtrace double brackets
set -x
[[ -n abc ]]
[[ $HOME == /* ]]
[[ a < b && ( c != d || e == f ) ]]
x=abc
[[ $x =~ ^a(b)c$ ]]
[[ ! -e /nonexistent ]]
set +x

#### xtrace for loops
set -x
for i in a 'b c'; do echo "$i"; done
for ((i = 0; i < 2; i++)); do echo $i; done
set +x

#### xtrace case and if and while
set -x
case foo in f*) echo matched ;; esac
if [ 1 -eq 1 ]; then echo yes; fi
n=0
while [ $n -lt 2 ]; do n=$((n+1)); done
until true; do :; done
set +x

#### xtrace functions
set -x
f() { echo "in f $1"; g; }
g() { echo in g; }
f arg
set +x

#### xtrace redirections
set -x
echo out > file
cat < file
echo err 2>/dev/null >&2
cat <<EOT
here
EOT
cat <<< "string"
set +x

#### xtrace pipelines and subshells
set -x
(echo sub)
{ echo group; }
x=$(echo cmdsub)
echo "$x"
set +x

#### xtrace nested levels
set -x
echo $(echo $(echo deep))
x=$(true; echo y)
set +x

#### xtrace with PS4 and LINENO
PS4='+[$LINENO] '
set -x
echo one
echo two
set +x

#### xtrace with a custom PS4
PS4='>> '
set -x
echo hi
PS4='${FUNCNAME[0]:-main}: '
f() { echo inside; }
f
set +x

#### xtrace with an empty PS4
PS4=
set -x
echo no prefix
set +x

#### xtrace set +x itself is traced
set -x
set +x
echo quiet

#### xtrace of set -o xtrace
set -o xtrace
echo traced
set +o xtrace

#### xtrace in a subshell and a function
f() { local v=1; echo $v; }
set -x
( f )
set +x

#### xtrace with arrays and expansions
set -x
a=(one two)
echo "${a[@]}" ${#a[@]} "${a[1]}"
declare -A m=([k]=v)
echo "${m[k]}"
set +x

#### xtrace of test and [ builtins
set -x
test -z ""
[ a = a ]
set +x

#### xtrace through eval and source
set -x
eval 'echo from eval'
echo 'echo from file' > s.sh
. ./s.sh
set +x

#### verbose prints lines as read
set -v
echo one
x=2 # comment
echo $x
set +v
echo quiet

#### verbose with compound commands
set -v
for i in 1 2; do
  echo $i
done
set +v

#### dollar dash flags
echo "$-"
set -e
echo "$-"
set -u -f
echo "$-"
set +euf
set -C -a
echo "$-"
set +Ca
set -x
echo "$-"
set +x

#### set -o listing
set -o
set -e -u
set -o | grep -E 'errexit|nounset|pipefail'

#### set +o listing
set +o
set -o pipefail
set +o | grep pipefail

#### set -o with a name and errors
set -o nosuchoption
echo "status $?"
set -Q
echo "status $?"
set +o nosuch
echo "status $?"

#### set + forms
set -eu
set +e
echo "$-"
set +u
echo "$-"
set -o errexit +o errexit
echo "$-"
set -- a b c
echo "$# $*"
set +
echo "$# $*"
set -
echo "$# $*"

#### set minus minus and minus
set -- -x y
echo "$1 $2 $-"
set - -z w
echo "$1 $2 $-"
set --
echo "$#"

#### set positional with options
set -f a b
echo "$- $*"
set +f -- c
echo "$- $*"

#### shopt list and print
shopt -p extglob nullglob
shopt -s nullglob
shopt -p nullglob
shopt nullglob globstar
shopt -u nullglob

#### shopt without arguments lists all
shopt

#### shopt -p lists all
shopt -p

#### shopt -s and -u lists
shopt -s
shopt -s dotglob
shopt -s
shopt -u | head -3

#### shopt -o
shopt -o | head -5
shopt -po errexit
set -e
shopt -po errexit
shopt -o errexit; echo "status $?"
shopt -so pipefail
echo "$(set -o | grep pipefail)"
shopt -uo errexit
echo "$-"

#### shopt errors
shopt -s nosuch
echo "status $?"
shopt -s -u extglob
echo "status $?"
shopt -x
echo "status $?"
shopt -o nosuch
echo "status $?"
shopt nosuch extglob
echo "status $?"

#### shopt -q status
shopt -q extglob; echo $?
shopt -s extglob
shopt -q extglob; echo $?
shopt -q extglob nullglob; echo $?
shopt -s nullglob
shopt -q extglob nullglob; echo $?
shopt -q nosuch; echo $?

#### shopt status of queries
shopt extglob; echo $?
shopt sourcepath; echo $?
shopt -p sourcepath extglob; echo $?

#### SRANDOM is a number that changes
a=$SRANDOM b=$SRANDOM
[[ $a =~ ^[0-9]+$ ]] && echo number
[[ $a != "$b" ]] && echo changes
(( a >= 0 && a < 4294967296 )) && echo range

#### RANDOM is a number in range
a=$RANDOM
[[ $a =~ ^[0-9]+$ ]] && (( a < 32768 )) && echo ok

#### set -e stops at a failing command
set -e
echo one
false
echo never

#### set -e ignored in conditions
set -e
if false; then echo no; fi
false || echo or
! false
false && echo no
while false; do :; done
echo survived

#### set -e in functions called from conditions
set -e
f() { false; echo "f continues"; }
if f; then echo ok; fi
f || true
echo end
f
echo never

#### set -e with pipelines and pipefail
set -e
false | true
echo after-pipe
set -o pipefail
true | false | true
echo never

#### set -e in subshells and command substitution
set -e
(false; echo not-here)
echo never

#### set -e with command substitution assignment
set -e
x=$(false)
echo never

#### set -e with local masks the status
set -e
f() { local x=$(false); echo "local masks"; }
f

#### set -e and arithmetic
set -e
(( 1 ))
echo one
(( 0 ))
echo never

#### errexit via set -o
set -o errexit
echo "$-"
set +o errexit
false
echo fine

#### allexport exports assignments
set -a
x=1
y=(1 2)
declare -i n=3+4
bash -c 'echo "x=$x n=$n"'
set +a
z=2
bash -c 'echo "z=${z-unset}"'

#### allexport with arithmetic and read
set -a
(( q = 5 ))
read -r r <<< "line"
let w=2
bash -c 'echo "q=${q-unset} r=${r-unset} w=${w-unset}"'

#### allexport with for loop variables
set -a
for v in final; do :; done
bash -c 'echo "v=${v-unset}"'

#### nounset message
set -u
echo "${x-default}"
echo $nosuch
echo never

#### nounset with arrays and positional parameters
set -u
a=()
echo "${#a[@]}"
echo "${a[@]}"
echo "$@"
echo "$#"
echo $1
echo never

#### nounset in arithmetic
set -u
echo $(( 1 + 1 ))
echo $(( undefined + 1 ))
echo never

#### nounset with parameter expansion forms
set -u
echo "${u:-d}" "${u:+p}" "${#@}"
: ${u?custom message}
echo never

#### nounset in a subshell keeps the outer shell going
set -u
( echo $nope )
echo "status $?"

#### noglob
touch a b
set -f
echo *
set +f
echo *
set -o noglob
echo *

#### noclobber
echo one > f
set -C
echo two > f
echo "status $?"
cat f
echo three >| f
cat f
echo four >> f
cat f
echo new > g
cat g
set +C
echo five > f
cat f

#### noclobber with /dev/null
set -C
echo x > /dev/null
echo "status $?"

#### pipefail status
false | true
echo $?
set -o pipefail
false | true
echo $?
true | (exit 3) | true
echo $?
(exit 2) | (exit 5) | true
echo $?
set +o pipefail
(exit 2) | true
echo $?

#### pipefail and PIPESTATUS
set -o pipefail
true | false | true
echo "${PIPESTATUS[@]} $?"

#### options are inherited by subshells
set -f -u
( echo "$-" )
echo "$(echo "$-")"

#### BASHOPTS and SHELLOPTS
echo "$SHELLOPTS"
set -o pipefail
echo "$SHELLOPTS"
echo "$BASHOPTS"
shopt -s extglob
echo "$BASHOPTS"

#### xtrace of negation, time and brace groups
set -x
! false
{ echo in-group; }
if ! true; then :; else echo else-branch; fi
set +x

#### xtrace of here-documents and redirections with expansions
set -x
f=out.txt
echo "to $f" > "$f"
cat "$f"
read -r line < "$f"
echo "$line"
set +x

#### xtrace of command substitution in arguments
set -x
echo "$(echo inner)" `echo back`
v=$(printf '%s' x)
set +x

#### xtrace inside functions with locals
set -x
f() {
  local a=1 b
  local -i n=2
  echo "$a $n"
}
f
set +x

#### xtrace of while loops with arithmetic
set -x
i=0
while (( i < 2 )); do
  (( i++ ))
done
set +x

#### xtrace of special characters in values
set -x
v='a"b'
w="it's"
x='semi;colon'
y=$'bell\a'
z='*.txt'
echo "$v" "$w" "$x" "$z"
set +x

#### xtrace of unicode and plain words
set -x
echo héllo wörld a=b c,d e:f @x %y
set +x

#### xtrace of an empty command
set -x
$EMPTY
x=1 $EMPTY
set +x

#### xtrace is off in command substitution output
set -x
x=$(echo captured)
set +x
echo "$x"

#### xtrace nested command substitutions and PS4 repetition
PS4='>>'
set -x
echo $(echo $(echo a))
set +x

#### xtrace with PS4 using a command substitution
PS4='+$(echo X) '
set -x
echo hi
set +x

#### xtrace of set -o and shopt commands
set -x
set -o pipefail
shopt -s nullglob
set +o pipefail
set +x

#### set -e and the last command of && lists
set -e
true && false
echo never

#### set -e in a function called in a pipeline
set -e
f() { false; echo after-false; }
f | cat
echo "end $?"

#### set -e ignored in command substitution without inherit_errexit
set -e
x=$(false; echo continued)
echo "$x"

#### inherit_errexit
set -e
shopt -s inherit_errexit
x=$(false; echo not-reached)
echo "x=[$x]"

#### set -e with a failing subshell
set -e
(exit 3)
echo never

#### set -e with negated failing command
set -e
! true
echo "status $?"
false || true
echo ok

#### set -u with empty variable and special parameters
set -u
x=
echo "[$x]" "$#" "$?" "$-" "$$" > /dev/null
echo ok

#### set -o errexit in a subshell does not leak
(set -e; echo "$-")
echo "$-"

#### shopt -s options only in a subshell
(shopt -s extglob; shopt extglob)
shopt extglob

#### set -o vi and emacs
set -o vi
set -o | grep -E '^(vi|emacs) '
set -o emacs
set -o | grep -E '^(vi|emacs) '

#### set -h and -B and -H flags
set +h
echo "$-"
set -h
set +B
echo "$-"
set -B
echo "$-"

#### bash -e -u -x options
bash -e -c 'false; echo never'
echo "status $?"
bash -u -c 'echo $nope'
echo "status $?"
bash -x -c 'echo traced'
bash -o pipefail -c 'false | true'
echo "status $?"

#### bash -c and $-
bash -c 'echo "$-"'
bash -ec 'echo "$-"'
echo 'echo "$-"' > s.sh
bash s.sh
bash < s.sh

#### noclobber with append and >| on a new file
set -C
echo a >> new1
echo b >| new2
echo c > new3
cat new1 new2 new3
echo d > new3
echo "status $?"

#### noclobber error message
echo x > f
set -o noclobber
echo y > f
echo "status $?"
echo y 2> f
echo "status $?"

#### allexport with declare and export -n
set -a
declare d=1
export -n d
bash -c 'echo "d=${d-unset}"'
e=2
bash -c 'echo "e=${e-unset}"'

#### noglob with brackets and extglob
touch a1 a2
set -f
echo a[12] a?
shopt -s extglob
set +f
echo a[12]

#### nullglob with failglob both on
shopt -s nullglob failglob
echo *.none
echo "status $?"

#### set -u with unset array elements
set -u
a=(1 2)
declare -A m=([k]=v)
s=x
i=1
echo "${a[0]} ${a[$i]} ${m[k]} ${s[0]} ${a[5]:-dflt} ${#a[5]} ${a[@]}"
( echo "${a[5]}" )
( echo "${m[nokey]}" )
( echo "${s[1]}" )
( echo "${nosuch[0]}" )
echo "status $?"

#### xtrace of export, readonly, unset and arrays appended
set -x
x=(a b); x+=(c)
unset x
readonly r=1
export E=2 F
export G=
set +x

#### xtrace with BASH_SOURCE and LINENO in PS4
PS4='+ ${BASH_SOURCE:-}:${LINENO}: '
set -x
echo a
f() { echo b; }
f
set +x


#### set -euo pipefail
set -euo pipefail
echo "$-"
set -o | grep -E 'errexit|nounset|pipefail'
echo "$SHELLOPTS"


#### xtrace turned on in a sourced file
printf 'set -x\necho in-file\n' > t.sh
. ./t.sh
echo out
set +x


#### bash -x with a function
bash -x -c 'f() { echo $1; }; f a' 2>&1
