printf 'id name score\n1 ann 90\n2 bob 72\n3 cy 85\n4 dee 60\n' > scores.txt
awk 'NR > 1 { total += $3; if ($3 > max) { max = $3; who = $2 } } END { printf "avg=%.1f max=%d (%s)\n", total/(NR-1), max, who }' scores.txt
awk 'NR > 1 && $3 >= 80 { print toupper($2) }' scores.txt
awk -v min=70 'NR > 1 && $3 >= min { n++ } END { print n " passed" }' scores.txt
awk '{ $1 = ""; sub(/^ /, ""); print }' scores.txt | head -2
awk 'BEGIN { OFS = "," } NR > 1 { print $2, $3 * 2 }' scores.txt
awk '{ lens[length($2)]++ } END { for (l in lens) print l, lens[l] }' scores.txt | sort -n
echo "a:b:c" | awk -F: '{ print $NF, NF }'
awk 'BEGIN { s = "hello world"; n = split(s, parts, " "); print n, parts[2], substr(s, 1, 5), index(s, "world") }'
