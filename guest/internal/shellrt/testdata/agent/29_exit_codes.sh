f() { return 7; }
f; echo $?
! f; echo $?
true && false || echo "or-branch $?"
(( 0 )); echo "arith0=$?"
(( 5 )); echo "arith5=$?"
[ 1 = 2 ]; echo "test=$?"
grep -q zzz <<< "abc"; echo "grep=$?"
grep zzz nofile 2>/dev/null; echo "grep-missing=$?"
jq . <<< '{bad' 2>/dev/null; echo "jq=$?"
awk 'BEGIN { exit 3 }'; echo "awk=$?"
sh -c 'exit 5'; echo "sh=$?"
exit 42
