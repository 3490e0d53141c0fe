# Back-references in GNU sed 4.9: \N in BRE and ERE patterns and addresses,
# with the I and M flags, the empty regex, & and \0-\9 in replacements and
# numbered occurrences.
# requires: gnu-sed

#### bre doubled group
printf 'abab\nabcd\nxyxy\n' | sed -n '/\(ab\)\1/p'

#### ere doubled group
printf 'abab\nabcd\nxyxy\n' | sed -En '/(ab)\1/p'

#### -r doubled group
printf 'abab\nabcd\n' | sed -rn '/(ab)\1/p'

#### doubled word
printf 'the the cat\nno doubles here\nis is\n' | sed -n '/\([a-z][a-z]*\) \1/p'

#### doubled word substitute
printf 'the the cat sat sat\n' | sed 's/\b\([a-z]\+\) \1\b/\1/g'

#### ere doubled word substitute
printf 'the the cat sat sat\n' | sed -E 's/\b([a-z]+) \1\b/\1/g'

#### palindrome of five
printf 'level\nhello\nradar\nabcde\n' | sed -n '/^\(.\)\(.\).\2\1$/p'

#### ere palindrome
printf 'level\nhello\nradar\n' | sed -En '/^(.)(.).\2\1$/p'

#### repeated letter anywhere
printf 'book\ncat\nsee\nhat\n' | sed -n '/\(.\)\1/p'

#### backref to a starred group
printf 'aaaa\naaa\n' | sed 's/^\(a*\)\1$/[\1]/'

#### backref to an empty group
printf 'xy\n' | sed 's/x\(\)y\1/Z/'

#### backref in the middle
printf 'a-b-a\na-b-c\n' | sed -n 's/^\(.\)-.-\1$/same &/p'

#### swap with backrefs
printf 'abc=abc\nabc=abd\n' | sed 's/^\([^=]*\)=\1$/equal: \1/'

#### nine groups
echo abcdefghi | sed 's/\(.\)\(.\)\(.\)\(.\)\(.\)\(.\)\(.\)\(.\)\(.\)/\9\8\7\6\5\4\3\2\1/'

#### nine groups ere
echo abcdefghij | sed -E 's/(.)(.)(.)(.)(.)(.)(.)(.)(.)(.)/\9\8\7\6\5\4\3\2\1\0/'

#### backref to group nine
echo 'abcdefghii' | sed -n '/\(a\)\(b\)\(c\)\(d\)\(e\)\(f\)\(g\)\(h\)\(i\)\9/p'

#### nested groups backref
printf 'abcabc\nabcab\n' | sed -n 's/\(a\(b\)c\)\1/[\1|\2]/p'

#### inner group backref
printf 'abbc\nabc\n' | sed -n '/a\(b\)\1c/p'

#### ere nested backref
printf 'xyzxyzzz\n' | sed -E 's/((xy)z)\1/<\2>/'

#### backref with interval
printf 'abababab\nabab\n' | sed -n '/^\(ab\)\1\{3\}$/p'

#### ere backref with interval
printf 'abababab\nabab\n' | sed -En '/^(ab)\1{3}$/p'

#### backref starred
printf 'abababx\n' | sed 's/\(ab\)\1*/<&>/'

#### backref with alternation
printf 'aa\nbb\nab\n' | sed -n '/^\(a\|b\)\1$/p'

#### ere backref with alternation
printf 'catcat\ndogdog\ncatdog\n' | sed -En '/^(cat|dog)\1$/p'

#### backref I flag address
printf 'abAB\nabab\nabcd\n' | sed -n '/\(ab\)\1/Ip'

#### backref I flag substitute
printf 'Hello HELLO world\n' | sed 's/\([a-z]*\) \1/twice(\1)/I'

#### backref M flag
printf 'aa\nbb\ncd\n' | sed -n '$!N;$!N;s/^\(.\)\1$/<&>/Mg;p'

#### backref in custom delimiter address
printf 'a,a\na,b\n' | sed -n '\,\(a\)\,\1,p'

#### backref in percent address
printf 'xx\nxy\n' | sed -n '\%\(x\)\1%p'

#### backref in pipe delimited substitute
printf '1212\n1234\n' | sed 's|\(12\)\1|double|'

#### empty regex reuses last with backref
printf 'abab\ncdcd\nefgh\n' | sed -n '/\(..\)\1/{s//[\1]/;p}'

#### empty regex reuses address
printf 'foo bar\nbaz\n' | sed '/foo/s//FOO/'

#### empty regex keeps flags
printf 'Foo\nfoo\n' | sed -n '/foo/Is//X/p'

#### empty regex after substitute
printf 'aXbXc\n' | sed 's/X/-/;s//+/'

#### empty regex as address after s
printf 'one\ntwo\nthree\n' | sed -n 's/o/0/;//p'

#### empty regex with g
printf 'aaa bbb\n' | sed '/a/s//x/g'

#### no previous regex
echo a | sed 's//x/'
echo "status $?"

#### no previous regex in address
echo a | sed -n '//p'
echo "status $?"

#### ampersand whole match
echo 'hello world' | sed 's/o/[&]/g'

#### escaped ampersand
echo 'a+b' | sed 's/+/ \& /'

#### backslash zero
echo 'hello' | sed 's/l\+/<\0>/'

#### ampersand and groups
echo 'key=value' | sed 's/\(.*\)=\(.*\)/\2=\1 (&)/'

#### ere ampersand
echo 'abc123' | sed -E 's/[0-9]+/(&)/'

#### unmatched group empty
echo 'ac' | sed 's/a\(b\)*c/[\1]/'

#### ere unmatched optional group
echo 'ac' | sed -E 's/a(b)?c/[\1]/'

#### ere alternation unused group
echo 'b' | sed -E 's/(a)|b/[\1]/'

#### invalid reference
echo a | sed 's/a/\1/'
echo "status $?"

#### invalid reference ere
echo a | sed -E 's/(a)/\2/'
echo "status $?"

#### invalid back reference in pattern
echo a | sed 's/\(a\)\2/x/'
echo "status $?"

#### invalid back reference ere pattern
echo aa | sed -E 's/(a)\2/x/'
echo "status $?"

#### backref before group closes
echo aa | sed 's/\(a\1\)/x/'
echo "status $?"

#### backslash digit in ere literal
echo 'a1' | sed -E 's/a\1/x/'
echo "status $?"

#### second occurrence
echo 'aaaa' | sed 's/a/b/2'

#### second and later occurrences
echo 'aaaa' | sed 's/a/b/2g'

#### g then number
echo 'a.a.a.a' | sed 's/a/X/g3'

#### occurrence beyond count
echo 'aaa' | sed 's/a/b/5'

#### occurrence with backref
echo 'xx yy zz ww' | sed 's/\(.\)\1/<\1>/3'

#### occurrence with backref and g
echo 'xx yy zz ww' | sed 's/\(.\)\1/<\1>/2g'

#### occurrence of empty matches
echo 'abc' | sed 's/x*/-/2'

#### global empty matches
echo 'abc' | sed 's/x*/-/g'

#### global empty and nonempty
echo 'baaac' | sed 's/a*/x/g'

#### occurrence with p flag
printf 'aaa\nbbb\n' | sed -n 's/a/X/2p'

#### multiple number flags
echo aaa | sed 's/a/b/2g3'
echo "status $?"

#### zero occurrence
echo aaa | sed 's/a/b/0'
echo "status $?"

#### longest leftmost alternation
echo 'abcd' | sed 's/\(a\|ab\)\(c\|bcd\)/[\1,\2]/'

#### longest leftmost ere
echo 'xyz' | sed -E 's/x|xy|xyz/<&>/'

#### longest leftmost star
echo 'aaa' | sed -E 's/(a|aa)*/<\1>/'

#### backref longest alternative
echo 'abab' | sed -E 's/(a|ab)\1/<&>/'

#### backref group in star
echo 'abbbc' | sed 's/a\(b\)*c/\1/'

#### backref across newline
printf 'ab\nab\n' | sed 'N;s/^\(.*\)\n\1$/dup:\1/'

#### duplicate adjacent lines
printf 'a\na\nb\nc\nc\nc\nd\n' | sed '$!N;/^\(.*\)\n\1$/!P;D'

#### backref dollar in group
printf 'ab ab\n' | sed -n 's/\(ab\) \1$/ok/p'

#### backref class group
printf '2024-2024\n2024-2025\n' | sed -n '/^\([0-9]\{4\}\)-\1$/p'

#### ere backref plus
printf 'abcabcabc\n' | sed -E 's/(abc)\1+/[&]/'

#### backref in y-like quote check
printf "'quoted'\n\"mixed'\n" | sed -n "/^\(['\"]\).*\1\$/p"

#### backref range address
printf 'a\nxx\nb\nyy\nc\n' | sed -n '/\(.\)\1/,/\(.\)\1/p'

#### backref with star of backref
printf 'aaaaa\n' | sed 's/\(a\)\1*/<&>/'

#### case conversion with groups
echo 'hello world' | sed 's/\(hello\) \(world\)/\u\1 \U\2/'

#### word start anchors global
echo 'one two three' | sed 's/\</[/g'

#### word end anchors global
echo 'one two three' | sed 's/\>/]/g'

#### word boundaries global
echo 'ab cd' | sed 's/\b/|/g'

#### not word boundaries global
echo 'ab cd' | sed 's/\B/-/g'

#### whole word substitute
echo 'cat concat cat.' | sed 's/\<cat\>/dog/g'

#### word anchors with backref
echo 'abc abc abd' | sed 's/\<\([a-z]*\) \1\>/X/'

#### word anchors in ere
echo 'foo food foo' | sed -E 's/\bfoo\b/bar/g'

#### word anchor accented words
echo 'été étés' | sed 's/\<été\>/summer/g'

#### word anchor with I flag
echo 'Cat cat CAT' | sed 's/\<cat\>/x/Ig'

#### empty match after match with backref
echo 'aab' | sed 's/\(a\)\1*/X/g'

#### backref numbered empty matches
echo 'abc' | sed 's/\(x\)*\1*/-/g'

#### backref to unmatched optional group
echo 'ab' | sed -E -n 's/(x)?a\1b/[&]/p'

#### backref inside range end address
printf 'aa\nb\ncc\nd\n' | sed -n '/\(a\)\1/,/\(c\)\1/p'

#### backref with empty regex in range
printf 'x\nstart\na\nend\ny\n' | sed '/start/,/end/{//!d}'

#### backref in branch loop
printf 'aabbcc\n' | sed ':a;s/\(.\)\1/\1/;ta'

#### backref with star group empty
echo 'xyz' | sed 's/\(a*\)x\1/[\1]/'

#### backref group in interval
echo 'abcabcabc' | sed -E 's/(abc){2}\1/X/'

#### backref bracket group
echo 'a1a2b1b' | sed 's/\([ab]\)1\1/<&>/g'

#### backref with dot star greedy
echo 'abcXabcYabc' | sed 's/\(.*\)X\1/<\1>/'

#### backref M flag anchors
printf 'ab\nab\ncd\n' | sed -n '1h;1!H;${x;s/^\(.*\)\n\1$/dup/Mp}'

#### ere backref with question
echo 'aa a' | sed -E 's/(a)\1?/<&>/g'

#### backref last group reused
echo 'abab cdcd' | sed -E 's/(..)\1/[\1]/2'

#### backref and case conversion
echo 'foo foo bar' | sed 's/\(\w\+\) \1/\U\1/'

#### backref in address with negation
printf 'aa\nab\n' | sed '/\(.\)\1/!d'

#### backref pattern space with newline dot
printf 'a\na\n' | sed -n 'N;/^\(.\).\1$/p'

#### backref many matches global
echo 'aa bb cc dd ee' | sed 's/\(.\)\1/\1/g'

#### backref zero length at end
echo 'abc' | sed 's/\(\)$/[\1]/'

#### ampersand escaped with backslash in ere
echo 'abc' | sed -E 's/b/\&&/'

#### backslash n in replacement with groups
echo 'a:b' | sed 's/\(.\):\(.\)/\1\n\2/'

#### bre interval of backref group
echo 'aaaa' | sed 's/\(a\)\1\{2\}/X/'

#### invalid backref after ere alternation
echo 'a' | sed -E 's/(a)|\2/x/'
echo "status $?"

#### longest match with backref and bracket star
echo 'ababaaa' | sed 's/\(ab*\)[ab]*\1/[&|\1]/'

#### longest alternation before backref
echo 'abcabc' | sed 's/\(a\|abc\)\1*/[&]/'

#### longest ere alternation with backref
echo 'xyxyxyz' | sed -E 's/(x|xy)\1*/[&]/'

#### longest star group with backref
echo 'aaaaaa' | sed 's/\(a*\)\1/[\1]/'

#### longest with backref global
echo 'abab abcabc' | sed -E 's/(ab|abc)\1/<&>/g'

#### backref anchored both ends
printf 'abcabc\nabcab\n' | sed -n '/^\(.*\)\1$/p'

#### backref whole line doubled words
printf 'hello hello\nhello world\n' | sed -n 's/^\(.*\) \1$/twice: \1/p'
