# Word splitting and joining with IFS, from the bash manual's "Word
# Splitting", "Special Parameters" ($* and $@) and the read builtin.

#### default splitting
x='  a   b	c
d  '
for w in $x; do echo "[$w]"; done

#### empty IFS does not split
IFS=
x='a b c'
for w in $x; do echo "[$w]"; done

#### empty IFS with unquoted $*
set -- 'a b' c 'd e'
IFS=
for w in $*; do echo "[$w]"; done

#### empty IFS with quoted $*
set -- a b c
IFS=
echo "[$*]"

#### empty IFS with array star
a=(x 'y z' w)
IFS=
echo "[${a[*]}]"
for w in ${a[*]}; do echo "<$w>"; done

#### empty IFS in assignment
set -- a b c
IFS=
v=$*
echo "[$v]"
v="$*"
echo "[$v]"
a=(1 2 3)
v=${a[*]}
echo "[$v]"

#### unset IFS joins with space
set -- a b c
unset IFS
echo "[$*]"
x='a:b c'
for w in $x; do echo "[$w]"; done

#### IFS first char joins quoted star
set -- a b c
IFS=:-
echo "$*"
a=(1 2 3)
echo "${a[*]}"

#### non-whitespace delimiters keep empty fields
IFS=:
x='a::b:'
for w in $x; do echo "[$w]"; done

#### leading non-whitespace delimiter gives empty field
IFS=:
x=':a:b'
for w in $x; do echo "[$w]"; done

#### whitespace around non-whitespace delimiter
IFS=' :'
x=' a : b :: c '
for w in $x; do echo "[$w]"; done

#### whitespace only IFS collapses
IFS=' '
x='  a    b  '
for w in $x; do echo "[$w]"; done
set -- $x
echo $#

#### tab in IFS
IFS=$'\t'
x=$'a\t\tb c'
for w in $x; do echo "[$w]"; done

#### multibyte first IFS character
IFS='é:'
set -- a b c
echo "$*"
x='1é2:3'
for w in $x; do echo "[$w]"; done

#### multibyte IFS joins array
IFS='→'
a=(p q r)
echo "${a[*]}"

#### positional slice from zero
set -- a b c
echo "${@:0}"
echo "${@:0:2}"

#### positional slice quoted
set -- 'a 1' 'b 2' 'c 3'
for w in "${@:1:2}"; do echo "[$w]"; done
for w in "${@:2}"; do echo "[$w]"; done

#### star slice
set -- 'a 1' b c
for w in ${*:2}; do echo "[$w]"; done
echo "[${*:2}]"
IFS=-
echo "[${*:1:2}]"

#### negative slice
set -- a b c d
echo "${@: -2}"
echo "${@: -3:2}"

#### quoted at with no args
set --
for w in "$@"; do echo "[$w]"; done
echo "count $#"
x=("$@")
echo "${#x[@]}"
echo "[$*]"

#### quoted at with empty args
set -- '' ''
for w in "$@"; do echo "[$w]"; done
x=($@)
echo "${#x[@]}"

#### at glued to text
set -- a b
for w in x"$@"y; do echo "[$w]"; done

#### splitting command substitution
IFS=,
for w in $(echo 'a,b,,c'); do echo "[$w]"; done

#### command substitution trailing newlines
x=$(printf 'a\nb\n\n\n')
echo "[$x]"
for w in $(printf 'p q\nr'); do echo "[$w]"; done

#### read with IFS
IFS=: read a b c <<< 'x:y:z:w'
echo "[$a][$b][$c]"

#### read leading whitespace stripped
read a b <<< '   left    right  '
echo "[$a][$b]"

#### read with empty IFS keeps spaces
IFS= read -r line <<< '  keep  me  '
echo "[$line]"

#### read last variable gets rest with delimiters
IFS=: read a b <<< 'x:y:z:'
echo "[$a][$b]"
IFS=: read a b <<< 'x:y:'
echo "[$a][$b]"

#### read -a with IFS
IFS=, read -a arr <<< 'a,b,,d'
echo "${#arr[@]}"
printf '[%s]' "${arr[@]}"; echo

#### set with split variable
x='one two  three'
set -- $x
echo "$# $2"
IFS=o
set -- $x
echo "$#"
printf '[%s]' "$@"; echo

#### IFS newline only
IFS=$'\n'
x=$'line one\nline two'
for w in $x; do echo "[$w]"; done

#### IFS in local scope
f() { local IFS=,; echo "$*"; }
f a b c
echo "$*"
set -- x y
f "$@"

#### splitting unquoted at
set -- 'a b' 'c'
for w in $@; do echo "[$w]"; done
IFS=
for w in $@; do echo "<$w>"; done

#### empty variable unquoted disappears
e=
set -- $e
echo $#
set -- "$e"
echo $#

#### IFS not applied to literal text
IFS=a
echo banana
x=banana
echo $x
echo "$x"

#### array from split with IFS
IFS=: arr=(a:b c:d)
echo "${#arr[@]}"
IFS=:
s='a:b'
arr=($s c:d)
echo "${#arr[@]}"

#### star with quoted array elements and default IFS
a=('x y' z)
printf '[%s]' ${a[*]}; echo
printf '[%s]' "${a[*]}"; echo
printf '[%s]' ${a[@]}; echo
printf '[%s]' "${a[@]}"; echo

#### splitting of arithmetic and parameter results
IFS=1
x=$((2 * 51))
echo $x
for w in $((101)); do echo "[$w]"; done

#### IFS with backslash
IFS='\'
x='a\b\c'
for w in $x; do echo "[$w]"; done

#### IFS whitespace with empty fields at the end
IFS=' ,'
x='a , , b ,'
for w in $x; do echo "[$w]"; done

#### at in string with IFS
set -- a b c
IFS=:
x="$@"
echo "$x"
y=$@
echo "$y"

#### star in double quotes with unset IFS and empty args
set -- '' a ''
unset IFS
echo "[$*]"
IFS=,
echo "[$*]"

#### star joined where nothing splits
set -- a b c
IFS=
case $* in abc) echo case-abc;; esac
[[ $* == abc ]] && echo dbl-abc
cat <<< $*
IFS=:
cat <<< $*
cat <<< $@

#### at joined with spaces in assignment
set -- a b c
IFS=:
v=$@
echo "[$v]"
IFS=
v=$@
echo "[$v]"
a=(1 2)
v=${a[@]}
echo "[$v]"

#### read with multibyte IFS
IFS='é' read a b c <<< '1é2é3'
echo "[$a][$b][$c]"

#### read raw and escaped separators
IFS=: read a b <<< 'x\:y:z'
echo "[$a][$b]"
IFS=: read -r a b <<< 'x\:y:z'
echo "[$a][$b]"

#### elements containing IFS characters
IFS=:
a=('x:y' z)
printf '[%s]' ${a[@]}; echo
printf '[%s]' "${a[@]}"; echo
printf '[%s]' ${a[*]}; echo

#### here document joins star with IFS
set -- a b c
IFS=-
cat <<EOT
$* ${*} $@
EOT

#### split of default value word
unset u
IFS=:
printf '[%s]' ${u:-a:b c}; echo
printf '[%s]' "${u:-a:b c}"; echo

#### IFS change in loop body
x='a:b c'
for w in $x; do IFS=:; echo "[$w]"; done
for w in $x; do echo "<$w>"; done
