package coreutils

import "testing"

// GNU details of seq -w, xargs -s/-e/-i/-l/-I, find -ok and the -c of the
// sum commands; the expectations are GNU coreutils 9.1's, findutils 4.9's.
func TestGNUDetails(t *testing.T) {
	const sumF = "3ca69e8d6c234a469d16ac28a4a658c92267c423" // sha1 of stdFiles["f"]
	runCases(t, []tcase{
		// seq -w pads to the width the operands were written with.
		{args: []string{"seq", "-w", "003"}, out: "001\n002\n003\n"},
		{args: []string{"seq", "-w", "1", "003"}, out: "001\n002\n003\n"},
		{args: []string{"seq", "-w", "-03", "2"}, out: "-03\n-02\n-01\n000\n001\n002\n"},
		{args: []string{"seq", "-w", "1", "0.50", "2"}, out: "1.00\n1.50\n2.00\n"},
		{args: []string{"seq", "-w", "9", "+011"}, out: "009\n010\n011\n"},
		{args: []string{"seq", "-w", "1", "2", "010"}, out: "001\n003\n005\n007\n009\n"},
		{args: []string{"seq", "-w", "8", "1e1"}, out: "08\n09\n10\n"},
		// xargs -s bounds the whole command line, the command included.
		{args: []string{"xargs", "-s", "12", "echo"}, stdin: "a b c d e f g h\n", out: "a b c\nd e f\ng h\n"},
		{args: []string{"xargs", "-s", "11", "-n", "2", "echo"}, stdin: "a b c\n", out: "a b\nc\n"},
		{args: []string{"xargs", "-s", "12", "echo"}, stdin: "a bbbbbbbbbbbb c\n", out: "a\n", err: "xargs: argument line too long", status: 1},
		{args: []string{"xargs", "-s", "5", "echo"}, stdin: "a b\n", out: "", err: "xargs: argument line too long", status: 1},
		{args: []string{"xargs", "-s", "12", "-I{}", "echo", "x{}", "{}"}, stdin: "aaaa\n", out: "", err: "xargs: argument list too long", status: 1},
		// -e, -i and -l take an optional, attached argument.
		{args: []string{"xargs", "-e", "echo"}, stdin: "a b\nEOF\nc\n", out: "a b EOF c\n"},
		{args: []string{"xargs", "-eEOF", "echo"}, stdin: "a b\nEOF\nc\n", out: "a b\n"},
		{args: []string{"xargs", "-E", "EOF", "echo"}, stdin: "a b\nEOF\nc\n", out: "a b\n"},
		{args: []string{"xargs", "--eof", "echo"}, stdin: "a b\nEOF\nc\n", out: "a b EOF c\n"},
		{args: []string{"xargs", "-re", "echo"}, stdin: "a\n", out: "a\n"},
		{args: []string{"xargs", "-i", "echo", "x{}y"}, stdin: "a\nb\n", out: "xay\nxby\n"},
		{args: []string{"xargs", "-i[]", "echo", "x[]y"}, stdin: "a\n", out: "xay\n"},
		{args: []string{"xargs", "-l", "echo"}, stdin: "a b\nc\n", out: "a b\nc\n"},
		{args: []string{"xargs", "-l2", "echo"}, stdin: "a\nb\nc\n", out: "a b\nc\n"},
		// -I: the line is the item, blanks and all, less the leading white
		// space (isspace's, \v and \f too).
		{args: []string{"xargs", "-I{}", "echo", "[{}]"}, stdin: "  a b \n\tc\td\n \v e\f\n", out: "[a b ]\n[c\td]\n[e\f]\n"},
		// find -ok asks on stderr and reads the answers from stdin.
		{args: []string{"find", "d", "-name", "*.*", "-ok", "echo", "got", "{}", ";"}, stdin: "no\ny\n", out: "got d/x.txt\n", err: "< echo ... d/sub/y.c > ? < echo ... d/x.txt > ? "},
		{args: []string{"find", "d", "-name", "x.txt", "-okdir", "echo", "got", "{}", ";"}, stdin: "Yes\n", out: "got ./x.txt\n", err: "< echo ... d/x.txt > ? "},
		{args: []string{"find", "d", "-name", "*.*", "-ok", "echo", "{}", ";"}, out: "", err: "< echo ... d/sub/y.c > ? < echo ... d/x.txt > ? "},
		{args: []string{"find", "d", "-ok", "echo", "{}", "+"}, out: "", err: "find: missing argument to `-ok'", status: 1},
		// sha1sum -c: one space, two, " *", or a tab between hash and name.
		{args: []string{"sha1sum", "-c"}, stdin: sumF + " f\n", out: "f: OK\n"},
		{args: []string{"sha1sum", "-c"}, stdin: sumF + "  f\n", out: "f: OK\n"},
		{args: []string{"sha1sum", "-c"}, stdin: sumF + " *f\n", out: "f: OK\n"},
		{args: []string{"sha1sum", "-c"}, stdin: sumF + "\tf\n", out: "f: OK\n"},
		{args: []string{"md5sum", "-c"}, stdin: "3ca69e8d6c234a469d16ac28a4a658c9 f\n", out: "f: FAILED\n", err: "WARNING: 1 computed checksum did NOT match", status: 1},
	})
}
