# Bytes that are not UTF-8 under GNU sed 4.9 in the C.UTF-8 locale: they
# pass through unchanged and match only themselves; multibyte characters
# are single characters for ., brackets, y and case conversion.
# requires: gnu-sed

#### invalid byte passes through print
printf 'a\377b\n' | sed p | od -An -c

#### invalid byte passes through substitute elsewhere
printf 'a\377b\n' | sed 's/b/B/' | od -An -c

#### dot does not match an invalid byte
printf 'a\377b\n' | sed 's/./X/g' | od -An -c

#### dot star stops at an invalid byte
printf 'ab\377cd\n' | sed 's/.*/X/' | od -An -c

#### negated bracket does not match an invalid byte
printf 'a\377b\n' | sed 's/[^a]/X/g' | od -An -c

#### invalid byte matched by hex escape
printf 'a\377b\n' | sed 's/\xff/X/' | od -An -c

#### invalid byte matched by octal escape
printf 'a\376b\n' | sed 's/\o376/X/' | od -An -c

#### invalid byte matched by decimal escape
printf 'a\376b\n' | sed 's/\d254/X/' | od -An -c

#### invalid byte matched literally
s=$(printf 's/\377/X/g')
printf 'a\377b\377\n' | sed "$s" | od -An -c

#### invalid byte does not match other invalid byte
printf 'a\376b\n' | sed 's/\xff/X/' | od -An -c

#### invalid byte does not match replacement character
printf 'a\357\277\275b\377\n' | sed 's/\xff/X/' | od -An -c

#### replacement character matches only itself
printf 'a\357\277\275b\377\n' | sed 's/\xef\xbf\xbd/R/' | od -An -c

#### invalid byte in address
printf 'ok\nbad\377\n' | sed -n '/\xff/p' | od -An -c

#### lines without invalid bytes by dot address
printf 'ok\nbad\377\n' | sed -n '/^.*$/p' | od -An -c

#### lone lead byte
printf '\303(\n' | sed 's/./X/g' | od -An -c

#### truncated sequence at end
printf 'ab\342\202\n' | sed 's/.$/X/' | od -An -c

#### surrogate encoding
printf 'a\355\240\200b\n' | sed 's/./X/g' | od -An -c

#### overlong encoding
printf 'a\300\257b\n' | sed 's/./X/g' | od -An -c

#### invalid bytes in hold space
printf 'x\377\ny\n' | sed -n 'H;${x;p}' | od -An -c

#### invalid bytes joined by N
printf '\377\n\376\n' | sed 'N;s/\n/-/' | od -An -c

#### invalid byte kept by star
printf 'a\377\377b\n' | sed 's/\xff*/X/g' | od -An -c

#### invalid byte in replacement
printf 'abc\n' | sed 's/b/\xff/' | od -An -c

#### invalid byte raw in replacement
s=$(printf 's/b/\376/')
printf 'abc\n' | sed "$s" | od -An -c

#### invalid byte with backref pattern
printf 'aa\377\377b\n' | sed 's/\(.\)\1/X/g' | od -An -c

#### invalid byte doubled by backref
printf 'a\377\377b\n' | sed 's/\(\xff\)\1/X/g' | od -An -c

#### invalid byte without trailing newline
printf 'a\377' | sed 's/a/b/' | od -An -c

#### -z with invalid bytes
printf 'a\377\000b\n\000' | sed -z 's/^./X/' | od -An -c

#### l shows invalid bytes in octal
printf 'a\377b\n' | sed -n l

#### l shows multibyte characters in octal
printf 'caf\303\251\n' | sed -n l

#### l wraps multibyte characters
printf '\303\251\303\251\303\251\303\251\303\251\303\251\303\251\303\251\n' | sed -n 'l 20'

#### l of control and high bytes
printf '\001\033\177\200\n' | sed -n l

#### y with multibyte characters
echo 'café' | sed 'y/é/e/'

#### y mapping ascii to multibyte
echo 'abc' | sed 'y/abc/αβγ/'

#### y different lengths multibyte
echo 'abc' | sed 'y/ab/αβγ/'
echo "status $?"

#### y leaves invalid bytes
printf 'a\377b\n' | sed 'y/ab/xy/' | od -An -c

#### dot counts multibyte characters
echo 'héllo' | sed 's/./X/g'

#### numbered occurrence counts characters
echo 'αβγδ' | sed 's/./X/3'

#### bracket with multibyte
echo 'naïve café' | sed 's/[ïé]/_/g'

#### bracket range multibyte
echo 'αβγδε' | sed 's/[β-δ]/x/g'

#### negated bracket multibyte
echo 'aéb' | sed 's/[^ab]/X/g'

#### interval counts characters
echo 'ééé' | sed -n '/^.\{3\}$/p'

#### upper case of accented letters
echo 'élan vital' | sed 's/.*/\U&/'

#### lower case of accented letters
echo 'ÉCOLE ÀÉÎ' | sed 's/.*/\L&/'

#### upper first of accented word
echo 'élan' | sed 's/.*/\u&/'

#### lower first of accented word
echo 'École' | sed 's/.*/\l&/'

#### greek sigma upper
echo 'σας' | sed 's/.*/\U&/'

#### greek sigma lower
echo 'ΣΑΣ' | sed 's/.*/\L&/'

#### sharp s upper
echo 'straße' | sed 's/.*/\U&/'

#### capital sharp s lower
echo 'STRAẞE' | sed 's/.*/\L&/'

#### cyrillic case
echo 'привет' | sed 's/\(.\)\(.*\)/\u\1\U\2/'

#### upper then end
echo 'ab éc' | sed 's/\(..\) \(..\)/\U\1\E \2/'

#### u then L
echo 'éCOLE' | sed 's/.*/\L\u&/'

#### l then U
echo 'élan' | sed -E 's/(.*)/\U\l\1/'

#### case conversion with invalid bytes
printf 'a\377b\n' | sed 's/.*/\U&/' | od -An -c

#### case conversion keeps invalid bytes in groups
printf 'a\377b\n' | sed 's/a\(\xff\)b/\U\1x/' | od -An -c

#### case conversion of literal text
echo 'x' | sed 's/x/\Uéa\E é/'

#### I flag accented
printf 'CAFÉ\ncafé\n' | sed -n '/café/Ip'

#### I flag substitute accented
echo 'ÉTÉ été' | sed 's/été/x/Ig'

#### I flag greek
printf 'ΣΟΦΙΑ\nσοφια\n' | sed -n '/σοφια/Ip'

#### I flag final sigma
printf 'ς\nσ\nΣ\n' | sed -n '/σ/Ip'

#### I flag cyrillic
echo 'ПРИВЕТ' | sed 's/привет/hi/I'

#### I flag bracket accented
echo 'É' | sed 's/[é]/x/I'

#### I flag with invalid byte
printf 'A\377\n' | sed 's/a\xff/x/I' | od -An -c

#### upper class matches accented
echo 'aÉb' | sed 's/[[:upper:]]/U/g'

#### alpha class matches accented
echo 'é1ß' | sed 's/[[:alpha:]]/A/g'

#### word escape matches accented
echo 'café bar' | sed 's/\w\+/W/g'

#### emoji is one character
echo 'a😀b' | sed 's/a.b/X/'

#### combining mark is its own character
printf 'e\314\201\n' | sed 's/./X/g'

#### invalid byte in y source
s=$(printf 'y/\377/x/')
printf 'a\377\n' | sed "$s" | od -An -c
echo "status $?"

#### w file keeps invalid bytes
printf 'a\377\n' | sed -n 'w out'
od -An -c out

#### invalid bytes in i and a text
printf 'x\n' | sed 'i\xff
a\o376' | od -An -c

#### equal sign with invalid lines
printf '\377\n\376\n' | sed -n '$='

#### u before L
echo 'éCOLE' | sed 's/.*/\u\L&/'

#### U then u on group
echo 'ab cd' | sed -E 's/(\w+) (\w+)/\U\1 \E\u\2/'

#### space class with no-break space
printf 'a\302\240b c\n' | sed 's/[[:space:]]/_/g'

#### punct class with guillemets
echo '«a»,b' | sed 's/[[:punct:]]/P/g'

#### lower class on mixed scripts
echo 'aÉßΣσ1' | sed 's/[[:lower:]]/l/g'

#### digit class ascii only
echo '1٣2' | sed 's/[[:digit:]]/D/g'

#### alnum negated
echo 'é-1_x' | sed 's/[^[:alnum:]]/./g'

#### W escape on accented
echo 'é-ü' | sed 's/\W/|/g'

#### word boundary on accented
echo 'été au' | sed 's/\bé/E/g'

#### hex escapes forming a character
echo 'café' | sed 's/\xc3\xa9/E/'

#### octal escapes forming a character
echo 'café' | sed 's/\o303\o251/E/'

#### range with multibyte end refused
echo 'aé' | sed 's/[a-é]/x/g'
echo "status $?"

#### dot after invalid byte in ere
printf '\377ab\n' | sed -E 's/(.)(.)$/\2\1/' | od -An -c

#### code point past unicode range
printf 'a\364\220\200\200b\n' | sed 's/./X/g' | od -An -c

#### five byte sequence
printf 'a\370\210\200\200\200b\n' | sed 's/./X/g' | od -An -c

#### invalid byte is not alpha
printf 'a\377b\n' | sed 's/[[:alpha:]]*/X/g' | od -An -c

#### print class excludes invalid byte
printf 'a\377b\n' | sed 's/[[:print:]]/P/g' | od -An -c

#### y to invalid byte
printf 'abc\n' | sed 'y/b/\xff/' | od -An -c

#### l with invalid bytes and length
printf 'abc\377\376\375def\n' | sed -n 'l 8'

#### case conversion in titlecase
echo 'ǆemal' | sed 's/.*/\u&/'

#### s escape with unicode spaces
printf 'a\342\200\203b\302\240c d\n' | sed 's/\s/_/g'

#### S escape with invalid byte
printf 'a\377 b\n' | sed 's/\S/X/g' | od -An -c

#### W escape with invalid byte
printf 'a\377b\n' | sed 's/\W/X/g' | od -An -c

#### ere w plus with accented
echo 'naïve café' | sed -E 's/\w+/<&>/g'

#### blank class with em space
printf 'a\342\200\203b\tc\n' | sed 's/[[:blank:]]/_/g'

#### cntrl class with del
printf 'a\177b\001c\n' | sed 's/[[:cntrl:]]/C/g'

#### graph and print classes
printf 'a b\303\251\n' | sed 's/[[:graph:]]/G/g;s/[[:print:]]/P/g'

#### xdigit class
echo 'fF9gG' | sed 's/[[:xdigit:]]/x/g'

#### escaped multibyte in regex
echo 'aób' | sed 's/\ó/X/'

#### escaped multibyte in y
echo 'aób' | sed 'y/ó/\ó/'

#### escaped multibyte in replacement
echo 'aób' | sed 's/ó/[\ó]/'

#### multibyte group reused
echo 'aób' | sed 's/a\(ó\)b/\1\1/'

#### multibyte in address
printf 'ó\no\n' | sed -n '/ó/p'

#### multibyte y with several
echo 'aáeé' | sed 'y/áé/ae/'
