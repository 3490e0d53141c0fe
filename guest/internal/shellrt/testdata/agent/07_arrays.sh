fruits=(apple banana cherry)
fruits+=(date)
echo "${#fruits[@]} ${fruits[1]} ${fruits[-1]}"
for f in "${fruits[@]}"; do printf '%s,' "$f"; done; echo
declare -A color=([apple]=red [banana]=yellow)
color[cherry]=red
for k in apple banana cherry; do echo "$k=${color[$k]}"; done
echo "${!color[@]}" | tr ' ' '\n' | sort | tr '\n' ' '; echo
s="hello world foo"
read -ra words <<< "$s"
echo "${words[2]} ${#words[@]}"
echo "${s^^} ${s/world/there} ${s#hello } ${s%% *}"
