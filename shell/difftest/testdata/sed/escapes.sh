# GNU sed 4.9's escapes: \a \f \n \r \t \v, \cX, \dNNN, \oNNN, \xHH in
# regexes, replacements, y strings and a/i/c text; \\ and escaped
# delimiters.
# requires: gnu-sed

#### y with newline escape
printf 'a\nb\n' | sed 'N;y/\n/,/'

#### y to newline
echo 'a,b' | sed 'y/,/\n/'

#### y with backslash
echo 'a\b' | sed 'y/\\/\//'

#### y to backslash
echo 'a/b' | sed 'y,/,\\,'

#### y with tab
printf 'a\tb\n' | sed 'y/\t/ /'

#### y with nul hex
printf 'a\000b\n' | sed 'y/\x00/-/'

#### y to nul
echo 'a-b' | sed 'y/-/\x00/' | od -An -c

#### y with bell formfeed cr vt
printf '\a\f\r\v\n' | sed 'y/\a\f\r\v/afrv/'

#### y to control escapes
echo 'afrv' | sed 'y/afrv/\a\f\r\v/' | od -An -c

#### y with cX
printf 'a\001b\n' | sed 'y/\cA/X/'

#### y with lower cx
printf 'a\032b\n' | sed 'y/\cz/Z/'

#### y with decimal
echo 'abc' | sed 'y/\d098/B/'

#### y with octal
echo 'abc' | sed 'y/\o143/C/'

#### y with hex
echo 'abc' | sed 'y/\x61/A/'

#### y with escaped delimiter
echo 'a/b' | sed 'y/\//|/'

#### y with other delimiter escaped
echo 'a,b' | sed 'y,\,,;,'

#### y unknown escape
echo 'abc' | sed 'y/\q/x/'
echo "status $?"

#### y escaped letter b
echo 'abc' | sed 'y/\b/x/'
echo "status $?"

#### y different lengths
echo abc | sed 'y/abc/xy/'
echo "status $?"

#### y unterminated
echo abc | sed 'y/abc/xyz'
echo "status $?"

#### y extra characters
echo abc | sed 'y/abc/xyz/g'
echo "status $?"

#### y duplicate source
echo 'aaa' | sed 'y/aa/xy/'

#### regex tab escape
printf 'a\tb\n' | sed 's/\t/<TAB>/'

#### regex newline escape
printf 'a\nb\n' | sed 'N;s/\n/<NL>/'

#### regex cr escape
printf 'a\r\n' | sed 's/\r$//' | od -An -c

#### regex formfeed vt bell
printf '\f\v\a\n' | sed 's/\f/F/;s/\v/V/;s/\a/A/'

#### regex cX
printf 'x\033y\n' | sed 's/\c[/ESC/'

#### regex cX lower
printf 'x\001y\n' | sed 's/\ca/^A/'

#### regex decimal
echo 'a-b' | sed 's/\d045/+/'

#### regex octal
echo 'a-b' | sed 's/\o055/+/'

#### regex hex
echo 'a-b' | sed 's/\x2d/+/'

#### regex hex upper digits
echo 'a-b' | sed 's/\x2D/+/'

#### regex hex one digit
printf 'a\tb\n' | sed 's/\x9/T/'

#### regex hex star is literal
echo 'a*b' | sed 's/\x2a/+/'

#### regex hex dot is literal
echo 'a.b' | sed 's/\x2e/+/g'

#### regex hex caret is literal
echo 'a^b' | sed 's/\x5e/+/'

#### regex hex backslash
echo 'a\b' | sed 's/\x5c/+/'

#### regex decimal too big
echo 'a' | sed 's/\d300/x/'
echo "status $?"

#### regex octal digits limit
echo 'S4' | sed 's/\o1234/x/'

#### regex x without digits
echo 'axb' | sed 's/\xg/Q/'
echo "status $?"

#### regex escaped delimiter
echo 'a/b' | sed 's/\//|/'

#### regex escaped other delimiter
echo 'a,b' | sed 's,\,,;,'

#### regex escaped delimiter that is special
echo 'a.b' | sed 's.\..X.'

#### regex escaped pipe delimiter
echo 'a|b' | sed 's|\||X|'

#### regex escaped star delimiter
echo 'a*b' | sed 's*\**X*'

#### regex delimiter inside bracket
echo 'a/b' | sed 's/[/]/X/'

#### regex newline in bracket
printf 'a\nb\n' | sed 'N;s/[\n]/X/'

#### regex tab in bracket
printf 'a\tb\n' | sed 's/[\t]/X/'

#### regex backslash in bracket
echo 'a\b' | sed 's/[\]/X/'

#### regex escaped w s
echo 'ab cd' | sed 's/\w\+\s/X/'

#### regex escaped W S
echo 'ab cd' | sed 's/\S\W/X/'

#### regex buffer anchors
printf 'ab\nab\n' | sed 'N;s/\`a/X/g;s/b'"\\\\'"'/Y/g'

#### regex escaped plus question bre
echo 'aaa?' | sed 's/a\+/X/;s/\?/Q/'

#### regex literal plus in bre
echo 'a+b' | sed 's/a+b/X/'

#### regex escaped plus in ere
echo 'a+b' | sed -E 's/a\+b/X/'

#### regex escaped braces in ere
echo 'a{2}' | sed -E 's/a\{2\}/X/'

#### regex escaped parens in ere
echo '(a)' | sed -E 's/\(a\)/X/'

#### replacement newline
echo 'a,b' | sed 's/,/\n/'

#### replacement tab
echo 'a,b' | sed 's/,/\t/' | od -An -c

#### replacement control escapes
echo 'x' | sed 's/x/\a\f\r\v/' | od -An -c

#### replacement cX
echo 'x' | sed 's/x/\cA\cz\c[/' | od -An -c

#### replacement decimal octal hex
echo 'x' | sed 's/x/\d065\o102\x43/'

#### replacement hex ampersand is literal
echo 'x' | sed 's/x/a\x26b/'

#### replacement hex backslash
echo 'x' | sed 's/x/a\x5cb/'

#### replacement hex newline
echo 'x' | sed 's/x/a\x0ab/'

#### replacement hex nul
echo 'x' | sed 's/x/a\x00b/' | od -An -c

#### replacement escaped delimiter
echo 'x' | sed 's/x/a\/b/'

#### replacement escaped comma delimiter
echo 'x' | sed 's,x,a\,b,'

#### replacement backslash backslash
echo 'x' | sed 's/x/a\\b/'

#### replacement unknown escape
echo 'x' | sed 's/x/\q\z\y/'

#### replacement escaped newline continuation
echo 'x' | sed 's/x/a\
b/'

#### replacement cX of backslash
echo 'x' | sed 's/x/\c\\/' | od -An -c
echo "status $?"

#### replacement recursive cX
echo 'x' | sed 's/x/\c\d/' | od -An -c
echo "status $?"

#### replacement c at end
echo 'x' | sed 's/x/\c/' | od -An -c
echo "status $?"

#### regex c backslash
printf 'a\034b\n' | sed 's/\c\\/X/' | od -An -c
echo "status $?"

#### regex c at end
echo 'a' | sed 's/\c/X/'
echo "status $?"

#### text a with escapes
echo x | sed 'a\	tab\tand\nnl'

#### text i with hex
echo x | sed 'i\x41\o102\d067'

#### text c with cX
echo x | sed 'c\cA' | od -An -c

#### text a one-liner escapes
echo x | sed 'a a\tb'

#### text leading backslash keeps space
echo x | sed 'a\   indented'

#### text a one liner leading spaces stripped
echo x | sed 'a    text'

#### text backslash backslash
echo x | sed 'a a\\b'

#### text escaped newline multiline
echo x | sed 'a\
line1\
line2'

#### text c backslash at end
echo x | sed 'a foo\'

#### ampersand delimiter
echo 'a&b' | sed 's&\&&X&'

#### newline delimiter refused
echo 'a' | sed 's
a
b
'
echo "status $?"

#### backslash delimiter refused
echo 'a' | sed 's\a\b\'
echo "status $?"

#### letter delimiter
echo 'abc' | sed 'sxbxyx'

#### letter delimiter escaped is literal
echo 'axc' | sed 'sx\xxyx'

#### n delimiter and escaped n
printf 'anb\n' | sed 'sn\nnXn'

#### regex dNNN making a newline
printf 'a\nb\n' | sed 'N;s/\d010/+/'

#### regex oNNN making a tab
printf 'a\tb\n' | sed 's/\o011/+/'

#### hex in address
printf 'a-b\nab\n' | sed -n '/\x2d/p'

#### cX in address
printf 'a\tb\nab\n' | sed -n '/\cI/p'

#### custom address delimiter escaped
printf 'a,b\nab\n' | sed -n '\,a\,b,p'

#### custom address delimiter special
printf 'a.b\naxb\n' | sed -n '\.a\.b.p'

#### l escapes
printf 'a\\b\a\b\f\r\t\v\001\n' | sed -n l

#### l with -n length
printf 'aaaaaaaaaaaaaaaaaaaa\n' | sed -n 'l 5'

#### l zero length no wrap
printf '%0100d\n' 0 | sed -n 'l 0'

#### l one means no wrap
printf 'abcdef\n' | sed -n 'l 1'

#### l escape not split
printf 'aaa\001bbb\n' | sed -n 'l 6'

#### regex backslash newline matches newline
printf 'a\nb\n' | sed 'N;s/a\
b/X/'

#### decimal one digit
printf 'a\tb\n' | sed 's/\d9/T/'

#### octal one digit
printf 'a\001b\n' | sed 's/\o1/X/' | od -An -c

#### hex followed by non hex
echo 'aAz' | sed 's/\x41z/Q/'

#### replacement backslash zero then digit
echo 'ab' | sed 's/a/\01/'

#### replacement ampersand escaped after group
echo 'ab' | sed 's/\(a\)/\1\&/'

#### y with escaped backslash and n
printf 'a\\b\n' | sed 'y/\\b/nB/'

#### y with utf8 escapes
echo 'é' | sed 'y/\xc3\xa9/e/'
echo "status $?"

#### text i with backslash continuation and escapes
echo x | sed 'i\
\tone\
two\\'

#### a text with only backslash newline then empty
echo x | sed 'a\
'

#### s with newline in bracket via escape
printf 'a\nb\n' | sed 'N;s/a[^x]b/X/'

#### escaped newline in y
printf 'a\nb\n' | sed 'N;y/\n/ /'

#### cX with digit
printf 'x\020y\n' | sed 's/\cP/!/' | od -An -c

#### c question mark
printf 'x\177y\n' | sed 's/\c?/!/' | od -An -c

#### replacement literal newline via escape in -e pieces
echo 'a b' | sed -e 's/ /\n/'

#### address with escaped slash
printf 'a/b\nab\n' | sed -n '/a\/b/p'

#### s with semicolon delimiter
echo 'a;b' | sed 's;\;;X;'

#### s with space delimiter
echo 'a b' | sed 's a\ b X '

#### s with hash delimiter
echo 'a#b' | sed 's#\##X#'

#### escaped delimiter in replacement ampersand delimiter
echo 'ab' | sed 's&b&[\&]&'

#### replacement c backslash delimiter unterminated
echo a | sed 's/./\c\/'
echo "status $?"

#### regex recursive c
echo a | sed 's/\c\d/x/'
echo "status $?"

#### y c backslash backslash
echo a | sed 'y/a/\c\\/' | od -An -c

#### y recursive c
echo a | sed 'y/a/\c\d/'
echo "status $?"

#### text recursive c
echo a | sed 'a x\c\dy'
echo "status $?"

#### text a backslash c
echo a | sed 'a\c\\'

#### replacement recursive c with n
echo a | sed 's/./\c\n/'
echo "status $?"

#### replacement c of punctuation
echo a | sed 's/./\c{\c~\c \c1/' | od -An -c

#### replacement c lower and upper
echo a | sed 's/./\cz\cZ/' | od -An -c
