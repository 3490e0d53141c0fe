package coreutils

import (
	"testing"

	"github.com/cordonhq/cordon/vfs"
)

// The expectations below were produced by GNU coreutils 9 on the same
// fixture (stdFiles) with LC_ALL=C.UTF-8.

func TestTextCommands(t *testing.T) {
	runCases(t, []tcase{
		{args: []string{"comm", "-3", "u", "u"}, files: map[string]string{"u": "b\na\n"}, out: ""},
		{args: []string{"comm", "u", "w"}, files: map[string]string{"u": "b\na\n", "w": "c\na\n"}, out: "b\na\n\tc\n\ta\n", err: "comm: file 1 is not in sorted order", status: 1},
		{args: []string{"comm", "--check-order", "u", "w"}, files: map[string]string{"u": "b\na\n", "w": "c\na\n"}, out: "b\n", err: "comm: file 1 is not in sorted order", status: 1},
		{args: []string{"comm", "--nocheck-order", "u", "w"}, files: map[string]string{"u": "b\na\n", "w": "c\na\n"}, out: "b\na\n\tc\n\ta\n"},
		// expand
		{args: []string{"expand"}, stdin: "a\tb\n\tc\td\n", out: "a       b\n        c       d\n"},
		{args: []string{"expand", "-t", "4"}, stdin: "a\tb\n", out: "a   b\n"},
		{args: []string{"expand", "-t", "2,5"}, stdin: "a\tbb\tc\n", out: "a bb c\n"},
		{args: []string{"expand", "-i"}, stdin: "\ta\tb\n", out: "        a\tb\n"},
		{args: []string{"expand", "-t", "0"}, out: "", err: "expand: tab size cannot be 0", status: 1},
		{args: []string{"expand", "-t", "3,2"}, out: "", err: "expand: tab sizes must be ascending", status: 1},
		{args: []string{"expand", "-t", "2,4"}, stdin: "a\tb\tc\td\n", out: "a b c d\n"},
		{args: []string{"expand", "-t", "2,/4"}, stdin: "a\tb\tc\n", out: "a b c\n"},
		{args: []string{"expand", "-t", "2,+4"}, stdin: "a\tb\tc\n", out: "a b   c\n"},
		{args: []string{"expand", "-4"}, stdin: "a\tb\n", out: "a   b\n"},
		{args: []string{"expand", "v"}, out: "a       b\x01\n\n\n\nc\x80 \r\n"},
		{args: []string{"expand", "--tabs=3"}, stdin: "a\tb", out: "a  b"},
		{args: []string{"expand"}, stdin: "ab\bc\td\n", out: "ab\bc      d\n"},
		{args: []string{"head", "d", "f"}, out: "==> d <==\n\n==> f <==\na\nb\nc\n", err: "head: error reading 'd': Is a directory", status: 1},
		{args: []string{"tail", "-n1", "f", "d"}, out: "==> f <==\nc\n\n==> d <==\n", err: "tail: error reading 'd': Is a directory", status: 1},
		{args: []string{"sha256sum", "d"}, err: "sha256sum: d: Is a directory", status: 1},
		// cat
		{args: []string{"cat", "f", "g"}, out: "a\nb\nc\nhello world\n"},
		{args: []string{"cat", "-n", "f", "nonl", "g"}, out: "     1\ta\n     2\tb\n     3\tc\n     4\tno newlinehello world\n"},
		{args: []string{"cat", "-A", "v"}, out: "a^Ib^A$\n$\n$\n$\ncM-^@ ^M$\n"},
		{args: []string{"cat", "-b", "v"}, out: "     1\ta\tb\x01\n\n\n\n     2\tc\x80 \r\n"},
		{args: []string{"cat", "-s", "v"}, out: "a\tb\x01\n\nc\x80 \r\n"},
		{args: []string{"cat", "-E", "nonl"}, out: "no newline"},
		{args: []string{"cat", "-T", "v"}, out: "a^Ib\x01\n\n\n\nc\x80 \r\n"},
		{args: []string{"cat", "-v", "v"}, out: "a\tb^A\n\n\n\ncM-^@ ^M\n"},
		{args: []string{"cat", "-e", "f"}, out: "a$\nb$\nc$\n"},
		{args: []string{"cat", "nope", "f"}, out: "a\nb\nc\n", err: "cat: nope: No such file or directory", status: 1},
		{args: []string{"cat", "d"}, out: "", err: "cat: d: Is a directory", status: 1},
		{args: []string{"cat", "-Z"}, out: "", err: "cat: invalid option -- 'Z'", status: 1},
		{args: []string{"cat", "-", "f"}, stdin: "x\ny\n", out: "x\ny\na\nb\nc\n"},
		{args: []string{"cat"}, stdin: "x\ny\n", out: "x\ny\n"},
		// head
		{args: []string{"head", "n12"}, out: "one\ntwo\nthree\nfour\nfive\nsix\nseven\neight\nnine\nten\n"},
		{args: []string{"head", "-n", "3", "n12"}, out: "one\ntwo\nthree\n"},
		{args: []string{"head", "-3", "n12"}, out: "one\ntwo\nthree\n"},
		{args: []string{"head", "-n", "-9", "n12"}, out: "one\ntwo\nthree\n"},
		{args: []string{"head", "-c", "5", "n12"}, out: "one\nt"},
		{args: []string{"head", "-c", "-60", "n12"}, out: "one"},
		{args: []string{"head", "-c", "1k", "f"}, out: "a\nb\nc\n"},
		{args: []string{"head", "f", "g"}, out: "==> f <==\na\nb\nc\n\n==> g <==\nhello world\n"},
		{args: []string{"head", "-q", "f", "g"}, out: "a\nb\nc\nhello world\n"},
		{args: []string{"head", "-v", "f"}, out: "==> f <==\na\nb\nc\n"},
		{args: []string{"head", "nope", "f"}, out: "==> f <==\na\nb\nc\n", err: "head: cannot open 'nope' for reading: No such file or directory", status: 1},
		{args: []string{"head", "-n", "x", "f"}, out: "", err: "head: invalid number of lines: ‘x’", status: 1},
		{args: []string{"head", "-n", "0", "f"}, out: ""},
		{args: []string{"head", "-n", "1"}, stdin: "1\n2\n3\n", out: "1\n"},
		{args: []string{"head", "-n", "2", "nonl"}, out: "no newline"},
		{args: []string{"head", "-Z"}, out: "", err: "head: invalid option -- 'Z'", status: 1},
		// tail
		{args: []string{"tail", "n12"}, out: "three\nfour\nfive\nsix\nseven\neight\nnine\nten\neleven\ntwelve\n"},
		{args: []string{"tail", "-n", "2", "n12"}, out: "eleven\ntwelve\n"},
		{args: []string{"tail", "-2", "n12"}, out: "eleven\ntwelve\n"},
		{args: []string{"tail", "-n", "+11", "n12"}, out: "eleven\ntwelve\n"},
		{args: []string{"tail", "+11", "n12"}, out: "eleven\ntwelve\n"},
		{args: []string{"tail", "-c", "4", "n12"}, out: "lve\n"},
		{args: []string{"tail", "-c", "+60", "n12"}, out: "lve\n"},
		{args: []string{"tail", "f", "g"}, out: "==> f <==\na\nb\nc\n\n==> g <==\nhello world\n"},
		{args: []string{"tail", "-n", "1", "nonl"}, out: "no newline"},
		{args: []string{"tail", "-n", "0", "f"}, out: ""},
		{args: []string{"tail", "-n", "3", "nonl"}, out: "no newline"},
		{args: []string{"tail", "nope"}, out: "", err: "tail: cannot open 'nope' for reading: No such file or directory", status: 1},
		{args: []string{"tail", "-q", "f", "g"}, out: "a\nb\nc\nhello world\n"},
		{args: []string{"tail", "-n", "1"}, stdin: "1\n2\n3\n", out: "3\n"},
		// wc
		{args: []string{"wc", "f"}, out: "3 3 6 f\n"},
		{args: []string{"wc", "-l", "f"}, out: "3 f\n"},
		{args: []string{"wc", "f", "g"}, out: " 3  3  6 f\n 1  2 12 g\n 4  5 18 total\n"},
		{args: []string{"wc", "-l", "f", "g"}, out: " 3 f\n 1 g\n 4 total\n"},
		{args: []string{"wc", "-c", "f"}, out: "6 f\n"},
		{args: []string{"wc", "f", "nope"}, out: "3 3 6 f\n3 3 6 total\n", err: "wc: nope: No such file or directory", status: 1},
		{args: []string{"wc", "-l", "nope", "f"}, out: "3 f\n3 total\n", err: "wc: nope: No such file or directory", status: 1},
		{args: []string{"wc", "-lc", "f"}, out: "3 6 f\n"},
		{args: []string{"wc", "d"}, out: "      0       0       0 d\n", err: "wc: d: Is a directory", status: 1},
		{args: []string{"wc", "-l", "d", "f"}, out: "      0 d\n      3 f\n      3 total\n", err: "wc: d: Is a directory", status: 1},
		{args: []string{"wc"}, stdin: "a b\nc", out: "      1       3       5\n"},
		{args: []string{"wc", "-l"}, stdin: "a b\nc", out: "1\n"},
		{args: []string{"wc", "-lw"}, stdin: "a b\nc", out: "      1       3\n"},
		{args: []string{"wc", "-m"}, stdin: "a b\nc", out: "5\n"},
		{args: []string{"wc", "-m", "-c"}, stdin: "héllo wörld\n", out: "     12      14\n"},
		{args: []string{"wc", "-L", "n12", "g"}, out: " 6 n12\n11 g\n11 total\n"},
		{args: []string{"wc", "nonl"}, out: " 0  2 10 nonl\n"},
		{args: []string{"wc", "-w", "v"}, out: "3 v\n"},
		{args: []string{"wc", "-Z"}, out: "", err: "wc: invalid option -- 'Z'", status: 1},
		// tee
		{args: []string{"tee"}, stdin: "hi\n", out: "hi\n"},
		// rev
		{args: []string{"rev"}, stdin: "abc\nxy", out: "cba\nyx"},
		{args: []string{"rev", "nonl", "f"}, out: "enilwen ona\nb\nc\n"},
		{args: []string{"rev"}, stdin: "héllo\n", out: "olléh\n"},
		// nl
		{args: []string{"nl"}, stdin: "a\n\nb\n", out: "     1\ta\n       \n     2\tb\n"},
		{args: []string{"nl", "-ba", "-w3", "-s:"}, stdin: "a\n\nb\n", out: "  1:a\n  2:\n  3:b\n"},
		{args: []string{"nl", "-nln"}, stdin: "a\n", out: "1     \ta\n"},
		{args: []string{"nl", "-nrz"}, stdin: "a\n", out: "000001\ta\n"},
		{args: []string{"nl", "-v", "10", "-i", "5"}, stdin: "a\nb\n", out: "    10\ta\n    15\tb\n"},
		{args: []string{"nl", "f", "g"}, out: "     1\ta\n     2\tb\n     3\tc\n     4\thello world\n"},
		// paste
		{args: []string{"paste", "f", "g"}, out: "a\thello world\nb\t\nc\t\n"},
		{args: []string{"paste", "-d,", "f", "n12"}, out: "a,one\nb,two\nc,three\n,four\n,five\n,six\n,seven\n,eight\n,nine\n,ten\n,eleven\n,twelve\n"},
		{args: []string{"paste", "-s", "f", "g"}, out: "a\tb\tc\nhello world\n"},
		{args: []string{"paste", "-sd,", "f"}, out: "a,b,c\n"},
		{args: []string{"paste", "-d|,", "f", "g", "f"}, out: "a|hello world,a\nb|,b\nc|,c\n"},
		{args: []string{"paste", "-", "-"}, stdin: "1\n2\n3\n", out: "1\t2\n3\t\n"},
		{args: []string{"paste", "nope"}, out: "", err: "paste: nope: No such file or directory", status: 1},
		// comm
		{args: []string{"comm", "f", "g"}, out: "a\nb\nc\n\thello world\n"},
		{args: []string{"comm", "-12", "f", "f"}, out: "a\nb\nc\n"},
		{args: []string{"comm", "-3", "f", "n12"}, out: "a\nb\nc\n\tone\n\ttwo\n\tthree\n\tfour\n\tfive\n\tsix\n\tseven\n\teight\n\tnine\n\tten\n\televen\n\ttwelve\n", err: "comm: file 2 is not in sorted order", status: 1},
		{args: []string{"comm", "-23", "f", "n12"}, out: "a\nb\nc\n", err: "comm: file 2 is not in sorted order", status: 1},
		{args: []string{"comm", "--output-delimiter=:", "f", "g"}, out: "a\nb\nc\n:hello world\n"},
		// fold
		{args: []string{"fold", "-w", "3"}, stdin: "abcdefghij\n", out: "abc\ndef\nghi\nj\n"},
		{args: []string{"fold", "-sw", "7"}, stdin: "hello world foo\n", out: "hello \nworld \nfoo\n"},
		{args: []string{"fold", "-w", "5"}, stdin: "a\tb\tc\n", out: "a\n\t\nb\n\t\nc\n"},
		{args: []string{"fold", "-3"}, stdin: "abcdef\n", out: "abc\ndef\n"},
		{args: []string{"fold", "-b", "-w", "4"}, stdin: "abcdef\n", out: "abcd\nef\n"},
	})
}

func TestTee(t *testing.T) {
	runCases(t, []tcase{
		{args: []string{"tee", "o1", "o2"}, stdin: "hi\n", out: "hi\n", check: func(t *testing.T, fsys *vfs.FS) {
			if readFile(fsys, "o1") != "hi\n" || readFile(fsys, "o2") != "hi\n" {
				t.Errorf("files: %q %q", readFile(fsys, "o1"), readFile(fsys, "o2"))
			}
		}},
		{args: []string{"tee", "-a", "f"}, stdin: "d\n", out: "d\n", check: func(t *testing.T, fsys *vfs.FS) {
			if got := readFile(fsys, "f"); got != "a\nb\nc\nd\n" {
				t.Errorf("f = %q", got)
			}
		}},
		{args: []string{"tee", "f"}, stdin: "new\n", out: "new\n", check: func(t *testing.T, fsys *vfs.FS) {
			if got := readFile(fsys, "f"); got != "new\n" {
				t.Errorf("f = %q", got)
			}
		}},
		{args: []string{"tee", "nope/x", "o"}, stdin: "z\n", out: "z\n", err: "tee: nope/x: No such file or directory", status: 1, check: func(t *testing.T, fsys *vfs.FS) {
			if got := readFile(fsys, "o"); got != "z\n" {
				t.Errorf("o = %q", got)
			}
		}},
		{args: []string{"tee", "/etc/x"}, stdin: "z\n", out: "z\n", err: "tee: /etc/x: ", status: 1},
	})
}
