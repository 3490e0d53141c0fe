printf 'a=1\nb=2\n# comment\nc=3\n' > conf
sed '/^#/d' conf
sed -n 's/^\([a-z]\)=\(.*\)/\2:\1/p' conf
sed '2i\inserted' conf | head -3
sed '$a\appended' conf | tail -2
sed -e 's/=/ = /' -e 's/^/> /' conf | head -2
sed '1~2d' conf
sed 's|/|_|g' <<< "a/b/c"
sed -E 's/([0-9]+)/<\1>/g' <<< "x12y345"
sed 'y/abc/xyz/' <<< "aabbcc"
printf 'l1\nl2\nl3\nl4\n' | sed -n '/l2/,/l3/p'
printf 'one\ntwo\n' | sed 'N;s/\n/+/'
echo "hello" | sed 's/l/L/2'
