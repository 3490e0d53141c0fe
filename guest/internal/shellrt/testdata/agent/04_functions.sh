greet() {
  local who=${1:-nobody}
  printf 'hi %s\n' "$who"
  return 3
}
greet alice; echo "status=$?"
greet
sum() { local t=0; for x in "$@"; do t=$((t + x)); done; echo "$t"; }
echo "sum=$(sum 1 2 3 4)"
fib() { if [ "$1" -le 1 ]; then echo "$1"; else echo $(( $(fib $(($1-1))) + $(fib $(($1-2))) )); fi; }
fib 10
