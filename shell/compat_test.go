package shell

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/cordonhq/cordon/shell/command"
	"github.com/cordonhq/cordon/vfs"
)

// testCommands are small external commands for the tests.
func testCommands() command.Registry {
	return command.Registry{
		"cat": func(env *command.Env) int {
			buf := make([]byte, 4096)
			for env.Ctx.Err() == nil {
				n, err := env.Stdin.Read(buf)
				if n > 0 {
					if _, werr := env.Stdout.Write(buf[:n]); werr != nil {
						fmt.Fprintf(env.Stderr, "cat: write error: %v\n", werr)
						return 1
					}
				}
				if err != nil {
					return 0
				}
			}
			return 1
		},
		"yes": func(env *command.Env) int {
			for env.Ctx.Err() == nil {
				if _, err := env.Stdout.Write([]byte("y\n")); err != nil {
					fmt.Fprintf(env.Stderr, "yes: standard output: %v\n", err)
					return 1
				}
			}
			return 1
		},
		"head1": func(env *command.Env) int {
			line, _ := bufio.NewReader(env.Stdin).ReadString('\n')
			fmt.Fprint(env.Stdout, line)
			return 0
		},
		"boom": func(env *command.Env) int {
			panic("boom")
		},
		"run": func(env *command.Env) int {
			return env.Exec(env.Ctx, env.Args[1:], nil, env.Stdin, env.Stdout, env.Stderr)
		},
	}
}

type result struct {
	stdout, stderr string
	status         int
	err            error
	fs             *vfs.FS
}

func run(t *testing.T, script string, mod ...func(*Config)) result {
	t.Helper()
	fsys := vfs.New(vfs.Limits{})
	var out, errb bytes.Buffer
	cfg := Config{
		FS:       fsys,
		Commands: testCommands(),
		Stdout:   &out,
		Stderr:   &errb,
		Now:      func() time.Time { return time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC) },
	}
	for _, m := range mod {
		m(&cfg)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	st, err := Run(ctx, cfg, "cordon", script)
	return result{out.String(), errb.String(), st, err, fsys}
}

// TestBashCompat compares with outputs and statuses of GNU bash 5.2
// (recorded by running each script as a file with bash).
func TestBashCompat(t *testing.T) {
	tests := []struct {
		script, stdout string
		status         int
	}{
		{"echo hello world", `hello world
`, 0},
		{"echo -n a; echo -e 'b\\tc'; echo -E 'd\\te'", `ab	c
d\te
`, 0},
		{"printf '%s-%d|%5.2f|%x|%o|%c|%q\\n' a 42 3.14159 255 8 xyz 'a b'", `a-42| 3.14|ff|10|x|a\ b
`, 0},
		{"printf '%s\\n' a b c", `a
b
c
`, 0},
		{"printf -v v '%03d' 7; echo \"$v\"", `007
`, 0},
		{"x=abc.tar.gz; echo ${x%.*} ${x%%.*} ${x#*.} ${x##*.} ${#x}", `abc.tar abc tar.gz gz 10
`, 0},
		{"x=hello; echo ${x/l/L} ${x//l/L} ${x/#h/H} ${x/%o/O} ${x:1:3} ${x^^} ${x^}", `heLlo heLLo Hello hellO ell HELLO Hello
`, 0},
		{"unset u; echo ${u:-def} ${u-def2} ${u:+alt}; u=set; echo ${u:+alt}", `def def2
alt
`, 0},
		{"a=(one two three); echo ${#a[@]} ${a[1]} ${a[-1]} \"${a[@]:1}\"; a+=(four); echo ${!a[@]}", `3 two three two three
0 1 2 3
`, 0},
		{"declare -A m=([k]=v [x]=y); echo ${m[k]} ${#m[@]}", `v 2
`, 0},
		{"echo $((1+2*3)) $((7/2)) $((7%3)) $((2**10)) $((1<<4)) $((x=5, x*2))", `7 3 1 1024 16 10
`, 0},
		{"i=0; while [ $i -lt 3 ]; do echo i=$i; i=$((i+1)); done", `i=0
i=1
i=2
`, 0},
		{"for x in a b c; do [ $x = b ] && continue; echo $x; done", `a
c
`, 0},
		{"for ((i=0;i<3;i++)); do echo $i; done", `0
1
2
`, 0},
		{"case foo.txt in *.sh) echo sh;; *.txt) echo txt;; esac", `txt
`, 0},
		{"f() { local x=inner; echo \"$1 $# $x\"; return 3; }; x=outer; f a b; echo $? $x", `a 2 inner
3 outer
`, 0},
		{"[[ abc == a* ]] && echo glob; [[ abc =~ ^a(b)c$ ]] && echo ${BASH_REMATCH[1]}", `glob
b
`, 0},
		{"test -z \"\" && test 3 -gt 2 && echo ok", `ok
`, 0},
		{"echo {a,b}{1,2} {1..3}", `a1 a2 b1 b2 1 2 3
`, 0},
		{"false; echo $?; ! false; echo $?", `1
0
`, 0},
		{"true && echo and; false || echo or", `and
or
`, 0},
		{"(x=sub; echo $x); echo ${x:-none}", `sub
none
`, 0},
		{"set -- a 'b c'; for p in \"$@\"; do echo \"[$p]\"; done; echo $#", `[a]
[b c]
2
`, 0},
		{"IFS=: read -r a b <<< \"1:2:3\"; echo \"$a|$b\"", `1|2:3
`, 0},
		{"read -a arr <<< \"x y z\"; echo ${arr[2]}", `z
`, 0},
		{"echo $(echo sub) `echo back`", `sub back
`, 0},
		{"echo 'single $x' \"double $HOME\"", `single $x double /workspace
`, 0},
		{"x=\"a  b\"; echo $x; echo \"$x\"", `a b
a  b
`, 0},
		{"cd /tmp && pwd; cd - >/dev/null; pwd", `/tmp
/workspace
`, 0},
		{"type echo; type -t cd; command -v printf", `echo is a shell builtin
builtin
printf
`, 0},
		{"type -t -- cd; type -- -x 2>/dev/null; echo $?", `builtin
1
`, 0},
		{"echo one >&2", "", 0},
		{"set -u; echo ${undefinedvar}; echo not reached", "", 127}, // bash -c exits 127
		{"set -e; false; echo not reached", "", 1},
		{"set -o pipefail; false | true; echo $?", `1
`, 0},
		{"x=1; readonly x; x=2; echo $x", "", 1},
		{"echo ${PIPESTATUS[@]}; true | false; echo ${PIPESTATUS[@]}", "\n0 1\n", 0},
		{"foo", "", 127},
		{"cd /nope", "", 1},
		{"trap 'echo bye' EXIT; echo hi", `hi
bye
`, 0},
		{"eval 'echo evaluated; y=2'; echo $y", `evaluated
2
`, 0},
		{"let 'z=2+3'; echo $z; (( z > 4 )) && echo big", `5
big
`, 0},
		{"printf '%s %s\\n' 1 2 3", `1 2
3 
`, 0},
		{"echo ${#@} $@", `0
`, 0},
		{"shopt -s nullglob; echo none*; echo end", "\nend\n", 0},
		{"echo $'a\\x41\\n' | cat", `aA

`, 0},
		{"x=5; echo $(( x > 3 ? 1 : 0 ))", `1
`, 0},
		{"getopts ab: o -b val; echo $o $OPTARG", `b val
`, 0},
		{"echo ${x?custom message}; echo not reached", "", 127},
		{"echo $((1/0)); echo same line", "", 1},
		{"v=$(printf 'a\\n\\n\\n'); echo \"[$v]\"", `[a]
`, 0},
		{`while read -r l; do echo "<$l>"; done <<'EOF2'
one $x
two
EOF2`, `<one $x>
<two>
`, 0},
		{`cat <<-EOF2
	tabbed $((1+1))
	EOF2`, `tabbed 2
`, 0},
		{"x=3; y=x; echo ${!y}; pre_a=1; pre_b=2; echo ${!pre_*}", `3
pre_a pre_b
`, 0},
		{"s='a,b,,c'; IFS=,; set -- $s; echo $#; for f in \"$@\"; do echo \"[$f]\"; done", `4
[a]
[b]
[]
[c]
`, 0},
		{"echo \"${@:-none}\" \"$*\"", `none 
`, 0},
		{"declare -i n=3+4; echo $n; n+=1; echo $n", `7
8
`, 0},
		{"declare -p m 2>/dev/null; declare -A m; m[a]=1; declare -p m", `declare -A m=([a]="1" )
`, 0},
		{"arr=(3 1 2); unset 'arr[1]'; echo ${arr[@]} ${#arr[@]} ${!arr[@]}", `3 2 2 0 2
`, 0},
		{"printf '%5s|%-5s|%.2s\\n' ab cd efgh", `   ab|cd   |ef
`, 0},
		{"printf '%b\\n' 'a\\tb\\c' 'not printed'", "a\tb", 0},
		{"echo \"$(( 0x10 + 010 + 2#101 ))\"", `29
`, 0},
		{"x=abc; case $x in a*c) echo m1;& b) echo fall;; *) echo no;; esac", `m1
fall
`, 0},
		{"x=abc; case $x in a*) echo first;;& *c) echo second;; esac", `first
second
`, 0},
		{"f() { local -n r=$1; r=changed; }; x=orig; f x; echo $x", "changed\n", 0},
		{"declare -n ref=arr; arr=(1 2 3); echo \"${ref[@]}\" ${#ref[@]}", "1 2 3 3\n", 0},
		{"set -- a b c; shift; echo \"$@\" $#; shift 5; echo $?", "b c 2\n1\n", 0},
		{"x='a b'; printf '[%s]' $x \"$x\"; echo", "[a][b][a b]\n", 0},
		{"IFS=, read -r a b c <<< 'x,,z'; echo \"$a|$b|$c\"", "x||z\n", 0},
		{"v=abc; echo ${v:-1} ${v: -2} ${v:0:-1}", "abc bc ab\n", 0},
		{"a=(x y); a[5]=z; echo ${#a[@]} ${!a[@]}; unset a; echo ${#a[@]}", "3 0 1 5\n0\n", 0},
		{"echo $(( -7 / 2 )) $(( -7 % 2 )) $(( 16#ff )) $(( 1 ? 2 : 3 ))", "-3 -1 255 2\n", 0},
		{"x=0; until [ $x -ge 2 ]; do x=$((x+1)); done; echo $x", "2\n", 0},
		{"for i in 1 2 3; do for j in a b; do [ $j = b ] && continue 2; echo $i$j; done; done", "1a\n2a\n3a\n", 0},
		{"trap 'echo \"exit code $?\"' EXIT; false", "exit code 1\n", 1},
		{"(trap 'echo sub-exit' EXIT; echo in-sub); echo parent", "in-sub\nsub-exit\nparent\n", 0},
		{"declare -A a; a=(k1 v1 k2 v2); echo ${a[k2]} ${#a[@]}", "v2 2\n", 0},
		{"false; eval 'echo $?'", "1\n", 0},
		{"x=(a b); echo \"$x\" \"${x}\" \"${x[1]}\"", "a a b\n", 0},
		{"set -e; f() { false; echo no; }; if f; then echo cond-ok; fi; echo after", "no\ncond-ok\nafter\n", 0},
		{"out=$(echo err >&2; echo good 2>/dev/null); echo \"$out\"", "good\n", 0},
		{"v=$'a\\nb\\nc'; echo \"${v//$'\\n'/,}\"", "a,b,c\n", 0},
		{"a=(3 1 2); IFS=$'\\n' sorted=($(printf '%s\\n' \"${a[@]}\")); unset IFS; echo \"${sorted[*]}\"", "3 1 2\n", 0},
		{"for i in 1 2 3; do for j in 1 2 3; do [[ $j == 2 ]] && continue; [[ $i == 3 ]] && break 2; echo $i$j; done; done", "11\n13\n21\n23\n", 0},
		{"echo \"${var:=assigned}\"; echo $var", "assigned\nassigned\n", 0},
		{"re='([0-9]+)-([0-9]+)'; [[ \"10-20\" =~ $re ]] && echo \"${BASH_REMATCH[1]} ${BASH_REMATCH[2]}\"", "10 20\n", 0},
		{"mapfile -t lines <<< $'l1\\nl2\\nl3'; echo ${#lines[@]} ${lines[2]}", "3 l3\n", 0},
		{"echo pre{A,B}post {x,y}{1,2} {1..10..3} {c..a}", "preApost preBpost x1 x2 y1 y2 1 4 7 10 c b a\n", 0},
		{"x=\"  lead\"; echo \"[${x#\"${x%%[![:space:]]*}\"}]\"", "[lead]\n", 0},
		{"f() { echo \"args: $#\"; shift; echo \"rest: $*\"; }; f 1 2 3", "args: 3\nrest: 2 3\n", 0},
		{"x=1; y=x; declare -n ref=y; echo $ref", "x\n", 0},
		{"echo $(( 1 << 62 )) $(( (1 << 63) - 1 )) $(( -5 / 2 ))", "4611686018427387904 9223372036854775807 -2\n", 0},
		{"f() { echo \"$FUNCNAME ${FUNCNAME[1]} $LINENO\"; }; f", "f  1\n", 0}, // bash -c has no main
		{"echo ~ ~/sub; HOME=/h; echo ~ x=~/y", "/workspace /workspace/sub\n/h x=/h/y\n", 0},
		{"read -n 3 a <<< \"abcdef\"; echo $a; read -d , b <<< \"x,y\"; echo $b", "abc\nx\n", 0},
		{"IFS= read -r line <<< \"  keep  spaces  \"; echo \"[$line]\"", "[  keep  spaces  ]\n", 0},
		{"printf '%c|%5.2s|%b|%q\\n' hello abc 'x\\ty' 'a b'", "h|   ab|x\ty|a\\ b\n", 0},
		{"x=7; echo $((x++)) $x $((--x)) $x", "7 8 7 7\n", 0},
		{"echo \"${#}\" \"${0##*/}\" >/dev/null; echo ok", "ok\n", 0},
		{"s=abc; echo ${s:-x} ${s:+y} ${s:1:1} ${s: -2:1}", "abc y b b\n", 0},
		{"a=(1 2 3 4); echo ${a[@]: -2} ${a[*]:1:2} ${#a[*]}", "3 4 2 3 4\n", 0},
		{"unset u; echo \"${u:-d}\" \"${u:=e}\" \"$u\"", "d e e\n", 0},
		{"t=\"a-b_c\"; echo ${t//[-_]/.}", "a.b.c\n", 0},
		{"echo $(( 2 ** 10 % 7 )) $(( 100 / 7 * 7 ))", "2 98\n", 0},
		{"declare -l lower=ABC; declare -u upper=abc; echo $lower $upper", "abc ABC\n", 0},
		{"printf '%s\\n' {a..e} | tail -n +1 >/dev/null; echo ok2", "ok2\n", 0},
	}
	for _, tc := range tests {
		t.Run(tc.script, func(t *testing.T) {
			res := run(t, tc.script)
			if res.stdout != tc.stdout || res.status != tc.status {
				t.Errorf("script %q:\ngot  status %d stdout %q (stderr %q)\nwant status %d stdout %q", tc.script, res.status, res.stdout, res.stderr, tc.status, tc.stdout)
			}
		})
	}
}
