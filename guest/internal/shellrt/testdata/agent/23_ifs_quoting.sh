s="a  b   c"
for w in $s; do printf '[%s]' "$w"; done; echo
for w in "$s"; do printf '[%s]' "$w"; done; echo
IFS=: read -r x y z <<< "1:2:3"; echo "$x-$y-$z"
arr=("with space" 'single' "dq \"x\"")
printf '<%s>\n' "${arr[@]}"
printf '<%s>\n' "${arr[*]}"
echo 'it'\''s' "a\$b" $'tab\there'
v='*'; echo "$v" 
echo "$(echo "nested $(echo deep)")"
empty=""; set -- $empty; echo "args=$#"
set -- "a b" c; echo "$#: $1"
echo ${#@}
