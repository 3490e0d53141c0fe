package awk

// Expected outputs verified against mawk 1.3.4 on this machine, except
// where noted "(gawk)": there mawk differs from gawk --posix and the
// expectation follows gawk.
var cases = []awkCase{
	{name: "{print $1, $NF}", args: []string{"{print $1, $NF}"}, stdin: `a b c
`, want: `a c
`, status: 0},
	{name: "{print NF; print $1 \"|\" $2}", args: []string{`{print NF; print $1 "|" $2}`}, stdin: `  a   b  
`, want: `2
a|b
`, status: 0},
	{name: "F comma", args: []string{"-F,", "{print NF, $3, $4}"}, stdin: `a,b,,c
`, want: `4  c
`, status: 0},
	{name: "F tab escape", args: []string{`-F\t`, "{print $2}"}, stdin: `a	b c	d
`, want: `b c
`, status: 0},
	{name: "F tab separate", args: []string{"-F", `\t`, "{print $2}"}, stdin: `a	b c	d
`, want: `b c
`, status: 0},
	{name: "F regex", args: []string{"-F[0-9]+", "{print NF, $2, $4}"}, stdin: `a1b22c333d
`, want: `4 b d
`, status: 0},
	{name: "F pipe", args: []string{"-F|", "{ print $2 }"}, stdin: `a|b|c
`, want: `b
`, status: 0},
	{name: "F dot", args: []string{"-F.", "{ print $2, NF }"}, stdin: `a.b.c
`, want: `b 3
`, status: 0},
	{name: "F class", args: []string{"-F[xX]", "{ print $3 }"}, stdin: `aXbxc
`, want: `c
`, status: 0},
	{name: "F backslash", args: []string{`-F\\`, "{ print $2 }"}, stdin: `a\b
`, want: `b
`, status: 0},
	{name: "F single space bracket", args: []string{"-F[ ]", "{ print NF }"}, stdin: `a  b
`, want: `3
`, status: 0},
	{name: "field-separator long (gawk)", args: []string{"--field-separator=:", "{ print $2 }"}, stdin: `a:b
`, want: `b
`, status: 0},
	{name: "BEGIN { FS = \"\" } { print NF, $2 }", args: []string{`BEGIN { FS = "" } { print NF, $2 }`}, stdin: `abc
`, want: `3 b
`, status: 0},
	{name: "{ FS = \":\"; print $1 }", args: []string{`{ FS = ":"; print $1 }`}, stdin: `a:b c
d:e f
`, want: `a:b
d
`, status: 0},
	{name: "{ FS = \":\"; $0 = $0; print $1 }", args: []string{`{ FS = ":"; $0 = $0; print $1 }`}, stdin: `a:b c
`, want: `a
`, status: 0},
	{name: "NR==2", args: []string{"NR==2"}, stdin: `l1
l2
l3
`, want: `l2
`, status: 0},
	{name: "END{print NR, $0}", args: []string{"END{print NR, $0}"}, stdin: `l1
l2
l3
`, want: `3 l3
`, status: 0},
	{name: "NR==2,NR==4 {print \"r\", $0}", args: []string{`NR==2,NR==4 {print "r", $0}`}, stdin: `1
2
3
4
5
`, want: `r 2
r 3
r 4
`, status: 0},
	{name: "/2/,/2/", args: []string{"/2/,/2/"}, stdin: `1
2
3
`, want: `2
`, status: 0},
	{name: "/ba/", args: []string{"/ba/"}, stdin: `foo
bar
baz
`, want: `bar
baz
`, status: 0},
	{name: "!/ba/", args: []string{"!/ba/"}, stdin: `foo
bar
baz
`, want: `foo
`, status: 0},
	{name: "$1 == \"x\", $1 == \"y\" { print NR }", args: []string{`$1 == "x", $1 == "y" { print NR }`, "data1.txt"}, stdin: "", want: `1
2
3
`, status: 0},
	{name: "NR == 1, 0", args: []string{"NR == 1, 0", "data1.txt"}, stdin: "", want: `x 1
y 2
x 3
`, status: 0},
	{name: "$2 > 1", args: []string{"$2 > 1", "data1.txt"}, stdin: "", want: `y 2
x 3
`, status: 0},
	{name: "/x/ { n++ } END { print n + 0 }", args: []string{"/x/ { n++ } END { print n + 0 }", "data1.txt"}, stdin: "", want: `2
`, status: 0},
	{name: "{ $2 = \"\"; print; print NF }", args: []string{`{ $2 = ""; print; print NF }`}, stdin: `a b c
`, want: `a  c
3
`, status: 0},
	{name: "{ NF = 5; print; $0 = \"x y\"; print NF, $", args: []string{`{ NF = 5; print; $0 = "x y"; print NF, $1 }`}, stdin: `a b c
`, want: `a b c  
2 x
`, status: 0},
	{name: "BEGIN { OFS = \"-\" } { $1 = $1; print; pr", args: []string{`BEGIN { OFS = "-" } { $1 = $1; print; print $0 }`}, stdin: `a b c
`, want: `a-b-c
a-b-c
`, status: 0},
	{name: "BEGIN { OFS = \"-\" } { print; print $1, $", args: []string{`BEGIN { OFS = "-" } { print; print $1, $2 }`}, stdin: `a b c
`, want: `a b c
a-b
`, status: 0},
	{name: "{ $3 = \"three\"; print NF; print }", args: []string{`{ $3 = "three"; print NF; print }`}, stdin: `one two
`, want: `3
one two three
`, status: 0},
	{name: "{ NF = 1; print; print NF }", args: []string{"{ NF = 1; print; print NF }"}, stdin: `one two
`, want: `one
1
`, status: 0},
	{name: "{ $1 = $1; print \"[\" $0 \"]\" }", args: []string{`{ $1 = $1; print "[" $0 "]" }`}, stdin: `  lead  trail  
`, want: `[lead trail]
`, status: 0},
	{name: "{ for (i = NF; i > 0; i--) printf \"%s%s\"", args: []string{`{ for (i = NF; i > 0; i--) printf "%s%s", $i, (i > 1 ? OFS : ORS) }`}, stdin: `a b c d
`, want: `d c b a
`, status: 0},
	{name: "{ $0 = \"x y z\"; print NF, $3 }", args: []string{`{ $0 = "x y z"; print NF, $3 }`}, stdin: `a b
`, want: `3 z
`, status: 0},
	{name: "BEGIN { $0 = \"a b c\"; print NF, $2; $5 =", args: []string{`BEGIN { $0 = "a b c"; print NF, $2; $5 = "e"; print; print NF }`}, stdin: "", want: `3 b
a b c  e
5
`, status: 0},
	{name: "BEGIN { $3 = \"c\"; print NF; print \"[\" $0", args: []string{`BEGIN { $3 = "c"; print NF; print "[" $0 "]" }`}, stdin: "", want: `3
[  c]
`, status: 0},
	{name: "BEGIN { $0 = \"1 2 3\"; $2 += 10; print; $", args: []string{`BEGIN { $0 = "1 2 3"; $2 += 10; print; $(1+1) = "z"; print }`}, stdin: "", want: `1 12 3
1 z 3
`, status: 0},
	{name: "BEGIN { $0 = \"1 2 3\"; print $NF; print $", args: []string{`BEGIN { $0 = "1 2 3"; print $NF; print $(NF-1); print $NF-1 }`}, stdin: "", want: `3
2
2
`, status: 0},
	{name: "BEGIN { $0 = \"1 2 3\"; i = 1; print $i++,", args: []string{`BEGIN { $0 = "1 2 3"; i = 1; print $i++, i; print $++i, i }`}, stdin: "", want: `1 1
2 2
`, status: 0},
	{name: "BEGIN { $0 = \"3 2 1\"; print $$1 }", args: []string{`BEGIN { $0 = "3 2 1"; print $$1 }`}, stdin: "", want: `1
`, status: 0},
	{name: "BEGIN { $0 = \"a b c\"; NF = 2; print; pri", args: []string{`BEGIN { $0 = "a b c"; NF = 2; print; print NF }`}, stdin: "", want: `a b
2
`, status: 0},
	{name: "BEGIN { OFS = \":\"; $0 = \"a b c\"; $1 = $1", args: []string{`BEGIN { OFS = ":"; $0 = "a b c"; $1 = $1; print }`}, stdin: "", want: `a:b:c
`, status: 0},
	{name: "{ $1 = $1 + 0.5; print; print ($1 == 1.5", args: []string{"{ $1 = $1 + 0.5; print; print ($1 == 1.5) }"}, stdin: `1 2
`, want: `1.5 2
1
`, status: 0},
	{name: "BEGIN { ORS = \"|\"; print \"a\"; print \"b\" ", args: []string{`BEGIN { ORS = "|"; print "a"; print "b" }`}, stdin: "", want: "a|b|", status: 0},
	{name: "{ print length, length $0 }", args: []string{"{ print length, length $0 }"}, stdin: `abc
`, want: `3 3abc
`, status: 0},
	{name: "BEGIN { RS = \"\" } { for (i = 1; i <= NF;", args: []string{`BEGIN { RS = "" } { for (i = 1; i <= NF; i++) print i, $i }`, "data1.txt"}, stdin: "", want: `1 x
2 1
3 y
4 2
5 x
6 3
`, status: 0},
	{name: "BEGIN{RS=\"\"}{print NR\": \"$0; print NF}", args: []string{`BEGIN{RS=""}{print NR": "$0; print NF}`}, stdin: `p1 l1
p1 l2



p2 l1
`, want: `1: p1 l1
p1 l2
4
2: p2 l1
2
`, status: 0},
	{name: "BEGIN{RS=\";\"}{print NR, $0}", args: []string{`BEGIN{RS=";"}{print NR, $0}`}, stdin: "a;b;c", want: `1 a
2 b
3 c
`, status: 0},
	{name: "BEGIN{RS=\"X+\"}{print NR, $0}", args: []string{`BEGIN{RS="X+"}{print NR, $0}`}, stdin: "aXXbXc", want: `1 a
2 b
3 c
`, status: 0},
	{name: "paragraph FS adds newline (gawk)", args: []string{`BEGIN{RS="";FS=":"}{print NF}`}, stdin: `p1 l1
p1 l2

p2 l1
`, want: `2
1
`, status: 0},
	{name: "{ print FILENAME, FNR, NR, $0 }", args: []string{"{ print FILENAME, FNR, NR, $0 }", "data1.txt", "data2.txt"}, stdin: "", want: `data1.txt 1 1 x 1
data1.txt 2 2 y 2
data1.txt 3 3 x 3
data2.txt 1 4 a:b
data2.txt 2 5 c:d
`, status: 0},
	{name: "{ print v, $1 }", args: []string{"{ print v, $1 }", "v=1", "data1.txt", "v=2", "data2.txt"}, stdin: "", want: `1 x
1 y
1 x
2 a:b
2 c:d
`, status: 0},
	{name: "FNR == 1 { print \"start\", FILENAME }", args: []string{`FNR == 1 { print "start", FILENAME }`, "data1.txt", "data2.txt"}, stdin: "", want: `start data1.txt
start data2.txt
`, status: 0},
	{name: "{ nextfile; print \"no\" } END { print NR ", args: []string{`{ nextfile; print "no" } END { print NR }`, "data1.txt", "data2.txt"}, stdin: "", want: `2
`, status: 0},
	{name: "{ print NR \": \" $0 }", args: []string{`{ print NR ": " $0 }`, "-", "data2.txt"}, stdin: `x
`, want: `1: x
2: a:b
3: c:d
`, status: 0},
	{name: "END { print $0, NF }", args: []string{"END { print $0, NF }", "data1.txt"}, stdin: "", want: `x 3 2
`, status: 0},
	{name: "END { print FILENAME }", args: []string{"END { print FILENAME }", "data1.txt"}, stdin: "", want: `data1.txt
`, status: 0},
	{name: "BEGIN { ARGV[1] = \"data2.txt\" } { print ", args: []string{`BEGIN { ARGV[1] = "data2.txt" } { print }`, "data1.txt"}, stdin: "", want: `a:b
c:d
`, status: 0},
	{name: "BEGIN { ARGV[1] = \"\" } { print }", args: []string{`BEGIN { ARGV[1] = "" } { print }`, "data1.txt", "data2.txt"}, stdin: "", want: `a:b
c:d
`, status: 0},
	{name: "BEGIN { ARGV[2] = \"data2.txt\"; ARGC = 3 ", args: []string{`BEGIN { ARGV[2] = "data2.txt"; ARGC = 3 } { print }`, "data1.txt"}, stdin: "", want: `x 1
y 2
x 3
a:b
c:d
`, status: 0},
	{name: "BEGIN { print length(ARGV), ARGC, ARGV[1", args: []string{"BEGIN { print length(ARGV), ARGC, ARGV[1], ARGV[2] }", "a", "b=1"}, stdin: "", want: `3 3 a b=1
`, status: 0},
	{name: "BEGIN { OFS = \"-\" } { $1 = $1 } 1", args: []string{`BEGIN { OFS = "-" } { $1 = $1 } 1`, "data1.txt"}, stdin: "", want: `x-1
y-2
x-3
`, status: 0},
	{name: "BEGIN { FS = OFS = \"\\t\" } { print $1, $2", args: []string{`BEGIN { FS = OFS = "\t" } { print $1, $2 }`, "data1.txt"}, stdin: "", want: `x 1	
y 2	
x 3	
`, status: 0},
	{name: "assign -v", args: []string{"-v", `x=a\tb`, "BEGIN { print x }"}, stdin: "", want: `a	b
`, status: 0},
	{name: "assign --assign (gawk)", args: []string{"--assign=x=5", "BEGIN { print x + 1 }"}, stdin: "", want: `6
`, status: 0},
	{name: "assign -v numeric", args: []string{"-v", "n=10", "BEGIN { print (n > 9) }"}, stdin: "", want: `1
`, status: 0},
	{name: "progfile", args: []string{"-f", "prog.awk", "data1.txt"}, stdin: "", want: `1 x
1 y
1 x
`, status: 0},
	{name: "two progfiles", args: []string{"-f", "lib.awk", "-f", "prog.awk", "data2.txt"}, stdin: "", want: `1 a:b
1 c:d
`, status: 0},
	{name: "double dash", args: []string{"--", "{ print $1 }", "data1.txt"}, stdin: "", want: `x
y
x
`, status: 0},
	{name: "BEGIN{x; print x+0, \"[\" x \"]\", length(x)", args: []string{`BEGIN{x; print x+0, "[" x "]", length(x)}`}, stdin: "", want: `0 [] 0
`, status: 0},
	{name: "BEGIN{print 1/3; OFMT=\"%.2f\"; print 1/3;", args: []string{`BEGIN{print 1/3; OFMT="%.2f"; print 1/3; x = 1/3 ""; print x}`}, stdin: "", want: `0.333333
0.33
0.333333
`, status: 0},
	{name: "BEGIN{CONVFMT=\"%.2g\"; a = 3.14159; b = a", args: []string{`BEGIN{CONVFMT="%.2g"; a = 3.14159; b = a ""; print b; print 10 ""}`}, stdin: "", want: `3.1
10
`, status: 0},
	{name: "integers print as integers (gawk)", args: []string{"BEGIN{print 100000 * 100000, 2^53, 1e6, 0.1}"}, stdin: "", want: `10000000000 9007199254740992 1000000 0.1
`, status: 0},
	{name: "BEGIN{print 1e3, 1E-2, .5, 5., 0.1e1}", args: []string{"BEGIN{print 1e3, 1E-2, .5, 5., 0.1e1}"}, stdin: "", want: `1000 0.01 0.5 5 1
`, status: 0},
	{name: "BEGIN{print 1-1, -3%2, 7%-3, 2^3^2, -2^2", args: []string{"BEGIN{print 1-1, -3%2, 7%-3, 2^3^2, -2^2}"}, stdin: "", want: `0 -1 1 512 -4
`, status: 0},
	{name: "** operator (gawk)", args: []string{"BEGIN{print 2**10, 2^-1}"}, stdin: "", want: `1024 0.5
`, status: 0},
	{name: "**= operator (gawk)", args: []string{"BEGIN { x = 2; x ^= 3; x **= 2; print x }"}, stdin: "", want: `64
`, status: 0},
	{name: "BEGIN { print 1e308 * 10, -1e308 * 10, l", args: []string{"BEGIN { print 1e308 * 10, -1e308 * 10, log(-1) }"}, stdin: "", want: `+inf -inf -nan
`, status: 0},
	{name: "BEGIN { x = \"3x\"; print x + 0, +x, -x, !", args: []string{`BEGIN { x = "3x"; print x + 0, +x, -x, !x }`}, stdin: "", want: `3 3 -3 0
`, status: 0},
	{name: "{ print ($1 > $2), (\"10\" > \"9\"), ($1 > \"", args: []string{`{ print ($1 > $2), ("10" > "9"), ($1 > "9") }`}, stdin: `10 9
`, want: `1 0 0
`, status: 0},
	{name: "{ print ($1 == 100), ($3 == 5), $4 * 2 }", args: []string{"{ print ($1 == 100), ($3 == 5), $4 * 2 }"}, stdin: `1e2 0x10 +5 .5
`, want: `1 1 1
`, status: 0},
	{name: "BEGIN { a = \"10\"; b = 9; print (a > b) }", args: []string{`BEGIN { a = "10"; b = 9; print (a > b) }`}, stdin: "", want: `0
`, status: 0},
	{name: "BEGIN { x = 5; x += 2; x -= 1; x *= 3; x", args: []string{"BEGIN { x = 5; x += 2; x -= 1; x *= 3; x /= 2; x %= 5; x ^= 2; print x; print x++ + ++x, x-- , --x }"}, stdin: "", want: `16
34 18 16
`, status: 0},
	{name: "{ print ($1 < $2) }", args: []string{"{ print ($1 < $2) }"}, stdin: `2 10
`, want: `1
`, status: 0},
	{name: "{ print ($1 == $2), ($1 \"\" == $2 \"\") }", args: []string{`{ print ($1 == $2), ($1 "" == $2 "") }`}, stdin: `3 3.0
`, want: `1 0
`, status: 0},
	{name: "{ print ($1 < $2), ($1 > $2) }", args: []string{"{ print ($1 < $2), ($1 > $2) }"}, stdin: `abc ABC
`, want: `0 1
`, status: 0},
	{name: "{ x = $1; y = \"9\"; print (x > y), (x > 9", args: []string{`{ x = $1; y = "9"; print (x > y), (x > 9) }`}, stdin: `10
`, want: `0 1
`, status: 0},
	{name: "BEGIN { x = \"10\"; y = \"9\"; print (x > y)", args: []string{`BEGIN { x = "10"; y = "9"; print (x > y), (x+0 > y+0) }`}, stdin: "", want: `0 1
`, status: 0},
	{name: "BEGIN { print 1==1.0, \"1\"==1, \"a\" < \"b\",", args: []string{`BEGIN { print 1==1.0, "1"==1, "a" < "b", "abc" < "abd", 2 < 10, "2" < "10" }`}, stdin: "", want: `1 1 1 1 1 0
`, status: 0},
	{name: "BEGIN { print !0, !1, !\"\", !\"a\", !x }", args: []string{`BEGIN { print !0, !1, !"", !"a", !x }`}, stdin: "", want: `1 0 1 0 1
`, status: 0},
	{name: "BEGIN { x = \"0\"; if (x) print \"true\"; el", args: []string{`BEGIN { x = "0"; if (x) print "true"; else print "false" }`}, stdin: "", want: `true
`, status: 0},
	{name: "{ if ($1) print \"true\"; else print \"fals", args: []string{`{ if ($1) print "true"; else print "false" }`}, stdin: `0
`, want: `false
`, status: 0},
	{name: "{ if ($0) print \"true\"; else print \"fals", args: []string{`{ if ($0) print "true"; else print "false" }`}, stdin: `0.0
`, want: `false
`, status: 0},
	{name: "strnum with blanks is false", args: []string{`{ if ($0) print "true"; else print "false" }`}, stdin: ` 0 
`, want: `false
`, status: 0},
	{name: "{ if ($1) print \"true\"; else print \"fals", args: []string{`{ if ($1) print "true"; else print "false" }`}, stdin: `a
`, want: `true
`, status: 0},
	{name: "BEGIN { printf \"%s %s %s\n\", 1e6, 1e-6, 1", args: []string{`BEGIN { printf "%s %s %s
", 1e6, 1e-6, 123456789 }`}, stdin: "", want: "", status: 2},
	{name: "BEGIN { print 123456789 * 10, 0.1 * 3, 1", args: []string{"BEGIN { print 123456789 * 10, 0.1 * 3, 1/7 }"}, stdin: "", want: `1234567890 0.3 0.142857
`, status: 0},
	{name: "BEGIN { printf \"%s\n\", 0.1 + 0.2; print 0", args: []string{`BEGIN { printf "%s
", 0.1 + 0.2; print 0.1 + 0.2; x = 0.1 + 0.2; print (x "") }`}, stdin: "", want: "", status: 2},
	{name: "BEGIN { print int(\"  12  \"), \" 12 \" + 0,", args: []string{`BEGIN { print int("  12  "), " 12 " + 0, "1e3x" + 0, ".e3" + 0, "+.5" + 0, "-" + 0 }`}, stdin: "", want: `12 12 1000 0 0.5 0
`, status: 0},
	{name: "BEGIN { print -\"3\", -\"-3\", +\"a\" }", args: []string{`BEGIN { print -"3", -"-3", +"a" }`}, stdin: "", want: `-3 3 0
`, status: 0},
	{name: "BEGIN { print 010 + 0, \"010\" + 0 }", args: []string{`BEGIN { print 010 + 0, "010" + 0 }`}, stdin: "", want: `10 10
`, status: 0},
	{name: "BEGIN { a[\"1\"] = \"x\"; print a[1], a[1.0]", args: []string{`BEGIN { a["1"] = "x"; print a[1], a[1.0], a["01"] "|" }`}, stdin: "", want: `x x |
`, status: 0},
	{name: "BEGIN { a[0.1 + 0.2] = 1; for (k in a) p", args: []string{"BEGIN { a[0.1 + 0.2] = 1; for (k in a) print k }"}, stdin: "", want: `0.3
`, status: 0},
	{name: "BEGIN { print (1 > 2) ? \"a\" : \"b\" }", args: []string{`BEGIN { print (1 > 2) ? "a" : "b" }`}, stdin: "", want: `b
`, status: 0},
	{name: "BEGIN { print 1 \" \" 2 + 3 \" \" 4 }", args: []string{`BEGIN { print 1 " " 2 + 3 " " 4 }`}, stdin: "", want: `1 5 4
`, status: 0},
	{name: "BEGIN { print 1 - 1, 1 \" \" -1 }", args: []string{`BEGIN { print 1 - 1, 1 " " -1 }`}, stdin: "", want: `0 1-1
`, status: 0},
	{name: "BEGIN { print 2 - -1, 2 - - 1, - - 2 }", args: []string{"BEGIN { print 2 - -1, 2 - - 1, - - 2 }"}, stdin: "", want: `3 3 2
`, status: 0},
	{name: "BEGIN { print 1 2, 1 -2, 1 \" \" -2 }", args: []string{`BEGIN { print 1 2, 1 -2, 1 " " -2 }`}, stdin: "", want: `12 -1 1-2
`, status: 0},
	{name: "BEGIN { a = 5; print a++ + 1, a }", args: []string{"BEGIN { a = 5; print a++ + 1, a }"}, stdin: "", want: `6 6
`, status: 0},
	{name: "BEGIN { print \"a\" \"b\" == \"ab\" }", args: []string{`BEGIN { print "a" "b" == "ab" }`}, stdin: "", want: `1
`, status: 0},
	{name: "BEGIN { print \"x\" ~ \"x\", \"ab\" ~ /^a/, \"b", args: []string{`BEGIN { print "x" ~ "x", "ab" ~ /^a/, "b" !~ /a/ }`}, stdin: "", want: `1 1 1
`, status: 0},
	{name: "BEGIN { x = 1; print x == 1 ? \"one\" : \"o", args: []string{`BEGIN { x = 1; print x == 1 ? "one" : "other" }`}, stdin: "", want: `one
`, status: 0},
	{name: "BEGIN { print 1 - 1 - 1, 2 / 2 / 2, 2 ^ ", args: []string{"BEGIN { print 1 - 1 - 1, 2 / 2 / 2, 2 ^ 2 ^ 3 }"}, stdin: "", want: `-1 0.5 256
`, status: 0},
	{name: "BEGIN { print 10 % 3 * 2, 1 + 2 * 3, (1 ", args: []string{"BEGIN { print 10 % 3 * 2, 1 + 2 * 3, (1 + 2) * 3 }"}, stdin: "", want: `2 7 9
`, status: 0},
	{name: "BEGIN { print 1 < 2 && 2 < 3, 1 || 0 && ", args: []string{"BEGIN { print 1 < 2 && 2 < 3, 1 || 0 && 0, !1 || 1 }"}, stdin: "", want: `1 1 1
`, status: 0},
	{name: "BEGIN { print \"x\" (1 < 2) \"y\" }", args: []string{`BEGIN { print "x" (1 < 2) "y" }`}, stdin: "", want: `x1y
`, status: 0},
	{name: "BEGIN { a = \"b\"; print a ~ \"b\" \"c\", a \"c", args: []string{`BEGIN { a = "b"; print a ~ "b" "c", a "c" ~ "bc" }`}, stdin: "", want: `0 1
`, status: 0},
	{name: "BEGIN { print 2 \" \" 3 * 4 }", args: []string{`BEGIN { print 2 " " 3 * 4 }`}, stdin: "", want: `2 12
`, status: 0},
	{name: "BEGIN { x = y = 3; print x, y }", args: []string{"BEGIN { x = y = 3; print x, y }"}, stdin: "", want: `3 3
`, status: 0},
	{name: "BEGIN { a += b += 2; print a, b }", args: []string{"BEGIN { a += b += 2; print a, b }"}, stdin: "", want: `2 2
`, status: 0},
	{name: "BEGIN { print index(\"abc\", \"b\") == 2 ? \"", args: []string{`BEGIN { print index("abc", "b") == 2 ? "yes" : "no" }`}, stdin: "", want: `yes
`, status: 0},
	{name: "BEGIN { a[\"x\"] = 1; print (\"x\" in a) ? \"", args: []string{`BEGIN { a["x"] = 1; print ("x" in a) ? "in" : "out" }`}, stdin: "", want: `in
`, status: 0},
	{name: "BEGIN { print (\"a\" \"b\" in c) }", args: []string{`BEGIN { print ("a" "b" in c) }`}, stdin: "", want: `0
`, status: 0},
	{name: "BEGIN { print 1,2 > \"/dev/stdout\" }", args: []string{`BEGIN { print 1,2 > "/dev/stdout" }`}, stdin: "", want: `1 2
`, status: 0},
	{name: "BEGIN { print(\"a\", \"b\") }", args: []string{`BEGIN { print("a", "b") }`}, stdin: "", want: `a b
`, status: 0},
	{name: "BEGIN { print(\"a\")(\"b\") }", args: []string{`BEGIN { print("a")("b") }`}, stdin: "", want: `ab
`, status: 0},
	{name: "BEGIN { printf(\"%s-%s\\n\", \"a\", \"b\") }", args: []string{`BEGIN { printf("%s-%s\n", "a", "b") }`}, stdin: "", want: `a-b
`, status: 0},
	{name: "print > is a redirection", args: []string{`BEGIN { print 1 > "out.txt"; close("out.txt"); getline x < "out.txt"; print "file has", x }`}, stdin: "", want: `file has 1
`, status: 0},
	{name: "BEGIN { x = \"A\"; y = x++; print x, y }", args: []string{`BEGIN { x = "A"; y = x++; print x, y }`}, stdin: "", want: `1 0
`, status: 0},
	{name: "BEGIN { a = 1; b = 2; print a\" \"b; print", args: []string{`BEGIN { a = 1; b = 2; print a" "b; print a b }`}, stdin: "", want: `1 2
12
`, status: 0},
	{name: "BEGIN { x = 1; x = x x; print x; print x", args: []string{"BEGIN { x = 1; x = x x; print x; print x + 1 }"}, stdin: "", want: `11
12
`, status: 0},
	{name: "BEGIN { x = 3; print x \" \" x++ \" \" x }", args: []string{`BEGIN { x = 3; print x " " x++ " " x }`}, stdin: "", want: `3 3 4
`, status: 0},
	{name: "newlines and comments", args: []string{`
BEGIN {
   x = 1
   if (x)
      print "yes"
   else
      print "no"
   b = x &&
      1
   print x, b
   print 1,
   2
   s = "x" \
   "y"; print s # c
   if (x) # comment
   {
      print "brace"
   }
   else print "e"
   for (i = 0;
        i < 2;
        i++)
      print i
   do
     print "do"
   while (0)
   do { print "d2" } while (0)
   while (i-- > 0)
   {
     print "w" i
   }
}
function f(a,
           b) {
  return a b
}
END { print f(1,
  2) }
`}, stdin: "", want: `yes
1 1
1 2
xy
brace
0
1
do
d2
w1
w0
12
`, status: 0},
	{name: "# only a comment", args: []string{"# only a comment"}, stdin: "", want: "", status: 0},
	{name: "BEGIN { if (1) print \"a\"; else print \"b\"", args: []string{`BEGIN { if (1) print "a"; else print "b" }`}, stdin: "", want: `a
`, status: 0},
	{name: "BEGIN { if (0) { print \"a\" } else if (1)", args: []string{`BEGIN { if (0) { print "a" } else if (1) { print "b" } else { print "c" } }`}, stdin: "", want: `b
`, status: 0},
	{name: "BEGIN { for (i = 0; i < 3; i++); print i", args: []string{"BEGIN { for (i = 0; i < 3; i++); print i }"}, stdin: "", want: `3
`, status: 0},
	{name: "BEGIN { i = 5; while (i-- > 0); print i ", args: []string{"BEGIN { i = 5; while (i-- > 0); print i }"}, stdin: "", want: `-1
`, status: 0},
	{name: "BEGIN { i = 0; while (i < 5) { i++; if (", args: []string{"BEGIN { i = 0; while (i < 5) { i++; if (i == 2) continue; if (i == 4) break; print i } }"}, stdin: "", want: `1
3
`, status: 0},
	{name: "BEGIN { i = 0; do { print i; i++ } while", args: []string{"BEGIN { i = 0; do { print i; i++ } while (i < 3) }"}, stdin: "", want: `0
1
2
`, status: 0},
	{name: "BEGIN { for (i = 0; i < 3; i++) print i;", args: []string{"BEGIN { for (i = 0; i < 3; i++) print i; for (;;) { j++; if (j > 2) break }; print j }"}, stdin: "", want: `0
1
2
3
`, status: 0},
	{name: "BEGIN { while (1) { if (++n > 100000) br", args: []string{"BEGIN { while (1) { if (++n > 100000) break }; print n }"}, stdin: "", want: `100001
`, status: 0},
	{name: "BEGIN{x[\"a\"]=1; x[\"b\"]=2; delete x[\"a\"];", args: []string{`BEGIN{x["a"]=1; x["b"]=2; delete x["a"]; for (k in x) print k; print ("a" in x), ("b" in x); delete x; print length(x)}`}, stdin: "", want: `b
0 1
0
`, status: 0},
	{name: "BEGIN{a[1,2]=3; for (k in a) { split(k, ", args: []string{`BEGIN{a[1,2]=3; for (k in a) { split(k, p, SUBSEP); print p[1], p[2] }; if ((1,2) in a) print "yes"}`}, stdin: "", want: `1 2
yes
`, status: 0},
	{name: "BEGIN { SUBSEP = \":\"; a[\"x\", \"y\"] = 1; f", args: []string{`BEGIN { SUBSEP = ":"; a["x", "y"] = 1; for (k in a) print k }`}, stdin: "", want: `x:y
`, status: 0},
	{name: "BEGIN { if (!(3 in a)) print \"no\"; if (a", args: []string{`BEGIN { if (!(3 in a)) print "no"; if (a[3] == "") print "empty"; if (3 in a) print "now" }`}, stdin: "", want: `no
empty
now
`, status: 0},
	{name: "BEGIN { a[1]; delete a[1]; print length(", args: []string{"BEGIN { a[1]; delete a[1]; print length(a) }"}, stdin: "", want: `0
`, status: 0},
	{name: "BEGIN { n = split(\"3 1 2\", a); for (i = ", args: []string{`BEGIN { n = split("3 1 2", a); for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }; for (i = 1; i <= n; i++) printf "%s ", a[i]; print "" }`}, stdin: "", want: `1 2 3 
`, status: 0},
	{name: "{ a[NR] = $1 } END { for (i = NR; i >= 1", args: []string{"{ a[NR] = $1 } END { for (i = NR; i >= 1; i--) print a[i] }"}, stdin: `3
1
2
`, want: `2
1
3
`, status: 0},
	{name: "for-in uses insertion order", args: []string{"{ s[$1] += $2 } END { for (k in s) print k, s[k] }", "data1.txt"}, stdin: "", want: `x 4
y 2
`, status: 0},
	{name: "for-in insertion order numeric", args: []string{`BEGIN { x[1] = 1; x[2] = 2; x[10] = 10; for (k in x) s = s k " "; print s }`}, stdin: "", want: `1 2 10 
`, status: 0},
	{name: "for-in after delete", args: []string{`BEGIN { n = split("a b c", arr); delete arr[2]; for (k in arr) print k, arr[k]; print length(arr) }`}, stdin: "", want: `1 a
3 c
2
`, status: 0},
	{name: "BEGIN { a[\"x\"]; if (\"x\" in a) print \"in\"", args: []string{`BEGIN { a["x"]; if ("x" in a) print "in"; if (!("y" in a)) print "not" }`}, stdin: "", want: `in
not
`, status: 0},
	{name: "BEGIN { for (i = 0; i < 100; i++) a[i] =", args: []string{"BEGIN { for (i = 0; i < 100; i++) a[i] = i; for (i = 0; i < 90; i++) delete a[i]; n = 0; for (k in a) n += a[k]; print n, length(a) }"}, stdin: "", want: `945 10
`, status: 0},
	{name: "BEGIN { print 1 \" \" 2 < 3 }", args: []string{`BEGIN { print 1 " " 2 < 3 }`}, stdin: "", want: `1
`, status: 0},
	{name: "BEGIN { x = 1 \" \" 2 < 3; print x }", args: []string{`BEGIN { x = 1 " " 2 < 3; print x }`}, stdin: "", want: `1
`, status: 0},
	{name: "BEGIN { a[\"1 2\"]; print 1 \" \" 2 in a }", args: []string{`BEGIN { a["1 2"]; print 1 " " 2 in a }`}, stdin: "", want: `1
`, status: 0},
	{name: "BEGIN { while ((getline x < \"data1\" \".tx", args: []string{`BEGIN { while ((getline x < "data1" ".txt") > 0) n++; print n + 0 }`}, stdin: "", want: `0
`, status: 0},
	{name: "BEGIN { print 1 + 2 \" \" 3 + 4, 2 * 3 \"\" ", args: []string{`BEGIN { print 1 + 2 " " 3 + 4, 2 * 3 "" 4, -1 " " -2 }`}, stdin: "", want: `3 7 64 -1-2
`, status: 0},
	{name: "BEGIN { print 1 == 1 \" \", (1 == 1) \" \" }", args: []string{`BEGIN { print 1 == 1 " ", (1 == 1) " " }`}, stdin: "", want: `0 1 
`, status: 0},
	{name: "BEGIN { $0 = \"a b\"; print $1 $2, $1$2; i", args: []string{`BEGIN { $0 = "a b"; print $1 $2, $1$2; i = 1; print $i+1 }`}, stdin: "", want: `ab ab
1
`, status: 0},
	{name: "BEGIN { print !x + 1, !(x + 1), -!x }", args: []string{"BEGIN { print !x + 1, !(x + 1), -!x }"}, stdin: "", want: `2 0 -1
`, status: 0},
	{name: "BEGIN { x = 3; y = -x ^ 2; print y, 2 ^ ", args: []string{"BEGIN { x = 3; y = -x ^ 2; print y, 2 ^ -2 }"}, stdin: "", want: `-9 0.25
`, status: 0},
	{name: "BEGIN { print 1 < 2 ? \"y\" : \"n\" }", args: []string{`BEGIN { print 1 < 2 ? "y" : "n" }`}, stdin: "", want: `y
`, status: 0},
	{name: "BEGIN { a = 1; a += a += 2; print a }", args: []string{"BEGIN { a = 1; a += a += 2; print a }"}, stdin: "", want: `6
`, status: 0},
	{name: "BEGIN { print length \"x\" }", args: []string{`BEGIN { print length "x" }`}, stdin: "", want: `0x
`, status: 0},
	{name: "BEGIN { x = \"5\"; print x * 2 \"\" x / 5 }", args: []string{`BEGIN { x = "5"; print x * 2 "" x / 5 }`}, stdin: "", want: `101
`, status: 0},
	{name: "BEGIN { print 1, 2 3, 4 }", args: []string{"BEGIN { print 1, 2 3, 4 }"}, stdin: "", want: `1 23 4
`, status: 0},
	{name: "BEGIN { print \"x\" (getline line < \"data1", args: []string{`BEGIN { print "x" (getline line < "data1.txt") line }`}, stdin: "", want: `x1x 1
`, status: 0},
	{name: "{ print NR == 2 ? \"two\" : $0 }", args: []string{`{ print NR == 2 ? "two" : $0 }`, "data1.txt"}, stdin: "", want: `x 1
two
x 3
`, status: 0},
	{name: "NR == 1 || /y/", args: []string{"NR == 1 || /y/", "data1.txt"}, stdin: "", want: `x 1
y 2
`, status: 0},
	{name: "$2 % 2 == 1", args: []string{"$2 % 2 == 1", "data1.txt"}, stdin: "", want: `x 1
x 3
`, status: 0},
	{name: "$2 ~ 1 || $1 ~ \"y\"", args: []string{`$2 ~ 1 || $1 ~ "y"`, "data1.txt"}, stdin: "", want: `x 1
y 2
`, status: 0},
	{name: "function f(n) { return n <= 1 ? 1 : n * ", args: []string{"function f(n) { return n <= 1 ? 1 : n * f(n-1) } BEGIN { print f(10) }"}, stdin: "", want: `3628800
`, status: 0},
	{name: "function fill(arr, n,  i) { for (i=1;i<=", args: []string{`function fill(arr, n,  i) { for (i=1;i<=n;i++) arr[i]=i*i } BEGIN { fill(sq, 5); print sq[3], length(sq); print i "" }`}, stdin: "", want: `9 5

`, status: 0},
	{name: "function g(x) { x = 5 } BEGIN { y = 1; g", args: []string{"function g(x) { x = 5 } BEGIN { y = 1; g(y); print y }"}, stdin: "", want: `1
`, status: 0},
	{name: "BEGIN { x[\"a\"] = 1; f(x); print x[\"a\"], ", args: []string{`BEGIN { x["a"] = 1; f(x); print x["a"], x["b"] } function f(arr) { arr["b"] = 2; arr["a"]++ }`}, stdin: "", want: `2 2
`, status: 0},
	{name: "function f(a, b) { return a + b } BEGIN ", args: []string{"function f(a, b) { return a + b } BEGIN { print f(1, 2), f(1), f() }"}, stdin: "", want: `3 1 0
`, status: 0},
	{name: "function r(n) { if (n == 0) return 0; re", args: []string{"function r(n) { if (n == 0) return 0; return 1 + r(n - 1) } BEGIN { print r(500) }"}, stdin: "", want: `500
`, status: 0},
	{name: "function f(a) { a[1] = 5 } BEGIN { f(x);", args: []string{"function f(a) { a[1] = 5 } BEGIN { f(x); print x[1] }"}, stdin: "", want: `5
`, status: 0},
	{name: "function f(a) { g(a) } function g(b) { b", args: []string{`function f(a) { g(a) } function g(b) { b["k"] = 1 } BEGIN { f(arr); print arr["k"] }`}, stdin: "", want: `1
`, status: 0},
	{name: "function f(n,   i, s) { for (i = 0; i < ", args: []string{"function f(n,   i, s) { for (i = 0; i < n; i++) s = s i; return s } BEGIN { print f(3), f(5) }"}, stdin: "", want: `012 01234
`, status: 0},
	{name: "function max(a, b) { return a > b ? a : ", args: []string{"function max(a, b) { return a > b ? a : b } { m = max(m, $2) } END { print m }", "data1.txt"}, stdin: "", want: `3
`, status: 0},
	{name: "function f() { exit 7 } BEGIN { f(); pri", args: []string{`function f() { exit 7 } BEGIN { f(); print "no" }`}, stdin: "", want: "", status: 7},
	{name: "function f(x) { return } BEGIN { v = f(1", args: []string{`function f(x) { return } BEGIN { v = f(1); print "[" v "]" }`}, stdin: "", want: `[]
`, status: 0},
	{name: "func keyword", args: []string{"func f(x) { return x * 2 } BEGIN { print f(4) }"}, stdin: "", want: `8
`, status: 0},
	{name: "next inside function (gawk)", args: []string{`function f() { next } { f(); print "no" } END { print NR }`, "data1.txt"}, stdin: "", want: `3
`, status: 0},
	{name: "length of array param (gawk)", args: []string{"function f(a) { return length(a) } BEGIN { x[1]; x[2]; print f(x) }"}, stdin: "", want: `2
`, status: 0},
	{name: "BEGIN{print substr(\"hello\",2,3), substr(", args: []string{`BEGIN{print substr("hello",2,3), substr("hello",0), substr("hello",2)}`}, stdin: "", want: `ell hello ello
`, status: 0},
	{name: "substr start below 1 starts at 1 (gawk, onetrueawk)", args: []string{`BEGIN{print substr("hello",-1,3), substr("hello", 0, 2)}`}, stdin: "", want: `hel he
`, status: 0},
	{name: "BEGIN { print substr(\"hello\", 2, -1) \"|\"", args: []string{`BEGIN { print substr("hello", 2, -1) "|" substr("hello", 10) "|" }`}, stdin: "", want: `||
`, status: 0},
	{name: "BEGIN { print substr(\"hello\", 3, 100) }", args: []string{`BEGIN { print substr("hello", 3, 100) }`}, stdin: "", want: `llo
`, status: 0},
	{name: "BEGIN { print substr(\"hello\", 2, 0) \"|\" ", args: []string{`BEGIN { print substr("hello", 2, 0) "|" substr("", 1, 5) "|" }`}, stdin: "", want: `||
`, status: 0},
	{name: "BEGIN { print substr(\"abcdef\", 3); print", args: []string{`BEGIN { print substr("abcdef", 3); print substr(12345, 2, 3) }`}, stdin: "", want: `cdef
234
`, status: 0},
	{name: "BEGIN { print substr(\"hello\", \"2\") }", args: []string{`BEGIN { print substr("hello", "2") }`}, stdin: "", want: `ello
`, status: 0},
	{name: "BEGIN{print index(\"foobar\",\"bar\"), index", args: []string{`BEGIN{print index("foobar","bar"), index("foo","x"), length("abc"), length()}`}, stdin: "", want: `4 0 3 0
`, status: 0},
	{name: "BEGIN { print index(\"abcabc\", \"ca\"), len", args: []string{`BEGIN { print index("abcabc", "ca"), length("") }`}, stdin: "", want: `3 0
`, status: 0},
	{name: "index of empty string is 1 (gawk, mawk)", args: []string{`BEGIN { print index("a", ""), index("", "") }`}, stdin: "", want: `1 1
`, status: 0},
	{name: "BEGIN { x = substr(\"hello\", 2); print x,", args: []string{`BEGIN { x = substr("hello", 2); print x, length(x) }`}, stdin: "", want: `ello 4
`, status: 0},
	{name: "{ $3 = \"\"; print NF \"[\" $0 \"]\" }", args: []string{`{ $3 = ""; print NF "[" $0 "]" }`}, stdin: `a b
`, want: `3[a b ]
`, status: 0},
	{name: "printf %c encodes UTF-8 (gawk)", args: []string{`BEGIN { printf "%c", 256 }`}, stdin: "", want: "\u0100", status: 0},
	{name: "FILENAME is - on stdin (gawk 5.2, mawk, busybox)", args: []string{`{ print "[" FILENAME "]" }`}, stdin: `x
`, want: `[-]
`, status: 0},
	{name: "BEGIN { print length(12345), length(1/4)", args: []string{"BEGIN { print length(12345), length(1/4) }"}, stdin: "", want: `5 4
`, status: 0},
	{name: "BEGIN { print length(1e6), length(0.5) }", args: []string{"BEGIN { print length(1e6), length(0.5) }"}, stdin: "", want: `7 3
`, status: 0},
	{name: "BEGIN{n=split(\"a:b:c\",arr,\":\"); print n,", args: []string{`BEGIN{n=split("a:b:c",arr,":"); print n, arr[1], arr[3]; n=split("",arr); print n, length(arr)}`}, stdin: "", want: `3 a c
0 0
`, status: 0},
	{name: "BEGIN{n=split(\"  a b  c \",arr); print n,", args: []string{`BEGIN{n=split("  a b  c ",arr); print n, arr[1] arr[2] arr[3]}`}, stdin: "", want: `3 abc
`, status: 0},
	{name: "BEGIN{n=split(\"a1b2c\",arr,/[0-9]/); prin", args: []string{`BEGIN{n=split("a1b2c",arr,/[0-9]/); print n, arr[3]}`}, stdin: "", want: `3 c
`, status: 0},
	{name: "BEGIN { s = \"a-b_c\"; n = split(s, p, /[-", args: []string{`BEGIN { s = "a-b_c"; n = split(s, p, /[-_]/); print n, p[1] p[2] p[3] }`}, stdin: "", want: `3 abc
`, status: 0},
	{name: "BEGIN { n = split(\"abc\", p, \"\"); print n", args: []string{`BEGIN { n = split("abc", p, ""); print n, p[1], p[3] }`}, stdin: "", want: `3 a c
`, status: 0},
	{name: "BEGIN { n = split(\"a.b.c\", p, \".\"); prin", args: []string{`BEGIN { n = split("a.b.c", p, "."); print n, p[2] }`}, stdin: "", want: `3 b
`, status: 0},
	{name: "BEGIN { n = split(\"a|b|c\", p, \"|\"); prin", args: []string{`BEGIN { n = split("a|b|c", p, "|"); print n, p[2] }`}, stdin: "", want: `3 b
`, status: 0},
	{name: "BEGIN { n = split(\" a  b \", p, \" \"); pri", args: []string{`BEGIN { n = split(" a  b ", p, " "); print n, p[1] }`}, stdin: "", want: `2 a
`, status: 0},
	{name: "BEGIN { n = split(\"a  b\", p, / /); print", args: []string{`BEGIN { n = split("a  b", p, / /); print n, "[" p[2] "]" }`}, stdin: "", want: `3 []
`, status: 0},
	{name: "BEGIN { n = split(\"10 9\", p); print (p[1", args: []string{`BEGIN { n = split("10 9", p); print (p[1] > p[2]) }`}, stdin: "", want: `1
`, status: 0},
	{name: "BEGIN{s=\"hello world\"; n=gsub(/o/,\"0\",s)", args: []string{`BEGIN{s="hello world"; n=gsub(/o/,"0",s); print n, s; sub(/l+/,"[&]",s); print s; gsub(/x*/,"-",s); print s}`}, stdin: "", want: `2 hell0 w0rld
he[ll]0 w0rld
-h-e-[-l-l-]-0- -w-0-r-l-d-
`, status: 0},
	{name: "BEGIN{s=\"aaa\"; gsub(/a/,\"\\\\&\",s); print ", args: []string{`BEGIN{s="aaa"; gsub(/a/,"\\&",s); print s; t="abc"; gsub(/b/,"\\\\&",t); print t}`}, stdin: "", want: `&&&
a\bc
`, status: 0},
	{name: "BEGIN { s = \"foo bar\"; gsub(/[[:space:]]", args: []string{`BEGIN { s = "foo bar"; gsub(/[[:space:]]+/, "_", s); print s }`}, stdin: "", want: `foo_bar
`, status: 0},
	{name: "BEGIN { s = \"abc\"; gsub(//, \"-\", s); pri", args: []string{`BEGIN { s = "abc"; gsub(//, "-", s); print s }`}, stdin: "", want: `-a-b-c-
`, status: 0},
	{name: "BEGIN { s = \"abc\"; gsub(\"\", \"-\", s); pri", args: []string{`BEGIN { s = "abc"; gsub("", "-", s); print s }`}, stdin: "", want: `-a-b-c-
`, status: 0},
	{name: "BEGIN { s = \"hello\"; gsub(/l*/, \"X\", s);", args: []string{`BEGIN { s = "hello"; gsub(/l*/, "X", s); print s }`}, stdin: "", want: `XhXeXoX
`, status: 0},
	{name: "BEGIN { s = \"aaa\"; print gsub(/a*/, \"X\",", args: []string{`BEGIN { s = "aaa"; print gsub(/a*/, "X", s), s }`}, stdin: "", want: `1 X
`, status: 0},
	{name: "BEGIN { s = \"a.b\"; sub(\".\", \"X\", s); pri", args: []string{`BEGIN { s = "a.b"; sub(".", "X", s); print s }`}, stdin: "", want: `X.b
`, status: 0},
	{name: "{ sub(/t/, \"T\"); print; gsub(/t/, \"X\", $", args: []string{`{ sub(/t/, "T"); print; gsub(/t/, "X", $0); print }`}, stdin: `test
`, want: `Test
TesX
`, status: 0},
	{name: "{ gsub(\".\", \"-\"); print }", args: []string{`{ gsub(".", "-"); print }`}, stdin: `a.b.c
`, want: `-----
`, status: 0},
	{name: "{ gsub(/\\./, \"-\"); print }", args: []string{`{ gsub(/\./, "-"); print }`}, stdin: `a.b.c
`, want: `a-b-c
`, status: 0},
	{name: "{ gsub(\"\\\\.\", \"-\"); print }", args: []string{`{ gsub("\\.", "-"); print }`}, stdin: `a.b.c
`, want: `a-b-c
`, status: 0},
	{name: "{ gsub(/b/, \"[&&]\", $2); print; print $2", args: []string{`{ gsub(/b/, "[&&]", $2); print; print $2 }`}, stdin: `a b c
`, want: `a [bb] c
[bb]
`, status: 0},
	{name: "BEGIN{print match(\"foobar\", /o+/), RSTAR", args: []string{`BEGIN{print match("foobar", /o+/), RSTART, RLENGTH; print match("x", /y/), RSTART, RLENGTH}`}, stdin: "", want: `2 2 2
0 0 -1
`, status: 0},
	{name: "BEGIN { print match(\"aaa\", /a*/), RLENGT", args: []string{`BEGIN { print match("aaa", /a*/), RLENGTH; print match("xaaa", /a+/), RSTART, RLENGTH }`}, stdin: "", want: `1 3
2 2 3
`, status: 0},
	{name: "BEGIN { s = \"The Quick\"; while (match(s,", args: []string{`BEGIN { s = "The Quick"; while (match(s, /[A-Z]/)) { printf "%s@%d ", substr(s, RSTART, RLENGTH), RSTART; s = substr(s, RSTART + 1) }; print "" }`}, stdin: "", want: `T@1 Q@4 
`, status: 0},
	{name: "BEGIN{print toupper(\"abC1\"), tolower(\"AB", args: []string{`BEGIN{print toupper("abC1"), tolower("ABc"), tolower(123)}`}, stdin: "", want: `ABC1 abc 123
`, status: 0},
	{name: "BEGIN { print toupper(substr(\"abc\", 1, 1", args: []string{`BEGIN { print toupper(substr("abc", 1, 1)) substr("abc", 2) }`}, stdin: "", want: `Abc
`, status: 0},
	{name: "BEGIN { print int(3.9), int(-3.9), int(\"", args: []string{`BEGIN { print int(3.9), int(-3.9), int("4.5abc"), sqrt(16), exp(0), log(1), sin(0), cos(0), atan2(0, -1) }`}, stdin: "", want: `3 -3 4 4 1 0 0 1 3.14159
`, status: 0},
	{name: "BEGIN { srand(1); a = rand(); srand(1); ", args: []string{"BEGIN { srand(1); a = rand(); srand(1); b = rand(); print (a == b), (a >= 0 && a < 1), srand(5) }"}, stdin: "", want: `1 1 1
`, status: 0},
	{name: "UTF-8 characters (gawk)", args: []string{`BEGIN { print length("héllo"), substr("héllo", 2, 2), index("héllo", "l") }`}, stdin: "", want: `5 él 3
`, status: 0},
	{name: "BEGIN{printf \"%d %i %o %x %X %u %c %s %e", args: []string{`BEGIN{printf "%d %i %o %x %X %u %c %s %e %E %f %g %G %%\n", 42.9, -3, 8, 255, 255, 7, "hello", "str", 1234.5, 0.00012, 3.5, 0.0001234, 1e20}`}, stdin: "", want: `42 -3 10 ff FF 7 h str 1.234500e+03 1.200000E-04 3.500000 0.0001234 1E+20 %
`, status: 0},
	{name: "BEGIN{printf \"[%5s][%-5s][%.2s][%05d][%+", args: []string{`BEGIN{printf "[%5s][%-5s][%.2s][%05d][%+d][% d][%#o][%#x][%-+6.1f]\n", "ab", "ab", "abcdef", 42, 5, 5, 8, 255, 3.14159}`}, stdin: "", want: `[   ab][ab   ][ab][00042][+5][ 5][010][0xff][+3.1  ]
`, status: 0},
	{name: "BEGIN{printf \"[%*d][%-*d][%.*f]\\n\", 5, 4", args: []string{`BEGIN{printf "[%*d][%-*d][%.*f]\n", 5, 42, 4, 7, 2, 3.14159}`}, stdin: "", want: `[   42][7   ][3.14]
`, status: 0},
	{name: "BEGIN{printf \"%c%c%c\\n\", 72, \"i!\", 10}", args: []string{`BEGIN{printf "%c%c%c\n", 72, "i!", 10}`}, stdin: "", want: `Hi

`, status: 0},
	{name: "BEGIN{printf \"%5.3d|%.0e|%#.3g|%g|%g\\n\",", args: []string{`BEGIN{printf "%5.3d|%.0e|%#.3g|%g|%g\n", 7, 12345, 1, 100000, 1000000}`}, stdin: "", want: `  007|1e+04|1.00|100000|1e+06
`, status: 0},
	{name: "BEGIN{printf \"%d %s\\n\", \"3abc\", 3.0}", args: []string{`BEGIN{printf "%d %s\n", "3abc", 3.0}`}, stdin: "", want: `3 3
`, status: 0},
	{name: "BEGIN{printf \"%.2f %.10g %g\\n\", 2.345, 1", args: []string{`BEGIN{printf "%.2f %.10g %g\n", 2.345, 1/3, 1e-5}`}, stdin: "", want: `2.35 0.3333333333 1e-05
`, status: 0},
	{name: "printf %c of empty string is a NUL (gawk, mawk)", args: []string{`BEGIN{printf "%c", ""; print "|"}`}, stdin: "", want: "\x00|\n", status: 0},
	{name: "BEGIN { printf \"%s|%5.1s|%-3c|\\n\", \"\", \"", args: []string{`BEGIN { printf "%s|%5.1s|%-3c|\n", "", "xyz", "q" }`}, stdin: "", want: `|    x|q  |
`, status: 0},
	{name: "BEGIN { printf \"%+.3e|%G|%g\\n\", 12345.67", args: []string{`BEGIN { printf "%+.3e|%G|%g\n", 12345.678, 0.000001234, 123456789 }`}, stdin: "", want: `+1.235e+04|1.234E-06|1.23457e+08
`, status: 0},
	{name: "BEGIN { printf \"%#.0f|%#x|%#o|%#X\\n\", 3,", args: []string{`BEGIN { printf "%#.0f|%#x|%#o|%#X\n", 3, 0, 0, 255 }`}, stdin: "", want: `3.|0|0|0XFF
`, status: 0},
	{name: "BEGIN { printf \"%-05d|%+05d|% 05d\\n\", 42", args: []string{`BEGIN { printf "%-05d|%+05d|% 05d\n", 42, 42, 42 }`}, stdin: "", want: `42   |+0042| 0042
`, status: 0},
	{name: "BEGIN { printf \"%.0f %.0f %.0f %.0f\\n\", ", args: []string{`BEGIN { printf "%.0f %.0f %.0f %.0f\n", 0.5, 1.5, 2.5, -0.5 }`}, stdin: "", want: `0 2 2 -0
`, status: 0},
	{name: "BEGIN { printf \"%i|%5.2s|%-8.3e|\\n\", 3.9", args: []string{`BEGIN { printf "%i|%5.2s|%-8.3e|\n", 3.99, "abc", 1234.5678 }`}, stdin: "", want: `3|   ab|1.235e+03|
`, status: 0},
	{name: "BEGIN { printf \"%.3s|%10.3f|%-10e|\\n\", \"", args: []string{`BEGIN { printf "%.3s|%10.3f|%-10e|\n", "abcdef", 3.14159, 12.5 }`}, stdin: "", want: `abc|     3.142|1.250000e+01|
`, status: 0},
	{name: "BEGIN { s = sprintf(\"%3d:%-3s|\", 5, \"x\")", args: []string{`BEGIN { s = sprintf("%3d:%-3s|", 5, "x"); print s }`}, stdin: "", want: `  5:x  |
`, status: 0},
	{name: "BEGIN { printf(\"%d\\n\", \"1e3\") }", args: []string{`BEGIN { printf("%d\n", "1e3") }`}, stdin: "", want: `1000
`, status: 0},
	{name: "printf %d 64-bit (gawk)", args: []string{`BEGIN { printf "%d %d\n", 1e18, -7.9 }`}, stdin: "", want: `1000000000000000000 -7
`, status: 0},
	{name: "printf unsigned of negative (gawk)", args: []string{`BEGIN { printf "%x %o %u\n", -1, -1, -1 }`}, stdin: "", want: `ffffffffffffffff 1777777777777777777777 18446744073709551615
`, status: 0},
	{name: "BEGIN { printf \"a\" ; printf \"b\\n\" }", args: []string{`BEGIN { printf "a" ; printf "b\n" }`}, stdin: "", want: `ab
`, status: 0},
	{name: "assignment evaluates the value first (gawk)", args: []string{`{ key = $1; v[key] = (key in v) ? v[key] "," $2 : $2 } END { for (k in v) print k ": " v[k] }`, "data1.txt"}, stdin: "", want: `x: 1,3
y: 2
`, status: 0},
	{name: "field assignment order (gawk)", args: []string{`BEGIN { $0 = "a b c"; i = 1; $(i++) = i; print; print i }`}, stdin: "", want: `1 b c
2
`, status: 0},
	{name: "!seen[$1]++", args: []string{"!seen[$1]++", "data1.txt"}, stdin: "", want: `x 1
y 2
`, status: 0},
	{name: "FNR==NR { a[$1]; next } $1 in a", args: []string{"FNR==NR { a[$1]; next } $1 in a", "data1.txt", "data1.txt"}, stdin: "", want: `x 1
y 2
x 3
`, status: 0},
	{name: "length > 2", args: []string{"length > 2"}, stdin: `ab
abc
`, want: `abc
`, status: 0},
	{name: "{ $1 = $1 } NF", args: []string{"{ $1 = $1 } NF"}, stdin: `a  b

  
c
`, want: `a b


c
`, status: 0},
	{name: "BEGIN { RS = \"\r\n\" } { print NR \":\" $0 }", args: []string{"BEGIN { RS = \"\r\n\" } { print NR \":\" $0 }"}, stdin: "a\r\nb\r\n", want: "", status: 2},
	{name: "{ gsub(/^[ \t]+|[ \t]+$/, \"\"); print \"[\" $", args: []string{`{ gsub(/^[ 	]+|[ 	]+$/, ""); print "[" $0 "]" }`}, stdin: `  a b  
`, want: `[a b]
`, status: 0},
	{name: "{printf \"%c|%c\n\", $1, $1 \"\"}", args: []string{`{printf "%c|%c
", $1, $1 ""}`}, stdin: `65
`, want: "", status: 2},
	{name: "BEGIN { while ((getline line < \"data2.tx", args: []string{`BEGIN { while ((getline line < "data2.txt") > 0) print "L:" line; close("data2.txt"); getline line < "data2.txt"; print line }`}, stdin: "", want: `L:a:b
L:c:d
a:b
`, status: 0},
	{name: "BEGIN { getline < \"data2.txt\"; print $0,", args: []string{`BEGIN { getline < "data2.txt"; print $0, NF, NR }`}, stdin: "", want: `a:b 1 0
`, status: 0},
	{name: "BEGIN { getline line < \"/nonexistent\"; p", args: []string{`BEGIN { getline line < "/nonexistent"; print "r" (getline line < "/nonexistent") }`}, stdin: "", want: `r-1
`, status: 0},
	{name: "BEGIN { while ((getline line) > 0) n++; ", args: []string{"BEGIN { while ((getline line) > 0) n++; print n, line, NR }"}, stdin: `a b
c d
`, want: `2 c d 2
`, status: 0},
	{name: "NR==1 { getline; print \"got\", $0, NR } E", args: []string{`NR==1 { getline; print "got", $0, NR } END { print NR }`}, stdin: `a b
c d
`, want: `got c d 2
2
`, status: 0},
	{name: "NR==1 { getline x; print \"got\", x, $0, N", args: []string{`NR==1 { getline x; print "got", x, $0, NR }`}, stdin: `a b
c d
`, want: `got c d a b 2
`, status: 0},
	{name: "BEGIN { getline; print \"got:\" $0 }", args: []string{`BEGIN { getline; print "got:" $0 }`}, stdin: `x 1
y 2
`, want: `got:x 1
`, status: 0},
	{name: "BEGIN { while (getline > 0) n++; print n", args: []string{"BEGIN { while (getline > 0) n++; print n }"}, stdin: `x 1
y 2
`, want: `2
`, status: 0},
	{name: "NR == 1 { while ((getline l) > 0) last =", args: []string{"NR == 1 { while ((getline l) > 0) last = l } END { print last, NR }", "data1.txt"}, stdin: "", want: `x 3 3
`, status: 0},
	{name: "{ getline; print }", args: []string{"{ getline; print }", "data1.txt"}, stdin: "", want: `y 2
x 3
`, status: 0},
	{name: "BEGIN { getline x < \"data1.txt\"; getline", args: []string{`BEGIN { getline x < "data1.txt"; getline y < "data1.txt"; print x "|" y; close("data1.txt"); getline z < "data1.txt"; print z }`}, stdin: "", want: `x 1|y 2
x 1
`, status: 0},
	{name: "BEGIN { print \"a\" > \"out.txt\"; print \"b\"", args: []string{`BEGIN { print "a" > "out.txt"; print "b" > "out.txt"; close("out.txt"); while ((getline l < "out.txt") > 0) print "r:" l }`}, stdin: "", want: `r:a
r:b
`, status: 0},
	{name: "BEGIN { print \"a\" >> \"out2.txt\"; close(\"", args: []string{`BEGIN { print "a" >> "out2.txt"; close("out2.txt"); print "b" >> "out2.txt"; close("out2.txt"); while ((getline l < "out2.txt") > 0) print "r:" l }`}, stdin: "", want: `r:a
r:b
`, status: 0},
	{name: "BEGIN { printf \"%s\\n\", \"x\" > \"o3.txt\"; c", args: []string{`BEGIN { printf "%s\n", "x" > "o3.txt"; close("o3.txt"); getline l < "o3.txt"; print l }`}, stdin: "", want: `x
`, status: 0},
	{name: "BEGIN { f = \"o4.txt\"; print \"v\" > f; clo", args: []string{`BEGIN { f = "o4.txt"; print "v" > f; close(f); getline l < f; print l, close(f), close(f) }`}, stdin: "", want: `v 0 -1
`, status: 0},
	{name: "BEGIN { print close(\"nope\") }", args: []string{`BEGIN { print close("nope") }`}, stdin: "", want: `-1
`, status: 0},
	{name: "BEGIN { print \"b\\na\" | \"sort\"; close(\"so", args: []string{`BEGIN { print "b\na" | "sort"; close("sort"); print "after" }`}, stdin: "", want: `a
b
after
`, status: 0},
	{name: "pipe output runs at close", args: []string{`BEGIN { print "x" | "cat"; print system("true"), system("false") }`}, stdin: "", want: `0 1
x
`, status: 0},
	{name: "BEGIN { printf \"abc\\n\" > \"/dev/stderr\" }", args: []string{`BEGIN { printf "abc\n" > "/dev/stderr" }`}, stdin: "", want: "", status: 0},
	{name: "BEGIN { exit 3 } END { print \"end\" }", args: []string{`BEGIN { exit 3 } END { print "end" }`}, stdin: "", want: `end
`, status: 3},
	{name: "{ print; exit 4 } END { print \"end\", NR;", args: []string{`{ print; exit 4 } END { print "end", NR; exit }`}, stdin: `a
b
`, want: `a
end 1
`, status: 4},
	{name: "NR==1 { next } { print }", args: []string{"NR==1 { next } { print }"}, stdin: `a
b
c
`, want: `b
c
`, status: 0},
	{name: "BEGIN { exit } END { print \"end runs\" }", args: []string{`BEGIN { exit } END { print "end runs" }`}, stdin: "", want: `end runs
`, status: 0},
	{name: "NR == 1 { exit 5 } END { print \"end\", NR", args: []string{`NR == 1 { exit 5 } END { print "end", NR }`}, stdin: `a
b
`, want: `end 1
`, status: 5},
	{name: "END { exit 1 } END { print \"not reached\"", args: []string{`END { exit 1 } END { print "not reached" }`}, stdin: `a
b
`, want: "", status: 1},
	{name: "BEGIN { print 1; exit; print 2 }", args: []string{"BEGIN { print 1; exit; print 2 }"}, stdin: "", want: `1
`, status: 0},
	{name: "BEGIN { exit 1+1 }", args: []string{"BEGIN { exit 1+1 }"}, stdin: "", want: "", status: 2},
	{name: "BEGIN { print ENVIRON[\"HOME\"] }", args: []string{`BEGIN { print ENVIRON["HOME"] }`}, stdin: "", want: `/root
`, status: 0},
	{name: "BEGIN { x = \"a.c\"; print (\"abc\" ~ x), (\"", args: []string{`BEGIN { x = "a.c"; print ("abc" ~ x), ("a.c" ~ "a\\.c"), ("abc" ~ "a\\.c") }`}, stdin: "", want: `1 1 0
`, status: 0},
	{name: "BEGIN { r = \"^[0-9]+$\"; print (\"123\" ~ r", args: []string{`BEGIN { r = "^[0-9]+$"; print ("123" ~ r), ("12a" ~ r) }`}, stdin: "", want: `1 0
`, status: 0},
	{name: "BEGIN { print (\"abc\" ~ /^[[:alpha:]]+$/)", args: []string{`BEGIN { print ("abc" ~ /^[[:alpha:]]+$/), ("ab1" ~ /^[[:alpha:]]+$/), ("a]" ~ /[]]/), ("a-b" ~ /[a-]/) }`}, stdin: "", want: `1 0 1 1
`, status: 0},
	{name: "BEGIN { print (\"a/b\" ~ /a\\/b/), (\"a/b\" ~", args: []string{`BEGIN { print ("a/b" ~ /a\/b/), ("a/b" ~ "a/b"), ("ab" ~ /a{2}/), ("a{2}" ~ /a\{2\}/) }`}, stdin: "", want: `1 1 0 1
`, status: 0},
	{name: "interval expressions (gawk)", args: []string{`BEGIN { print ("aab" ~ /a{2}/), ("ab" ~ /^a{1,2}b$/), ("aaab" ~ /^a{1,2}b$/) }`}, stdin: "", want: `1 1 0
`, status: 0},
	{name: "BEGIN { print (\"x+y\" ~ /x\\+y/), (\"x.y\" ~", args: []string{`BEGIN { print ("x+y" ~ /x\+y/), ("x.y" ~ /x\.y/), ("xzy" ~ /x\.y/), ("a\tb" ~ /a\tb/) }`}, stdin: "", want: `1 1 0 1
`, status: 0},
	{name: "leading star is literal (gawk)", args: []string{`BEGIN { print ("a\nb" ~ /a.b/), ("ab" ~ /a|x/), ("*a" ~ /^*a/), ("+" ~ /[+]/) }`}, stdin: "", want: `1 1 1 1
`, status: 0},
	{name: "BEGIN { print (\"A\" ~ /[[:upper:]][[:lowe", args: []string{`BEGIN { print ("A" ~ /[[:upper:]][[:lower:]]*/), ("x1" ~ /[^[:digit:]][[:digit:]]/), ("a b" ~ /a[[:blank:]]b/) }`}, stdin: "", want: `1 1 1
`, status: 0},
	{name: "BEGIN { print match(\"xabcabcy\", /(abc)+/", args: []string{`BEGIN { print match("xabcabcy", /(abc)+/), RLENGTH }`}, stdin: "", want: `2 6
`, status: 0},
	{name: "BEGIN { print match(\"foo=bar\", /=.*/), R", args: []string{`BEGIN { print match("foo=bar", /=.*/), RLENGTH }`}, stdin: "", want: `4 4
`, status: 0},
	{name: "$0 ~ \"^y\"", args: []string{`$0 ~ "^y"`, "data1.txt"}, stdin: "", want: `y 2
`, status: 0},
	{name: "$1 ~ /^[xy]$/ && $2 >= 2", args: []string{"$1 ~ /^[xy]$/ && $2 >= 2", "data1.txt"}, stdin: "", want: `y 2
x 3
`, status: 0},
}
