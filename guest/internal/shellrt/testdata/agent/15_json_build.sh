names=(ann bob cy)
{
  echo '['
  for i in "${!names[@]}"; do
    sep=","; [ "$i" -eq $((${#names[@]} - 1)) ] && sep=""
    printf '  {"id": %d, "name": "%s"}%s\n' "$i" "${names[$i]}" "$sep"
  done
  echo ']'
} > out.json
jq -c '.[] | select(.id > 0)' out.json
jq -n --argjson n 3 '[range($n)] | map(. * 2)'
jq -n '{a: 1, b: [1, 2]} | .b | length'
echo '{"a":{"b":{"c":42}}}' | jq '.a.b.c'
echo '[3,1,2]' | jq -c 'sort, reverse, (map(. + 1))'
