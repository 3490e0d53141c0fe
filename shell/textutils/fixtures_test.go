package textutils

// Input files shared by the table tests.

var gfiles = map[string]string{
	"a.txt":     "foo\nbar\nfoobar\nFoo bar\nbaz\n",
	"b.txt":     "one\ntwo foo\nthree\n",
	"d/c.txt":   "foo in c\n",
	"d/e/f.go":  "package foo\n",
	"d/.hidden": "foo hidden\n",
	"bin.dat":   "foo\x00bar\nfoo\n",
	"nonl.txt":  "last foo",
	"pats":      "bar\nbaz\n",
	"s20":       "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n13\n14\n15\n16\n17\n18\n19\n20\n",
	"words":     "foo foo,foo xfoo foox\n@foo bar\nfoo-bar\n",
	"re":        "a+b\nab\naab\n(x)\nx\na{2}\naa\n*star\n^caret\nend$\n[br]\na.b\naxb\ntab\there\nA\n",
}

var sfiles = map[string]string{
	"a":    "one\ntwo\nthree\nfour\nfive\n",
	"b":    "alpha\nbeta\n",
	"nonl": "x\ny",
	"sc":   "s/o/0/g\n2d\n",
	"t":    "hello world\nfoo bar\n",
}

var tfiles = map[string]string{
	"w":    "banana\nApple\ncherry\napple\nBanana\n10\n9\n-3\n2.5\n\n  lead\n",
	"n":    "10\n9\n-3\n2.5\n1e3\n0x10\nabc\n-0\n.5\n+4\n 7\n007\n-1.5\n",
	"h":    "1K\n2M\n512\n1G\n3k\n-1M\n0\n",
	"k":    "b 2 x\na 10 y\nc 1 z\na 2 w\n",
	"csv":  "x,3,foo\ny,1,bar\nz,2,baz\nw,1,aaa\n",
	"m":    "Mar\nJAN\nfeb\nxyz\nDec\n",
	"v":    "a1.10\na1.2\na1.1\nb~1\nb1\n1.0.10\n1.0.9\n",
	"g":    "1e3\n-inf\nnan\n5\nabc\n0x10\n2.5e-1\n",
	"dup":  "a\na\nb\nB\nb\nc\nc\nc\nd\n",
	"dupf": "x a\ny a\nz b\nk b1\n",
	"nonl": "b\na",
	"tabs": "a\tb\tc\nd\te\nnodelim\n\tf\n",
	"cols": "abcdefgh\n12345\n",
	"col2": "a:b:c:d\n1:2\n",
	"f2":   "c\nb\n",
	"srt":  "a\nb\nb\n",
}
