echo '{"name":"x","id":1,"meta":{"z":1,"a":2}}' | jq .
echo '{"b":1,"a":2}' | jq -c '{a, b}'
echo '[{"key":"x","value":1}]' | jq -c 'from_entries'
echo '{"a":1,"b":2}' | jq -c 'to_entries | map(.value) '
echo '{"a":[1,2,{"c":null}]}' | jq -c '.. | numbers'
echo '"text"' | jq -r 'ascii_upcase'
echo '{"s":"a,b,c"}' | jq -c '.s | split(",")'
echo '[1,2,3]' | jq 'map(select(. > 1)) | length'
jq -n '"\(1 + 2) items"'
echo '{"n": 1.5e3, "f": 0.1, "big": 100000000000000000000}' | jq -c .
