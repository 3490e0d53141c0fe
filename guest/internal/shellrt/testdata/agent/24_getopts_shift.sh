parse() {
  local OPTIND opt verbose=0 out=""
  while getopts "vo:" opt; do
    case $opt in
      v) verbose=1 ;;
      o) out=$OPTARG ;;
      *) echo "bad"; return 2 ;;
    esac
  done
  shift $((OPTIND - 1))
  echo "verbose=$verbose out=$out rest=$*"
}
parse -v -o file.txt a b
parse -o x
parse c d
count() { echo $#; }
count "" "" x
set -- 1 2 3 4 5; shift 2; echo "$@"
