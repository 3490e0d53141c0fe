export GREETING=hi
sh -c 'echo "child sees $GREETING"'
LOCAL=only
sh -c 'echo "child sees [${LOCAL}]"'
VAR=temp sh -c 'echo "temp=$VAR"'
echo "after: [${VAR}]"
unset GREETING; echo "[${GREETING-unset}]"
readonly R=1; R=2 2>/dev/null; echo "R=$R"
f() { local x=inner; echo "$x"; }; x=outer; f; echo "$x"
env | grep -c '^PWD='
echo "$HOME" | grep -c /
