set -e
check() { [ "$1" -gt 0 ]; }
if check 0; then echo yes; else echo no; fi
check 1 && echo "one ok"
check 0 || echo "zero failed"
out=$(echo inner) ; echo "$out"
echo before
false
echo after
