cat > users.json <<'JSON'
[{"name":"ann","admin":true,"age":31,"team":"core"},{"name":"bob","admin":false,"age":25,"team":"web"},{"name":"cy","admin":true,"age":44,"team":"web"},{"name":"dee","admin":false,"age":38,"team":"core"}]
JSON
jq -r '.[] | select(.admin) | .name' users.json | sort | head
echo "---"
jq '[.[] | .age] | add / length' users.json
jq -c 'group_by(.team) | map({team: .[0].team, n: length})' users.json
jq -r '.[] | "\(.name)\t\(.age)"' users.json | sort -t$'\t' -k2 -n | tail -2
