package coreutils

import "testing"

// GNU details of seq -w, xargs -s/-e/-i/-l/-I, find -ok and the -c of the
// sum commands; the expectations are GNU coreutils 9.1's, findutils 4.9's.
func TestGNUDetails(t *testing.T) {
	const sumF = "3ca69e8d6c234a469d16ac28a4a658c92267c423" // sha1 of stdFiles["f"]
	runCases(t, []tcase{
		// seq -w pads to the width the operands were written with.
		{Args: []string{"seq", "-w", "003"}, Out: "001\n002\n003\n"},
		{Args: []string{"seq", "-w", "1", "003"}, Out: "001\n002\n003\n"},
		{Args: []string{"seq", "-w", "-03", "2"}, Out: "-03\n-02\n-01\n000\n001\n002\n"},
		{Args: []string{"seq", "-w", "1", "0.50", "2"}, Out: "1.00\n1.50\n2.00\n"},
		{Args: []string{"seq", "-w", "9", "+011"}, Out: "009\n010\n011\n"},
		{Args: []string{"seq", "-w", "1", "2", "010"}, Out: "001\n003\n005\n007\n009\n"},
		{Args: []string{"seq", "-w", "8", "1e1"}, Out: "08\n09\n10\n"},
		// xargs -s bounds the whole command line, the command included.
		{Args: []string{"xargs", "-s", "12", "echo"}, Stdin: "a b c d e f g h\n", Out: "a b c\nd e f\ng h\n"},
		{Args: []string{"xargs", "-s", "11", "-n", "2", "echo"}, Stdin: "a b c\n", Out: "a b\nc\n"},
		{Args: []string{"xargs", "-s", "12", "echo"}, Stdin: "a bbbbbbbbbbbb c\n", Out: "a\n", Err: "xargs: argument line too long", Status: 1},
		{Args: []string{"xargs", "-s", "5", "echo"}, Stdin: "a b\n", Out: "", Err: "xargs: argument line too long", Status: 1},
		{Args: []string{"xargs", "-s", "12", "-I{}", "echo", "x{}", "{}"}, Stdin: "aaaa\n", Out: "", Err: "xargs: argument list too long", Status: 1},
		// -e, -i and -l take an optional, attached argument.
		{Args: []string{"xargs", "-e", "echo"}, Stdin: "a b\nEOF\nc\n", Out: "a b EOF c\n"},
		{Args: []string{"xargs", "-eEOF", "echo"}, Stdin: "a b\nEOF\nc\n", Out: "a b\n"},
		{Args: []string{"xargs", "-E", "EOF", "echo"}, Stdin: "a b\nEOF\nc\n", Out: "a b\n"},
		{Args: []string{"xargs", "--eof", "echo"}, Stdin: "a b\nEOF\nc\n", Out: "a b EOF c\n"},
		{Args: []string{"xargs", "-re", "echo"}, Stdin: "a\n", Out: "a\n"},
		{Args: []string{"xargs", "-i", "echo", "x{}y"}, Stdin: "a\nb\n", Out: "xay\nxby\n"},
		{Args: []string{"xargs", "-i[]", "echo", "x[]y"}, Stdin: "a\n", Out: "xay\n"},
		{Args: []string{"xargs", "-l", "echo"}, Stdin: "a b\nc\n", Out: "a b\nc\n"},
		{Args: []string{"xargs", "-l2", "echo"}, Stdin: "a\nb\nc\n", Out: "a b\nc\n"},
		// -I: the line is the item, blanks and all, less the leading white
		// space (isspace's, \v and \f too).
		{Args: []string{"xargs", "-I{}", "echo", "[{}]"}, Stdin: "  a b \n\tc\td\n \v e\f\n", Out: "[a b ]\n[c\td]\n[e\f]\n"},
		// find -ok asks on stderr and reads the answers from stdin.
		{Args: []string{"find", "d", "-name", "*.*", "-ok", "echo", "got", "{}", ";"}, Stdin: "no\ny\n", Out: "got d/x.txt\n", Err: "< echo ... d/sub/y.c > ? < echo ... d/x.txt > ? "},
		{Args: []string{"find", "d", "-name", "x.txt", "-okdir", "echo", "got", "{}", ";"}, Stdin: "Yes\n", Out: "got ./x.txt\n", Err: "< echo ... d/x.txt > ? "},
		{Args: []string{"find", "d", "-name", "*.*", "-ok", "echo", "{}", ";"}, Out: "", Err: "< echo ... d/sub/y.c > ? < echo ... d/x.txt > ? "},
		{Args: []string{"find", "d", "-ok", "echo", "{}", "+"}, Out: "", Err: "find: missing argument to `-ok'", Status: 1},
		// sha1sum -c: one space, two, " *", or a tab between hash and name.
		{Args: []string{"sha1sum", "-c"}, Stdin: sumF + " f\n", Out: "f: OK\n"},
		{Args: []string{"sha1sum", "-c"}, Stdin: sumF + "  f\n", Out: "f: OK\n"},
		{Args: []string{"sha1sum", "-c"}, Stdin: sumF + " *f\n", Out: "f: OK\n"},
		{Args: []string{"sha1sum", "-c"}, Stdin: sumF + "\tf\n", Out: "f: OK\n"},
		{Args: []string{"md5sum", "-c"}, Stdin: "3ca69e8d6c234a469d16ac28a4a658c9 f\n", Out: "f: FAILED\n", Err: "WARNING: 1 computed checksum did NOT match", Status: 1},
	})
}
