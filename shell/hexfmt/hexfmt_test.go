package hexfmt

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/cordonhq/cordon/shell/command/commandtest"
)

// compareGNU runs each command line here and with the host's tool on the
// same files, and reports every difference of output or status.
func compareGNU(t *testing.T, files map[string]string, stdin string, lines [][]string) int {
	t.Helper()
	compared := 0
	for _, args := range lines {
		tool := commandtest.Tool(t, args[0])
		fsys := commandtest.NewFS(t, files)
		host := commandtest.Mirror(t, fsys, files)
		want := host.Run(t, stdin, tool, args[1:]...)
		got := commandtest.Run(t, Commands(), fsys, stdin, args...)
		compared++
		if got.Out != want.Out || got.Status != want.Status {
			t.Errorf("%q: got status %d:\n%s\nwant status %d:\n%s\n(stderr %q / %q)", args, got.Status, got.Out, want.Status, want.Out, got.Err, want.Err)
		}
	}
	return compared
}

// sample returns test data: text, every byte value, runs of repeated
// lines and random bytes.
func sample() map[string]string {
	var all strings.Builder
	for i := range 256 {
		all.WriteByte(byte(i))
	}
	r := rand.New(rand.NewPCG(7, 7))
	rnd := make([]byte, 1000)
	for i := range rnd {
		rnd[i] = byte(r.IntN(256))
	}
	return map[string]string{
		"text":  "Hello, world!\nThe quick brown fox\tjumps over the lazy dog.\n",
		"all":   all.String(),
		"rep":   strings.Repeat("0123456789abcdef", 8) + "tail",
		"rnd":   string(rnd),
		"odd":   "abcde",
		"empty": "",
		"float": "\x00\x00\x80\x3f\x00\x00\x00\x00\x00\x00\xf0\x3f\x9a\x99\x99\x99\x99\x99\xb9\x3f\x00\x00\x00\x00\x00\x00\x00\x80\x00\x00\x80\x7f\x00\x00\xc0\x7f\x40\xe2\x01\x00\x00\x00\x00\x00\x00\x00\x38\x93\x04\x00\x00\x00",
	}
}

func TestOdMatchesGNU(t *testing.T) {
	var lines [][]string
	for _, f := range []string{"text", "all", "rep", "rnd", "odd", "empty"} {
		for _, opts := range [][]string{{}, {"-c"}, {"-An", "-tx1"}, {"-Ax", "-tx1z"}, {"-Ad", "-td1"}, {"-tu2"}, {"-td2"}, {"-tx4"}, {"-to4"},
			{"-td8"}, {"-tu8"}, {"-tx8"}, {"-ta"}, {"-tx1", "-tc"}, {"-to1", "-tx2"}, {"-tx2", "-td4", "-tc"}, {"-v", "-tx1"},
			{"-w8", "-tx1"}, {"-w4", "-tx2", "-tc"}, {"-j5", "-N20", "-c"}, {"-x"}, {"-b"}, {"-d"}, {"-s"}, {"-o"}, {"-i"}, {"-l"}, {"-a"},
			{"-tx1", "-j", "0x10", "-N", "010"}, {"-w"}, {"-tdC"}, {"-txS"}, {"-tuI"}, {"-tdL"}, {"-w6", "-tx2"}} {
			lines = append(lines, append(append([]string{"od"}, opts...), f))
		}
	}
	for _, opts := range [][]string{{"-tf4"}, {"-tf8"}, {"-tfF"}, {"-tfD"}, {"-f"}, {"-F"}, {"-tf4", "-tx4"}} {
		lines = append(lines, append(append([]string{"od"}, opts...), "float"))
	}
	lines = append(lines, []string{"od", "-c", "text", "odd", "-"}, []string{"od", "-j", "1000", "odd"}, []string{"od", "-tq"},
		[]string{"od", "-c", "nope", "odd"}, []string{"od", "-Az", "odd"}, []string{"od", "-t", "x3", "odd"})
	n := compareGNU(t, sample(), "from stdin\n", lines)
	t.Logf("%d od command lines compared with GNU od", n)
}

func TestXxdMatchesGNU(t *testing.T) {
	files := sample()
	files["dump"] = "00000000: 4865 6c6c 6f2c 2077 6f72 6c64 210a 5468  Hello, world!.Th\n00000010: 6520 7175 6963 6b                        e quick\n"
	files["gapdump"] = "00000000: 4142  AB\n00000010: 4344  CD\n"
	files["plainhex"] = "48656c6c6f0a\n2077 6f\n"
	var lines [][]string
	for _, f := range []string{"text", "all", "rep", "rnd", "odd", "empty"} {
		for _, opts := range [][]string{{}, {"-g1"}, {"-g0"}, {"-g3"}, {"-c8"}, {"-c", "20"}, {"-p"}, {"-p", "-c", "12"}, {"-u"},
			{"-l", "5"}, {"-s", "3"}, {"-s", "-3"}, {"-s", "3", "-l", "4"}, {"-b"}, {"-e"}, {"-e", "-g8"}, {"-d", "-o", "5"}, {"-o", "0x100"},
			{"-i"}, {"-a"}, {"-ps"}, {"-c", "7", "-g", "2"}, {"-b", "-c", "4"}} {
			lines = append(lines, append(append([]string{"xxd"}, opts...), f))
		}
	}
	lines = append(lines, []string{"xxd", "-r", "dump"}, []string{"xxd", "-r", "-p", "plainhex"}, []string{"xxd", "-r", "gapdump"}, []string{"xxd", "nope"}, []string{"xxd", "-i", "-n", "var", "odd"}, []string{"xxd", "-i", "-C", "odd"},
		[]string{"xxd"}, []string{"xxd", "-p"}, []string{"xxd", "-i"})
	zeros := map[string]string{"z": strings.Repeat("\x00", 64), "z2": strings.Repeat("\x00", 40) + "x" + strings.Repeat("\x00", 40)}
	n := compareGNU(t, files, "stdin text\n", lines)
	n += compareGNU(t, zeros, "", [][]string{{"xxd", "-a", "z"}, {"xxd", "-a", "z2"}, {"xxd", "-a", "-c", "8", "z2"}})
	t.Logf("%d xxd command lines compared with xxd", n)
}

func TestHexdumpMatchesUtilLinux(t *testing.T) {
	var lines [][]string
	for _, f := range []string{"text", "all", "rep", "rnd", "odd", "empty"} {
		for _, opts := range [][]string{{}, {"-C"}, {"-c"}, {"-x"}, {"-b"}, {"-d"}, {"-o"}, {"-v", "-C"}, {"-n", "5", "-C"}, {"-s", "3", "-C"},
			{"-s", "3", "-n", "20"}, {"-C", "-c"}, {"-x", "-c"}, {"--canonical"}} {
			lines = append(lines, append(append([]string{"hexdump"}, opts...), f))
		}
	}
	lines = append(lines, []string{"hexdump", "-C"}, []string{"hexdump", "nope"}, []string{"hexdump", "-C", "odd", "text"}, []string{"hexdump", "-C", "nope", "odd"})
	n := compareGNU(t, sample(), "from stdin\n", lines)
	n += compareGNU(t, map[string]string{"z": strings.Repeat("\x00", 64)}, "", [][]string{{"hexdump", "-C", "z"}, {"hexdump", "z"}})
	t.Logf("%d hexdump command lines compared with util-linux hexdump", n)
}

// TestBase32RoundTrip decodes what it encodes.
func TestBase32RoundTrip(t *testing.T) {
	for name, data := range sample() {
		fsys := commandtest.NewFS(t, map[string]string{"f": data})
		enc := commandtest.Run(t, Commands(), fsys, "", "base32", "f")
		dec := commandtest.Run(t, Commands(), fsys, enc.Out, "base32", "-d")
		if dec.Out != data || dec.Status != 0 {
			t.Errorf("%s: round trip failed (%d): %s", name, dec.Status, dec.Err)
		}
	}
}

func TestBase64(t *testing.T) {
	r := commandtest.Runner{Commands: Commands(), Files: map[string]string{
		"f":   "a\nb\nc\n",
		"g":   "hello world\n",
		"n12": "one\ntwo\nthree\nfour\nfive\nsix\nseven\neight\nnine\nten\neleven\ntwelve\n",
	}}
	r.RunCases(t, []commandtest.Case{
		{Args: []string{"base64"}, Stdin: "hello", Out: "aGVsbG8=\n"},
		{Args: []string{"base64", "n12"}, Out: "b25lCnR3bwp0aHJlZQpmb3VyCmZpdmUKc2l4CnNldmVuCmVpZ2h0Cm5pbmUKdGVuCmVsZXZlbgp0\nd2VsdmUK\n"},
		{Args: []string{"base64", "-w", "20", "n12"}, Out: "b25lCnR3bwp0aHJlZQpm\nb3VyCmZpdmUKc2l4CnNl\ndmVuCmVpZ2h0Cm5pbmUK\ndGVuCmVsZXZlbgp0d2Vs\ndmUK\n"},
		{Args: []string{"base64", "-w", "0", "n12"}, Out: "b25lCnR3bwp0aHJlZQpmb3VyCmZpdmUKc2l4CnNldmVuCmVpZ2h0Cm5pbmUKdGVuCmVsZXZlbgp0d2VsdmUK"},
		{Args: []string{"base64", "-d"}, Stdin: "aGVsbG8=\n", Out: "hello"},
		{Args: []string{"base64", "-d"}, Stdin: "aGVs!bG8=", Out: "hel", Err: "base64: invalid input", Status: 1},
		{Args: []string{"base64", "-d"}, Stdin: "aGVsbG8", Out: "hello", Err: "base64: invalid input", Status: 1},
		{Args: []string{"base64", "-d", "-i"}, Stdin: "aGVs!bG8=", Out: "hello"},
		{Args: []string{"base64", "--decode"}, Stdin: "aGVs\nbG8=\n", Out: "hello"},
		{Args: []string{"base64", "nope"}, Out: "", Err: "base64: nope: No such file or directory", Status: 1},
		{Args: []string{"base64", "-w", "x", "f"}, Out: "", Err: "base64: invalid wrap size: ‘x’", Status: 1},
		{Args: []string{"base64", "f", "g"}, Out: "", Err: "base64: extra operand ‘g’", Status: 1},
	})
}

// TestBaseMatchesGNU compares base32 and base64 with GNU's: encoding
// with every wrap, decoding good, short, bad and garbled input, and the
// errors.
func TestBaseMatchesGNU(t *testing.T) {
	// Two base64 cases differ from GNU and are not compared: padding inside
	// the data ("aGk=aGk=", which GNU decodes whole) and a bad character
	// inside a group of four (GNU first writes the group's complete bytes);
	// there base64 -d stops earlier with "invalid input".
	inputs := map[string]map[string]string{
		"base32": {"enc": "NBSWY3DP\nNBSWY3DP\n", "short": "NBSWY3D", "garbage": "NBS!WY3DP", "bad": "NBSWY3DPNB1WY3DP"},
		"base64": {"enc": "aGVsbG8g\nd29ybGQ=\n", "short": "aGVsbG8", "garbage": "aGVs!bG8=", "bad": "aGVsbG8gaGVs*bG8="},
	}
	for _, cmd := range []string{"base32", "base64"} {
		t.Run(cmd, func(t *testing.T) {
			files := sample()
			for name, data := range inputs[cmd] {
				files[name] = data
			}
			var lines [][]string
			for _, f := range []string{"text", "all", "rep", "rnd", "odd", "empty"} {
				for _, opts := range [][]string{{}, {"-w", "0"}, {"-w20"}, {"--wrap=7"}} {
					lines = append(lines, append(append([]string{cmd}, opts...), f))
				}
			}
			lines = append(lines, []string{cmd, "-d", "enc"}, []string{cmd, "-d", "short"}, []string{cmd, "-d", "garbage"},
				[]string{cmd, "-di", "garbage"}, []string{cmd, "-d", "bad"}, []string{cmd, "-w", "x"}, []string{cmd, "nope"},
				[]string{cmd}, []string{cmd, "odd", "text"})
			n := compareGNU(t, files, "stdin\n", lines)
			t.Logf("%d %s command lines compared with GNU %s", n, cmd, cmd)
		})
	}
}

// TestBase64LargeInput encodes and decodes a few MiB with long lines.
func TestBase64LargeInput(t *testing.T) {
	big := strings.Repeat("x", 3<<20) + "\n" + strings.Repeat("a b\n", 100000)
	fsys := commandtest.NewFS(t, map[string]string{"big": big})
	enc := commandtest.Run(t, Commands(), fsys, "", "base64", "big")
	dec := commandtest.Run(t, Commands(), fsys, enc.Out, "base64", "-d")
	if enc.Status != 0 || dec.Status != 0 || dec.Out != big {
		t.Errorf("round trip of %d bytes: status %d, %d; got %d bytes back", len(big), enc.Status, dec.Status, len(dec.Out))
	}
}

// TestBaseLargeMatchesGNU compares base32 and base64 with GNU's on input
// of several read buffers, with a tail that is no whole group of either,
// so that a buffer ending inside a group (and padded there) would show.
func TestBaseLargeMatchesGNU(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 5))
	big := make([]byte, 200_001)
	for i := range big {
		big[i] = byte(r.IntN(256))
	}
	files := map[string]string{"big": string(big)}
	var lines [][]string
	for _, cmd := range []string{"base32", "base64"} {
		for _, opts := range [][]string{{}, {"-w", "0"}, {"-w7"}} {
			lines = append(lines, append(append([]string{cmd}, opts...), "big"))
		}
	}
	n := compareGNU(t, files, "", lines)
	t.Logf("%d command lines compared with GNU", n)
}
