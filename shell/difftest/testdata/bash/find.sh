# find's -printf escapes and the actions that print to a file, from the
# GNU findutils manual ("Format Directives", "Print File Information").
# requires: gnu-find

#### printf letter escapes
touch f
find f -printf '%p\a\b\f\n\r\t\v|\\|\n' | od -c

#### printf octal escapes
touch f
find f -printf '\0|\012|\101\102|\7|\777|\08\n' | od -c

#### printf stops at \c for each file
touch f g
find f g -printf '%p\c-not printed\n'
echo

#### printf unknown escapes are printed and warned of once
touch f
find f -printf 'a\q\x41\e\u0041\n'
find f g -printf '\q%p\n' 2>&1

#### printf with a backslash at the end
touch f
find f -printf 'end\'
echo

#### fprintf writes to a file, created before the walk
touch a b
find a b -fprintf out.txt '%p:%s\n'
cat out.txt

#### fprint and fprint0
mkdir d; touch d/x d/y
find d -fprint list.txt
cat list.txt
find d -type f -fprint0 list0.txt
od -c list0.txt

#### the same file named twice is one stream
touch a
find a -fprint o.txt -fprintf o.txt '[%p]\n'
cat o.txt

#### fprint to a file that cannot be made
touch a
find a -fprint nodir/out.txt
echo "status $?"

#### fprint truncates the file, even when nothing matches
echo old > out.txt
find . -name nothing -fprint out.txt
wc -c < out.txt

#### fprintf to /dev/stdout keeps the order
touch a b
find a b -print -fprintf /dev/stdout '<%p>\n'
