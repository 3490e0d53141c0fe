classify() {
  case "$1" in
    *.json) echo json ;;
    *.csv|*.tsv) echo table ;;
    [0-9]*) echo number ;;
    *) echo other ;;
  esac
}
for x in a.json b.tsv 42x readme; do classify "$x"; done
[ -z "" ] && echo empty
[[ "abc" == a* ]] && echo glob
[[ "v1.2.3" =~ ^v([0-9]+)\.([0-9]+) ]] && echo "major=${BASH_REMATCH[1]} minor=${BASH_REMATCH[2]}"
test 3 -lt 10 && echo lt
[ -f nope.txt ] || echo "no file"
x=5; (( x > 3 )) && echo big
