# The directory stack: pushd, popd, dirs and their options, DIRSTACK,
# cd -, OLDPWD and the ~+ ~- ~N tilde forms (bash manual, "The Directory
# Stack" and "Tilde Expansion").

#### dirs with an empty stack
dirs
echo "status $?"

#### pushd prints the stack
mkdir a b
pushd a
pushd ../b
echo "status $?"
pwd

#### pushd abbreviates HOME with a tilde
mkdir -p x/y
pushd x >/dev/null
pushd y
dirs

#### dirs -l prints full names
mkdir a
pushd a >/dev/null
dirs -l | sed "s|$HOME|HOME|g"

#### dirs -p one per line
mkdir a b
pushd a >/dev/null
pushd ../b >/dev/null
dirs -p

#### dirs -v numbered
mkdir a b c
pushd a >/dev/null; pushd ../b >/dev/null; pushd ../c >/dev/null
dirs -v

#### dirs -c clears
mkdir a
pushd a >/dev/null
dirs -c
dirs
echo "${#DIRSTACK[@]}"

#### dirs +N and -N
mkdir a b c
pushd a >/dev/null; pushd ../b >/dev/null; pushd ../c >/dev/null
dirs +0
dirs +1
dirs -0
dirs -1
dirs +3

#### dirs out of range
mkdir a
pushd a >/dev/null
dirs +5
echo "status $?"
dirs -5
echo "status $?"

#### dirs invalid option
dirs -x
echo "status $?"

#### dirs with a bad argument
dirs foo
echo "status $?"

#### popd returns to the previous directory
mkdir a
pushd a >/dev/null
popd
pwd | sed "s|$HOME|HOME|"

#### popd on an empty stack
popd
echo "status $?"

#### pushd without arguments swaps the top two
mkdir a
pushd a >/dev/null
pushd
pwd | sed "s|$HOME|HOME|"
pushd
pwd | sed "s|$HOME|HOME|"

#### pushd with no other directory
pushd
echo "status $?"

#### pushd to a missing directory
pushd nosuch
echo "status $?"
dirs

#### pushd to a file
touch f
pushd f
echo "status $?"

#### pushd +N rotates
mkdir a b c
pushd a >/dev/null; pushd ../b >/dev/null; pushd ../c >/dev/null
pushd +1
pwd | sed "s|$HOME|HOME|"
pushd -0
pwd | sed "s|$HOME|HOME|"

#### pushd +N out of range
mkdir a
pushd a >/dev/null
pushd +4
echo "status $?"
pushd -4
echo "status $?"

#### pushd -n does not change directory
mkdir a b
pushd -n a
pwd | sed "s|$HOME|HOME|"
pushd -n b
dirs

#### popd +N removes an entry
mkdir a b c
pushd a >/dev/null; pushd ../b >/dev/null; pushd ../c >/dev/null
popd +1
pwd | sed "s|$HOME|HOME|"
popd -0
pwd | sed "s|$HOME|HOME|"

#### popd -n removes the second entry only
mkdir a b
pushd a >/dev/null; pushd ../b >/dev/null
popd -n
pwd | sed "s|$HOME|HOME|"
dirs

#### popd out of range
mkdir a
pushd a >/dev/null
popd +3
echo "status $?"
popd -3
echo "status $?"

#### popd with a bad argument
mkdir a
pushd a >/dev/null
popd foo
echo "status $?"

#### popd too many arguments
mkdir a
pushd a >/dev/null
popd +1 +1
echo "status $?"

#### pushd too many arguments
mkdir a b
pushd a b
echo "status $?"

#### pushd invalid option
pushd -z
echo "status $?"

#### popd invalid option
popd -z
echo "status $?"

#### DIRSTACK mirrors the stack
mkdir a b
pushd a >/dev/null; pushd ../b >/dev/null
echo "${#DIRSTACK[@]}"
printf '%s\n' "${DIRSTACK[@]}" | sed "s|$HOME|HOME|"
echo "${DIRSTACK[0]}" | sed "s|$HOME|HOME|"

#### DIRSTACK element 0 follows cd
mkdir a
cd a
echo "${DIRSTACK[0]}" | sed "s|$HOME|HOME|"
echo "${DIRSTACK[@]}" | sed "s|$HOME|HOME|"

#### assigning DIRSTACK changes the stack
mkdir a b
pushd a >/dev/null; pushd ../b >/dev/null
DIRSTACK[1]=/tmp
dirs | sed "s|$HOME|HOME|g"

#### tilde plus and minus
mkdir a
cd a
echo ~+ | sed "s|$HOME|HOME|"
echo ~- | sed "s|$HOME|HOME|"

#### tilde with numbers names stack entries
mkdir a b
pushd a >/dev/null; pushd ../b >/dev/null
echo ~0 | sed "s|$HOME|HOME|"
echo ~1 | sed "s|$HOME|HOME|"
echo ~+1 | sed "s|$HOME|HOME|"
echo ~-0 | sed "s|$HOME|HOME|"
echo ~2 | sed "s|$HOME|HOME|"
echo ~5

#### tilde minus without OLDPWD
unset OLDPWD
echo ~-

#### tilde plus with a path
mkdir a
cd a
echo ~+/x | sed "s|$HOME|HOME|"

#### cd minus prints the directory
mkdir a
cd a
cd - | sed "s|$HOME|HOME|"
pwd | sed "s|$HOME|HOME|"
cd - >/dev/null
pwd | sed "s|$HOME|HOME|"

#### cd minus without OLDPWD
unset OLDPWD
cd -
echo "status $?"

#### OLDPWD after cd
mkdir a
cd a
echo "$OLDPWD" | sed "s|$HOME|HOME|"
cd ..
echo "$OLDPWD" | sed "s|$HOME|HOME|"

#### pushd sets OLDPWD
mkdir a
pushd a >/dev/null
echo "$OLDPWD" | sed "s|$HOME|HOME|"
popd >/dev/null
echo "$OLDPWD" | sed "s|$HOME|HOME|"

#### pushd status and PWD
mkdir a
pushd a >/dev/null
echo "$? $PWD" | sed "s|$HOME|HOME|"

#### dirs combines -v and -l
mkdir a
pushd a >/dev/null
dirs -v -l | sed "s|$HOME|HOME|g"

#### dirs -p with +N
mkdir a b
pushd a >/dev/null; pushd ../b >/dev/null
dirs -p +1

#### popd everything
mkdir a b
pushd a >/dev/null; pushd ../b >/dev/null
popd >/dev/null; popd >/dev/null
popd
echo "status $?"

#### pushd in a function and a subshell
mkdir a
f() { pushd a >/dev/null; }
f
dirs
( pushd .. >/dev/null; dirs | sed "s|$HOME|HOME|" )
dirs

#### pushd with a relative path containing dots
mkdir -p a/b
pushd a/b/.. >/dev/null
dirs
pwd | sed "s|$HOME|HOME|"

#### pushd dash dash
mkdir -- -d
pushd -- -d
echo "status $?"

#### pushd minus goes to OLDPWD
mkdir a
cd a
cd ..
pushd - >/dev/null
pwd | sed "s|$HOME|HOME|"

#### dirs after cd changes the top
mkdir a
pushd . >/dev/null
cd a
dirs

#### pushd -n with a rotation changes only the stack
mkdir q
pushd -n q >/dev/null
pushd -n nosuch >/dev/null
pushd -n +1
echo "status $?"
dirs
pushd +1 -n
dirs
pwd | sed "s|$HOME|HOME|"

#### popd of an entry that is not a directory keeps it
pushd -n nosuch
popd
echo "status $?"
dirs
popd -n +0
dirs

#### pushd -n without a directory does nothing
mkdir a
pushd -n a >/dev/null
pushd -n
echo "status $?"
dirs

#### dirs -c with an index clears silently
mkdir a
pushd a >/dev/null
dirs -c +1
echo "status $?"
dirs

#### dirs options after dash dash are ignored
mkdir a
pushd a >/dev/null
dirs -- +1
dirs -- -l

#### combined options are numbers to dirs
dirs -lv
echo "status $?"
dirs +
echo "status $?"

#### pushd with a bad number
pushd +1x
echo "status $?"
pushd +
echo "status $?"

#### pushd minus prints the directory first
mkdir a
cd a
cd ..
pushd - | sed "s|$HOME|HOME|"

#### pushd plus zero stays
mkdir a
pushd a >/dev/null
pushd +0
pwd | sed "s|$HOME|HOME|"

#### popd minus N removes from the bottom
mkdir a b c
pushd a >/dev/null; pushd ../b >/dev/null; pushd ../c >/dev/null
popd -1
popd -2
pwd | sed "s|$HOME|HOME|"

#### dirs -v with a negative index
mkdir a b
pushd a >/dev/null; pushd ../b >/dev/null
dirs -v -0
dirs -l -1 | sed "s|$HOME|HOME|"

#### DIRSTACK in a loop
mkdir a b c
for d in a b c; do pushd "$d" >/dev/null; done
for d in "${DIRSTACK[@]}"; do echo "${d#"$HOME"}"; done

#### pushd with HOME unset keeps full names
mkdir a
unset HOME
pushd a | sed "s|$PWD|P|g"

#### pushd and cd dash interplay
mkdir a b
pushd a >/dev/null
cd ../b
cd - | sed "s|$HOME|HOME|"
dirs
popd | sed "s|$HOME|HOME|"
pwd | sed "s|$HOME|HOME|"
