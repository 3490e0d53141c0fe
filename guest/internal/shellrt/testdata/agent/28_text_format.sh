printf 'name,qty\napple,3\n' | tr , '\t'
printf '%-10s %5s\n' item qty apple 3 banana 12
echo "a b c" | tr ' ' '\n' | nl 2>/dev/null | head -3
printf 'c\nb\na\n' | sort | paste -sd, -
echo "HeLLo" | tr '[:upper:]' '[:lower:]'
echo "a1b2c3" | tr -cd '0-9'; echo
echo "aaabbb" | tr -s 'ab'
printf 'x\ty\n' | cut -f2
echo "k=v=w" | cut -d= -f2-
fold -w 4 <<< "abcdefghij"
