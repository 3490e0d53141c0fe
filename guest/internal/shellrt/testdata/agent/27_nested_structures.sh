result=""
for i in 1 2 3; do
  for j in a b; do
    [ "$i" = 2 ] && [ "$j" = b ] && continue
    result+="$i$j "
  done
  [ "$i" = 3 ] && break
done
echo "$result"
i=0
until [ $i -ge 3 ]; do echo "u$i"; i=$((i+1)); done
x=10
while [ $x -gt 0 ]; do x=$((x - 3)); done; echo "x=$x"
case "yes" in y*) echo starts-y ;& n*) echo fallthrough ;; *) echo no ;; esac
if [ -d /workspace ] || [ -d . ]; then echo dir; fi
f() { echo "in f: $1"; g "$@"; }
g() { echo "in g: $#"; }
f one two
