echo '{"items":[{"id":1,"tags":["a","b"],"price":9.5},{"id":2,"tags":[],"price":12},{"id":3,"tags":["b"],"price":3.25}]}' > data.json
jq '.items | map(select(.tags | index("b"))) | map(.id)' data.json
jq -r '.items[] | [.id, .price] | @csv' data.json
jq '[.items[].price] | {min: min, max: max, total: add}' data.json
jq -r '.items | length' data.json
jq -e '.items[] | select(.id == 9)' data.json > /dev/null; echo "found=$?"
jq --arg t b '[.items[] | select(.tags | contains([$t])) | .id] | length' data.json
