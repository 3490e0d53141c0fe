set -euo pipefail
name="world"
cat <<EOT
Hello, $name!
Today is $(echo Saturday | tr a-z A-Z).
Literal: \$name
EOT
for i in $(seq 1 5); do
  if (( i % 2 == 0 )); then echo "$i even"; else echo "$i odd"; fi
done
count=0
while read -r line; do
  count=$((count + ${#line}))
done <<< "$(printf 'ab\ncde\nf\n')"
echo "chars: $count"
