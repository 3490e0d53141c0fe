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
		{Args: []string{"basename", "/a/b/"}, Out: "b\n"},
		{Args: []string{"basename", "a.txt", ".txt"}, Out: "a\n"},
		{Args: []string{"basename", "-a", "x/y", "z/w"}, Out: "y\nw\n"},
		{Args: []string{"basename", "-s", ".c", "a.c", "b.c"}, Out: "a\nb\n"},
		{Args: []string{"basename", "/"}, Out: "/\n"},
		{Args: []string{"basename", ".txt", ".txt"}, Out: ".txt\n"},
		{Args: []string{"basename"}, Out: "", Err: "basename: missing operand", Status: 1},
		{Args: []string{"basename", "a", "b", "c"}, Out: "", Err: "basename: extra operand ‘c’", Status: 1},
		{Args: []string{"dirname", "a/b/", "/x", "a", "/", "//a//b//"}, Out: "a\n/\n.\n/\n//a\n"},
		{Args: []string{"dirname"}, Out: "", Err: "dirname: missing operand", Status: 1},
		// date
		{Args: []string{"date", "-d", "@1700000000"}, Out: "Tue Nov 14 22:13:20 UTC 2023\n"},
		{Args: []string{"date", "-d", "@1700000000", "-R"}, Out: "Tue, 14 Nov 2023 22:13:20 +0000\n"},
		{Args: []string{"date", "-d", "@1700000000", "-I"}, Out: "2023-11-14\n"},
		{Args: []string{"date", "-d", "@1700000000", "-Iseconds"}, Out: "2023-11-14T22:13:20+00:00\n"},
		{Args: []string{"date", "-d", "@1700000000", "-Ins"}, Out: "2023-11-14T22:13:20,000000000+00:00\n"},
		{Args: []string{"date", "-d", "@1700000000", "-Iminutes"}, Out: "2023-11-14T22:13+00:00\n"},
		{Args: []string{"date", "-d", "@1700000000", "-Ihours"}, Out: "2023-11-14T22+00:00\n"},
		{Args: []string{"date", "-d", "@1700000000", "+%c|%x|%X|%r|%D|%j|%U|%W|%V|%G|%u|%w|%-d|%_H|%^a|%#b|%:z|%::z|%N|%3N|%P|%p|%l|%k|%10Y|%e|%C|%g|%h|%s|%-m/%-d|%05d|%_5m|%%|%q|%A|%B|%F|%T|%R|%y|%Z|%z|%n|%t|%I|%M|%S|%H"}, Out: "Tue Nov 14 22:13:20 2023|11/14/23|22:13:20|10:13:20 PM|11/14/23|318|46|46|46|2023|2|2|14|22|TUE|NOV|+00:00|+00:00:00|000000000|000|pm|PM|10|22|0000002023|14|20|23|Nov|1700000000|11/14|00014|   11|%|4|Tuesday|November|2023-11-14|22:13:20|22:13|23|UTC|+0000|\n|\t|10|13|20|22\n"},
		{Args: []string{"date", "-d", "2024-01-06", "+%U|%W|%V|%j|%a"}, Out: "00|01|01|006|Sat\n"},
		{Args: []string{"date", "-d", "2024-12-30", "+%G-%V|%g"}, Out: "2025-01|25\n"},
		{Args: []string{"date", "-d", "2024-02-30"}, Out: "", Err: "date: invalid date ‘2024-02-30’", Status: 1},
		{Args: []string{"date", "-d", "2024-01-02 03:04"}, Out: "Tue Jan  2 03:04:00 UTC 2024\n"},
		{Args: []string{"date", "-d", "2024-01-02T03:04:05Z", "+%s"}, Out: "1704164645\n"},
		{Args: []string{"date", "--rfc-3339=seconds", "-d", "@0"}, Out: "1970-01-01 00:00:00+00:00\n"},
		{Args: []string{"date", "--rfc-3339=date", "-d", "@0"}, Out: "1970-01-01\n"},
		{Args: []string{"date", "--rfc-3339=ns", "-d", "@0.5"}, Out: "1970-01-01 00:00:00.500000000+00:00\n"},
		{Args: []string{"date", "-u", "-d", "2024-01-02 03:04:05+02:00"}, Out: "Tue Jan  2 01:04:05 UTC 2024\n"},
		{Args: []string{"date", "-d", "garbage"}, Out: "", Err: "date: invalid date ‘garbage’", Status: 1},
		{Args: []string{"date", "-d", "@0", "+%Y-%m-%dT%H:%M:%S%z"}, Out: "1970-01-01T00:00:00+0000\n"},
		{Args: []string{"date", "-d", "2020-03-01 -1 day", "+%F"}, Out: "2020-02-29\n"},
		{Args: []string{"date", "-d", "2020-01-31 +1 month", "+%F"}, Out: "2020-03-02\n"},
		{Args: []string{"date", "-d", "2020-01-01 2 weeks ago", "+%F"}, Out: "2019-12-18\n"},
		{Args: []string{"date", "-d", "@-1"}, Out: "Wed Dec 31 23:59:59 UTC 1969\n"},
		{Args: []string{"date", "-u", "-d", "@86399", "+%T"}, Out: "23:59:59\n"},
		{Args: []string{"date", "-d", "1970-01-01", "+%s"}, Out: "0\n"},
		{Args: []string{"date", "-d", "2024-06-01T10:20:30.5Z", "+%s.%N"}, Out: "1717237230.500000000\n"},
		{Args: []string{"date", "+%Y", "x"}, Out: "", Err: "date: extra operand ‘x’", Status: 1},
		{Args: []string{"date", "-r", "f", "+%Y"}, Out: "2026\n"},
		{Args: []string{"date", "--iso-8601=minutes", "-d", "@0"}, Out: "1970-01-01T00:00+00:00\n"},
		{Args: []string{"date", "-Ix"}, Out: "", Err: "date: invalid argument ‘x’ for ‘--iso-8601’", Status: 1},
		// sums
		{Args: []string{"sha256sum"}, Stdin: "hi", Out: "8f434346648f6b96df89dda901c5176b10a6d83961dd3c1ac88b59b2dc327aa4  -\n"},
		{Args: []string{"sha256sum", "f", "nope"}, Out: "880553fca8fcea94e325ee2cfb48e5a985cc797f39a14cc6d3cedecfeb2ae4d2  f\n", Err: "sha256sum: nope: No such file or directory", Status: 1},
		{Args: []string{"sha1sum", "f", "g"}, Out: "3ca69e8d6c234a469d16ac28a4a658c92267c423  f\n22596363b3de40b06f981fb85d82312e8c0ed511  g\n"},
		{Args: []string{"md5sum", "f", "-"}, Out: "40c53c58fdafacc83cfff6ee3d2f6d69  f\nd41d8cd98f00b204e9800998ecf8427e  -\n"},
		{Args: []string{"md5sum", "-b", "f"}, Out: "40c53c58fdafacc83cfff6ee3d2f6d69 *f\n"},
		{Args: []string{"md5sum", "-c", "f"}, Out: "", Err: "md5sum: f: no properly formatted checksum lines found", Status: 1},
		{Args: []string{"md5sum", "--bogus"}, Out: "", Err: "md5sum: unrecognized option '--bogus'", Status: 1},
		{Args: []string{"sha256sum", "-c"}, Stdin: "88d4266fd4e6338d13b845fcf289579d209c897823b9217da3e161936f031589  f\n", Out: "f: FAILED\n", Err: "sha256sum: WARNING: 1 computed checksum did NOT match", Status: 1},
		{Args: []string{"sha256sum", "-c"}, Stdin: "1  f\n", Out: "", Err: "sha256sum: 'standard input': no properly formatted checksum lines found", Status: 1},
		{Args: []string{"sha256sum", "-c"}, Stdin: "0000000000000000000000000000000000000000000000000000000000000000  f\n", Out: "f: FAILED\n", Err: "sha256sum: WARNING: 1 computed checksum did NOT match", Status: 1},
		{Args: []string{"sha256sum", "-c", "--status"}, Stdin: "0000000000000000000000000000000000000000000000000000000000000000  f\n", Out: "", Status: 1},
		{Args: []string{"sha256sum", "-c"}, Stdin: "0000000000000000000000000000000000000000000000000000000000000000  nope\n", Out: "nope: FAILED open or read\n", Err: "sha256sum: nope: No such file or directory", Status: 1},
		{Args: []string{"sha256sum", "--quiet", "-c"}, Stdin: "880553fca8fcea94e325ee2cfb48e5a985cc797f39a14cc6d3cedecfeb2ae4d2  f\n", Out: ""},
		// seq
		{Args: []string{"seq", "3"}, Out: "1\n2\n3\n"},
		{Args: []string{"seq", "2", "4"}, Out: "2\n3\n4\n"},
		{Args: []string{"seq", "0.1", "0.1", "0.5"}, Out: "0.1\n0.2\n0.3\n0.4\n0.5\n"},
		{Args: []string{"seq", "1", "0.5", "3"}, Out: "1.0\n1.5\n2.0\n2.5\n3.0\n"},
		{Args: []string{"seq", "-w", "8", "11"}, Out: "08\n09\n10\n11\n"},
		{Args: []string{"seq", "-s,", "3"}, Out: "1,2,3\n"},
		{Args: []string{"seq", "-f", "%03g", "3"}, Out: "001\n002\n003\n"},
		{Args: []string{"seq", "5", "1"}, Out: ""},
		{Args: []string{"seq", "1e3", "1e3"}, Out: "1000\n"},
		{Args: []string{"seq", "x"}, Out: "", Err: "seq: invalid floating point argument: ‘x’", Status: 1},
		{Args: []string{"seq", "1", "0", "2"}, Out: "", Err: "seq: invalid Zero increment value: ‘0’", Status: 1},
		{Args: []string{"seq", "-w", "-1", "1"}, Out: "-1\n00\n01\n"},
		{Args: []string{"seq", "1.0", "3"}, Out: "1.0\n2.0\n3.0\n"},
		{Args: []string{"seq", "10", "-3", "1"}, Out: "10\n7\n4\n1\n"},
		{Args: []string{"seq", "2", "1.5e1", "40"}, Out: "2\n17\n32\n"},
		{Args: []string{"seq", "-w", "0.5", "1", "2.5"}, Out: "0.5\n1.5\n2.5\n"},
		{Args: []string{"seq", "-f", "%.2f", "1", "0.25", "2"}, Out: "1.00\n1.25\n1.50\n1.75\n2.00\n"},
		{Args: []string{"seq", "-f", "%g", "1000000", "1000000"}, Out: "1e+06\n"},
		{Args: []string{"seq", "-f", "%e", "1", "1"}, Out: "1.000000e+00\n"},
		{Args: []string{"seq", "-s ", "-w", "1", "10"}, Out: "01 02 03 04 05 06 07 08 09 10\n"},
		{Args: []string{"seq", "-1"}, Out: ""},
		{Args: []string{"seq", "--", "-3", "-1"}, Out: "-3\n-2\n-1\n"},
		{Args: []string{"seq", "1", "2", "3", "4"}, Out: "", Err: "seq: extra operand ‘4’", Status: 1},
		{Args: []string{"seq", "18446744073709551615", "18446744073709551616"}, Out: "18446744073709551615\n18446744073709551616\n"},
		{Args: []string{"seq", "-f", "x%gy", "2"}, Out: "x1y\nx2y\n"},
		{Args: []string{"seq", "-f", "%d", "2"}, Out: "", Err: "seq: format ‘%d’ has unknown %d directive", Status: 1},
		{Args: []string{"seq", "-f", "%g%g", "2"}, Out: "", Err: "seq: format ‘%g%g’ has too many % directives", Status: 1},
		{Args: []string{"seq", "1", "1", "1.5"}, Out: "1\n"},
		{Args: []string{"seq", "3", "-1", "1.5"}, Out: "3\n2\n"},
		{Args: []string{"seq"}, Out: "", Err: "seq: missing operand", Status: 1},
		// xargs
		{Args: []string{"xargs", "-n", "2", "echo"}, Stdin: "a b\nc \"d e\" f\\\\ g\n", Out: "a b\nc d e\nf\\ g\n"},
		{Args: []string{"xargs", "echo"}, Stdin: "it's\n", Out: "", Err: "xargs: unmatched single quote; by default quotes are special to xargs unless you use the -0 option", Status: 1},
		{Args: []string{"xargs", "-I{}", "echo", "x{}y"}, Stdin: "a\nb\n", Out: "xay\nxby\n"},
		{Args: []string{"xargs", "echo", "hi"}, Out: "hi\n"},
		{Args: []string{"xargs", "-r", "echo", "hi"}, Out: ""},
		{Args: []string{"xargs", "-L1", "-t", "echo"}, Stdin: "a b\nc\n", Out: "a b\nc\n", Err: "echo a b"},
		{Args: []string{"xargs", "-n1"}, Stdin: "a\nb\n", Out: "a\nb\n"},
		{Args: []string{"xargs", "-d,", "-n1"}, Stdin: "a,b,c", Out: "a\nb\nc\n"},
		{Args: []string{"xargs", "false"}, Stdin: "a\n", Out: "", Status: 123},
		{Args: []string{"xargs", "-I%", "echo", "[%]"}, Stdin: "  x  \n", Out: "[x  ]\n"},
		{Args: []string{"xargs", "-n", "2"}, Stdin: "a b c d e", Out: "a b\nc d\ne\n"},
		{Args: []string{"xargs", "-t"}, Stdin: "a\nb\n", Out: "a b\n", Err: "echo a b"},
		{Args: []string{"xargs", "-L", "1"}, Stdin: "a b\nc\n", Out: "a b\nc\n"},
		{Args: []string{"xargs", "-n", "0"}, Stdin: "a\n", Out: "", Err: "xargs: value 0 for -n option should be >= 1", Status: 1},
		{Args: []string{"xargs", "-E", "b", "echo"}, Stdin: "a b\n", Out: "a\n"},
		{Args: []string{"xargs", "-L", "1", "echo"}, Stdin: "a\n\n\nb\n", Out: "a\nb\n"},
		{Args: []string{"xargs", "-I", "X", "echo", "<X>"}, Stdin: "a  b\nc\n", Out: "<a  b>\n<c>\n"},
		{Args: []string{"xargs", "-a", "f", "echo"}, Stdin: "x\n", Out: "a b c\n"},
		{Args: []string{"xargs", "echo"}, Stdin: "\"a\n", Out: "", Err: "xargs: unmatched double quote; by default quotes are special to xargs unless you use the -0 option", Status: 1},
		// env
		{Args: []string{"env", "-u"}, Out: "", Err: "env: option requires an argument -- 'u'", Status: 125},
		// sleep, yes
		{Args: []string{"sleep", "x"}, Out: "", Err: "sleep: invalid time interval ‘x’", Status: 1},
		{Args: []string{"sleep", "0.01s", "0.01"}, Out: ""},
		{Args: []string{"sleep"}, Out: "", Err: "sleep: missing operand", Status: 1},
		{Args: []string{"sleep", "-1"}, Out: "", Err: "sleep: invalid option -- '1'", Status: 1},
		{Args: []string{"sleep", "--bogus"}, Out: "", Err: "sleep: unrecognized option '--bogus'", Status: 1},
		{Args: []string{"yes", "--bogus"}, Out: "", Err: "yes: unrecognized option '--bogus'", Status: 1},
		{Args: []string{"yes", "-x"}, Out: "", Err: "yes: invalid option -- 'x'", Status: 1},
		// mktemp, realpath, readlink
		{Args: []string{"mktemp", "foo"}, Out: "", Err: "mktemp: too few X's in template ‘foo’", Status: 1},
		{Args: []string{"mktemp", "-u", "foo"}, Out: "", Err: "mktemp: too few X's in template ‘foo’", Status: 1},
		{Args: []string{"mktemp", "-p"}, Out: "", Err: "mktemp: option requires an argument -- 'p'", Status: 1},
		{Args: []string{"realpath", "nope/x"}, Out: "", Err: "realpath: nope/x: No such file or directory", Status: 1},
		{Args: []string{"realpath", "-e", "nope"}, Out: "", Err: "realpath: nope: No such file or directory", Status: 1},
		{Args: []string{"realpath", "-e", "f/x"}, Out: "", Err: "realpath: f/x: Not a directory", Status: 1},
		{Args: []string{"realpath"}, Out: "", Err: "realpath: missing operand", Status: 1},
		{Args: []string{"readlink", "f"}, Out: "", Status: 1},
		{Args: []string{"readlink", "-f", "nope/../f"}, Out: "", Status: 1},
		{Args: []string{"readlink", "-e", "nope"}, Out: "", Status: 1},
		{Args: []string{"readlink"}, Out: "", Err: "readlink: missing operand", Status: 1},
		// stat, du
		{Args: []string{"stat", "-c", "%n|%s|%F|%a|%A", "f", "d"}, Out: "f|6|regular file|644|-rw-r--r--\nd|4096|directory|755|drwxr-xr-x\n"},
		{Args: []string{"stat", "nope"}, Out: "", Err: "stat: cannot statx 'nope': No such file or directory", Status: 1},
		{Args: []string{"stat", "-c", "%s|%F|%h", "d/empty"}, Out: "0|regular empty file|1\n"},
		{Args: []string{"stat", "--printf=%n\t%s\\n", "f", "g"}, Out: "f\t6\ng\t12\n"},
		{Args: []string{"stat", "-c", "[%10s|%-5s]", "f"}, Out: "[         6|6    ]\n"},
		{Args: []string{"stat"}, Out: "", Err: "stat: missing operand", Status: 1},
		{Args: []string{"du", "d"}, Out: "8\td/sub\n16\td\n"},
		{Args: []string{"du", "-s", "d"}, Out: "16\td\n"},
		{Args: []string{"du", "-sh", "d"}, Out: "16K\td\n"},
		{Args: []string{"du", "-a", "d"}, Out: "0\td/empty\n4\td/sub/y.c\n8\td/sub\n4\td/x.txt\n16\td\n"}, // GNU lists in directory order
		{Args: []string{"du", "-c", "d", "e"}, Out: "8\td/sub\n16\td\n4\te\n20\ttotal\n"},
		{Args: []string{"du", "nope"}, Out: "", Err: "du: cannot access 'nope': No such file or directory", Status: 1},
		{Args: []string{"du", "-d", "0", "d"}, Out: "16\td\n"},
		{Args: []string{"du", "-b", "f"}, Out: "6\tf\n"},
		// Not compared with GNU: the sandbox has no symbolic links.
		{Args: []string{"readlink", "-f", "nope"}, Out: "/workspace/nope\n"},
		{Args: []string{"readlink", "-f", "d/../f"}, Out: "/workspace/f\n"},
		{Args: []string{"readlink", "-m", "nope/x/.."}, Out: "/workspace/nope\n"},
		{Args: []string{"realpath", "f", "/tmp/../workspace/d/"}, Out: "/workspace/f\n/workspace/d\n"},
		{Args: []string{"realpath", "--relative-to=d/sub", "f"}, Out: "../../f\n"},
		{Args: []string{"realpath", "-m", "a/../../b"}, Out: "/b\n"},
		{Args: []string{"xargs", "exit255"}, Stdin: "a\nb\n", Err: "xargs: exit255: exited with status 255; aborting", Status: 124},
		{Args: []string{"xargs", "-0", "-n1", "echo"}, Stdin: "a b\x00c\x00", Out: "a b\nc\n"},
		{Args: []string{"xargs", "-d", "\\n", "echo"}, Stdin: "a b\nc\n", Out: "a b c\n"},
		{Args: []string{"printenv"}, Out: "HOME=/workspace\nPATH=/bin\n"},
		{Args: []string{"printenv", "PATH", "HOME"}, Out: "/bin\n/workspace\n"},
		{Args: []string{"printenv", "NOPE", "HOME"}, Out: "/workspace\n", Status: 1},
		{Args: []string{"env"}, Out: "HOME=/workspace\nPATH=/bin\n"},
		{Args: []string{"env", "-u", "HOME"}, Out: "PATH=/bin\n"},
		{Args: []string{"env", "-i", "A=1"}, Out: "A=1\n"},
		{Args: []string{"env", "HOME=/x", "B=2"}, Out: "HOME=/x\nPATH=/bin\nB=2\n"},
		{Args: []string{"env", "echo", "a", "b"}, Out: "a b\n"},
		{Args: []string{"env", "A=1", "env"}, Out: "HOME=/workspace\nPATH=/bin\nA=1\n"},
		{Args: []string{"env", "-i", "A=1", "env"}, Out: "A=1\n"},
		{Args: []string{"seq", "9007199254740993", "9007199254740994"}, Out: "9007199254740993\n9007199254740994\n"},
		{Args: []string{"seq", "-w", "-s", ",", "98", "101"}, Out: "098,099,100,101\n"},
		{Args: []string{"seq", "-f", "%999999g", "1"}, Err: "seq: format ‘%999999g’ has a field width or precision that is too large", Status: 1},
		{Args: []string{"du", "-s", "-c", "d", "d/sub", "d"}, Out: "16\td\n16\ttotal\n"},
		{Args: []string{"date"}, Out: "Sat Nov 21 12:00:00 UTC 2026\n"},
		{Args: []string{"date", "-u", "+%F %T"}, Out: "2026-11-21 12:00:00\n"},
		{Args: []string{"date", "-d", "yesterday", "+%F"}, Out: "2026-11-20\n"},
		{Args: []string{"date", "-d", "tomorrow", "+%F"}, Out: "2026-11-22\n"},
		{Args: []string{"date", "-d", "2 days ago", "+%F"}, Out: "2026-11-19\n"},
		{Args: []string{"date", "-d", "+3 hours", "+%T"}, Out: "15:00:00\n"},
		{Args: []string{"date", "-d", "10:30", "+%F %T"}, Out: "2026-11-21 10:30:00\n"},
		{Args: []string{"date", "-d", "now", "+%s"}, Out: "1795262400\n"},
		{Args: []string{"date", "-d", "2024-01-15 + 30 days", "+%F %T"}, Out: "2024-02-14 00:00:00\n"},
		{Args: []string{"date", "-d", "Tue, 14 Nov 2023 22:13:20 +0000", "+%F %T"}, Out: "2023-11-14 22:13:20\n"},
		{Args: []string{"date", "-d", "Tue Nov 14 22:13:20 UTC 2023", "+%F %T"}, Out: "2023-11-14 22:13:20\n"},
		{Args: []string{"date", "-d", "Jan 2 2024", "+%F %T"}, Out: "2024-01-02 00:00:00\n"},
		{Args: []string{"date", "-d", "2 Jan 2024", "+%F %T"}, Out: "2024-01-02 00:00:00\n"},
		{Args: []string{"date", "-d", "January 2, 2024", "+%F %T"}, Out: "2024-01-02 00:00:00\n"},
		{Args: []string{"date", "-d", "01/02/2024", "+%F %T"}, Out: "2024-01-02 00:00:00\n"},
		{Args: []string{"date", "-d", "2024-01-02 10:00:00 UTC", "+%F %T"}, Out: "2024-01-02 10:00:00\n"},
		{Args: []string{"date", "-d", "2024-01-02 12:00 +0100", "+%F %T"}, Out: "2024-01-02 11:00:00\n"},
		{Args: []string{"date", "-d", "2024-01-02T10:00:00+05:30", "+%F %T"}, Out: "2024-01-02 04:30:00\n"},
		{Args: []string{"date", "-d", "20240102", "+%F %T"}, Out: "2024-01-02 00:00:00\n"},
		{Args: []string{"date", "-d", "2024-01-02 -1 hour", "+%F %T"}, Out: "2024-01-01 23:00:00\n"},
		{Args: []string{"date", "-d", "2023-11-14 22:13:20.123", "+%F %T.%3N"}, Out: "2023-11-14 22:13:20.123\n"},
		{Args: []string{"date", "-d", "@-1.5", "+%s.%N"}, Out: "-2.500000000\n"},
		{Args: []string{"date", "-d", "2024-01-02 3 months ago", "+%F"}, Out: "2023-10-02\n"},
		{Args: []string{"date", "-d", "2024-03-31 1 month ago", "+%F"}, Out: "2024-03-02\n"},
		{Args: []string{"date", "-d", "Jan 2 2024 10:30", "+%F %T"}, Out: "2024-01-02 10:30:00\n"},
		{Args: []string{"date", "-d", "2024-13-01"}, Out: "", Err: "date: invalid date ‘2024-13-01’", Status: 1},
		{Args: []string{"date", "-d", "2024-01-02 garbage"}, Out: "", Err: "date: invalid date ‘2024-01-02 garbage’", Status: 1},
		{Args: []string{"sha256sum", "--tag", "f", "-"}, Out: "SHA256 (f) = 880553fca8fcea94e325ee2cfb48e5a985cc797f39a14cc6d3cedecfeb2ae4d2\nSHA256 (-) = e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855\n"},
		{Args: []string{"md5sum", "--tag", "f"}, Out: "MD5 (f) = 40c53c58fdafacc83cfff6ee3d2f6d69\n"},
		{Args: []string{"sha256sum", "-c"}, Stdin: "SHA256 (f) = 880553fca8fcea94e325ee2cfb48e5a985cc797f39a14cc6d3cedecfeb2ae4d2\n", Out: "f: OK\n"},
		{Args: []string{"md5sum", "-c"}, Stdin: "40c53c58fdafacc83cfff6ee3d2f6d69 *f\n", Out: "f: OK\n"},
		// Weekdays, relative to Saturday, November 21, 2026 (checked with GNU
		// date on that weekday).
		{Args: []string{"date", "-d", "monday", "+%F %T"}, Out: "2026-11-23 00:00:00\n"},
		{Args: []string{"date", "-d", "next monday", "+%F"}, Out: "2026-11-23\n"},
		{Args: []string{"date", "-d", "last friday", "+%F"}, Out: "2026-11-20\n"},
		{Args: []string{"date", "-d", "saturday", "+%F"}, Out: "2026-11-21\n"},
		{Args: []string{"date", "-d", "next sat", "+%F"}, Out: "2026-11-28\n"},
		{Args: []string{"date", "-d", "last saturday", "+%F"}, Out: "2026-11-14\n"},
		{Args: []string{"date", "-d", "1 week", "+%F %T"}, Out: "2026-11-28 12:00:00\n"},
		{Args: []string{"date", "-s", "x"}, Err: "date: cannot set date", Status: 1},
		{Args: []string{"date", "1200"}, Err: "date: cannot set date", Status: 1},
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
		name := strings.TrimSuffix(r.Out, "\n")
		if r.Status != 0 || !strings.HasPrefix(name, c.prefix) {
			t.Errorf("%q: %q %d %q", c.args, r.Out, r.Status, r.Err)
			continue
		}
		fi, err := stat2(r, name)
		if err != nil || fi != c.dir {
			t.Errorf("%q: %s: dir=%v err=%v", c.args, name, fi, err)
		}
	}
	r := run(t, nil, stdFiles, "", "mktemp", "-u", "zXXXXXX")
	if _, err := stat2(r, strings.TrimSuffix(r.Out, "\n")); err == nil || r.Status != 0 {
		t.Errorf("mktemp -u created %q", r.Out)
	}
}

// stat2 reports whether name (relative to /workspace) is a directory.
func stat2(r result, name string) (bool, error) {
	if !strings.HasPrefix(name, "/") {
		name = "/workspace/" + name
	}
	fi, err := r.FS.Stat(name)
	if err != nil {
		return false, err
	}
	return fi.IsDir(), nil
}

func TestSleep(t *testing.T) {
	start := time.Now()
	r := run(t, nil, nil, "", "sleep", "0.05")
	if r.Status != 0 || time.Since(start) < 50*time.Millisecond {
		t.Errorf("sleep 0.05: %d after %v", r.Status, time.Since(start))
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
