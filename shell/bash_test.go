package shell

import (
	"testing"
	"time"
)

// bashFixture makes the files the scripts of TestBuiltinsAgainstBash
// run in, in the shell's working directory /workspace. The outputs were
// recorded with GNU bash 5.2.15 running each script in a directory made
// the same way:
//
//	printf 'x\n' > f; : > e; mkdir -p d/sub; printf a > d/a.txt; printf b > d/sub/b.txt
//	printf 'echo ran\n' > run.sh; chmod 755 run.sh
//	: > old; : > new; touch -d 2020-01-01 old; touch -d 2024-01-01 new
func bashFixture(t *testing.T) func(*Config) {
	return func(c *Config) {
		p := c.FS.Privileged()
		for _, err := range []error{
			p.MkdirAll("/workspace/d/sub", 0o755),
			p.WriteFile("/workspace/f", []byte("x\n"), 0o644),
			p.WriteFile("/workspace/e", nil, 0o644),
			p.WriteFile("/workspace/d/a.txt", []byte("a"), 0o644),
			p.WriteFile("/workspace/d/sub/b.txt", []byte("b"), 0o644),
			p.WriteFile("/workspace/run.sh", []byte("echo ran\n"), 0o755),
			p.WriteFile("/workspace/old", nil, 0o644),
			p.WriteFile("/workspace/new", nil, 0o644),
			p.Chtimes("/workspace/old", time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC)),
			p.Chtimes("/workspace/new", time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)),
		} {
			if err != nil {
				t.Fatal(err)
			}
		}
	}
}

// TestBuiltinsAgainstBash runs scripts over the builtins agents lean on
// (test and [ with POSIX's rules by argument count, the file tests, -v and
// -o, [[ ]], set -x, declare -p, let, arithmetic assignment to variables,
// array and map elements, globstar, ${x@op}, command -v and type, the
// function printer's round trip, set -o, source, exec and builtins called
// by name) and compares stdout and stderr with what bash printed for the
// same script on the same files (bashFixture). In the scripts, t runs a
// command and prints its status, so that one line checks many.
func TestBuiltinsAgainstBash(t *testing.T) {
	for _, c := range []struct{ name, script, stdout, stderr string }{
		{"test and [ by argument count", `t() { "$@"; echo -n "$? "; }
t [ ]; t [ x ]; t [ '' ]; t [ ! ]; t [ ! x ]; t [ ! '' ]; echo
t [ -n '' ]; t [ -z '' ]; t [ a = a ]; t [ a == b ]; t [ a != a ]; t [ a '<' b ]; t [ b '>' a ]; echo
t [ 2 -lt 10 ]; t [ 10 -le 2 ]; t [ -3 -ge -3 ]; t [ ' 2' -eq 2 ]; t [ 1 -ne 1 ]; t [ 7 -gt 3 ]; echo
t [ ! a = a ]; t [ '(' x ')' ]; t [ '(' '' ')' ]; t [ ! '(' a = b ')' ]; t [ '(' a = b ')' ]; echo
t [ a = a -a b = c ]; t [ a = a -o b = c ]; t [ '' -o x ]; t [ x -a '' ]; t [ ! a = b -a '(' x -o '' ')' ]; echo
t test a = a; t test; t test -n; t [ -z ]; t [ = ]; t [ -a ]; echo
`,
			"1 0 1 0 1 0 \n1 0 0 1 1 0 0 \n0 1 0 0 1 0 \n1 0 1 0 1 \n1 0 0 1 0 \n0 1 0 0 0 0 \n",
			""},
		{"file tests", `t() { "$@"; echo -n "$? "; }
t [ -e f ]; t [ -f f ]; t [ -d f ]; t [ -s f ]; t [ -s e ]; t [ -e nope ]; t [ -a f ]; echo
t [ -d d ]; t [ -f d ]; t [ -e d/ ]; t [ -x run.sh ]; t [ -x f ]; t [ -x d ]; echo
t [ -f "$PWD/f" ]; t [ -e '' ]; t [ -e /dev/null ]; t [ -f /dev/null ]; t [ -c /dev/null ]; t [ -L f ]; echo
t [ new -nt old ]; t [ old -nt new ]; t [ old -ot new ]; t [ nope -ot new ]; t [ new -nt nope ]; t [ nope -nt new ]; t [ new -ot nope ]; echo
t [ f -ef f ]; t [ f -ef e ]; t [ f -ef ./f ]; t [ f -ef nope ]; echo
cd d; t [ -f a.txt ]; t [ -f ../f ]; t [ -d sub ]; echo
`,
			"0 0 1 0 1 1 0 \n0 1 0 0 1 0 \n0 1 0 1 0 1 \n0 1 0 0 0 1 1 \n0 1 0 1 \n0 0 0 \n",
			""},
		{"-v, -o and usage errors", `t() { "$@"; echo -n "$? "; }
x=1; a=(p q); declare -A m=([k]=v); e=
t [ -v x ]; t [ -v y ]; t [ -v e ]; t [ -v a[1] ]; t [ -v a[2] ]; t [ -v a[-1] ]; t [ -v a ]; t [ -v m[k] ]; t [ -v m[z] ]; t [ -v x[0] ]; echo
set -o pipefail; t [ -o pipefail ]; t [ -o noclobber ]; t [ -o nosuchopt ]; echo
[ 1 -eq x ]; echo "st=$?"
[ a b ]; echo "st=$?"
[ a; echo "st=$?"
[ a b c d e ]; echo "st=$?"
test -q x; echo "st=$?"
[ '(' a ]; echo "st=$?"
`,
			"0 1 0 0 1 0 0 0 1 0 \n0 1 1 \nst=2\nst=2\nst=2\nst=2\nst=2\nst=2\n",
			"cordon: line 5: [: x: integer expression expected\ncordon: line 6: [: a: unary operator expected\ncordon: line 7: [: missing `]'\ncordon: line 8: [: too many arguments\ncordon: line 9: test: -q: unary operator expected\ncordon: line 10: [: (: unary operator expected\n"},
		{"[[ ]]", `t() { "$@"; echo -n "$? "; }
x=1
[[ -f f && ! -d f ]]; echo -n "$? "; [[ -d f || -d d ]]; echo -n "$? "; [[ ( -e nope ) ]]; echo -n "$? "
[[ new -nt old ]]; echo -n "$? "; [[ 1+1 -eq 2 ]]; echo -n "$? "; [[ x -eq 1 ]]; echo -n "$? "
[[ abc == a* ]]; echo -n "$? "; [[ abc != a?c ]]; echo -n "$? "; [[ abc == "a*" ]]; echo -n "$? "
[[ b < c ]]; echo -n "$? "; [[ -v x ]]; echo -n "$? "; [[ -z $nope ]]; echo -n "$? "; [[ -n $x ]]; echo "$? "
[[ foo-123 =~ ^([a-z]+)-([0-9]+)$ ]] && echo "${BASH_REMATCH[0]} ${BASH_REMATCH[1]} ${BASH_REMATCH[2]}"
re='^[0-9]+$'; [[ 42 =~ $re ]]; echo $?; [[ x42 =~ $re ]]; echo $?
`,
			"0 0 1 0 0 0 0 1 1 0 0 0 0 \nfoo-123 foo 123\n0\n1\n",
			""},
		{"set -x", `set -x
x=1 y="a b"
echo "$x" $y
f() { echo in f; }
f arg
[[ $x == 1 ]]
z=$(echo sub)
set +x
echo done
`,
			"1 a b\nin f\ndone\n",
			"+ x=1\n+ y='a b'\n+ echo 1 a b\n+ f arg\n+ echo in f\n+ [[ 1 == 1 ]]\n++ echo sub\n+ z=sub\n+ set +x\n"},
		{"declare -p and let", `declare -i n=5; n+=2; declare -p n
declare -a a=(x 'y z'); declare -p a
declare -A m=([k]=v); declare -p m
declare -r r=1; declare -p r
declare -x e=exp; declare -p e
s='it'"'"'s'; declare -p s
declare -p nope; echo "st=$?"
f() { echo "hi $1"; }
declare -F f; declare -F nope; echo "st=$?"
let 'z = 3 * 4' 'w = z + 1'; echo $z $w; let 0; echo "st=$?"; let 'q = 2'; echo "st=$?"
`,
			"declare -i n=\"7\"\ndeclare -a a=([0]=\"x\" [1]=\"y z\")\ndeclare -A m=([k]=\"v\" )\ndeclare -r r=\"1\"\ndeclare -x e=\"exp\"\ndeclare -- s=\"it's\"\nst=1\nf\nst=1\n12 13\nst=1\nst=0\n",
			"cordon: line 7: declare: nope: not found\n"},
		{"arithmetic assignment", `a=(1 2 3); (( a[1] += 10 )); (( a[2]++ )); (( ++a[0] )); echo "${a[@]}"
declare -A m; (( m[x] = 4 )); (( m[x] *= 2 )); echo ${m[x]}
i=0; (( b[i++] = 7 )); echo "${b[0]} $i"
x=5; (( x <<= 2, x |= 1 )); echo $x
(( y = x > 10 ? 1 : 2 )); echo $y
echo $(( 2 ** 10 )) $(( -7 / 2 )) $(( -7 % 3 )) $(( 0x1f )) $(( 8#17 )) $(( 2#101 )) $(( 36#z ))
s=3; (( s-- )); (( s -= 1 )); (( s /= 1 )); (( s %= 5 )); (( s ^= 3 )); (( s &= 7 )); (( s >>= 1 )); echo $s
(( 1 / 0 )) 2>/dev/null; echo "st=$?"
(( 0 )); echo "st=$?"
declare -A n; (( n[k]++ )); declare -p n
`,
			"2 12 4\n8\n7 1\n21\n1\n1024 -3 -1 31 15 5 35\n1\nst=1\nst=1\ndeclare -A n=([k]=\"1\" )\n",
			""},
		{"globstar", `shopt -s globstar; echo **/*.txt; echo d/**/
shopt -u globstar; echo **/*.txt
`,
			"d/a.txt d/sub/b.txt\nd/ d/sub/\nd/a.txt\n",
			""},
		{"${x@op}", `x="a b'c"; echo "${x@Q}"; y=hello; echo "${y@U} ${y@u} ${y@L}"
a=(1 'two 2'); echo "${a[@]@Q}"; declare -i n=3; echo "${n@a}"
e='\t|\x41'; echo "${e@E}"
`,
			"'a b'\\''c'\nHELLO Hello hello\n'1' 'two 2'\ni\n\t|A\n",
			""},
		{"command -v and type", `command -v echo; command -v cd; command -v nosuch; echo "st=$?"
f() { :; }; command -v f; type -t f cd echo; type -P echo
command -V cd
command -v ./run.sh; command -v ./nope; echo "st=$?"
`,
			"echo\ncd\nst=1\nf\nfunction\nbuiltin\nbuiltin\n/usr/bin/echo\ncd is a shell builtin\n./run.sh\nst=1\n",
			""},
		{"declare -f round trip, set -o", `f() { local v=1; echo "hi $1" | cat; }
type -t f; src=$(declare -f f); unset -f f; type -t f; echo "st=$?"; eval "$src"; f there
g() { if [[ $1 == x ]]; then return 1; fi; for i in a b; do echo -n $i; done; echo; }
src=$(declare -f g); unset -f g; eval "$src"; g y; g x; echo "st=$?"
set -o pipefail; set -o | while read -r n v; do case $n in errexit|pipefail|noclobber) echo "$n=$v";; esac; done
set +o | while read -r l; do case $l in *errexit|*pipefail) echo "$l";; esac; done
`,
			"function\nst=1\nhi there\nab\nst=1\nerrexit=off\nnoclobber=off\npipefail=on\nset +o errexit\nset -o pipefail\n",
			""},
		{"PS4", `PS4='> '
set -x
b=x
echo "$b" > /dev/null
[[ ab =~ ^a ]]
set +x
echo ps4
`,
			"ps4\n",
			"> b=x\n> echo x\n> [[ ab =~ ^a ]]\n> set +x\n"},
		{"source, exec, builtins by name", `./run.sh; echo "st=$?"
printf 'echo "args: $# $1"; return 3; echo no\n' > lib.sh
source lib.sh a b; echo "st=$?"
. ./lib.sh; echo "st=$?"
source nope.sh 2>/dev/null; echo "st=$?"
exec 3> out.txt; echo to3 >&3; exec 3>&-; cat < out.txt
echo x >&3; echo "st=$?"
x=$(exec echo replaced; echo never); echo "$x"
d=declare; $d -i k=2+3; echo $k; l=let; $l 'q = k * 2'; echo $q
builtin let 'r = 1 + 1'; echo $r; command declare -p r
e=export; $e EX=1; declare -p EX; ro=readonly; $ro RO=2; (RO=3) 2>/dev/null; echo "st=$? RO=$RO"
echo "$-"; set -eu; echo "$-"; set +eu
a=(p q r); i=1; unset 'a[$i]'; echo "${!a[@]} ${a[@]}"
printf -v 'a[5]' '%s-%s' x y; echo "${a[5]}"
echo \*.nope "d/*".txt d/*.txt 'd/'*.txt
`,
			"ran\nst=0\nargs: 2 a\nst=3\nargs: 0 \nst=3\nst=1\nto3\nst=1\nreplaced\n5\n10\n2\ndeclare -- r=\"2\"\ndeclare -x EX=\"1\"\nst=1 RO=2\nhBc\nehuBc\n0 2 p r\nx-y\n*.nope d/*.txt d/a.txt d/a.txt\n",
			"cordon: line 7: 3: Bad file descriptor\n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			res := run(t, c.script, bashFixture(t))
			if res.err != nil || res.status != 0 || res.stdout != c.stdout || res.stderr != c.stderr {
				t.Errorf("status %d, err %v\nstdout:\n%s\nbash:\n%s\nstderr:\n%s\nbash:\n%s", res.status, res.err, res.stdout, c.stdout, res.stderr, c.stderr)
			}
		})
	}
}
