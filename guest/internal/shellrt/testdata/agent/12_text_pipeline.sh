cat > words.txt <<'W'
the quick brown fox jumps over the lazy dog
The dog barks
a fox is quick
W
tr -s ' ' '\n' < words.txt | tr 'A-Z' 'a-z' | sort | uniq -c | sort -k1,1nr -k2 | head -5
wc -w < words.txt
wc -l words.txt
grep -iw the words.txt | wc -l
awk '{ print NF, $1 }' words.txt
tr -d 'aeiou' < words.txt | head -1
rev <<< "stressed" 2>/dev/null || echo "no rev"
cut -c1-9 words.txt
