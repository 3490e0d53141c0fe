# Permission bits: chmod (GNU coreutils) with octal and symbolic modes, and
# the bits honoured by test, [[ ]], execution by path, redirections, ls -l
# and stat. The reference runs as a normal user, who owns the files.

#### chmod octal and stat
touch f
chmod 755 f
stat -c '%a %A' f
chmod 0644 f
stat -c '%a %A' f
chmod 600 f
stat -c %a f

#### chmod symbolic clauses
touch f
chmod 644 f
chmod u+x f; stat -c %a f
chmod go-r f; stat -c %a f
chmod a=r f; stat -c %a f
chmod u=rwx,g=rx,o= f; stat -c %A f
chmod o+w,g-x f; stat -c %a f

#### chmod without who honours the umask
touch f
chmod 444 f
chmod +w f; stat -c %a f
chmod 777 f
chmod -x f; stat -c %a f
chmod =r f; stat -c %a f
chmod +x f; stat -c %a f

#### chmod copies bits from another class
touch f
chmod 640 f
chmod g=u f; stat -c %a f
chmod o=g f; stat -c %a f
chmod u-w,o+u f; stat -c %a f

#### chmod capital X
touch f
mkdir d
chmod 600 f
chmod a+X f d; stat -c %a f d
chmod 700 f
chmod a+X f; stat -c %a f

#### chmod several files and a missing one
touch a b
chmod 700 a nosuch b
echo "status $?"
stat -c %a a b

#### chmod missing operands
chmod
echo "status $?"
chmod 755
echo "status $?"

#### chmod invalid modes
touch f
chmod abc f; echo "status $?"
chmod 99 f; echo "status $?"
chmod 12345 f; echo "status $?"
chmod u+z f; echo "status $?"
chmod '' f; echo "status $?"
chmod , f; echo "status $?"
chmod u f; echo "status $?"

#### chmod invalid option
touch f
chmod --bogus 644 f
echo "status $?"
chmod -Z 644 f
echo "status $?"

#### chmod verbose and changes
touch f
chmod 644 f
chmod -v 755 f
chmod -v 755 f
chmod -c 644 f
chmod -c 644 f

#### chmod a mode that looks like an option
touch f
chmod 666 f
chmod -w f
echo "status $?"
stat -c %a f
chmod 644 f
chmod -- -r f
echo "status $?"
stat -c %a f

#### chmod special bits
touch f
chmod 7777 f; stat -c '%a %A' f
chmod 1755 f; stat -c '%a %A' f
chmod u+s,g+s f; stat -c '%a %A' f
chmod 0 f; stat -c '%a %A' f
chmod +t f; stat -c '%a %A' f

#### chmod recursive
mkdir -p d/e
touch d/f d/e/g
chmod -R 700 d
stat -c '%a %n' d d/f d/e d/e/g
chmod -R go+rX d
stat -c '%a %n' d d/f d/e d/e/g

#### chmod reference file
touch a b
chmod 640 a
chmod --reference=a b
stat -c %a b

#### chmod quiet on a missing file
chmod -f 644 nosuch
echo "status $?"

#### chmod outside the user's files
chmod 644 /
echo "status $?"

#### test -r -w -x follow the bits
touch f
chmod 000 f
[ -r f ] && echo r; [ -w f ] && echo w; [ -x f ] && echo x
chmod 400 f
[ -r f ] && echo r; [ -w f ] && echo w; [ -x f ] && echo x
chmod 200 f
test -w f && echo w; test -r f || echo not-r
chmod 100 f
[[ -x f ]] && echo x; [[ -r f ]] || echo not-r
chmod 755 f
[[ -r f && -w f && -x f ]] && echo all

#### test on directories
mkdir d
[ -x d ] && echo x
chmod 600 d
[ -x d ] || echo not-x
[ -r d ] && echo r
chmod 755 d

#### test on a missing file
[ -r nosuch ] || echo no
[ -x nosuch ] || echo no

#### executing a script without x
printf 'echo ran\n' > s.sh
./s.sh
echo "status $?"
chmod +x s.sh
./s.sh
echo "status $?"

#### executing a script without r
printf 'echo ran\n' > s.sh
chmod 100 s.sh
./s.sh
echo "status $?"

#### executing a directory
mkdir d
./d
echo "status $?"

#### a script in PATH without x
mkdir bin
printf 'echo hi\n' > bin/foo
PATH=$PWD/bin:$PATH
foo 2>&1 | sed "s|$PWD|P|"
chmod +x bin/foo
foo

#### sourcing an unreadable file
printf 'echo sourced\n' > lib.sh
chmod 000 lib.sh
. ./lib.sh
echo "status $?"
chmod 644 lib.sh
. ./lib.sh

#### bash on an unreadable file
printf 'echo hi\n' > s.sh
chmod 000 s.sh
bash s.sh
echo "status $?"

#### redirection to a read-only file
echo old > f
chmod 444 f
echo new > f
echo "status $?"
echo more >> f
echo "status $?"
cat f

#### redirection from an unreadable file
echo secret > f
chmod 200 f
cat < f
echo "status $?"
read -r x < f
echo "status $?"

#### cat and grep on an unreadable file
echo secret > f
chmod 000 f
cat f
echo "status $?"
grep s f
echo "status $?"

#### creating a file in a read-only directory
mkdir d
chmod 555 d
touch d/f
echo "status $?"
echo x > d/g
echo "status $?"
mkdir d/sub
echo "status $?"
chmod 755 d

#### removing from a read-only directory
mkdir d
touch d/f
chmod 555 d
rm d/f
echo "status $?"
rm -f d/f
echo "status $?"
chmod 755 d
rm d/f && echo removed

#### a directory without x cannot be entered
mkdir d
touch d/f
chmod 600 d
cd d
echo "status $?"
cat d/f
echo "status $?"
chmod 700 d

#### ls of an unreadable directory
mkdir d
touch d/f
chmod 300 d
ls d
echo "status $?"
chmod 700 d

#### ls -l mode column
touch f
mkdir d
chmod 640 f
chmod 750 d
ls -l f | cut -c1-10
ls -ld d | cut -c1-10
chmod 4755 f
ls -l f | cut -c1-10

#### a new file gets 644 and a new directory 755
touch f
mkdir d
echo x > g
stat -c '%a %n' f d g

#### umask prints the mask
umask
umask -S

#### umask changes the mask
umask 077
umask
umask -S
umask 0022
umask

#### cp keeps a read-only file readable
echo hi > f
chmod 444 f
cp f g
cat g
echo "status $?"

#### writing to a read-only file with sed -i
echo hi > f
chmod 444 f
[ -w f ] || echo readonly

#### timeout of a script without x
printf 'echo hi\n' > s.sh
timeout 5 ./s.sh
echo "status $?"

#### command -v and type skip non executable paths
printf 'echo hi\n' > s.sh
command -v ./s.sh
echo "status $?"
chmod +x s.sh
command -v ./s.sh
echo "status $?"

#### find -perm and -executable
touch a b
chmod 755 a
chmod 644 b
find . -type f -perm 755
find . -type f -executable

#### mkdir -m sets the mode
mkdir -m 700 d
mkdir -p -m 750 e/f
stat -c '%a %n' d e e/f

#### cp keeps the execute bits
printf 'echo copied\n' > s.sh
chmod 755 s.sh
cp s.sh t.sh
stat -c %a t.sh
./t.sh

#### cp -p and mv keep the mode
touch f
chmod 640 f
cp -p f g
mv f h
stat -c '%a %n' g h

#### touch a read-only file
touch f
chmod 444 f
touch f
echo "status $?"

#### rm a read-only file without a terminal
touch f
chmod 444 f
rm f
echo "status $?"
ls

#### sed -i on a read-only file in a writable directory
echo hello > f
chmod 444 f
sed -i 's/hello/bye/' f
echo "status $?"
cat f
stat -c %a f

#### find by permission
touch a b c
chmod 755 a
chmod 644 b
chmod 600 c
find . -type f -perm -u+x | sort
find . -type f -perm /o+r | sort
find . -type f -perm 600 | sort
find . -type f -readable | sort
find . -type f -writable | sort

#### stat of a directory mode
mkdir d
chmod 711 d
stat -c '%a %A' d
ls -ld d | cut -c1-10

#### chmod -R removing search permission
mkdir d
touch d/f
chmod -R 600 d
echo "status $?"
stat -c %a d
chmod 755 d
stat -c %a d/f

#### chmod several symbolic operations in one clause
touch f
chmod a-rwx,u+rw f; stat -c %a f
chmod u=rw+x f; stat -c %a f
chmod ug+rw-x f; stat -c %a f
chmod a=,u=r f; stat -c %a f

#### writing into a directory without search permission
mkdir d
chmod 600 d
echo x > d/f
echo "status $?"
chmod 700 d

#### test -w on a read-only directory
mkdir d
chmod 555 d
[ -w d ] || echo not-writable
[ -r d ] && [ -x d ] && echo rx
chmod 755 d

#### a read-only file can still be read and copied
echo data > f
chmod 400 f
cat f
wc -c < f
cp f g && cat g

#### chmod -v of several files
touch a b
chmod 644 a b
chmod -v u+x a b
chmod -c u+x a b
