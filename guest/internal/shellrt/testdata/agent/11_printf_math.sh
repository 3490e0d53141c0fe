printf '%5s|%-5s|%05d|%x|%o|%.3f|%e\n' ab cd 42 255 8 3.14159 12345.678
printf '%s\n' one two three
printf '%d%%\n' 50
echo $(( 7 / 2 )) $(( 7 % 3 )) $(( 2 ** 10 )) $(( (1 + 2) * 3 )) $(( -7 / 2 ))
echo "scale: $(awk 'BEGIN { printf "%.2f", 10/3 }')"
n=0; for i in {1..10}; do (( n += i )); done; echo "$n"
echo $(( 16#ff )) $(( 0x10 )) $(( 1 << 4 ))
printf '%s=%s\n' a 1 b 2
