package coreutils

import (
	"strings"
	"testing"
	"time"

	"github.com/cordonhq/cordon/shell/command"
)

// The expectations below were produced by GNU coreutils 9 and findutils 4.9
// (xargs) on the same fixture (stdFiles) with LC_ALL=C.UTF-8 and TZ=UTC.

func TestMiscCommands(t *testing.T) {
	runCases(t, []tcase{
		// basename, dirname
		{args: []string{"basename", "/a/b/"}, out: "b\n"},
		{args: []string{"basename", "a.txt", ".txt"}, out: "a\n"},
		{args: []string{"basename", "-a", "x/y", "z/w"}, out: "y\nw\n"},
		{args: []string{"basename", "-s", ".c", "a.c", "b.c"}, out: "a\nb\n"},
		{args: []string{"basename", "/"}, out: "/\n"},
		{args: []string{"basename", ".txt", ".txt"}, out: ".txt\n"},
		{args: []string{"basename"}, out: "", err: "basename: missing operand", status: 1},
		{args: []string{"basename", "a", "b", "c"}, out: "", err: "basename: extra operand ‘c’", status: 1},
		{args: []string{"dirname", "a/b/", "/x", "a", "/", "//a//b//"}, out: "a\n/\n.\n/\n//a\n"},
		{args: []string{"dirname"}, out: "", err: "dirname: missing operand", status: 1},
		// date
		{args: []string{"date", "-d", "@1700000000"}, out: "Tue Nov 14 22:13:20 UTC 2023\n"},
		{args: []string{"date", "-d", "@1700000000", "-R"}, out: "Tue, 14 Nov 2023 22:13:20 +0000\n"},
		{args: []string{"date", "-d", "@1700000000", "-I"}, out: "2023-11-14\n"},
		{args: []string{"date", "-d", "@1700000000", "-Iseconds"}, out: "2023-11-14T22:13:20+00:00\n"},
		{args: []string{"date", "-d", "@1700000000", "-Ins"}, out: "2023-11-14T22:13:20,000000000+00:00\n"},
		{args: []string{"date", "-d", "@1700000000", "-Iminutes"}, out: "2023-11-14T22:13+00:00\n"},
		{args: []string{"date", "-d", "@1700000000", "-Ihours"}, out: "2023-11-14T22+00:00\n"},
		{args: []string{"date", "-d", "@1700000000", "+%c|%x|%X|%r|%D|%j|%U|%W|%V|%G|%u|%w|%-d|%_H|%^a|%#b|%:z|%::z|%N|%3N|%P|%p|%l|%k|%10Y|%e|%C|%g|%h|%s|%-m/%-d|%05d|%_5m|%%|%q|%A|%B|%F|%T|%R|%y|%Z|%z|%n|%t|%I|%M|%S|%H"}, out: "Tue Nov 14 22:13:20 2023|11/14/23|22:13:20|10:13:20 PM|11/14/23|318|46|46|46|2023|2|2|14|22|TUE|NOV|+00:00|+00:00:00|000000000|000|pm|PM|10|22|0000002023|14|20|23|Nov|1700000000|11/14|00014|   11|%|4|Tuesday|November|2023-11-14|22:13:20|22:13|23|UTC|+0000|\n|\t|10|13|20|22\n"},
		{args: []string{"date", "-d", "2024-01-06", "+%U|%W|%V|%j|%a"}, out: "00|01|01|006|Sat\n"},
		{args: []string{"date", "-d", "2024-12-30", "+%G-%V|%g"}, out: "2025-01|25\n"},
		{args: []string{"date", "-d", "2024-02-30"}, out: "", err: "date: invalid date ‘2024-02-30’", status: 1},
		{args: []string{"date", "-d", "2024-01-02 03:04"}, out: "Tue Jan  2 03:04:00 UTC 2024\n"},
		{args: []string{"date", "-d", "2024-01-02T03:04:05Z", "+%s"}, out: "1704164645\n"},
		{args: []string{"date", "--rfc-3339=seconds", "-d", "@0"}, out: "1970-01-01 00:00:00+00:00\n"},
		{args: []string{"date", "--rfc-3339=date", "-d", "@0"}, out: "1970-01-01\n"},
		{args: []string{"date", "--rfc-3339=ns", "-d", "@0.5"}, out: "1970-01-01 00:00:00.500000000+00:00\n"},
		{args: []string{"date", "-u", "-d", "2024-01-02 03:04:05+02:00"}, out: "Tue Jan  2 01:04:05 UTC 2024\n"},
		{args: []string{"date", "-d", "garbage"}, out: "", err: "date: invalid date ‘garbage’", status: 1},
		{args: []string{"date", "-d", "@0", "+%Y-%m-%dT%H:%M:%S%z"}, out: "1970-01-01T00:00:00+0000\n"},
		{args: []string{"date", "-d", "2020-03-01 -1 day", "+%F"}, out: "2020-02-29\n"},
		{args: []string{"date", "-d", "2020-01-31 +1 month", "+%F"}, out: "2020-03-02\n"},
		{args: []string{"date", "-d", "2020-01-01 2 weeks ago", "+%F"}, out: "2019-12-18\n"},
		{args: []string{"date", "-d", "@-1"}, out: "Wed Dec 31 23:59:59 UTC 1969\n"},
		{args: []string{"date", "-u", "-d", "@86399", "+%T"}, out: "23:59:59\n"},
		{args: []string{"date", "-d", "1970-01-01", "+%s"}, out: "0\n"},
		{args: []string{"date", "-d", "2024-06-01T10:20:30.5Z", "+%s.%N"}, out: "1717237230.500000000\n"},
		{args: []string{"date", "+%Y", "x"}, out: "", err: "date: extra operand ‘x’", status: 1},
		{args: []string{"date", "-r", "f", "+%Y"}, out: "2026\n"},
		{args: []string{"date", "--iso-8601=minutes", "-d", "@0"}, out: "1970-01-01T00:00+00:00\n"},
		{args: []string{"date", "-Ix"}, out: "", err: "date: invalid argument ‘x’ for ‘--iso-8601’", status: 1},
		// base64
		{args: []string{"base64"}, stdin: "hello", out: "aGVsbG8=\n"},
		{args: []string{"base64", "n12"}, out: "b25lCnR3bwp0aHJlZQpmb3VyCmZpdmUKc2l4CnNldmVuCmVpZ2h0Cm5pbmUKdGVuCmVsZXZlbgp0\nd2VsdmUK\n"},
		{args: []string{"base64", "-w", "20", "n12"}, out: "b25lCnR3bwp0aHJlZQpm\nb3VyCmZpdmUKc2l4CnNl\ndmVuCmVpZ2h0Cm5pbmUK\ndGVuCmVsZXZlbgp0d2Vs\ndmUK\n"},
		{args: []string{"base64", "-w", "0", "n12"}, out: "b25lCnR3bwp0aHJlZQpmb3VyCmZpdmUKc2l4CnNldmVuCmVpZ2h0Cm5pbmUKdGVuCmVsZXZlbgp0d2VsdmUK"},
		{args: []string{"base64", "-d"}, stdin: "aGVsbG8=\n", out: "hello"},
		{args: []string{"base64", "-d"}, stdin: "aGVs!bG8=", out: "hel", err: "base64: invalid input", status: 1},
		{args: []string{"base64", "-d"}, stdin: "aGVsbG8", out: "hello", err: "base64: invalid input", status: 1},
		{args: []string{"base64", "-d", "-i"}, stdin: "aGVs!bG8=", out: "hello"},
		{args: []string{"base64", "--decode"}, stdin: "aGVs\nbG8=\n", out: "hello"},
		{args: []string{"base64", "nope"}, out: "", err: "base64: nope: No such file or directory", status: 1},
		{args: []string{"base64", "-w", "x", "f"}, out: "", err: "base64: invalid wrap size: ‘x’", status: 1},
		{args: []string{"base64", "f", "g"}, out: "", err: "base64: extra operand ‘g’", status: 1},
		// sums
		{args: []string{"sha256sum"}, stdin: "hi", out: "8f434346648f6b96df89dda901c5176b10a6d83961dd3c1ac88b59b2dc327aa4  -\n"},
		{args: []string{"sha256sum", "f", "nope"}, out: "880553fca8fcea94e325ee2cfb48e5a985cc797f39a14cc6d3cedecfeb2ae4d2  f\n", err: "sha256sum: nope: No such file or directory", status: 1},
		{args: []string{"sha1sum", "f", "g"}, out: "3ca69e8d6c234a469d16ac28a4a658c92267c423  f\n22596363b3de40b06f981fb85d82312e8c0ed511  g\n"},
		{args: []string{"md5sum", "f", "-"}, out: "40c53c58fdafacc83cfff6ee3d2f6d69  f\nd41d8cd98f00b204e9800998ecf8427e  -\n"},
		{args: []string{"md5sum", "-b", "f"}, out: "40c53c58fdafacc83cfff6ee3d2f6d69 *f\n"},
		{args: []string{"md5sum", "-c", "f"}, out: "", err: "md5sum: f: no properly formatted checksum lines found", status: 1},
		{args: []string{"md5sum", "--bogus"}, out: "", err: "md5sum: unrecognized option '--bogus'", status: 1},
		{args: []string{"sha256sum", "-c"}, stdin: "88d4266fd4e6338d13b845fcf289579d209c897823b9217da3e161936f031589  f\n", out: "f: FAILED\n", err: "sha256sum: WARNING: 1 computed checksum did NOT match", status: 1},
		{args: []string{"sha256sum", "-c"}, stdin: "1  f\n", out: "", err: "sha256sum: 'standard input': no properly formatted checksum lines found", status: 1},
		{args: []string{"sha256sum", "-c"}, stdin: "0000000000000000000000000000000000000000000000000000000000000000  f\n", out: "f: FAILED\n", err: "sha256sum: WARNING: 1 computed checksum did NOT match", status: 1},
		{args: []string{"sha256sum", "-c", "--status"}, stdin: "0000000000000000000000000000000000000000000000000000000000000000  f\n", out: "", status: 1},
		{args: []string{"sha256sum", "-c"}, stdin: "0000000000000000000000000000000000000000000000000000000000000000  nope\n", out: "nope: FAILED open or read\n", err: "sha256sum: nope: No such file or directory", status: 1},
		{args: []string{"sha256sum", "--quiet", "-c"}, stdin: "880553fca8fcea94e325ee2cfb48e5a985cc797f39a14cc6d3cedecfeb2ae4d2  f\n", out: ""},
		// seq
		{args: []string{"seq", "3"}, out: "1\n2\n3\n"},
		{args: []string{"seq", "2", "4"}, out: "2\n3\n4\n"},
		{args: []string{"seq", "0.1", "0.1", "0.5"}, out: "0.1\n0.2\n0.3\n0.4\n0.5\n"},
		{args: []string{"seq", "1", "0.5", "3"}, out: "1.0\n1.5\n2.0\n2.5\n3.0\n"},
		{args: []string{"seq", "-w", "8", "11"}, out: "08\n09\n10\n11\n"},
		{args: []string{"seq", "-s,", "3"}, out: "1,2,3\n"},
		{args: []string{"seq", "-f", "%03g", "3"}, out: "001\n002\n003\n"},
		{args: []string{"seq", "5", "1"}, out: ""},
		{args: []string{"seq", "1e3", "1e3"}, out: "1000\n"},
		{args: []string{"seq", "x"}, out: "", err: "seq: invalid floating point argument: ‘x’", status: 1},
		{args: []string{"seq", "1", "0", "2"}, out: "", err: "seq: invalid Zero increment value: ‘0’", status: 1},
		{args: []string{"seq", "-w", "-1", "1"}, out: "-1\n00\n01\n"},
		{args: []string{"seq", "1.0", "3"}, out: "1.0\n2.0\n3.0\n"},
		{args: []string{"seq", "10", "-3", "1"}, out: "10\n7\n4\n1\n"},
		{args: []string{"seq", "2", "1.5e1", "40"}, out: "2\n17\n32\n"},
		{args: []string{"seq", "-w", "0.5", "1", "2.5"}, out: "0.5\n1.5\n2.5\n"},
		{args: []string{"seq", "-f", "%.2f", "1", "0.25", "2"}, out: "1.00\n1.25\n1.50\n1.75\n2.00\n"},
		{args: []string{"seq", "-f", "%g", "1000000", "1000000"}, out: "1e+06\n"},
		{args: []string{"seq", "-f", "%e", "1", "1"}, out: "1.000000e+00\n"},
		{args: []string{"seq", "-s ", "-w", "1", "10"}, out: "01 02 03 04 05 06 07 08 09 10\n"},
		{args: []string{"seq", "-1"}, out: ""},
		{args: []string{"seq", "--", "-3", "-1"}, out: "-3\n-2\n-1\n"},
		{args: []string{"seq", "1", "2", "3", "4"}, out: "", err: "seq: extra operand ‘4’", status: 1},
		{args: []string{"seq", "18446744073709551615", "18446744073709551616"}, out: "18446744073709551615\n18446744073709551616\n"},
		{args: []string{"seq", "-f", "x%gy", "2"}, out: "x1y\nx2y\n"},
		{args: []string{"seq", "-f", "%d", "2"}, out: "", err: "seq: format ‘%d’ has unknown %d directive", status: 1},
		{args: []string{"seq", "-f", "%g%g", "2"}, out: "", err: "seq: format ‘%g%g’ has too many % directives", status: 1},
		{args: []string{"seq", "1", "1", "1.5"}, out: "1\n"},
		{args: []string{"seq", "3", "-1", "1.5"}, out: "3\n2\n"},
		{args: []string{"seq"}, out: "", err: "seq: missing operand", status: 1},
		// xargs
		{args: []string{"xargs", "-n", "2", "echo"}, stdin: "a b\nc \"d e\" f\\\\ g\n", out: "a b\nc d e\nf\\ g\n"},
		{args: []string{"xargs", "echo"}, stdin: "it's\n", out: "", err: "xargs: unmatched single quote; by default quotes are special to xargs unless you use the -0 option", status: 1},
		{args: []string{"xargs", "-I{}", "echo", "x{}y"}, stdin: "a\nb\n", out: "xay\nxby\n"},
		{args: []string{"xargs", "echo", "hi"}, out: "hi\n"},
		{args: []string{"xargs", "-r", "echo", "hi"}, out: ""},
		{args: []string{"xargs", "-L1", "-t", "echo"}, stdin: "a b\nc\n", out: "a b\nc\n", err: "echo a b"},
		{args: []string{"xargs", "-n1"}, stdin: "a\nb\n", out: "a\nb\n"},
		{args: []string{"xargs", "-d,", "-n1"}, stdin: "a,b,c", out: "a\nb\nc\n"},
		{args: []string{"xargs", "false"}, stdin: "a\n", out: "", status: 123},
		{args: []string{"xargs", "-I%", "echo", "[%]"}, stdin: "  x  \n", out: "[x  ]\n"},
		{args: []string{"xargs", "-n", "2"}, stdin: "a b c d e", out: "a b\nc d\ne\n"},
		{args: []string{"xargs", "-t"}, stdin: "a\nb\n", out: "a b\n", err: "echo a b"},
		{args: []string{"xargs", "-L", "1"}, stdin: "a b\nc\n", out: "a b\nc\n"},
		{args: []string{"xargs", "-n", "0"}, stdin: "a\n", out: "", err: "xargs: value 0 for -n option should be >= 1", status: 1},
		{args: []string{"xargs", "-E", "b", "echo"}, stdin: "a b\n", out: "a\n"},
		{args: []string{"xargs", "-L", "1", "echo"}, stdin: "a\n\n\nb\n", out: "a\nb\n"},
		{args: []string{"xargs", "-I", "X", "echo", "<X>"}, stdin: "a  b\nc\n", out: "<a  b>\n<c>\n"},
		{args: []string{"xargs", "-a", "f", "echo"}, stdin: "x\n", out: "a b c\n"},
		{args: []string{"xargs", "echo"}, stdin: "\"a\n", out: "", err: "xargs: unmatched double quote; by default quotes are special to xargs unless you use the -0 option", status: 1},
		// env
		{args: []string{"env", "-u"}, out: "", err: "env: option requires an argument -- 'u'", status: 125},
		// sleep, yes
		{args: []string{"sleep", "x"}, out: "", err: "sleep: invalid time interval ‘x’", status: 1},
		{args: []string{"sleep", "0.01s", "0.01"}, out: ""},
		{args: []string{"sleep"}, out: "", err: "sleep: missing operand", status: 1},
		{args: []string{"sleep", "-1"}, out: "", err: "sleep: invalid option -- '1'", status: 1},
		{args: []string{"sleep", "--bogus"}, out: "", err: "sleep: unrecognized option '--bogus'", status: 1},
		{args: []string{"yes", "--bogus"}, out: "", err: "yes: unrecognized option '--bogus'", status: 1},
		{args: []string{"yes", "-x"}, out: "", err: "yes: invalid option -- 'x'", status: 1},
		// mktemp, realpath, readlink
		{args: []string{"mktemp", "foo"}, out: "", err: "mktemp: too few X's in template ‘foo’", status: 1},
		{args: []string{"mktemp", "-u", "foo"}, out: "", err: "mktemp: too few X's in template ‘foo’", status: 1},
		{args: []string{"mktemp", "-p"}, out: "", err: "mktemp: option requires an argument -- 'p'", status: 1},
		{args: []string{"realpath", "nope/x"}, out: "", err: "realpath: nope/x: No such file or directory", status: 1},
		{args: []string{"realpath", "-e", "nope"}, out: "", err: "realpath: nope: No such file or directory", status: 1},
		{args: []string{"realpath", "-e", "f/x"}, out: "", err: "realpath: f/x: Not a directory", status: 1},
		{args: []string{"realpath"}, out: "", err: "realpath: missing operand", status: 1},
		{args: []string{"readlink", "f"}, out: "", status: 1},
		{args: []string{"readlink", "-f", "nope/../f"}, out: "", status: 1},
		{args: []string{"readlink", "-e", "nope"}, out: "", status: 1},
		{args: []string{"readlink"}, out: "", err: "readlink: missing operand", status: 1},
		// stat, du
		{args: []string{"stat", "-c", "%n|%s|%F|%a|%A", "f", "d"}, out: "f|6|regular file|644|-rw-r--r--\nd|4096|directory|755|drwxr-xr-x\n"},
		{args: []string{"stat", "nope"}, out: "", err: "stat: cannot statx 'nope': No such file or directory", status: 1},
		{args: []string{"stat", "-c", "%s|%F|%h", "d/empty"}, out: "0|regular empty file|1\n"},
		{args: []string{"stat", "--printf=%n\t%s\\n", "f", "g"}, out: "f\t6\ng\t12\n"},
		{args: []string{"stat", "-c", "[%10s|%-5s]", "f"}, out: "[         6|6    ]\n"},
		{args: []string{"stat"}, out: "", err: "stat: missing operand", status: 1},
		{args: []string{"du", "d"}, out: "8\td/sub\n16\td\n"},
		{args: []string{"du", "-s", "d"}, out: "16\td\n"},
		{args: []string{"du", "-sh", "d"}, out: "16K\td\n"},
		{args: []string{"du", "-a", "d"}, out: "0\td/empty\n4\td/sub/y.c\n8\td/sub\n4\td/x.txt\n16\td\n"}, // GNU lists in directory order
		{args: []string{"du", "-c", "d", "e"}, out: "8\td/sub\n16\td\n4\te\n20\ttotal\n"},
		{args: []string{"du", "nope"}, out: "", err: "du: cannot access 'nope': No such file or directory", status: 1},
		{args: []string{"du", "-d", "0", "d"}, out: "16\td\n"},
		{args: []string{"du", "-b", "f"}, out: "6\tf\n"},
		// Not compared with GNU: the sandbox has no symbolic links.
		{args: []string{"readlink", "-f", "nope"}, out: "/workspace/nope\n"},
		{args: []string{"readlink", "-f", "d/../f"}, out: "/workspace/f\n"},
		{args: []string{"readlink", "-m", "nope/x/.."}, out: "/workspace/nope\n"},
		{args: []string{"realpath", "f", "/tmp/../workspace/d/"}, out: "/workspace/f\n/workspace/d\n"},
		{args: []string{"realpath", "--relative-to=d/sub", "f"}, out: "../../f\n"},
		{args: []string{"realpath", "-m", "a/../../b"}, out: "/b\n"},
		{args: []string{"xargs", "exit255"}, stdin: "a\nb\n", err: "xargs: exit255: exited with status 255; aborting", status: 124},
		{args: []string{"xargs", "-0", "-n1", "echo"}, stdin: "a b\x00c\x00", out: "a b\nc\n"},
		{args: []string{"xargs", "-d", "\\n", "echo"}, stdin: "a b\nc\n", out: "a b c\n"},
		{args: []string{"printenv"}, out: "HOME=/workspace\nPATH=/bin\n"},
		{args: []string{"printenv", "PATH", "HOME"}, out: "/bin\n/workspace\n"},
		{args: []string{"printenv", "NOPE", "HOME"}, out: "/workspace\n", status: 1},
		{args: []string{"env"}, out: "HOME=/workspace\nPATH=/bin\n"},
		{args: []string{"env", "-u", "HOME"}, out: "PATH=/bin\n"},
		{args: []string{"env", "-i", "A=1"}, out: "A=1\n"},
		{args: []string{"env", "HOME=/x", "B=2"}, out: "HOME=/x\nPATH=/bin\nB=2\n"},
		{args: []string{"env", "echo", "a", "b"}, out: "a b\n"},
		{args: []string{"env", "A=1", "env"}, out: "HOME=/workspace\nPATH=/bin\nA=1\n"},
		{args: []string{"env", "-i", "A=1", "env"}, out: "A=1\n"},
		{args: []string{"seq", "9007199254740993", "9007199254740994"}, out: "9007199254740993\n9007199254740994\n"},
		{args: []string{"seq", "-w", "-s", ",", "98", "101"}, out: "098,099,100,101\n"},
		{args: []string{"seq", "-f", "%999999g", "1"}, err: "seq: format ‘%999999g’ has a field width or precision that is too large", status: 1},
		{args: []string{"du", "-s", "-c", "d", "d/sub", "d"}, out: "16\td\n16\ttotal\n"},
		{args: []string{"date"}, out: "Sat Nov 21 12:00:00 UTC 2026\n"},
		{args: []string{"date", "-u", "+%F %T"}, out: "2026-11-21 12:00:00\n"},
		{args: []string{"date", "-d", "yesterday", "+%F"}, out: "2026-11-20\n"},
		{args: []string{"date", "-d", "tomorrow", "+%F"}, out: "2026-11-22\n"},
		{args: []string{"date", "-d", "2 days ago", "+%F"}, out: "2026-11-19\n"},
		{args: []string{"date", "-d", "+3 hours", "+%T"}, out: "15:00:00\n"},
		{args: []string{"date", "-d", "10:30", "+%F %T"}, out: "2026-11-21 10:30:00\n"},
		{args: []string{"date", "-d", "now", "+%s"}, out: "1795262400\n"},
		{args: []string{"date", "-d", "2024-01-15 + 30 days", "+%F %T"}, out: "2024-02-14 00:00:00\n"},
		{args: []string{"date", "-d", "Tue, 14 Nov 2023 22:13:20 +0000", "+%F %T"}, out: "2023-11-14 22:13:20\n"},
		{args: []string{"date", "-d", "Tue Nov 14 22:13:20 UTC 2023", "+%F %T"}, out: "2023-11-14 22:13:20\n"},
		{args: []string{"date", "-d", "Jan 2 2024", "+%F %T"}, out: "2024-01-02 00:00:00\n"},
		{args: []string{"date", "-d", "2 Jan 2024", "+%F %T"}, out: "2024-01-02 00:00:00\n"},
		{args: []string{"date", "-d", "January 2, 2024", "+%F %T"}, out: "2024-01-02 00:00:00\n"},
		{args: []string{"date", "-d", "01/02/2024", "+%F %T"}, out: "2024-01-02 00:00:00\n"},
		{args: []string{"date", "-d", "2024-01-02 10:00:00 UTC", "+%F %T"}, out: "2024-01-02 10:00:00\n"},
		{args: []string{"date", "-d", "2024-01-02 12:00 +0100", "+%F %T"}, out: "2024-01-02 11:00:00\n"},
		{args: []string{"date", "-d", "2024-01-02T10:00:00+05:30", "+%F %T"}, out: "2024-01-02 04:30:00\n"},
		{args: []string{"date", "-d", "20240102", "+%F %T"}, out: "2024-01-02 00:00:00\n"},
		{args: []string{"date", "-d", "2024-01-02 -1 hour", "+%F %T"}, out: "2024-01-01 23:00:00\n"},
		{args: []string{"date", "-d", "2023-11-14 22:13:20.123", "+%F %T.%3N"}, out: "2023-11-14 22:13:20.123\n"},
		{args: []string{"date", "-d", "@-1.5", "+%s.%N"}, out: "-2.500000000\n"},
		{args: []string{"date", "-d", "2024-01-02 3 months ago", "+%F"}, out: "2023-10-02\n"},
		{args: []string{"date", "-d", "2024-03-31 1 month ago", "+%F"}, out: "2024-03-02\n"},
		{args: []string{"date", "-d", "Jan 2 2024 10:30", "+%F %T"}, out: "2024-01-02 10:30:00\n"},
		{args: []string{"date", "-d", "2024-13-01"}, out: "", err: "date: invalid date ‘2024-13-01’", status: 1},
		{args: []string{"date", "-d", "2024-01-02 garbage"}, out: "", err: "date: invalid date ‘2024-01-02 garbage’", status: 1},
		{args: []string{"sha256sum", "--tag", "f", "-"}, out: "SHA256 (f) = 880553fca8fcea94e325ee2cfb48e5a985cc797f39a14cc6d3cedecfeb2ae4d2\nSHA256 (-) = e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855\n"},
		{args: []string{"md5sum", "--tag", "f"}, out: "MD5 (f) = 40c53c58fdafacc83cfff6ee3d2f6d69\n"},
		{args: []string{"sha256sum", "-c"}, stdin: "SHA256 (f) = 880553fca8fcea94e325ee2cfb48e5a985cc797f39a14cc6d3cedecfeb2ae4d2\n", out: "f: OK\n"},
		{args: []string{"md5sum", "-c"}, stdin: "40c53c58fdafacc83cfff6ee3d2f6d69 *f\n", out: "f: OK\n"},
		// Weekdays, relative to Saturday, November 21, 2026 (checked with GNU
		// date on that weekday).
		{args: []string{"date", "-d", "monday", "+%F %T"}, out: "2026-11-23 00:00:00\n"},
		{args: []string{"date", "-d", "next monday", "+%F"}, out: "2026-11-23\n"},
		{args: []string{"date", "-d", "last friday", "+%F"}, out: "2026-11-20\n"},
		{args: []string{"date", "-d", "saturday", "+%F"}, out: "2026-11-21\n"},
		{args: []string{"date", "-d", "next sat", "+%F"}, out: "2026-11-28\n"},
		{args: []string{"date", "-d", "last saturday", "+%F"}, out: "2026-11-14\n"},
		{args: []string{"date", "-d", "1 week", "+%F %T"}, out: "2026-11-28 12:00:00\n"},
		{args: []string{"date", "-s", "x"}, err: "date: cannot set date", status: 1},
		{args: []string{"date", "1200"}, err: "date: cannot set date", status: 1},
	})
}

func TestMktemp(t *testing.T) {
	for _, c := range []struct {
		args   []string
		prefix string
		dir    bool
	}{
		{[]string{"mktemp"}, "/tmp/tmp.", false},
		{[]string{"mktemp", "-d"}, "/tmp/tmp.", true},
		{[]string{"mktemp", "foo.XXXX"}, "foo.", false},
		{[]string{"mktemp", "-t", "bar.XXX"}, "/tmp/bar.", false},
		{[]string{"mktemp", "-p", "d", "-d", "q.XXX"}, "d/q.", true},
		{[]string{"mktemp", "--suffix=.txt", "sXXX"}, "s", false},
	} {
		r := run(t, nil, stdFiles, "", c.args...)
		name := strings.TrimSuffix(r.out, "\n")
		if r.status != 0 || !strings.HasPrefix(name, c.prefix) {
			t.Errorf("%q: %q %d %q", c.args, r.out, r.status, r.err)
			continue
		}
		fi, err := stat2(r, name)
		if err != nil || fi != c.dir {
			t.Errorf("%q: %s: dir=%v err=%v", c.args, name, fi, err)
		}
	}
	r := run(t, nil, stdFiles, "", "mktemp", "-u", "zXXXXXX")
	if _, err := stat2(r, strings.TrimSuffix(r.out, "\n")); err == nil || r.status != 0 {
		t.Errorf("mktemp -u created %q", r.out)
	}
}

// stat2 reports whether name (relative to /workspace) is a directory.
func stat2(r result, name string) (bool, error) {
	if !strings.HasPrefix(name, "/") {
		name = "/workspace/" + name
	}
	fi, err := r.fs.Stat(name)
	if err != nil {
		return false, err
	}
	return fi.IsDir(), nil
}

func TestSleep(t *testing.T) {
	start := time.Now()
	r := run(t, nil, nil, "", "sleep", "0.05")
	if r.status != 0 || time.Since(start) < 50*time.Millisecond {
		t.Errorf("sleep 0.05: %d after %v", r.status, time.Since(start))
	}
	for _, s := range []string{"1", "1s", "0.5m", "2h", "1d", "inf", "infinity", "1e3"} {
		if _, ok := parseDuration(s); !ok {
			t.Errorf("parseDuration(%q) failed", s)
		}
	}
}

func TestYes(t *testing.T) {
	var w limitWriter
	w.limit = 100
	env := newTestEnv(t, "yes", "a", "b")
	env.Stdout = &w
	if st := cmdYes(env); st != command.StatusBrokenPipe || !strings.HasPrefix(w.buf.String(), "a b\na b\n") {
		t.Errorf("yes: status %d, %q", st, w.buf.String())
	}
}
