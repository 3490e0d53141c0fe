printf '10\n9\n100\n9\n1\n' > nums
sort nums | tr '\n' ' '; echo
sort -n nums | tr '\n' ' '; echo
sort -nu nums | tr '\n' ' '; echo
sort -rn nums | head -2 | tr '\n' ' '; echo
printf 'b 2\na 10\nc 1\na 3\n' | sort -k2,2n
printf 'b 2\na 10\nc 1\na 3\n' | sort -k1,1 -k2,2nr
printf 'x\nx\ny\nx\n' | uniq -c
printf 'x\nx\ny\nz\nz\n' | uniq -d
printf 'x\nx\ny\nz\nz\n' | uniq -u
printf '1K\n2M\n512\n1G\n' | sort -h | tr '\n' ' '; echo
