echo -n "hello world" | base64
echo "aGVsbG8gd29ybGQ=" | base64 -d; echo
echo -n "abc" | sha256sum
echo -n "abc" | md5sum
printf 'x\n' > h.txt; sha256sum h.txt
echo "$(seq 3 | paste -sd+ | bc 2>/dev/null || echo 6)"
seq -s, 1 5
seq 10 -3 1 | tr '\n' ' '; echo
seq -w 8 11 | tr '\n' ' '; echo
