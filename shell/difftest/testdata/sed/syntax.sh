# GNU sed 4.9's script syntax: script files (CRLF too), labels, addresses
# (0, first~step, +N, ~N, 0,/re/), #n, blocks, the a/i/c text forms, -e
# pieces, -s, -n, and the exact messages for scripts it refuses.
# requires: gnu-sed

#### crlf script file
printf 's/a/b/\r\np\r\n' > s.sed
printf 'a\n' | sed -f s.sed

#### crlf script file with label
printf ':x\r\ns/a/b/\r\ntx\r\n' > s.sed
printf 'aaa\n' | sed -f s.sed

#### crlf script file with a text
printf '1a\\\r\nadded\r\n' > s.sed
printf 'x\n' | sed -f s.sed | od -An -c

#### crlf script with y
printf 'y/ab/xy/\r\n' > s.sed
echo abc | sed -f s.sed

#### script file without trailing newline
printf 's/a/b/' > s.sed
echo a | sed -f s.sed

#### script file with comments and blanks
printf '# comment\n\n  s/a/b/  # trailing\n\n' > s.sed
echo a | sed -f s.sed

#### script file and -e
printf 's/a/b/\n' > s.sed
echo ac | sed -f s.sed -e 's/c/d/'

#### script from stdin file dash
echo 's/a/b/' > s.sed
echo a > in.txt
sed -f - in.txt < s.sed

#### missing script file
sed -f nosuch.sed
echo "status $?"

#### hash n first line
printf '#n\np\n' > s.sed
printf 'a\nb\n' | sed -f s.sed

#### hash n in -e
printf 'a\nb\n' | sed -e '#n' -e 2p

#### hash n one expression
printf 'a\nb\n' | sed '#n
2p'

#### hash n followed by text is a comment
printf 'a\nb\n' | sed '#no
2p'

#### hash n not first line
printf 'a\nb\n' | sed 'p
#n'

#### hash n with space
printf 'a\n' | sed '#n p'

#### hash n second -e
printf 'a\n' | sed -e p -e '#n'

#### label ended by semicolon
printf 'aaa\n' | sed ':a;s/a/b/;ta'

#### label with space before
printf 'aaa\n' | sed ': a;s/a/b/;t a'

#### branch label ended by semicolon
printf 'a\nb\n' | sed -n '/a/b skip;p;:skip'

#### branch label ended by closing brace
printf 'a\nb\n' | sed -n '/a/{b end};p;:end'
echo "status $?"

#### branch label in block with semicolon
printf 'a\nb\n' | sed -n '/a/{s/a/A/;b end;};p;:end
p'

#### label then comment
printf 'aa\n' | sed ':a#c
s/a/b/;ta'
echo "status $?"

#### label with trailing spaces
printf 'aa\n' | sed ':a  
s/a/b/;ta'

#### branch to end
printf 'a\nb\n' | sed 'b;s/a/X/'

#### branch with empty label and semicolon
printf 'a\n' | sed 'b ; s/a/X/'

#### t with no label
printf 'a\nb\n' | sed 's/a/A/;t;s/$/!/'

#### T command
printf 'a\nb\n' | sed 's/a/A/;T;s/$/!/'

#### missing label
echo a | sed 'b nowhere'
echo "status $?"

#### colon without label
echo a | sed ':'
echo "status $?"

#### colon with address
echo a | sed '1:a'
echo "status $?"

#### duplicate label
echo a | sed ':a;:a'
echo "status $?"

#### zero r file
printf 'head\n' > h.txt
printf 'a\nb\n' | sed '0r h.txt'

#### zero r missing file
printf 'a\n' | sed '0r nosuch'

#### r at last line
printf 'x\n' > r.txt
printf 'a\nb\n' | sed '$r r.txt'

#### r without newline at end of file
printf 'x' > r.txt
printf 'a\nb\n' | sed 'r r.txt'

#### R lines in turn
printf '1\n2\n' > r.txt
printf 'a\nb\nc\n' | sed 'R r.txt'

#### zero address invalid for p
printf 'a\n' | sed -n '0p'
echo "status $?"

#### zero comma line invalid
printf 'a\n' | sed -n '0,2p'
echo "status $?"

#### zero comma regex
printf 'x\na\nx\n' | sed -n '0,/x/p'

#### one comma regex
printf 'x\na\nx\n' | sed -n '1,/x/p'

#### zero step
printf '1\n2\n3\n4\n5\n6\n7\n' | sed -n '0~3p'

#### first step
printf '1\n2\n3\n4\n5\n6\n7\n' | sed -n '1~2p'

#### step zero
printf '1\n2\n3\n' | sed -n '2~0p'

#### first step with negation
printf '1\n2\n3\n4\n' | sed '1~2!d'

#### step as range end
printf '1\n2\n3\n4\n5\n6\n7\n8\n' | sed -n '2,~4p'

#### multiple range end already past
printf '1\n2\n3\n4\n5\n6\n7\n8\n' | sed -n '4,~4p'

#### plus range
printf '1\n2\n3\n4\n5\n6\n' | sed -n '/2/,+2p'

#### plus zero range
printf '1\n2\n3\n' | sed -n '/2/,+0p'

#### plus range repeats
printf 'a\nx\nx\na\nx\nx\nx\n' | sed -n '/a/,+1p'

#### regex range
printf '1\nstart\n2\nend\n3\nstart\n4\n' | sed -n '/start/,/end/p'

#### line range backwards
printf '1\n2\n3\n4\n' | sed -n '3,1p'

#### regex to line already passed
printf 'a\nb\nc\nd\n' | sed -n '/c/,2p'

#### dollar address
printf 'a\nb\n' | sed -n '$p'

#### dollar with several files
printf 'a\n' > 1.txt; printf 'b\n' > 2.txt
sed -n '$p' 1.txt 2.txt

#### dollar with -s
printf 'a\n' > 1.txt; printf 'b\n' > 2.txt
sed -s -n '$p' 1.txt 2.txt

#### line numbers continue across files
printf 'a\nb\n' > 1.txt; printf 'c\n' > 2.txt
sed -n '=' 1.txt 2.txt

#### -s restarts line numbers
printf 'a\nb\n' > 1.txt; printf 'c\n' > 2.txt
sed -s -n '1p' 1.txt 2.txt

#### -s with F
printf 'a\n' > 1.txt; printf 'b\n' > 2.txt
sed -s '1F' 1.txt 2.txt

#### address with spaces
printf 'a\nb\nc\n' | sed -n '1 , 2 p'

#### negation with spaces
printf 'a\nb\n' | sed -n '1 ! p'

#### multiple negation
printf 'a\nb\n' | sed -n '1!!p'
echo "status $?"

#### block
printf 'a\nb\n' | sed -n '/a/{p;p}'

#### nested blocks
printf 'a1\na2\nb1\n' | sed -n '/a/{/1/{s/a/A/;p}}'

#### block with semicolon before brace
printf 'a\n' | sed '{s/a/b/;}'

#### block closing then command
printf 'a\n' | sed '{s/a/b/};s/b/c/'

#### block on separate lines
printf 'a\nb\n' | sed -n '/a/{
p
s/a/A/p
}'

#### empty block
printf 'a\n' | sed '{}'

#### empty block with negation
printf 'a\nb\n' | sed '1!{}'

#### block with range
printf '1\n2\n3\n4\n' | sed '2,3{s/^/>/}'

#### unmatched open brace
echo a | sed '{p'
echo "status $?"

#### unexpected close brace
echo a | sed 'p}'
echo "status $?"

#### close brace alone
echo a | sed '}'
echo "status $?"

#### close brace with address
echo a | sed '{p;1}'
echo "status $?"

#### extra characters after command
echo a | sed 'px'
echo "status $?"

#### extra characters after d
echo a | sed 'd d'
echo "status $?"

#### unknown command
echo a | sed 'k'
echo "status $?"

#### missing command
echo a | sed '1'
echo "status $?"

#### missing command after negation
echo a | sed '1!'
echo "status $?"

#### unexpected comma
echo a | sed ',p'
echo "status $?"

#### comma without second address
echo a | sed '1,p'
echo "status $?"

#### command only one address
echo a | sed '1,2='
echo "status $?"

#### q with two addresses
echo a | sed '1,2q'
echo "status $?"

#### i with two addresses
printf 'a\nb\n' | sed '1,2i\
X'

#### r with two addresses
printf 'x\n' > r.txt
printf 'a\nb\n' | sed '1,2r r.txt'

#### unterminated s
echo a | sed 's/a/b'
echo "status $?"

#### unknown option to s
echo a | sed 's/a/b/z'
echo "status $?"

#### multiple g
echo a | sed 's/a/b/gg'
echo "status $?"

#### multiple p
echo a | sed 's/a/b/pp'
echo "status $?"

#### unterminated address regex
echo a | sed '/a'
echo "status $?"

#### unterminated y
echo a | sed 'y/a/'
echo "status $?"

#### expected newer version
echo a | sed 'v 9.0'
echo "status $?"

#### v command accepted
echo a | sed 'v 4.2'
echo "status $?"

#### v without version
echo a | sed 'v;p'

#### comments with address
echo a | sed '1#foo'
echo "status $?"

#### error position in second expression
echo a | sed -e p -e 'k'
echo "status $?"

#### error position in script file
printf 'p\n\nk\n' > s.sed
echo a | sed -f s.sed
echo "status $?"

#### a one liner
printf 'x\ny\n' | sed '1a hello'

#### a one liner leading whitespace stripped
printf 'x\n' | sed 'a     hello'

#### a backslash newline text
printf 'x\n' | sed 'a\
hello'

#### a backslash newline keeps leading spaces
printf 'x\n' | sed 'a\
   hello'

#### a backslash text same line
printf 'x\n' | sed 'a\hello'

#### a multi line text
printf 'x\n' | sed 'a\
one\
two'

#### a text then next command
printf 'x\n' | sed 'a\
one
s/x/X/'

#### a in -e joined with next -e
printf 'x\n' | sed -e 'a\' -e 'hello'

#### a one liner then -e command
printf 'x\n' | sed -e 'a hello' -e 's/x/X/'

#### a with semicolon in text
printf 'x\n' | sed 'a one; two'

#### a with brace in text
printf 'x\n' | sed '1{a foo }
}'

#### a empty text
printf 'x\n' | sed 'a'
echo "status $?"

#### a backslash only
printf 'x\n' | sed 'a\'
echo "status $?"

#### i one liner
printf 'x\ny\n' | sed '2i hello'

#### i multi line
printf 'x\n' | sed 'i\
one\
two'

#### c one liner
printf 'x\ny\n' | sed '1c changed'

#### c on range
printf '1\n2\n3\n4\n' | sed '2,3c\
changed'

#### c on negated range
printf '1\n2\n3\n' | sed '2!c X'

#### c in block on range
printf '1\n2\n3\n' | sed '1,2{c X
}'

#### a i c order
printf 'x\n' | sed -e 'a after' -e 'i before'

#### a then n
printf 'a\nb\n' | sed '1{a text
n}'

#### i before d
printf 'a\nb\n' | sed '1{i ins
d}'

#### a with trailing backslash continuation at end
printf 'x\n' | sed 'a foo\
bar'

#### a with escaped backslash at end
printf 'x\n' | sed 'a foo\\'

#### e pieces joined by newline
printf 'a\n' | sed -e 's/a/b/' -e 's/b/c/'

#### s replacement continued across -e
printf 'a\n' | sed -e 's/a/x\' -e 'y/'

#### -n option
printf 'a\nb\n' | sed -n 1p

#### --quiet and --silent
printf 'a\nb\n' | sed --quiet 1p; printf 'a\nb\n' | sed --silent 2p

#### --expression option
printf 'a\n' | sed --expression=p

#### --expression separate arg
printf 'a\n' | sed --expression p

#### -e attached
printf 'a\n' | sed -ep

#### -ne combined
printf 'a\nb\n' | sed -ne 2p

#### -n after script
printf 'a\nb\n' | sed 2p -n

#### double dash
printf 'a\n' > -n
sed p -- -n

#### unknown option
sed -k p
echo "status $?"

#### unknown long option
sed --frobnicate p
echo "status $?"

#### missing script
sed
echo "status $?"

#### -e missing argument
sed -e
echo "status $?"

#### missing input file
sed p nosuch.txt
echo "status $?"

#### missing input among others
printf 'a\n' > a.txt
sed p nosuch.txt a.txt
echo "status $?"

#### input is a directory
mkdir d
sed p d
echo "status $?"

#### stdin as dash
printf 'a\n' | sed p -

#### --version first line
sed --version | head -1

#### -E and -r same
printf 'aa\n' | sed -E 's/a+/X/'; printf 'aa\n' | sed -r 's/a+/X/'; printf 'aa\n' | sed --regexp-extended 's/a+/X/'

#### semicolons and spaces between commands
printf 'a\n' | sed ' ; ; p ; ; '

#### newlines between commands
printf 'a\n' | sed '

p

'

#### s flags then semicolon with spaces
printf 'aa\n' | sed 's/a/b/g ; s/b/c/'

#### s with w flag then newline
printf 'a\n' | sed 's/a/b/w out
p'
cat out

#### w file name to end of line
printf 'a\n' | sed 'w out ; p'
ls

#### y then semicolon
printf 'ab\n' | sed 'y/ab/ba/;p'

#### q with exit code
printf 'a\nb\n' | sed '1q5'
echo "status $?"

#### q with space exit code
printf 'a\nb\n' | sed '1q 3'
echo "status $?"

#### Q with exit code
printf 'a\nb\n' | sed '1Q7'
echo "status $?"

#### l with number
printf 'abcdefghij\n' | sed -n 'l 5'

#### equals with range
printf 'a\nb\nc\n' | sed -n '2,$='

#### address regex with I and M
printf 'A\nb\n' | sed -n '/a/I{p}'

#### address regex flags with space before command
printf 'A\nb\n' | sed -n '/a/I p'

#### s with M flag
printf 'a\nb\n' | sed 'N;s/^/>/Mg'

#### s with m flag lower
printf 'a\nb\n' | sed 'N;s/$/</mg'

#### s with e flag refused in sandbox check
echo 'echo hi' | sed 's/x/y/e'

#### in-line comment after s
printf 'a\n' | sed 's/a/b/ # comment'

#### in-line comment after brace
printf 'a\n' | sed '{ # comment
p
}'

#### F command
printf 'a\n' > f.txt
sed F f.txt

#### F on stdin
printf 'a\n' | sed F

#### z command
printf 'a\nb\n' | sed 'z;s/^$/empty/'

#### equals on last line of several files
printf 'a\n' > 1.txt; printf 'b\nc\n' > 2.txt
sed -n '$=' 1.txt 2.txt

#### line number beyond file
printf 'a\nb\n' | sed -n '5p'

#### huge line number
printf 'a\n' | sed -n '99999999999999999999p'
echo "status $?"

#### range line to regex not found
printf 'a\nb\nc\n' | sed -n '2,/zzz/p'

#### regex range restarts
printf 's\ne\ns\nx\ne\n' | sed -n '/s/,/e/{=;}'

#### D restarts without reading
printf 'a\nb\nc\n' | sed -n 'N;l;D'

#### G on empty hold
printf 'a\nb\n' | sed G

#### x on first line
printf 'a\nb\n' | sed x

#### n at last line prints
printf 'a\n' | sed 'n;d'

#### N at last line prints gnu
printf 'a\nb\nc\n' | sed 'N;s/\n/-/'

#### a r and = ordering
printf 'x\n' > r.txt
printf 'a\n' | sed -e 'r r.txt' -e 'a text' -e '='

#### classic number lines
printf 'a\nb\n' | sed = | sed 'N;s/\n/ /'

#### delete blank lines
printf 'a\n\nb\n\n' | sed '/^$/d'

#### print second line and quit
printf 'a\nb\nc\n' | sed -n '2{p;q}'

#### delete all but last
printf 'a\nb\nc\n' | sed '$!d'

#### reverse lines
printf 'a\nb\nc\n' | sed -n '1!G;h;$p'

#### join lines with backslash
printf 'a\\\nb\nc\n' | sed -e :a -e '/\\$/N; s/\\\n//; ta'

#### tac with x and h
printf '1\n2\n3\n' | sed '1!G;h;$!d'

#### s in block with label
printf 'a b c\n' | sed ':x;{s/ /_/;tx}'

#### label with semicolon and spaces before
printf 'ab\n' | sed -e ':top' -e 's/a/x/;t top'

#### branch inside nested block to outer label
printf 'a\nb\n' | sed -n '{/a/{b done};p;:done}'
echo "status $?"

#### t resets flag per line
printf 'a\nb\n' | sed 's/a/A/;ta;s/$/-/;:a'

#### a i c with address ranges and regex
printf 'a\nb\nc\n' | sed '/b/i\
before b'

#### c with -n
printf 'a\nb\n' | sed -n '1c X'

#### c in middle of range with negation
printf '1\n2\n3\n' | sed '1,2!c X'

#### a then r then a order
printf 'R\n' > r.txt
printf 'x\n' | sed -e 'a one' -e 'r r.txt' -e 'a two'

#### i with leading whitespace continuation lines
printf 'x\n' | sed 'i\
  one\
  two'

#### a one liner backslash then spaces
printf 'x\n' | sed 'a\  two spaces'

#### a gnu one liner in block
printf 'x\ny\n' | sed '/x/{a after x
}'

#### s flags order mixed
printf 'aAa\n' | sed -n 's/a/b/Igp'

#### s flag number and I
printf 'aAa\n' | sed 's/a/b/2I'

#### s w flag with /dev/stdout
printf 'a\nb\n' | sed 's/a/X/w /dev/stdout'

#### y with brace after
printf 'ab\n' | sed '{y/ab/ba/}'

#### comment after label
printf 'a\n' | sed -n ':a # comment
p'

#### empty regex address range
printf 'a\nb\na\n' | sed -n '/a/,//p'

#### address step with range
printf '1\n2\n3\n4\n5\n6\n' | sed -n '2~2,+0p'

#### first line step from zero with negation
printf '1\n2\n3\n4\n' | sed '0~2!d'

#### dollar negated
printf 'a\nb\n' | sed '$!s/$/,/'

#### range starting at dollar
printf 'a\nb\n' | sed -n '$,/x/p'

#### range with same line regex end
printf 'ab\nc\nab\n' | sed -n '/a/,/b/p'

#### range line to smaller line
printf '1\n2\n3\n' | sed -n '2,1p'

#### zero regex range matches first line
printf 'x\ny\nx\n' | sed '0,/x/s/x/X/'

#### one regex range skips first line
printf 'x\ny\nx\n' | sed '1,/x/s/x/X/'

#### q in block with print
printf 'a\nb\n' | sed -n '/a/{p;q}'

#### unknown command with address
echo a | sed '1k'
echo "status $?"

#### missing filename for r
echo a | sed 'r'
echo "status $?"

#### missing filename for w
echo a | sed 'w'
echo "status $?"

#### y strings unequal with escapes
echo a | sed 'y/a\n/b/'
echo "status $?"

#### unknown option to s with space
echo a | sed 's/a/b/ g'
echo "status $?"

#### s number then w
printf 'aa\n' | sed -n 's/a/b/2w out'
cat out

#### semicolon after brace open
printf 'a\n' | sed '{;p}'

#### command after closing brace without separator
printf 'a\n' | sed '{p}p'

#### invalid line address zero alone
echo a | sed '0d'
echo "status $?"

#### invalid zero step second address
printf '1\n2\n' | sed -n '1,0p'
echo "status $?"

#### range regex then plus
printf 'a\nb\nc\nd\n' | sed -n '/b/,+5p'

#### comment inside a text
printf 'x\n' | sed 'a hello # not a comment'

#### semicolon in a text of -e
printf 'x\n' | sed -e 'a one;two' -e 'p'

#### i at end of script
printf 'x\n' | sed 'i\'
echo "status $?"

#### multiple -f files
printf 's/a/b/\n' > 1.sed; printf 's/b/c/\n' > 2.sed
echo a | sed -f 1.sed -f 2.sed

#### -f file with a text spanning lines
printf '1a\\\nfoo\\\nbar\n' > s.sed
echo x | sed -f s.sed

#### -s with w
printf 'a\n' > 1.txt; printf 'b\n' > 2.txt
sed -s -n 'w out' 1.txt 2.txt; cat out

#### N on last line of first file with -s
printf 'a\n' > 1.txt; printf 'b\nc\n' > 2.txt
sed -s 'N;s/\n/+/' 1.txt 2.txt

#### hold space kept across files
printf 'a\n' > 1.txt; printf 'b\n' > 2.txt
sed -n 'H;${x;s/\n/,/g;p}' 1.txt 2.txt

#### command endings with closing brace
printf 'a\n' | sed -n '{p}'; printf 'a\n' | sed -n '{l}'; printf 'a\n' | sed -n '{l 3}'; printf 'a\n' | sed -n '{=}'; printf 'a\n' | sed '{y/a/b/}'; printf 'a\n' | sed '{q}'; printf 'a\n' | sed '{q5}'; echo "status $?"

#### command endings with hash
printf 'a\n' | sed -n 'p#c'; printf 'a\n' | sed -n 'l#c'; printf 'a\n' | sed 'y/a/b/#c'; printf 'a\n' | sed 's/a/b/#c'; printf 'a\n' | sed 'q#c'; printf 'a\n' | sed -n '=#c'

#### command endings with spaces and semicolon
printf 'a\n' | sed -n 'p ; p'; printf 'a\n' | sed 'y/a/b/ ; p'; printf 'a\n' | sed -n 'l 2 ; p'

#### branch endings
printf 'a\n' | sed -n '{b};p'; printf 'a\n' | sed -n '{ba};:a;p'; printf 'a\n' | sed -n 's/a/b/;{t};p'; printf 'a\n' | sed -n '{T};p'

#### b label followed by hash
printf 'a\n' | sed -n 'bx#c
p;:x'

#### error incomplete y
echo a | sed 'y'
echo "status $?"

#### error y missing third delimiter
echo a | sed 'y/a/b'
echo "status $?"

#### error s missing all
echo a | sed 's'
echo "status $?"

#### error number zero option
echo a | sed 's/a/b/0'
echo "status $?"

#### error unknown command newline
echo a | sed '1
p'
echo "status $?"

#### error address then brace close
echo a | sed '1}'
echo "status $?"

#### error multibyte delimiter
echo a | sed 's€a€b€'
echo "status $?"

#### error multibyte y delimiter
echo a | sed 'y€a€b€'
echo "status $?"

#### error regex too big interval
echo a | sed 's/a\{32768\}//'
echo "status $?"

#### error invalid interval content
echo a | sed 's/a\{x\}//'
echo "status $?"

#### error unmatched interval
echo a | sed 's/a\{1//'
echo "status $?"

#### error invalid preceding regex
echo a | sed 's/\{1\}//'
echo "status $?"

#### error unmatched paren bre
echo a | sed 's/\(a//'
echo "status $?"

#### error unmatched paren ere
echo a | sed -E 's/(a//'
echo "status $?"

#### error unmatched close paren bre
echo a | sed 's/a\)//'
echo "status $?"

#### ere unmatched close paren literal
echo 'a)' | sed -E 's/a)/X/'
echo "status $?"

#### error unmatched bracket
echo a | sed 's/[a//'
echo "status $?"

#### error invalid class
echo a | sed 's/[[:foo:]]//'
echo "status $?"

#### error invalid range end
echo a | sed 's/[z-a]//'
echo "status $?"

#### error trailing backslash
echo a | sed 's/a\\\\\\/b/'
echo "status $?"

#### error unknown command hash address
echo a | sed '/a/#x'
echo "status $?"

#### error in third expression
echo a | sed -e p -e p -e 's/a'
echo "status $?"

#### error in file second line position
printf 'p\ns/a/b/q\n' > s.sed
echo a | sed -f s.sed
echo "status $?"

#### error label in file missing
printf 'b foo\n' > s.sed
echo a | sed -f s.sed
echo "status $?"

#### error unmatched brace in file
printf '{\np\n' > s.sed
echo a | sed -f s.sed
echo "status $?"

#### error extra after brace address flags
echo a | sed '/a/Iz'
echo "status $?"

#### numbered substitution star empty match
printf 'z\n' | sed 's/a*/b/2'

#### numbered substitution anchored
printf 'aaa\n' | sed 's/^a*/b/2'

#### numbered substitution anchored with p
printf 'aaa\n' | sed -n 's/^a*/b/2p'

#### numbered substitution third empty
printf 'baaac\n' | sed 's/a*/x/3'

#### global star on several strings
printf '\nb\nbc\nbac\nbaac\nbaaac\n' | sed 's/a*/x/g'

#### fast substitutions
echo aaaaaaabbbbbbaaaaaaa | sed -n 'h;s/a//;p;g;s/a//g;p;g;s/^a//p;g;s/^a//g;p;g;s/not present//g;p;g;s/^[a-z]//g;p;g;s/a$//;p;g;y/a/b/;h;s/b//;p;g;s/b//g;p;g;s/^b//;p;g;s/^b//g;p;g;s/^[a-z]//;p;g;s/b$//;p;g'

#### recall empty regex
echo eeefff | sed 'p;s/e/X/p;:x;s//Y/p;/f/bx'

#### recall last executed regex
printf 'abc\n' | sed -e '/x/bskip' -e 's//Q/;:skip'
echo "status $?"

#### empty regex after failed address
printf 'ab\n' | sed -n '/b/{/zz/!s//B/p}'

#### amp escape
echo yes | sed 's/yes/yes\&/'

#### append then quit
printf 'a\nb\n' | sed 'a\
ok
$q'

#### brackets literal
echo '[[[[[]]]]]' | sed 's/[[]/a/;s/[[[]/b/;s/[[[[]/c/;s/[]]/x/'

#### backslashes in replacement with newline
echo a | sed 's/$/\\\\\
/'

#### dollar address on three lines
printf 'a\nb\nc\n' | sed '$s/^/last /'

#### flipcase
echo 'hello WORLD foo-bar' | sed 's,\([^A-Za-z]*\)\([A-Za-z]*\),\1\L\u\2,g'

#### insensitive substitute
printf 'Version: 1\nversion: 2\n' | sed 's/version: *//I'

#### khadafy regex
printf 'Muammar Qaddafi\nMoammar Khadafy\nMuammar al-Qadhafi\nMoamar Gaddafi\nJohn Doe\n' | sed "/M[ou]'\{0,1\}am\{1,2\}[ae]r .*\([AEae]l[- ]\)\{0,1\}[GKQ]h\{0,1\}[aeu]\{1,\}\([dtz][dhz]\{0,1\}\)\{1,\}af[iy]/!d"

#### middle lines
printf '1\n2\n3\n4\n5\n6\n' | sed -n '3,5p'

#### no eol with N
printf 'a\nb\nc' | sed '$!N;s/\n/-/'

#### no eol with w
printf 'a\nb' | sed -n 'w out'
od -An -c out

#### y bracket
echo 'a[b]' | sed 'y/[]/()/'

#### y newline and dollar
printf 'Sy\n' | sed 'H;G;y/Ss\nYy/yY$sS/'

#### zero range
printf 'aaa\nb\naaa\n' | sed '0,/aaa/d'

#### space escapes
echo 'a_b c	d' | sed 's/_\S/XX/g;s/\s/_/g'

#### empty line substitution
printf '\n' | sed 's/x*/x/g'

#### newline dfa
printf 'abc\ndef\n' | sed 'N;s/b*c\nd/X/'

#### overlapping ranges with N
printf '1\n2\n3\n4\n5\n6\n' | sed -n '2,3{N;p}'

#### range end line passed by n
printf '1\n2\n3\n4\n5\n6\n' | sed -n '2,3{n;n;p}'

#### range regex start on end line
printf 'x\nx\ny\n' | sed -n '/x/,/x/p'

#### two ranges overlapping
printf '1\n2\n3\n4\n5\n' | sed -n '1,3p;2,4p'

#### nested range in block
printf '1\n2\n3\n4\n5\n' | sed -n '2,4{3,5p}'

#### comment hash n alone
printf 'a\n' | sed '#n'

#### comment hash n with -n
printf 'a\n' | sed -n '#n'

#### hash n in file then commands
printf '#n\n/a/p\n' > s.sed
printf 'a\nb\n' | sed -f s.sed

#### hash n after space
printf 'a\n' | sed ' #n
p'

#### step with first beyond step
printf '%s\n' 1 2 3 4 5 6 7 8 9 10 11 | sed -n '5~3p'

#### multiple end zero
printf '1\n2\n3\n' | sed -n '2,~0p'

#### plus end with regex start repeated
printf 'x\n1\nx\n2\n3\n' | sed -n '/x/,+1p'

#### space before negation
printf 'a\nb\n' | sed -n '1 !p'

#### leading spaces before address
printf 'a\nb\n' | sed -n '   2p'

#### address then spaces then brace
printf 'a\nb\n' | sed -n '2   {p}'

#### bracket with backslash and close bracket
printf 'a\\]b\n' | sed 's/[\]]/X/g'

#### percent address with bracket
printf 'a%%b\nab\n' | sed -n '\%a[%]b%p'

#### i then -e joined text
printf 'x\n' | sed -e 'i\' -e 'foo' -e 's/x/X/'

#### a one liner with escaped newline continuation in -e
printf 'x\n' | sed -e 'a foo\' -e 'bar'

#### c with text continued
printf 'x\n' | sed 'c\
one\
two'

#### regex range negated delete
printf 'a\nx\nb\ny\nc\n' | sed '/x/,/y/!d'

#### substitution special dollar in middle
echo 'a$b' | sed 's/a$b/X/'

#### caret in middle literal bre
echo 'a^b' | sed 's/a^b/X/'

#### caret after group bre
echo 'ab' | sed 's/\(^a\)b/X/'

#### star at start literal bre
echo '*a' | sed 's/*a/X/'

#### star after group start bre
echo '*a' | sed 's/\(*a\)/X/'

#### interval at start bre refused
echo 'a' | sed 's/\{1\}a/X/'
echo "status $?"

#### ere plus at start
echo '+a' | sed -E 's/+a/X/'
echo "status $?"

#### ere empty alternation
echo 'ab' | sed -E 's/a|/X/g'

#### bre alternation empty side
echo 'ab' | sed 's/a\|/X/g'

#### ere braces literal when not interval
echo 'a{b' | sed -E 's/a{b/X/'

#### equivalence class
echo 'aeb' | sed 's/[[=e=]]/X/'

#### collating symbol
echo 'a-b' | sed 's/[[.-.]]/X/'

#### class in negated bracket
echo 'a1b2' | sed 's/[^[:digit:]]/X/g'

#### ere repetition errors and forms
for p in '*a' 'a**' 'a{' '{1}a' 'a{1' 'a{1,x}' 'a{,2}' 'a{2,1}' '(*a)' 'a|*b' '(+a)' 'a+?' '^*a' 'a(|b)' '()' 'a{1}{2}' '{' 'x{}'; do
  printf '%s: ' "$p"; echo 'aa{b*+' | sed -E "s/$p/X/" 2>&1
done

#### bre repetition errors and forms
for p in '*a' 'a**' 'a\{' '\{1\}a' 'a\{1' 'a\{1,x\}' 'a\{,2\}' 'a\{2,1\}' '\(*a\)' 'a\|*b' '^*a' 'a\(\|b\)' '\(\)' 'a\{1\}\{2\}' 'x\{\}' 'a\+\?'; do
  printf '%s: ' "$p"; echo 'aa{b*+' | sed "s/$p/X/" 2>&1
done

#### a one liner swallows brace
printf 'x\n' | sed '1{a foo}'
echo "status $?"

#### r file name takes the rest of the line
printf 'R\n' > 'f; p'
printf 'x\n' | sed 'r f; p'

#### w file name with brace
printf 'x\n' | sed -n '1{w out}
}'
ls

#### w then semicolon in name
printf 'x\n' | sed -n 'w o;p'
ls

#### s w flag then brace on next line
printf 'x\n' | sed -n '1{s/x/y/w out
}'
cat out

#### i one liner with leading backslash space
printf 'x\n' | sed 'i\ lead'

#### a with escaped newline only
printf 'x\n' | sed 'a foo\nbar'

#### c on last line with dollar
printf 'a\nb\n' | sed '$c\
END'

#### a on every line
printf 'a\nb\n' | sed 'a --'

#### i and a with -s files
printf 'a\n' > 1.txt; printf 'b\n' > 2.txt
sed -s '1i top' 1.txt 2.txt

#### expected backslash error a at eof after spaces
echo x | sed 'a   '
echo "status $?"

#### gnu a then semicolon text
echo x | sed 'a;b'

#### long option abbreviations
printf 'a\nb\n' | sed --quie --expr=2p; printf 'aa\n' | sed --reg 's/a+/X/'

#### ambiguous long option
sed --s p 2>&1 | head -1
echo "status $?"

#### long option with unwanted argument
sed --quiet=x p 2>&1 | head -1

#### long option missing argument
sed --file 2>&1 | head -1

#### crlf after brace in script file
printf '1{\r\np\r\n}\r\n' > s.sed
printf 'a\n' | sed -f s.sed
echo "status $?"

#### crlf after y in script file
printf 'y/a/b/\r\n' > s.sed
printf 'a\n' | sed -f s.sed
echo "status $?"

#### crlf after address command
printf '/a/d\r\n' > s.sed
printf 'a\n' | sed -f s.sed
echo "status $?"

#### crlf after branch and label
printf 'b end\r\n:end\r\n' > s.sed
printf 'a\n' | sed -f s.sed

#### crlf hash n
printf '#n\r\np\r\n' > s.sed
printf 'a\n' | sed -f s.sed
echo "status $?"

#### crlf after q and l
printf 'q\r\n' > s.sed
printf 'a\n' | sed -f s.sed
echo "status $?"

#### whitespace controls before commands
printf 'a\n' | sed "$(printf '\rp')"; printf 'a\n' | sed "$(printf 'p;\v\fp')"
