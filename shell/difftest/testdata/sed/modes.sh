# GNU sed 4.9's modes: --posix and POSIXLY_CORRECT, --sandbox, -z, l
# with COLS and -l, -i and its backups, -u, -s, q/Q exit codes, F, z, W,
# v, and the e command and s///e flag, which run in the sandbox's shell.
# requires: gnu-sed

#### N at end of input prints gnu
printf 'a\nb\nc\n' | sed N

#### N at end of input posix
printf 'a\nb\nc\n' | sed --posix N

#### N at end of input POSIXLY_CORRECT
printf 'a\nb\nc\n' | POSIXLY_CORRECT=1 sed N

#### N at end with -n and p
printf 'a\nb\nc\n' | sed -n 'N;p'

#### N at end posix with $!N idiom
printf 'a\nb\nc\n' | sed --posix '$!N;s/\n/-/'

#### posix refuses one-liner a
echo x | sed --posix 'a foo'
echo "status $?"

#### posix accepts a backslash
echo x | sed --posix 'a\
foo'

#### posix refuses F
echo x | sed --posix F
echo "status $?"

#### posix refuses z
echo x | sed --posix z
echo "status $?"

#### posix refuses Q
echo x | sed --posix Q
echo "status $?"

#### posix refuses T
echo x | sed --posix 's/a/b/;T'
echo "status $?"

#### posix refuses R and W
echo x | sed --posix 'R f'
echo "status $?"
echo x | sed --posix 'W f'
echo "status $?"

#### posix refuses e
echo x | sed --posix 'e'
echo "status $?"

#### posix refuses v
echo x | sed --posix 'v'
echo "status $?"

#### posix refuses L
echo x | sed --posix 'L'
echo "status $?"

#### posix refuses I flag on s
echo x | sed --posix 's/x/y/I'
echo "status $?"

#### posix refuses M flag on s
echo x | sed --posix 's/x/y/M'
echo "status $?"

#### posix refuses address I flag
echo x | sed --posix -n '/x/Ip'
echo "status $?"

#### posix refuses step address
printf '1\n2\n3\n' | sed --posix -n '1~2p'
echo "status $?"

#### posix refuses plus address
printf '1\n2\n3\n' | sed --posix -n '1,+1p'
echo "status $?"

#### posix refuses tilde end address
printf '1\n2\n3\n' | sed --posix -n '1,~2p'
echo "status $?"

#### posix refuses zero address
printf '1\n2\n3\n' | sed --posix -n '0,/2/p'
echo "status $?"

#### posix q with exit code
printf 'a\n' | sed --posix 'q5'
echo "status $?"

#### posix l with length
printf 'abcdef\n' | sed --posix -n 'l 3'
echo "status $?"

#### posix keeps basic regex
printf 'aa+\n' | sed --posix 's/a+/X/'

#### posix escaped plus
printf 'aaa\n' | sed --posix 's/a\+/X/'

#### posix case conversion
echo hello | sed --posix 's/.*/\U&/'

#### posix s flags g p and number
printf 'aaa\n' | sed --posix -n 's/a/b/2p'

#### posix w flag
printf 'a\n' | sed --posix 's/a/b/w out'
cat out

#### posix braces and semicolons
printf 'a\nb\n' | sed --posix -n '/a/{p;p;}'

#### posix hash n
printf 'a\n' | sed --posix '#n
p'

#### POSIXLY_CORRECT keeps extensions
echo x | POSIXLY_CORRECT=1 sed 'a foo'

#### POSIXLY_CORRECT with F
echo x | POSIXLY_CORRECT=1 sed -n F

#### sandbox refuses r
echo x | sed --sandbox 'r foo'
echo "status $?"

#### sandbox refuses w
echo x | sed --sandbox 'w foo'
echo "status $?"

#### sandbox refuses W and R
echo x | sed --sandbox 'W foo'
echo "status $?"
echo x | sed --sandbox 'R foo'
echo "status $?"

#### sandbox refuses e
echo x | sed --sandbox 'e echo hi'
echo "status $?"

#### sandbox refuses s e flag
echo x | sed --sandbox 's/x/echo hi/e'
echo "status $?"

#### sandbox refuses s w flag
echo x | sed --sandbox 's/x/y/w foo'
echo "status $?"

#### sandbox allows the rest
printf 'a\nb\n' | sed --sandbox -n 'h;G;s/\n/-/p'

#### z with M flag anchors
printf 'a\nb\000c\nd\000' | sed -z 's/^/>/Mg' | od -An -c

#### z with M flag dollar
printf 'a\nb\000' | sed -z 's/$/</Mg' | od -An -c

#### z without M flag
printf 'a\nb\000' | sed -z 's/^/>/g;s/$/</g' | od -An -c

#### z with N joins with newline
printf 'a\000b\000' | sed -z 'N;s/\n/+/' | od -An -c

#### z and G
printf 'a\000b\000' | sed -z 'G' | od -An -c

#### z last record without terminator
printf 'a\000b' | sed -z 's/^/>/' | od -An -c

#### z with dollar address
printf 'a\000b\000' | sed -z -n '$p' | od -An -c

#### z with l
printf 'a\nb\000' | sed -z -n 'l' | od -An -c

#### z with equal and i
printf 'a\000' | sed -z '=;i\
x' | od -An -c

#### z with a
printf 'a\000' | sed -z 'a x' | od -An -c

#### M flag caret and dollar
printf 'ab\ncd\n' | sed 'N;s/^c/C/M;s/b$/B/M'

#### M flag buffer anchors
printf 'ab\ncd\n' | sed 'N;s/\`a/A/M;s/d\'"'"'/D/M'

#### M flag dot does not match newline
printf 'ab\ncd\n' | sed -n 'N;s/b.c/X/M;p'

#### without M dot matches newline
printf 'ab\ncd\n' | sed -n 'N;s/b.c/X/;p'

#### address M flag
printf 'ab\ncd\n' | sed -n 'N;/^cd$/Mp'

#### l default wraps at 70
printf '%0100d\n' 0 | sed -n l

#### l with COLS
printf '%050d\n' 0 | COLS=20 sed -n l

#### l with COLS one
printf '%030d\n' 0 | COLS=1 sed -n l

#### l with -l option
printf '%030d\n' 0 | sed -n -l 10 l

#### l with --line-length
printf '%030d\n' 0 | sed -n --line-length=12 l

#### l number overrides -l
printf '%030d\n' 0 | sed -n -l 10 'l 15'

#### l with -l 0
printf '%0100d\n' 0 | sed -n -l 0 l

#### l with COLS and -l
printf '%030d\n' 0 | COLS=20 sed -n -l 8 l

#### invalid -l
sed -l x p
echo "status $?"

#### in place basic
printf 'a\nb\n' > f.txt
sed -i 's/a/A/' f.txt
cat f.txt

#### in place with suffix
printf 'a\n' > f.txt
sed -i.bak 's/a/A/' f.txt
cat f.txt f.txt.bak

#### in place long option with suffix
printf 'a\n' > f.txt
sed --in-place=.orig 's/a/A/' f.txt
cat f.txt f.txt.orig

#### in place star suffix
printf 'a\n' > f.txt
sed -i 'old_*' 's/a/A/' f.txt
ls; cat old_f.txt

#### in place star in directory
mkdir bak
printf 'a\n' > f.txt
sed -i'bak/*.old' 's/a/A/' f.txt
ls bak; cat f.txt bak/f.txt.old

#### in place suffix with slash but no star
mkdir bak
printf 'a\n' > f.txt
sed -i'bak/x' 's/a/A/' f.txt
echo "status $?"
ls

#### in place backup dir missing
printf 'a\n' > f.txt
sed -i'nodir/*' 's/a/A/' f.txt
echo "status $?"
cat f.txt

#### in place several files
printf 'a\n' > 1.txt; printf 'a\nb\n' > 2.txt
sed -i '1s/a/X/;$s/$/!/' 1.txt 2.txt
cat 1.txt 2.txt

#### in place line numbers per file
printf 'a\nb\n' > 1.txt; printf 'c\nd\n' > 2.txt
sed -i '1d' 1.txt 2.txt
cat 1.txt 2.txt

#### in place file named dash
printf 'a\n' > ./-
sed -i 's/a/b/' -
echo "status $?"
cat ./-

#### in place missing file
sed -i 's/a/b/' nosuch.txt
echo "status $?"

#### in place missing and present
printf 'a\n' > f.txt
sed -i 's/a/b/' nosuch.txt f.txt
echo "status $?"
cat f.txt

#### in place with no files
sed -i 's/a/b/'
echo "status $?"

#### in place with -n and p
printf 'a\nb\n' > f.txt
sed -n -i '2p' f.txt
cat f.txt

#### in place with q
printf 'a\nb\nc\n' > f.txt
sed -i 2q f.txt
cat f.txt

#### in place with w stdout
printf 'a\nb\n' > f.txt
sed -i 's/a/X/w /dev/stdout' f.txt
cat f.txt

#### in place separate combined flags
printf 'a\n' > f.txt
sed -ni p f.txt
cat f.txt

#### in place -i then -e
printf 'a\n' > f.txt
sed -i -e 's/a/b/' f.txt
cat f.txt

#### in place -s and F
printf 'a\n' > 1.txt; printf 'b\n' > 2.txt
sed -i F 1.txt 2.txt
cat 1.txt 2.txt

#### in place directory
mkdir d
sed -i p d
echo "status $?"

#### in place keeps missing final newline
printf 'a\nb' > f.txt
sed -i 's/b/B/' f.txt
od -An -c f.txt

#### in place with r
printf 'R\n' > r.txt
printf 'a\nb\n' > f.txt
sed -i '1r r.txt' f.txt
cat f.txt

#### unbuffered
printf 'a\nb\n' | sed -u p

#### separate with dollar and 0r
printf 'H\n' > h.txt
printf 'a\n' > 1.txt; printf 'b\n' > 2.txt
sed -s -e '0r h.txt' -e '$a end' 1.txt 2.txt

#### q exit code and autoprint
printf 'a\nb\n' | sed '1q9'
echo "status $?"

#### Q exit code no print
printf 'a\nb\n' | sed '1Q9'
echo "status $?"

#### q prints append queue
printf 'a\nb\n' | sed '1{a after
q}'

#### Q drops append queue
printf 'a\nb\n' | sed '1{a after
Q}'

#### q exit code 256 wraps
printf 'a\n' | sed 'q256'
echo "status $?"

#### q with -n
printf 'a\nb\n' | sed -n '2q;p'

#### q with -i
printf 'a\nb\nc\n' > f.txt
sed -i '2q' f.txt; cat f.txt

#### F on file and stdin
printf 'x\n' > f.txt
printf 'y\n' | sed F f.txt -

#### F with -s
printf 'x\n' > f.txt; printf 'y\n' > g.txt
sed -s -n '$F' f.txt g.txt

#### z empties pattern space
printf 'abc\n' | sed 'z;s/^$/empty/'

#### W writes first line
printf 'a\nb\n' | sed -n 'N;W out'
cat out

#### w to dev stdout
printf 'a\nb\n' | sed -n 'w /dev/stdout'

#### w to dev stderr
printf 'a\n' | sed -n 'w /dev/stderr' 2>&1

#### w same file twice
printf 'a\nb\n' | sed -n -e '1w out' -e '2w out'
cat out

#### w file created even if unused
printf 'a\n' | sed -n '5w out'
ls

#### v with version
echo x | sed 'v 4.2'

#### e command
echo x | sed 'e echo hello'

#### e command output order
printf 'a\nb\n' | sed '2e echo mid'

#### e without argument runs pattern space
printf 'echo one\necho two\n' | sed 'e'

#### e without argument strips one newline
printf 'printf "a\\n\\n"\n' | sed 'e' | od -An -c

#### e with -n
echo 'echo hi' | sed -n 'e
p'

#### e command status ignored
echo x | sed 'e false'
echo "status $?"

#### e command uses shell features
echo x | sed 'e for i in 1 2; do echo $i; done'

#### e command reads no sed input
printf 'a\nb\n' | sed '1e cat'

#### e command writes stderr
echo x | sed 'e echo err >&2' 2>&1

#### s e flag
echo 'x' | sed 's/x/echo hi/e'

#### s e flag with groups
echo 'world' | sed 's/\(.*\)/echo hello \1/e'

#### s e flag not matching does nothing
echo 'abc' | sed 's/x/echo hi/e'

#### s e flag with g and p
echo 'a a' | sed -n 's/a/echo/gep'

#### s e flag command not found
echo x | sed 's/x/nosuchcommand_xyz/e' 2>/dev/null
echo "status $?"

#### e command with file
printf 'data\n' > d.txt
echo x | sed '1e cat d.txt'

#### e then i ordering
echo x | sed -e 'i before' -e 'e echo exec'

#### e command with address range
printf '1\n2\n3\n' | sed '2,3e echo E'

#### unknown command after mode flags
echo x | sed --posix -n 'k'
echo "status $?"

#### debug option accepted
echo x | sed --debug -n p >/dev/null
echo "status $?"

#### follow symlinks accepted
printf 'a\n' > f.txt
sed --follow-symlinks -n p f.txt

#### null data long option
printf 'a\000b\000' | sed --null-data 's/^/>/' | od -An -c

#### zero terminated long option
printf 'a\000b\000' | sed --zero-terminated -n 1p | od -An -c

#### separate long option
printf 'a\n' > 1.txt; printf 'b\n' > 2.txt
sed --separate -n 1p 1.txt 2.txt

#### help to stdout
sed --help | head -3
echo "status $?"

#### z idiom join all lines
printf 'a\nb\nc\n' | sed -z 's/\n/,/g'

#### z idiom strip final newline
printf 'a\nb\n' | sed -z 's/\n$//' | od -An -c

#### l boundary 68
printf '%068d\n' 0 | sed -n l

#### l boundary 69
printf '%069d\n' 0 | sed -n l

#### l boundary 70
printf '%070d\n' 0 | sed -n l

#### l boundary escape straddles
printf '%067d\001\n' 0 | sed -n l

#### l with newline in pattern space
printf 'a\nb\n' | sed -n 'N;l'

#### l 2
printf 'abc\n' | sed -n 'l 2'

#### l then autoprint
printf 'a\tb\n' | sed l

#### l with -z
printf 'a\nb\000' | sed -z -n l | od -An -c

#### r dev stdin
printf 'x\ny\n' > f.txt
printf 'in1\nin2\n' | sed '1r /dev/stdin' f.txt

#### R dev stdin
printf 'x\ny\n' > f.txt
printf 'in1\nin2\n' | sed 'R /dev/stdin' f.txt

#### w dev stdout ordering
printf 'a\nb\n' | sed 'w /dev/stdout'

#### W dev stderr
printf 'a\nb\n' | sed -n 'N;W /dev/stderr' 2>&1

#### in place with w file
printf 'a\nb\n' > f.txt
sed -i -n '/a/w out' f.txt
cat out; od -An -c f.txt

#### in place Q exit code
printf 'a\nb\n' > f.txt
sed -i '2Q3' f.txt
echo "status $?"; cat f.txt

#### in place with hold across files
printf 'a\n' > 1.txt; printf 'b\n' > 2.txt
sed -i 'x' 1.txt 2.txt
od -An -c 1.txt; od -An -c 2.txt

#### posix with -E
echo 'aaa' | sed --posix -E 's/a+/X/'

#### posix word escape literal
echo 'w ab' | sed --posix 's/\w/X/'

#### posix n at end still prints
printf 'a\n' | sed --posix 'n'

#### POSIXLY_CORRECT N with -n and p
printf 'a\nb\nc\n' | POSIXLY_CORRECT=1 sed -n '$!N;p'

#### sandbox with 0r
echo x | sed --sandbox '0r foo'
echo "status $?"

#### q exit code with append and -n
printf 'a\n' | sed -n 'a x
q2'
echo "status $?"

#### Q in middle of range
printf '1\n2\n3\n' | sed '2Q'

#### e command with special characters
echo x | sed 'e printf "%s\n" "a b"'

#### s e flag multiline output
echo 'x' | sed 's/x/printf "1\\n2\\n"/e'

#### e command in -n with p
printf 'a\n' | sed -n 'e echo E
p'

#### unbuffered with q
printf 'a\nb\n' | sed -u 1q

#### separate with q stops all files
printf 'a\n' > 1.txt; printf 'b\n' > 2.txt
sed -s 1q 1.txt 2.txt

#### F in -i
printf 'a\n' > f.txt
sed -i F f.txt; cat f.txt

#### equals with -s
printf 'a\n' > 1.txt; printf 'b\n' > 2.txt
sed -s = 1.txt 2.txt

#### -Ei is extended and in place
printf 'aa\n' > f.txt
sed -Ei 's/a+/X/' f.txt
ls; cat f.txt

#### -iE is a suffix
printf 'aa\n' > f.txt
sed -iE 's/a/X/' f.txt
ls; cat f.txt fE.txt f.txtE 2>/dev/null

#### -in is a suffix not quiet
printf 'a\n' > f.txt
sed -in p f.txt
ls; cat f.txt

#### -ni is quiet in place
printf 'a\n' > f.txt
sed -ni p f.txt
ls; cat f.txt

#### in place suffix without dot
printf 'a\n' > f.txt
sed --in-place=bak 's/a/b/' f.txt
ls; cat f.txtbak

#### in place backups for several files
printf 'a\n' > 1.txt; printf 'b\n' > 2.txt
sed -i.orig 's/^/>/' 1.txt 2.txt
ls; cat 1.txt 2.txt 1.txt.orig 2.txt.orig

#### in place several stars
printf 'a\n' > f.txt
sed -i '*-*.bak' 's/a/b/' f.txt
ls

#### in place with -z
printf 'a\000b\000' > f.txt
sed -z -i 's/^/>/' f.txt
od -An -c f.txt

#### in place with -s explicit and 0r
printf 'H\n' > h.txt
printf 'a\n' > 1.txt; printf 'b\n' > 2.txt
sed -s -i '0r h.txt' 1.txt 2.txt
cat 1.txt 2.txt

#### -l attached
printf '%020d\n' 0 | sed -nl8 l

#### -sn combined
printf 'a\nb\n' > 1.txt; printf 'c\n' > 2.txt
sed -sn '$p' 1.txt 2.txt

#### several expression options
printf 'a\n' | sed --expression=p --expression='s/a/b/'

#### -f and -e order
printf 's/a/b/\n' > s.sed
printf 'a\n' | sed -e 's/a/c/' -f s.sed

#### -E after script
printf 'aa\n' | sed 's/a+/X/' -E

#### -- then script
printf 'a\n' | sed -- p

#### POSIXLY_CORRECT option order
printf 'a\n' > f.txt
POSIXLY_CORRECT=1 sed p f.txt -n
echo "status $?"

#### w file with -i several files
printf 'a\n' > 1.txt; printf 'b\n' > 2.txt
sed -i 'w all.txt' 1.txt 2.txt
cat all.txt

#### posix and GNU range zero refused with number
printf '1\n2\n' | sed --posix -n '0~1p'
echo "status $?"

#### posix c text
printf 'a\nb\n' | sed --posix '1c\
X'

#### posix y
printf 'ab\n' | sed --posix 'y/ab/ba/'

#### posix special replacement newline
printf 'a b\n' | sed --posix 's/ /\n/'

#### posix with braces and labels
printf 'aaa\n' | sed --posix ':a
s/a/b/
ta'

#### in place file in subdirectory with suffix
mkdir sub
printf 'a\n' > sub/f.txt
sed -i.bak 's/a/b/' sub/f.txt
ls sub

#### in place file in subdirectory with star suffix
mkdir sub
printf 'a\n' > sub/f.txt
sed -i 'old_*' 's/a/b/' sub/f.txt
ls . sub

#### in place file in subdirectory with slash star suffix
mkdir sub bak
printf 'a\n' > sub/f.txt
sed -i 'bak/*' 's/a/b/' sub/f.txt
ls bak sub

#### in place empty file
: > f.txt
sed -i 's/a/b/' f.txt
echo "status $?"; od -An -c f.txt

#### in place 0r into empty file
printf 'H\n' > h.txt
: > f.txt
sed -i '0r h.txt' f.txt
od -An -c f.txt

#### in place append at end of file
printf 'a\n' > f.txt
sed -i '$a end' f.txt
cat f.txt

#### in place abbreviated long option
printf 'a\n' > f.txt
sed --in=.b 's/a/b/' f.txt
sed --i 's/b/c/' f.txt
ls; cat f.txt

#### posix regex escapes
for s in 's/a\|b/x/g' 's/\t/T/' 's/\d097/D/' 's/\x61/X/' 's/\ca/C/' 's/a/\x41/' 's/\w/W/' 's/a\?/Q/' 's/\`a/S/' 's/a\+/P/' 's/\bb/B/'; do
  printf '%s: ' "$s"; printf 'a|b\tc w\n' | sed --posix "$s" 2>&1
done

#### posix ere operators kept
printf 'aab|c\n' | sed --posix -E 's/a+|c/X/g;s/b?\|/Y/'
