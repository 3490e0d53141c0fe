# Expansion details from the bash manual's "Tilde Expansion", "Shell
# Arithmetic", "Parameter Expansion" and the let and printf builtins.

#### tilde followed by a quoted part
HOME=/home/me
echo ~"/x"
echo ~'/y'
echo ~/"z w"
echo "~/q"

#### tilde with a quoted user name
HOME=/home/me
echo ~'root'
echo ~"nobody"x

#### tilde in assignment
HOME=/home/me
a=~/x
b=x:~/y
echo "$a $b"
c="~/z"
echo "$c"

#### tilde plus and minus
HOME=/home/me
cd /
echo ~+ ~-
OLDPWD=/old
echo ~-

#### let with spaces inside quotes
let "x = 1 + 2" "y = x * 3"
echo "$x $y"
let 'z = y - 10'
echo "$z $?"
let "q = 0"
echo "status $?"

#### let error token
let '1 +'
echo "status $?"
let 'a b'
echo "status $?"

#### division by zero
echo $(( 5 / 0 ))
echo "status $?"
(( 7 % 0 ))
echo "status $?"
x=0
echo $(( 3 / x ))

#### negative exponent
echo $(( 2 ** -1 ))
echo "status $?"

#### exponent
echo $(( 2 ** 10 )) $(( (-2) ** 3 )) $(( 0 ** 0 ))

#### bases
echo $(( 2#101 )) $(( 16#ff )) $(( 8#17 )) $(( 36#z )) $(( 64#@ )) $(( 64#_ ))
echo $(( 0x1F )) $(( 017 )) $(( 10#010 ))

#### invalid base
echo $(( 65#1 ))
echo "status $?"

#### digit too big for base
echo $(( 2#102 ))
echo "status $?"

#### invalid octal
echo $(( 09 ))
echo "status $?"

#### unbound variable in arithmetic under set -u
(
set -u
x=1
echo $(( x + 1 ))
(( y + 1 ))
echo notreached
)
echo "status $?"

#### unbound in dollar arithmetic under set -u
(
set -u
echo $(( nosuch ))
echo notreached
)
echo "status $?"

#### unset variable in arithmetic is zero
echo $(( nosuch + 2 ))
x=
echo $(( x + 3 ))

#### variable holding expression
e='2 + 3'
echo $(( e * 2 ))
f='e'
echo $(( f ))

#### recursive variable reference loop
a=b b=a
echo $(( a ))
echo "status $?"

#### arithmetic assignment through nameref
v=3
declare -n r=v
(( r *= 4 ))
echo $v
echo $(( r = 1, r + 1 ))
echo $v

#### comparison and logic
echo $(( 3 > 2 )) $(( 2 >= 3 )) $(( 1 && 0 )) $(( 0 || 5 )) $(( !0 )) $(( ~5 ))

#### ternary and comma
x=5
echo $(( x > 3 ? 10 : 20 )) $(( x++, x ))

#### shifts and bitwise
echo $(( 1 << 4 )) $(( 256 >> 2 )) $(( 6 & 3 )) $(( 6 | 3 )) $(( 6 ^ 3 ))

#### integer overflow wraps
echo $(( 9223372036854775807 + 1 ))
echo $(( -9223372036854775808 / -1 ))

#### assignment operators
x=10
(( x += 5, x -= 2, x *= 3, x /= 2, x %= 7 ))
echo $x
(( x <<= 2, x |= 1 ))
echo $x

#### pre and post increment
x=1
echo $(( x++ )) $x $(( ++x )) $(( x-- )) $(( --x ))

#### arithmetic with strings
x=abc
echo $(( x ))
echo "status $?"

#### printf c with missing argument
printf '[%c]\n'
printf '[%c][%c]\n' a
printf '%c\n' hello

#### printf missing arguments
printf '[%s][%d][%5s]\n' only
printf '%s\n' a b c

#### dollar hash
set -- a b c
echo ${#} $#
set --
echo ${#}

#### substring with negative offset
s=abcdefg
echo "${s: -3}" "${s: -3:2}" "${s:(-2)}"
echo "[${s: -10}]"

#### substring with negative length
s=abcdefg
echo "${s:1:-2}" "${s: -4:-1}"
echo "${s:2:-6}"
echo "status $?"

#### substring with arithmetic
s=abcdefg
n=2
echo "${s:n:n+1}" "${s:n*2}"

#### substring past end
s=abc
echo "[${s:5}]" "[${s:1:100}]"

#### pattern substitution with ampersand
shopt -s patsub_replacement 2>/dev/null
s='hello world'
echo "${s//o/[&]}"
echo "${s/world/<&>}"
echo "${s//o/\&}"
echo "${s//o/"&"}"

#### ampersand with option off
shopt -u patsub_replacement
s='hello'
echo "${s//l/[&]}"

#### pattern substitution anchors
s=aXbXc
echo "${s/#a/S}" "${s/%c/E}" "${s/X}" "${s//X}"
echo "${s/#X/S}"

#### pattern substitution with glob
s='path/to/file.txt'
echo "${s//\//:}" "${s/*\//}" "${s/.*/}"
echo "${s//[aeiou]/_}"

#### case modification
s='hello World'
echo "${s^^}" "${s,,}" "${s^}" "${s,}"
echo "${s^^[lo]}" "${s,,[W]}"

#### case modification with pattern vowels
s='Programming Language'
echo "${s,,[aeiou]}" "${s^^[aeiou]}"
echo "${s^[p]}" "${s^[P]}"

#### case modification on arrays
a=(one two)
echo "${a[@]^}" "${a[@]^^}"

#### default and alternate values
unset u
e=
echo "[${u-d}] [${u:-d}] [${e-d}] [${e:-d}] [${e+a}] [${e:+a}] [${u+a}]"

#### assign default
unset u
echo "${u:=set}" "$u"
echo "${u:=other}"

#### error if unset
unset u
(echo "${u:?is required}"; echo notreached)
echo "status $?"

#### error message default
unset u
(echo "${u?}")
echo "status $?"
e=
(echo "${e:?}")
echo "status $?"

#### prefix and suffix removal
s=a.b.c.d
echo "${s#*.}" "${s##*.}" "${s%.*}" "${s%%.*}"

#### length of strings
s='héllo'
echo "${#s}"
unset u
echo "${#u}"

#### indirect expansion
x=y
y=final
echo "${!x}"
arr=(a b)
i='arr[1]'
echo "${!i}"

#### prefix names
ab1=1 ab2=2 abc=3
echo "${!ab*}"
for n in "${!ab@}"; do echo "$n"; done

#### nested expansion in default
unset u
x=inner
echo "${u:-${x}-suffix}"
echo "${u:-"quoted $x"}"

#### arithmetic in parameter default
unset u
echo "${u:-$((1+2))}"

#### quoting in pattern
s='a*b*c'
echo "${s#*\*}" "${s#'a*'}" "${s%"*c"}"
p='*'
echo "${s#$p}" "${s#"$p"}"

#### dollar single quote
printf '%s|' $'a\tb' $'\x41\u00e9' $'\101' $'a\x' $'\'' | od -c | head -2

#### brace expansion
echo {a,b}{1,2} {1..5} {5..1..2} {a..e} x{,y}
echo {01..03} {-2..2}

#### arithmetic base output
echo $(( 16#FF + 0 )) $(( 2#1111 ))
echo $(( -0x10 ))

#### let returns status of last
let 'x = 0'
echo $?
let 'x = 5' 'y = 0'
echo $?

#### arithmetic command status
(( 0 ))
echo $?
(( 5 ))
echo $?
(( x = 0 ))
echo $?

#### arithmetic error in let with variable
x='5/0'
let y=x
echo "status $?"

#### arithmetic error inside double parens
(( 10 / (3 - 3) ))
echo "status $?"
(( x = 2 ** -2 ))
echo "status $?"

#### arithmetic syntax errors from variables
e='1 +'
echo $(( e ))
echo "status $?"
e='(2'
echo $(( e ))
echo "status $?"
e='3 4'
echo $(( e * 2 ))
echo "status $?"

#### arithmetic error stops the command
x=$(( 1 / 0 )) && echo assigned
echo "after $?"
echo "x=[${x-unset}]"

#### arithmetic conditional errors
e='1 ? 2'
echo $(( e ))
e='1 ? 2 :'
echo $(( e ))
echo done

#### arithmetic in array subscript error
a=(1 2)
e='1 +'
echo "${a[e]}"
echo "status $?"

#### arithmetic with quoted operands
echo $(( "1" + 2 )) $(( "3" * "4" ))

#### let with multiple expressions and spaces
let a=1+2 "b = a * 2" c=b--
echo "$a $b $c"

#### let increments
x=5
let x++ ++x
echo $x
let 'x = x > 3 ? 100 : 0'
echo $x

#### substring of positional parameters
set -- one two three four
echo "${@:2:2}" "${*:3}" "${@: -1}"

#### substring of unicode
s='héllo wörld'
echo "${s:1:4}" "${s: -5}" "${#s}"

#### case modification of unicode
s='éclair über'
echo "${s^^}" "${s^}" "${s@U}"
t='ÉCOLE'
echo "${t,,}" "${t,}"

#### pattern substitution with character classes
s='a1b2c3'
echo "${s//[[:digit:]]/#}" "${s//[![:digit:]]/}" "${s/[[:alpha:]]/X}"

#### pattern substitution longest match
s='aaa-bbb-ccc'
echo "${s/-*/}" "${s/#a*-/}" "${s/%-*/}"
echo "${s//?/.}"

#### pattern substitution on arrays with anchors
a=(apple apricot banana)
echo "${a[@]/#ap/AP}" "${a[@]/%a/A}"

#### ampersand escaped and quoted replacement
s=abc
r='[&]'
echo "${s/b/$r}" "${s/b/"$r"}" "${s/b/\\&}"

#### ampersand in replacement of all matches
s='one two three'
echo "${s//[aeiou]/<&>}"
echo "${s// /_&_}"

#### lowercase first character with pattern
s=HELLO
echo "${s,}" "${s,,[LO]}" "${s,[A-Z]}"

#### tilde after colon in assignment
HOME=/h
PATH2=~/bin:~/lib:x~
echo "$PATH2"
export P3=a:~/c
echo "$P3"

#### tilde in word not at start
HOME=/h
echo a~ a/~ =~ x=~
echo ~/~

#### tilde in parameter default
HOME=/h
unset u
echo ${u:-~/dflt} "${u:-~/quoted}"

#### printf c with various arguments
printf '%c|' a bc '' ' ' 7 | od -An -c

#### printf missing and extra
printf '%s=%d\n' a 1 b
printf '[%5.2s]\n' abcdef

#### printf with width star
printf '[%*d]\n' 5 42
printf '[%-*s]\n' 4 ab

#### printf reuse format
printf '%s-%s\n' 1 2 3

#### indirect expansion through an array element
foo=bar
a=('1 2' foo)
echo "${!a[1]}" "${!a[1]:-x}"
declare -A m=([k]=foo)
echo "${!m[k]}"

#### indirect expansion with operators
x=name
name=value
echo "${!x^^}" "${!x:1:2}" "${!x/a/A}"
unset x
echo "[${!x-unset ref}]"
echo "status $?"
x=
echo "[${!x}]"
echo "status $?"

#### expansions in arithmetic are text
x='2+3'
echo $(( $x * 2 )) $(( x * 2 )) $(( "$x" * 2 ))
y=-5
echo $(( 2 * $y )) $(( 3-$y ))
f() { echo 1+1; }
echo $(( $(f) * 3 ))
e='1 +'
echo $(( $e ))
echo "status $?"

#### integer constants
echo $(( 0x )) $(( 0X1f )) $(( 10#0010 ))
echo $(( 1e3 ))
echo $(( 2# ))
echo $(( 09a ))
echo done

#### scalar keys and destroying arrays
s=scalar
echo "${!s[@]}" "${#s[@]}"
a=(1 2)
declare +a a
echo "status $?"

#### bad numbers inside expressions
echo $(( 1 + 09 + 1 ))
let "x = 09 + 1"
let y=08
echo $(( 1 + 2#3 ))
echo done

#### replacement from an unquoted expansion
s=abc
x='\&'
echo "${s/b/$x}"
x='\a'
echo "${s/b/$x}"
x='&&'
echo "${s/b/$x}" "${s/b/"$x"}"
echo "${s//#a/X}" "${s/#a/X}" "${s//%c/X}"

#### arithmetic syntax errors when the command runs
echo start
echo $(( 1 + ))
echo "status $?"
x=$(( 2 * * 3 ))
echo "status $?"
(( 1 @ 2 ))
echo "status $?"
echo $(( 3 = 4 ))
echo "status $?"
for i in 1 2; do echo $(( i + )); done
echo end

#### operators from expansions in arithmetic
op=+
echo $(( 2 $op 3 ))
n='*'
echo $(( 4 $n 5 ))
echo '$(( 1 + ))'

#### let without expressions or with bad ones
let
echo "status $?"
let 1 +
echo "status $?"
let a b
echo "status $?"
