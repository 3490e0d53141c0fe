# Process substitution, background jobs, wait, jobs and timeout (bash
# manual, "Process Substitution", "Job Control Builtins"; coreutils'
# timeout). Only what is deterministic: no PIDs, no timing.

#### cat of a process substitution
cat <(echo hello)

#### two process substitutions
paste <(printf '1\n2\n') <(printf 'a\nb\n')

#### process substitution path exists
f=<(echo x)
echo "$f" | grep -c '^/dev/fd/[0-9]*$'

#### test -e on a process substitution
test -e <(echo x) && echo exists

#### test -r on a process substitution
[ -r <(true) ] && echo readable

#### dollar bang is set after a process substitution
cat <(echo a)
[ -n "$!" ] && echo set

#### wait for an output process substitution
echo data > >(cat >/dev/null; exit 5)
wait $!
echo "status $?"

#### output process substitution receives data
echo hello > >(tr a-z A-Z)
wait $!

#### process substitution in a while loop
while read -r l; do echo "got $l"; done < <(printf 'x\ny\n')

#### process substitution with sort
sort <(printf 'b\na\nc\n')

#### diff of two process substitutions
diff <(printf 'a\nb\n') <(printf 'a\nc\n')
echo "status $?"

#### read from a process substitution fd
exec 3< <(echo line)
read -r x <&3
echo "$x"

#### background job and wait
(echo bg; exit 4) &
wait $!
echo "status $?"

#### wait without arguments returns zero
(exit 3) &
wait
echo "status $?"

#### wait for several jobs
(exit 1) & a=$!
(exit 2) & b=$!
wait $a; echo "a $?"
wait $b; echo "b $?"

#### wait -n without jobs
wait -n
echo "status $?"

#### wait for an unknown pid
wait 99999
echo "status $?"

#### wait with a bad argument
wait abc
echo "status $?"

#### wait for a missing job spec
wait %3
echo "status $?"

#### background output ordering with wait
echo one &
wait
echo two

#### background function
f() { echo "in f $1"; return 3; }
f x &
wait $!
echo "status $?"

#### background pipeline status
true | (exit 9) &
wait $!
echo "status $?"

#### jobs after wait is empty
(exit 0) &
wait
jobs
echo "status $?"

#### jobs -p prints nothing without jobs
jobs -p
echo "status $?"

#### kill a finished job spec
(exit 0) &
wait
kill %1
echo "status $?"

#### background subshell variables do not leak
x=1
{ x=2; } &
wait
echo "$x"

#### timeout passes the status
timeout 5 sh -c 'exit 3'
echo "status $?"

#### timeout does not duplicate stderr
timeout 5 sh -c 'echo err >&2'
echo "status $?"

#### timeout prints stdout once
timeout 5 sh -c 'echo out'

#### timeout expiry status 124
timeout 0.1 sleep 5
echo "status $?"

#### timeout of a missing command
timeout 5 nosuchcmd_xyz
echo "status $?"

#### timeout invalid duration
timeout abc true
echo "status $?"

#### timeout with no command
timeout 5
echo "status $?"

#### timeout with kill-after and signal options
timeout -s KILL 5 true
echo "status $?"
timeout -k 1 5 true
echo "status $?"

#### timeout preserve status
timeout --preserve-status 5 sh -c 'exit 2'
echo "status $?"

#### timeout of a directory
mkdir d
timeout 5 ./d
echo "status $?"

#### timeout of a non executable file
echo 'echo hi' > s.sh
timeout 5 ./s.sh
echo "status $?"

#### timeout with a zero duration runs without limit
timeout 0 sh -c 'echo ran'
echo "status $?"

#### timeout of a builtin name
timeout 5 echo hi
echo "status $?"

#### timeout with invalid option
timeout --bogus 5 true
echo "status $?"

#### process substitution inside a function
f() { cat <(echo "arg $1"); }
f z

#### nested process substitution
cat <(cat <(echo deep))

#### process substitution as a command argument list
wc -l <(printf '1\n2\n3\n') | sed 's|/dev/fd/[0-9]*|F|'

#### wait in a loop over pids
pids=()
for i in 1 2 3; do (exit $i) & pids+=($!); done
for p in "${pids[@]}"; do wait "$p"; echo "$?"; done

#### kill with no arguments
kill
echo "status $?"

#### kill of missing jobs and processes
kill %1
echo "status $?"
kill 99999
echo "status $?"
kill -9 %2
echo "status $?"
kill abc
echo "status $?"

#### kill with a bad signal
kill -s FOO 1
echo "status $?"
kill -FOO 1
echo "status $?"

#### kill -l lists signals
kill -l
kill -l 9 KILL SIGTERM 130 0 EXIT 35
kill -l 99
echo "status $?"

#### wait for a pid twice
(exit 4) & p=$!
wait "$p"; echo "first $?"
wait "$p"; echo "second $?"

#### test -p on a process substitution
[ -p <(true) ] && echo pipe
[ -p /dev/fd/9 ] || echo no

#### test -e on a closed fd
[ -e /dev/fd/9 ] || echo closed
exec 9</dev/null
[ -e /dev/fd/9 ] && echo open

#### dollar bang after an output process substitution
: > >(cat)
[ -n "$!" ] && echo set
wait $!
echo "status $?"

#### timeout with a function name
f() { echo in-f; }
timeout 5 f
echo "status $?"

#### process substitution status does not change dollar question
cat <(false)
echo "status $?"

#### read from a process substitution
read -r x < <(echo hi)
echo "$x"

#### mapfile from a process substitution
mapfile -t arr < <(printf 'a\nb\n')
echo "${#arr[@]} ${arr[1]}"

#### while loop variables persist with process substitution
count=0
while read -r l; do count=$((count + 1)); done < <(printf '1\n2\n3\n')
echo "$count"

#### source a process substitution
source <(echo 'x=5')
echo "$x"
. <(echo 'echo sourced')

#### diff of equal process substitutions
diff <(echo a) <(echo a) && echo same

#### paste of process substitutions
paste -d, <(seq 3) <(seq 4 6)

#### command substitution around a process substitution
echo "$(cat <(echo nested))"

#### background false and wait
false &
wait $!
echo "status $?"

#### background exit status is taken modulo 256
(exit 300) &
wait $!
echo "status $?"

#### wait for an empty id
wait ""
echo "status $?"

#### timeout of a quick command
timeout 1 sleep 0.1
echo "status $?"
timeout 5 false
echo "status $?"

#### timeout verbose
timeout -v 0.1 sleep 5
echo "status $?"

#### timeout of a busy loop
timeout 0.2 sh -c 'while :; do :; done'
echo "status $?"

#### timeout with kill and preserve-status
timeout -k 0.1 0.1 sleep 5
echo "status $?"
timeout --preserve-status 0.1 sleep 5
echo "status $?"

#### timeout duration units
timeout 5s true; echo "status $?"
timeout 1m true; echo "status $?"
timeout 5x true; echo "status $?"
timeout -- 5 true; echo "status $?"

#### timeout with a bad signal
timeout -s FOO 5 true
echo "status $?"

#### timeout passes stdin through
echo piped | timeout 5 cat

#### timeout of a script with x
printf 'echo script-ran\nexit 7\n' > s.sh
chmod +x s.sh
timeout 5 ./s.sh
echo "status $?"

#### kill -0 asks whether a process is there
kill -0 $$ && echo self
(exit 0) & p=$!
wait "$p"
kill -0 "$p" 2>/dev/null
echo "status $?"
kill -s 0 $$; echo "status $?"
