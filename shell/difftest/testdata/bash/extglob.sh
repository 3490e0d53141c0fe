# Extended globbing (bash manual, "Pattern Matching" and "Filename
# Expansion"): ?(...) *(...) +(...) @(...) !(...) with alternation, nesting
# and bracket expressions, in case, [[ ]] (where bash always enables them),
# parameter expansion and pathname expansion; dotglob, nullglob, failglob,
# nocaseglob, GLOBIGNORE and globstar. shopt -s extglob must be on a line
# of its own: bash parses a line before it runs it.

#### case with @(a|b)
shopt -s extglob
for w in a b c ab; do
  case $w in
    @(a|b)) echo "$w: one of a b" ;;
    *) echo "$w: other" ;;
  esac
done

#### case with ?(...)
shopt -s extglob
for w in x.c x.h x. x.ch; do
  case $w in
    x.?(c|h)) echo "$w yes" ;;
    *) echo "$w no" ;;
  esac
done

#### case with *(...)
shopt -s extglob
for w in "" ab abab aba abba; do
  case $w in
    *(ab)) echo "[$w] yes" ;;
    *) echo "[$w] no" ;;
  esac
done

#### case with +(...)
shopt -s extglob
for w in "" 1 123 12a a; do
  case $w in
    +([0-9])) echo "[$w] number" ;;
    *) echo "[$w] not" ;;
  esac
done

#### case with !(...)
shopt -s extglob
for w in foo.c foo.h foo bar.c .c ""; do
  case $w in
    !(*.c)) echo "[$w] not .c" ;;
    *) echo "[$w] .c" ;;
  esac
done

#### case with !(...) and a suffix
shopt -s extglob
for w in foo.c foo.o foox.c foo.cc; do
  case $w in
    foo!(.o)) echo "$w 1" ;;
    *) echo "$w 2" ;;
  esac
done

#### case with !(a|b) alternatives
shopt -s extglob
for w in a b c ab ""; do
  case $w in
    !(a|b)) echo "[$w] neither" ;;
    *) echo "[$w] a or b" ;;
  esac
done

#### case with nested groups
shopt -s extglob
for w in abc abcbc a ac abcx xbc; do
  case $w in
    a*(b@(c|d))) echo "$w yes" ;;
    *) echo "$w no" ;;
  esac
done

#### case with bracket expressions inside groups
shopt -s extglob
for w in abc ABC a1 _x 9 ""; do
  case $w in
    +([[:lower:]])) echo "[$w] lower" ;;
    +([[:upper:]])) echo "[$w] upper" ;;
    [[:alpha:]_]*([[:alnum:]_])) echo "[$w] identifier" ;;
    *) echo "[$w] other" ;;
  esac
done

#### case with extglob off treats the operators as errors or literals
for w in 'a' '@(a)'; do
  case $w in
    a) echo "$w plain" ;;
    *) echo "$w other" ;;
  esac
done

#### double bracket enables extglob without shopt
shopt extglob
[[ foo.c == *.@(c|h) ]] && echo yes1
[[ foo.o == *.@(c|h) ]] || echo no1
[[ 123 == +([0-9]) ]] && echo yes2
[[ 12a == +([0-9]) ]] || echo no2
[[ abc == !(x*) ]] && echo yes3
[[ xbc == !(x*) ]] || echo no3

#### double bracket with != and extglob
[[ foo.txt != !(*.txt) ]] && echo a
[[ foo.md != !(*.txt) ]] || echo b
[[ "" != ?(x) ]] || echo c
[[ xx != ?(x) ]] && echo d

#### double bracket quoted operators are literal
[[ '@(a)' == "@(a)" ]] && echo quoted-literal
[[ a == "@(a)" ]] || echo quoted-no-match
p='@(a|b)'
[[ b == $p ]] && echo unquoted-var-pattern
[[ b == "$p" ]] || echo quoted-var-literal

#### double bracket negation variants
for w in "" a aa ab b; do
  [[ $w == !(a) ]] && echo "[$w] !(a)"
  [[ $w == !(a)* ]] && echo "[$w] !(a)*"
  [[ $w == *!(a) ]] && echo "[$w] *!(a)"
  [[ $w == !(*a*) ]] && echo "[$w] !(*a*)"
done

#### double bracket star and plus of alternatives
for w in "" ab abc cab abcab ba; do
  [[ $w == *(ab|c) ]] && echo "[$w] *(ab|c)"
  [[ $w == +(ab|c) ]] && echo "[$w] +(ab|c)"
done

#### nested negation
for w in a b ab ba ""; do
  [[ $w == !(!(a)) ]] && echo "[$w] !(!(a))"
  [[ $w == @(!(a)|a) ]] && echo "[$w] anything"
done

#### case insensitive match with nocasematch
shopt -s nocasematch
shopt -s extglob
[[ FOO.C == *.@(c|h) ]] && echo yes
case ABC in +([a-c])) echo case-yes ;; esac
case ABC in abc) echo plain-yes ;; esac
shopt -u nocasematch
case ABC in abc) echo wrong ;; *) echo case-sensitive-again ;; esac

#### strip prefix and suffix with extglob
shopt -s extglob
v=aaabbbccc
echo "${v#+(a)}" "${v##+(a)}"
echo "${v%+(c)}" "${v%%+(c)}"
echo "${v#*(a)b}" "${v##*(a|b)}"
echo "${v%@(b|c)*}" "${v%%@(b|c)*}"

#### strip with negation
shopt -s extglob
f=archive.tar.gz
echo "${f%%.!(tar)}"
echo "${f##!(*.*)}"
echo "${f%.!(*.*)}"
x=12345abc
echo "${x##+([0-9])}"
echo "${x%%!([0-9])}"

#### replace with extglob
shopt -s extglob
s='a1b22c333d'
echo "${s//+([0-9])/#}"
echo "${s/+([0-9])/#}"
echo "${s//@(a|c)/X}"
echo "${s//?([0-9])/.}"
echo "${s/#+([a-z])/^}"
echo "${s/%+([a-z])/$}"

#### replace with negation
shopt -s extglob
s='foo bar baz'
echo "${s//!(a)/-}"
echo "${s/!(f)/-}"
t='  trim me  '
t=${t##+([[:space:]])}; t=${t%%+([[:space:]])}
echo "[$t]"

#### replace in arrays with extglob
shopt -s extglob
a=(x1 y22 z333)
echo "${a[@]//+([0-9])/N}"
echo "${a[@]%%+([0-9])}"
echo "${a[@]##@(x|y)}"

#### pattern from a variable in parameter expansion
shopt -s extglob
p='+([0-9])'
v=abc123def
echo "${v//$p/#}"
echo "${v//"$p"/#}"

#### pathname expansion with !(...)
shopt -s extglob
touch a.txt b.txt c.sh .hidden .h.txt README
echo !(*.txt)
echo !(a*|b*)
echo !(*)
echo !(README)

#### pathname expansion with @ ? * +
shopt -s extglob
touch a.txt b.txt c.sh ab.txt aab.txt
echo @(a|b).txt
echo ?(a)b.txt
echo *(a)b.txt
echo +(a)b.txt
echo +([ab]).txt
echo @(c).@(sh|txt)

#### pathname expansion ls with negation
shopt -s extglob
touch one.txt two.txt three.md
ls !(*.txt)
ls -d !(*.md)

#### pathname expansion hidden files and extglob
shopt -s extglob
touch .a .b.txt c d.txt
echo @(*)
echo !(*.txt)
echo .!(a)
echo @(.a|c)
echo *(.)*
shopt -s dotglob
echo @(*)
echo !(*.txt)

#### pathname expansion extglob in directories
shopt -s extglob
mkdir -p src/a src/b lib/c
touch src/a/x.go src/a/y_test.go src/b/z.go lib/c/w.go
echo @(src|lib)/*/*.go
echo src/*/!(*_test).go
echo !(lib)/a/*

#### pathname expansion extglob with no match stays literal
shopt -s extglob
touch x
echo @(y|z)
echo !(x)
echo +(q)

#### extglob nullglob and failglob
shopt -s extglob
touch x
shopt -s nullglob
echo [@(y|z)]
shopt -u nullglob
shopt -s failglob
echo @(y|z)
echo status $?

#### dotglob lists hidden files but not . and ..
touch .a .b c
echo *
shopt -s dotglob
echo *
echo .*
shopt -u dotglob
echo .*

#### nullglob removes unmatched words
shopt -s nullglob
echo a*.none "b*" c?
x=(*.none)
echo ${#x[@]}
shopt -u nullglob
echo a*.none

#### failglob stops the command
touch ok
shopt -s failglob
echo *.none
echo "status $?"
echo ok*
for f in *.none; do echo never; done
echo "after $?"

#### failglob in a subshell and conditions
shopt -s failglob
if echo *.none; then echo yes; else echo "no $?"; fi
(echo x*.none) ; echo "sub $?"

#### nocaseglob
touch Alpha beta GAMMA
shopt -s nocaseglob
echo a*
echo [b]*
echo *MM*
shopt -u nocaseglob
echo a*

#### GLOBIGNORE filters matches
touch a.txt b.txt c.sh .hidden
GLOBIGNORE='*.txt'
echo *
GLOBIGNORE='a*:c*'
echo *
echo .*
unset GLOBIGNORE
echo *

#### GLOBIGNORE set enables dotglob
touch .hidden visible
GLOBIGNORE=nothing
echo *
GLOBIGNORE=.hidden
echo *

#### GLOBIGNORE with paths
mkdir d
touch d/a d/b d/c
GLOBIGNORE='d/b'
echo d/*

#### globstar off is like star
mkdir -p d/e/f
touch top d/1 d/e/2 d/e/f/3
echo **
echo **/*
echo d/**

#### globstar lists everything below
shopt -s globstar
mkdir -p d/e/f
touch top d/1 d/e/2 d/e/f/3
echo **

#### globstar with trailing slash lists directories
shopt -s globstar
mkdir -p d/e/f g
touch top d/1 d/e/2 d/e/f/3
echo **/

#### globstar below a directory
shopt -s globstar
mkdir -p d/e/f
touch top d/1 d/e/2 d/e/f/3
echo d/**
echo d/**/
echo d/**/*

#### globstar with a file pattern
shopt -s globstar
mkdir -p a/b/c
touch x.go a/y.go a/b/z.go a/b/c/w.go a/b/c/w.txt
echo **/*.go
echo a/**/*.go
echo **/c/*

#### globstar skips hidden directories without dotglob
shopt -s globstar
mkdir -p .git/obj src/.cache src/pkg
touch .git/obj/o.go src/.cache/c.go src/pkg/p.go src/m.go .top.go
echo **/*.go
echo **
shopt -s dotglob
echo **/*.go

#### globstar hidden directory named explicitly
shopt -s globstar
mkdir -p .cfg/sub
touch .cfg/a .cfg/sub/b
echo .cfg/**
echo .cfg/**/b

#### globstar in the middle of a word is a star
shopt -s globstar
mkdir -p d/e
touch d/x d/e/y
echo d**
echo d/**x

#### globstar with no match
shopt -s globstar
echo **/*.none
shopt -s nullglob
echo [**/*.none]

#### globstar order with mixed names
shopt -s globstar
mkdir -p b/a a/b
touch B A b/a/1 a/b/2 a/1
echo **

#### globstar in for loops
shopt -s globstar
mkdir -p p/q
touch p/1.txt p/q/2.txt p/q/3.md
for f in **/*.txt; do echo "file $f"; done

#### globstar with extglob
shopt -s globstar extglob
mkdir -p p/q
touch p/1.txt p/q/2.txt p/q/3.md p/4.sh
echo **/!(*.txt)
echo **/@(*.md|*.sh)

#### quoted globs are literal
touch a b ab
echo "*"
echo '*'
echo \*
echo "a"*
echo *"b"
echo "a*"
x='*'
echo "$x" $x

#### brackets in globs
touch a1 a2 b1 '[x'
echo a[12]
echo [!a]1
echo [^a]*
echo [ab][2]
echo '['*
echo [

#### glob character classes
touch a A 1 _ .x
echo [[:upper:]]
echo [[:digit:]]
echo [[:alpha:]]
echo [[:punct:]]
echo [[:alnum:][:punct:]]

#### glob with slash patterns
mkdir -p x/y z
touch x/y/f z/f
echo */*/f
echo */f
echo */
echo ./*

#### glob absolute and relative dots
mkdir -p a/b
touch a/b/c
cd a/b
echo ../*
echo ../b/*
echo ./c

#### glob in assignments is not expanded
touch foo
x=*
echo "$x"
echo $x
a=(*)
echo "${a[@]}"

#### glob set -f disables
touch foo
set -f
echo *
set +f
echo *

#### noglob with extglob
shopt -s extglob
touch foo
set -f
echo @(foo)
set +f
echo @(foo)

#### extglob pattern with escaped characters
shopt -s extglob
touch a b 'a b'
echo @(a\|b)
echo @(a|b)
echo @(a\ b)
echo @('a b'|"c")
case 'a|b' in @(a\|b)) echo escaped ;; esac
x=a
case a in @($x|z)) echo variable-in-group ;; esac
case '$x' in @('$x')) echo single-quoted-in-group ;; esac

#### extglob in case with quoted parts
shopt -s extglob
case 'a*' in @(a"*")) echo quoted-star ;; esac
case 'ab' in @(a"*")) echo wrong ;; *) echo right ;; esac

#### extglob empty alternative
shopt -s extglob
for w in "" a b; do
  [[ $w == @(|a) ]] && echo "[$w] @(|a)"
  [[ $w == +(|a) ]] && echo "[$w] +(|a)"
  [[ $w == !(|a) ]] && echo "[$w] !(|a)"
done

#### extglob unclosed group is literal
shopt -s extglob
[[ '@(a' == @\(a ]] && echo one
case '@(a' in '@(a') echo two ;; esac

#### star star in case and double brackets
[[ a/b/c == ** ]] && echo matches-slash
[[ a/b == a*b ]] && echo star-slash
case a/b in a?b) echo question-slash ;; esac

#### nocasematch with extglob negation
shopt -s nocasematch extglob
[[ FOO == !(foo) ]] && echo wrong || echo right
case ABC in !(abc)) echo wrong2 ;; *) echo right2 ;; esac

#### long strings with extglob
shopt -s extglob
s=$(printf 'ab%.0s' {1..200})
[[ $s == +(ab) ]] && echo long-plus
[[ $s == *(a|b|ab) ]] && echo long-star
[[ ${s}c == !(*c) ]] || echo long-neg
echo "${#s}" "${s//+(ab)/x}"

#### shopt extglob state
shopt extglob
shopt -s extglob
shopt extglob
shopt -p extglob
shopt -u extglob
shopt -q extglob; echo $?

#### extglob in case with several patterns and fallthrough
shopt -s extglob
for f in main.go main_test.go README.md Makefile .env; do
  case $f in
    *_test.go) echo "$f: test" ;;
    *.@(go|rs)) echo "$f: source" ;;
    @(README|CHANGELOG)*) echo "$f: doc" ;&
    [[:upper:]]*) echo "$f: capital" ;;
    !(.*)) echo "$f: visible" ;;
    *) echo "$f: hidden" ;;
  esac
done

#### extglob validates numbers and identifiers
shopt -s extglob
for v in 42 -7 +3 3.14 1e5 0x1F "" abc_1 1abc; do
  r=
  [[ $v == ?([-+])+([0-9]) ]] && r+=" int"
  [[ $v == ?([-+])+([0-9]).+([0-9]) ]] && r+=" float"
  [[ $v == 0[xX]+([[:xdigit:]]) ]] && r+=" hex"
  [[ $v == [[:alpha:]_]*([[:alnum:]_]) ]] && r+=" ident"
  echo "[$v]$r"
done

#### extglob strip leading zeros and trailing spaces
shopt -s extglob
n=000120
echo "${n##+(0)}"
s='value   '
echo "[${s%%+( )}]"
p='///a//b//'
echo "${p//+(\/)//}"

#### extglob in array element operations
shopt -s extglob
files=(a.c b.h c.o d.c)
echo "${files[@]/%.@(c|h)/.src}"
echo "${files[@]##*.!(o)}"

#### extglob with star star in case
shopt -s extglob
case a/b/c in
  */*(*/)c) echo yes ;;
esac
case ab in
  **(a)b) echo yes2 ;;
esac

#### extglob at pattern ends with question marks
shopt -s extglob
for w in a ab abc; do
  [[ $w == ??(c) ]] && echo "$w ??(c)"
  [[ $w == ?(a)? ]] && echo "$w ?(a)?"
done

#### extglob group followed by star
shopt -s extglob
for w in x xy xyz y; do
  [[ $w == @(x|y)* ]] && echo "$w @(x|y)*"
  [[ $w == *@(x|y) ]] && echo "$w *@(x|y)"
  [[ $w == !(x)* ]] && echo "$w !(x)*"
done

#### glob sorting is bytewise in C.UTF-8
touch B a A b _x 1 .z
echo *
shopt -s dotglob
echo *

#### glob in a directory with no match and escapes
mkdir -p 'sp ace'
touch 'sp ace/f1' 'sp ace/f2'
echo sp\ ace/*
echo "sp ace"/*
d='sp ace'
echo "$d"/f*
echo $d/f*

#### glob with a trailing slash on files and dirs
mkdir d1 d2
touch f1
echo */
echo d*/
echo f*/

#### glob with dot and dotdot components
mkdir -p x/y
touch x/y/z
echo x/./y/*
echo x/y/../y/*
echo ./x/*/z

#### glob results are not re-expanded
touch 'a$b' ab
echo a*
x='a*'
echo $x

#### nocaseglob with brackets and extglob
shopt -s nocaseglob extglob
touch README.md notes.TXT Data.csv
echo *.txt
echo [rd]*
echo @(readme|data).*

#### globstar with a directory argument and trailing file pattern
shopt -s globstar
mkdir -p src/a/b docs
touch src/x.c src/a/y.c src/a/b/z.c docs/r.md
for f in src/**/*.c; do echo "$f"; done
echo **/*.md
echo src/**/b

#### globstar matches nothing and nullglob
shopt -s globstar nullglob
mkdir e
echo e/** e/**/
echo [e/**/*.x]

#### globstar counts with arrays
shopt -s globstar
mkdir -p a/b/c
touch a/1 a/b/2 a/b/c/3
files=(**)
echo "${#files[@]}"
dirs=(**/)
echo "${#dirs[@]} ${dirs[*]}"

#### dotglob and globstar with hidden directories inside
shopt -s globstar dotglob
mkdir -p p/.h
touch p/.h/x p/y
echo p/**

#### extglob with ls -d and rm
shopt -s extglob
touch a.js b.ts c.json .eslintrc
ls -d !(*.json)
ls -d *.@(js|ts)
rm -v !(*.js)
ls

#### extglob excluding a directory
shopt -s extglob
mkdir -p node_modules/x src
touch src/a.js
echo !(node_modules)
echo !(node_modules)/*

#### extglob trimming needs extglob
shopt -s extglob
v='  a  b  '
echo "[${v##*( )}]" "[${v%%*( )}]"
shopt -u extglob
echo "[${v##*( )}]"

#### extglob into an array with nullglob
shopt -s extglob nullglob
arr=(*.@(png|jpg))
echo "${#arr[@]}"

#### extglob and regex on the same string
shopt -s extglob
str=foo123bar
echo "${str//[^0-9]/}" "${str//+([0-9])}" "${str/#foo/X}"
[[ $str == foo+([0-9])bar ]] && echo m1
[[ $str =~ ^foo[0-9]+bar$ ]] && echo m2

#### globstar with ls
shopt -s globstar
mkdir -p a/b
touch a/b/c.txt a/d.txt
ls **/*.txt
ls -d a/**/

#### extended patterns without extglob are syntax errors
echo before
echo @(a)
echo never

#### extended pattern in case without extglob
case a in
  +(a)) echo y ;;
esac
echo never

#### extglob enabled on the same line is too late
shopt -s extglob; echo @(x)
echo never

#### double brackets need no extglob
[[ a == @(a|b) ]] && echo ok
echo "@(quoted) is fine" '!(x)'
