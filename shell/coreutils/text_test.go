package coreutils

import (
	"testing"

	"github.com/cordonhq/cordon/vfs"
)

// The expectations below were produced by GNU coreutils 9 on the same
// fixture (stdFiles) with LC_ALL=C.UTF-8.

func TestTextCommands(t *testing.T) {
	runCases(t, []tcase{
		{Args: []string{"comm", "-3", "u", "u"}, Files: map[string]string{"u": "b\na\n"}, Out: ""},
		{Args: []string{"comm", "u", "w"}, Files: map[string]string{"u": "b\na\n", "w": "c\na\n"}, Out: "b\na\n\tc\n\ta\n", Err: "comm: file 1 is not in sorted order", Status: 1},
		{Args: []string{"comm", "--check-order", "u", "w"}, Files: map[string]string{"u": "b\na\n", "w": "c\na\n"}, Out: "b\n", Err: "comm: file 1 is not in sorted order", Status: 1},
		{Args: []string{"comm", "--nocheck-order", "u", "w"}, Files: map[string]string{"u": "b\na\n", "w": "c\na\n"}, Out: "b\na\n\tc\n\ta\n"},
		// expand
		{Args: []string{"expand"}, Stdin: "a\tb\n\tc\td\n", Out: "a       b\n        c       d\n"},
		{Args: []string{"expand", "-t", "4"}, Stdin: "a\tb\n", Out: "a   b\n"},
		{Args: []string{"expand", "-t", "2,5"}, Stdin: "a\tbb\tc\n", Out: "a bb c\n"},
		{Args: []string{"expand", "-i"}, Stdin: "\ta\tb\n", Out: "        a\tb\n"},
		{Args: []string{"expand", "-t", "0"}, Out: "", Err: "expand: tab size cannot be 0", Status: 1},
		{Args: []string{"expand", "-t", "3,2"}, Out: "", Err: "expand: tab sizes must be ascending", Status: 1},
		{Args: []string{"expand", "-t", "2,4"}, Stdin: "a\tb\tc\td\n", Out: "a b c d\n"},
		{Args: []string{"expand", "-t", "2,/4"}, Stdin: "a\tb\tc\n", Out: "a b c\n"},
		{Args: []string{"expand", "-t", "2,+4"}, Stdin: "a\tb\tc\n", Out: "a b   c\n"},
		{Args: []string{"expand", "-4"}, Stdin: "a\tb\n", Out: "a   b\n"},
		{Args: []string{"expand", "v"}, Out: "a       b\x01\n\n\n\nc\x80 \r\n"},
		{Args: []string{"expand", "--tabs=3"}, Stdin: "a\tb", Out: "a  b"},
		{Args: []string{"expand"}, Stdin: "ab\bc\td\n", Out: "ab\bc      d\n"},
		{Args: []string{"head", "d", "f"}, Out: "==> d <==\n\n==> f <==\na\nb\nc\n", Err: "head: error reading 'd': Is a directory", Status: 1},
		{Args: []string{"tail", "-n1", "f", "d"}, Out: "==> f <==\nc\n\n==> d <==\n", Err: "tail: error reading 'd': Is a directory", Status: 1},
		{Args: []string{"sha256sum", "d"}, Err: "sha256sum: d: Is a directory", Status: 1},
		// cat
		{Args: []string{"cat", "f", "g"}, Out: "a\nb\nc\nhello world\n"},
		{Args: []string{"cat", "-n", "f", "nonl", "g"}, Out: "     1\ta\n     2\tb\n     3\tc\n     4\tno newlinehello world\n"},
		{Args: []string{"cat", "-A", "v"}, Out: "a^Ib^A$\n$\n$\n$\ncM-^@ ^M$\n"},
		{Args: []string{"cat", "-b", "v"}, Out: "     1\ta\tb\x01\n\n\n\n     2\tc\x80 \r\n"},
		{Args: []string{"cat", "-s", "v"}, Out: "a\tb\x01\n\nc\x80 \r\n"},
		{Args: []string{"cat", "-E", "nonl"}, Out: "no newline"},
		{Args: []string{"cat", "-T", "v"}, Out: "a^Ib\x01\n\n\n\nc\x80 \r\n"},
		{Args: []string{"cat", "-v", "v"}, Out: "a\tb^A\n\n\n\ncM-^@ ^M\n"},
		{Args: []string{"cat", "-e", "f"}, Out: "a$\nb$\nc$\n"},
		{Args: []string{"cat", "nope", "f"}, Out: "a\nb\nc\n", Err: "cat: nope: No such file or directory", Status: 1},
		{Args: []string{"cat", "d"}, Out: "", Err: "cat: d: Is a directory", Status: 1},
		{Args: []string{"cat", "-Z"}, Out: "", Err: "cat: invalid option -- 'Z'", Status: 1},
		{Args: []string{"cat", "-", "f"}, Stdin: "x\ny\n", Out: "x\ny\na\nb\nc\n"},
		{Args: []string{"cat"}, Stdin: "x\ny\n", Out: "x\ny\n"},
		// head
		{Args: []string{"head", "n12"}, Out: "one\ntwo\nthree\nfour\nfive\nsix\nseven\neight\nnine\nten\n"},
		{Args: []string{"head", "-n", "3", "n12"}, Out: "one\ntwo\nthree\n"},
		{Args: []string{"head", "-3", "n12"}, Out: "one\ntwo\nthree\n"},
		{Args: []string{"head", "-n", "-9", "n12"}, Out: "one\ntwo\nthree\n"},
		{Args: []string{"head", "-c", "5", "n12"}, Out: "one\nt"},
		{Args: []string{"head", "-c", "-60", "n12"}, Out: "one"},
		{Args: []string{"head", "-c", "1k", "f"}, Out: "a\nb\nc\n"},
		{Args: []string{"head", "f", "g"}, Out: "==> f <==\na\nb\nc\n\n==> g <==\nhello world\n"},
		{Args: []string{"head", "-q", "f", "g"}, Out: "a\nb\nc\nhello world\n"},
		{Args: []string{"head", "-v", "f"}, Out: "==> f <==\na\nb\nc\n"},
		{Args: []string{"head", "nope", "f"}, Out: "==> f <==\na\nb\nc\n", Err: "head: cannot open 'nope' for reading: No such file or directory", Status: 1},
		{Args: []string{"head", "-n", "x", "f"}, Out: "", Err: "head: invalid number of lines: ‘x’", Status: 1},
		{Args: []string{"head", "-n", "0", "f"}, Out: ""},
		{Args: []string{"head", "-n", "1"}, Stdin: "1\n2\n3\n", Out: "1\n"},
		{Args: []string{"head", "-n", "2", "nonl"}, Out: "no newline"},
		{Args: []string{"head", "-Z"}, Out: "", Err: "head: invalid option -- 'Z'", Status: 1},
		// tail
		{Args: []string{"tail", "n12"}, Out: "three\nfour\nfive\nsix\nseven\neight\nnine\nten\neleven\ntwelve\n"},
		{Args: []string{"tail", "-n", "2", "n12"}, Out: "eleven\ntwelve\n"},
		{Args: []string{"tail", "-2", "n12"}, Out: "eleven\ntwelve\n"},
		{Args: []string{"tail", "-n", "+11", "n12"}, Out: "eleven\ntwelve\n"},
		{Args: []string{"tail", "+11", "n12"}, Out: "eleven\ntwelve\n"},
		{Args: []string{"tail", "-c", "4", "n12"}, Out: "lve\n"},
		{Args: []string{"tail", "-c", "+60", "n12"}, Out: "lve\n"},
		{Args: []string{"tail", "f", "g"}, Out: "==> f <==\na\nb\nc\n\n==> g <==\nhello world\n"},
		{Args: []string{"tail", "-n", "1", "nonl"}, Out: "no newline"},
		{Args: []string{"tail", "-n", "0", "f"}, Out: ""},
		{Args: []string{"tail", "-n", "3", "nonl"}, Out: "no newline"},
		{Args: []string{"tail", "nope"}, Out: "", Err: "tail: cannot open 'nope' for reading: No such file or directory", Status: 1},
		{Args: []string{"tail", "-q", "f", "g"}, Out: "a\nb\nc\nhello world\n"},
		{Args: []string{"tail", "-n", "1"}, Stdin: "1\n2\n3\n", Out: "3\n"},
		// wc
		{Args: []string{"wc", "f"}, Out: "3 3 6 f\n"},
		{Args: []string{"wc", "-l", "f"}, Out: "3 f\n"},
		{Args: []string{"wc", "f", "g"}, Out: " 3  3  6 f\n 1  2 12 g\n 4  5 18 total\n"},
		{Args: []string{"wc", "-l", "f", "g"}, Out: " 3 f\n 1 g\n 4 total\n"},
		{Args: []string{"wc", "-c", "f"}, Out: "6 f\n"},
		{Args: []string{"wc", "f", "nope"}, Out: "3 3 6 f\n3 3 6 total\n", Err: "wc: nope: No such file or directory", Status: 1},
		{Args: []string{"wc", "-l", "nope", "f"}, Out: "3 f\n3 total\n", Err: "wc: nope: No such file or directory", Status: 1},
		{Args: []string{"wc", "-lc", "f"}, Out: "3 6 f\n"},
		{Args: []string{"wc", "d"}, Out: "      0       0       0 d\n", Err: "wc: d: Is a directory", Status: 1},
		{Args: []string{"wc", "-l", "d", "f"}, Out: "      0 d\n      3 f\n      3 total\n", Err: "wc: d: Is a directory", Status: 1},
		{Args: []string{"wc"}, Stdin: "a b\nc", Out: "      1       3       5\n"},
		{Args: []string{"wc", "-l"}, Stdin: "a b\nc", Out: "1\n"},
		{Args: []string{"wc", "-lw"}, Stdin: "a b\nc", Out: "      1       3\n"},
		{Args: []string{"wc", "-m"}, Stdin: "a b\nc", Out: "5\n"},
		{Args: []string{"wc", "-m", "-c"}, Stdin: "héllo wörld\n", Out: "     12      14\n"},
		{Args: []string{"wc", "-L", "n12", "g"}, Out: " 6 n12\n11 g\n11 total\n"},
		{Args: []string{"wc", "nonl"}, Out: " 0  2 10 nonl\n"},
		{Args: []string{"wc", "-w", "v"}, Out: "3 v\n"},
		{Args: []string{"wc", "-Z"}, Out: "", Err: "wc: invalid option -- 'Z'", Status: 1},
		// tee
		{Args: []string{"tee"}, Stdin: "hi\n", Out: "hi\n"},
		// rev
		{Args: []string{"rev"}, Stdin: "abc\nxy", Out: "cba\nyx"},
		{Args: []string{"rev", "nonl", "f"}, Out: "enilwen ona\nb\nc\n"},
		{Args: []string{"rev"}, Stdin: "héllo\n", Out: "olléh\n"},
		// nl
		{Args: []string{"nl"}, Stdin: "a\n\nb\n", Out: "     1\ta\n       \n     2\tb\n"},
		{Args: []string{"nl", "-ba", "-w3", "-s:"}, Stdin: "a\n\nb\n", Out: "  1:a\n  2:\n  3:b\n"},
		{Args: []string{"nl", "-nln"}, Stdin: "a\n", Out: "1     \ta\n"},
		{Args: []string{"nl", "-nrz"}, Stdin: "a\n", Out: "000001\ta\n"},
		{Args: []string{"nl", "-v", "10", "-i", "5"}, Stdin: "a\nb\n", Out: "    10\ta\n    15\tb\n"},
		{Args: []string{"nl", "f", "g"}, Out: "     1\ta\n     2\tb\n     3\tc\n     4\thello world\n"},
		// paste
		{Args: []string{"paste", "f", "g"}, Out: "a\thello world\nb\t\nc\t\n"},
		{Args: []string{"paste", "-d,", "f", "n12"}, Out: "a,one\nb,two\nc,three\n,four\n,five\n,six\n,seven\n,eight\n,nine\n,ten\n,eleven\n,twelve\n"},
		{Args: []string{"paste", "-s", "f", "g"}, Out: "a\tb\tc\nhello world\n"},
		{Args: []string{"paste", "-sd,", "f"}, Out: "a,b,c\n"},
		{Args: []string{"paste", "-d|,", "f", "g", "f"}, Out: "a|hello world,a\nb|,b\nc|,c\n"},
		{Args: []string{"paste", "-", "-"}, Stdin: "1\n2\n3\n", Out: "1\t2\n3\t\n"},
		{Args: []string{"paste", "nope"}, Out: "", Err: "paste: nope: No such file or directory", Status: 1},
		// comm
		{Args: []string{"comm", "f", "g"}, Out: "a\nb\nc\n\thello world\n"},
		{Args: []string{"comm", "-12", "f", "f"}, Out: "a\nb\nc\n"},
		{Args: []string{"comm", "-3", "f", "n12"}, Out: "a\nb\nc\n\tone\n\ttwo\n\tthree\n\tfour\n\tfive\n\tsix\n\tseven\n\teight\n\tnine\n\tten\n\televen\n\ttwelve\n", Err: "comm: file 2 is not in sorted order", Status: 1},
		{Args: []string{"comm", "-23", "f", "n12"}, Out: "a\nb\nc\n", Err: "comm: file 2 is not in sorted order", Status: 1},
		{Args: []string{"comm", "--output-delimiter=:", "f", "g"}, Out: "a\nb\nc\n:hello world\n"},
		// fold
		{Args: []string{"fold", "-w", "3"}, Stdin: "abcdefghij\n", Out: "abc\ndef\nghi\nj\n"},
		{Args: []string{"fold", "-sw", "7"}, Stdin: "hello world foo\n", Out: "hello \nworld \nfoo\n"},
		{Args: []string{"fold", "-w", "5"}, Stdin: "a\tb\tc\n", Out: "a\n\t\nb\n\t\nc\n"},
		{Args: []string{"fold", "-3"}, Stdin: "abcdef\n", Out: "abc\ndef\n"},
		{Args: []string{"fold", "-b", "-w", "4"}, Stdin: "abcdef\n", Out: "abcd\nef\n"},
	})
}

func TestTee(t *testing.T) {
	runCases(t, []tcase{
		{Args: []string{"tee", "o1", "o2"}, Stdin: "hi\n", Out: "hi\n", Check: func(t *testing.T, fsys *vfs.FS) {
			if readFile(fsys, "o1") != "hi\n" || readFile(fsys, "o2") != "hi\n" {
				t.Errorf("files: %q %q", readFile(fsys, "o1"), readFile(fsys, "o2"))
			}
		}},
		{Args: []string{"tee", "-a", "f"}, Stdin: "d\n", Out: "d\n", Check: func(t *testing.T, fsys *vfs.FS) {
			if got := readFile(fsys, "f"); got != "a\nb\nc\nd\n" {
				t.Errorf("f = %q", got)
			}
		}},
		{Args: []string{"tee", "f"}, Stdin: "new\n", Out: "new\n", Check: func(t *testing.T, fsys *vfs.FS) {
			if got := readFile(fsys, "f"); got != "new\n" {
				t.Errorf("f = %q", got)
			}
		}},
		{Args: []string{"tee", "nope/x", "o"}, Stdin: "z\n", Out: "z\n", Err: "tee: nope/x: No such file or directory", Status: 1, Check: func(t *testing.T, fsys *vfs.FS) {
			if got := readFile(fsys, "o"); got != "z\n" {
				t.Errorf("o = %q", got)
			}
		}},
		{Args: []string{"tee", "/etc/x"}, Stdin: "z\n", Out: "z\n", Err: "tee: /etc/x: ", Status: 1},
	})
}
