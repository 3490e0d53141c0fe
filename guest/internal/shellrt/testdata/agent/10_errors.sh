cat missing.txt 2>/dev/null || echo "cat failed: $?"
ls nothing 2>&1 | head -1 | sed 's/^ls: //'
nosuchcommand 2>/dev/null; echo "status=$?"
(exit 3); echo "subshell=$?"
false | true; echo "pipe=$?"
set -o pipefail; false | true; echo "pipefail=$?"
x=$(echo out; exit 4); echo "subst=$? x=$x"
echo err >&2 2>/dev/null
{ echo a; echo b >&2; } 2>&1 | sort
