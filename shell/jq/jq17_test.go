package jq

import (
	"fmt"
	"sync"
	"testing"
)

// The expectations of these tests were produced by jq 1.7.1 (built from the
// jq-1.7.1 tag) on the same filters and inputs, except where a comment says
// otherwise. Each group of cases fails without its part of the change.

// Runtime errors carry jq 1.7's messages, through try ... catch and on stderr.
func TestJq17ErrorMessages(t *testing.T) {
	runCases(t, []tcase{
		{args: []string{"jq", "-c", "try (1/0) catch ."}, stdin: "null", out: "\"number (1) and number (0) cannot be divided because the divisor is zero\"\n"},
		{args: []string{"jq", "-c", "try (1%0) catch ."}, stdin: "null", out: "\"number (1) and number (0) cannot be divided (remainder) because the divisor is zero\"\n"},
		{args: []string{"jq", "-c", "try (.[] / 0) catch ."}, stdin: "[5]", out: "\"number (5) and number (0) cannot be divided because the divisor is zero\"\n"},
		{args: []string{"jq", "-c", "try (\"a\" + 1) catch ."}, stdin: "null", out: "\"string (\\\"a\\\") and number (1) cannot be added\"\n"},
		{args: []string{"jq", "-c", "try ({\"b\":1,\"a\":2} - 1) catch ."}, stdin: "null", out: "\"object ({\\\"b\\\":1,\\\"a\\\":2}) and number (1) cannot be subtracted\"\n"},
		{args: []string{"jq", "-c", "try ([] * 2) catch ."}, stdin: "null", out: "\"array ([]) and number (2) cannot be multiplied\"\n"},
		{args: []string{"jq", "-c", "try (-.) catch ."}, stdin: "\"very-long-string\"", out: "\"string (\\\"very-long-...) cannot be negated\"\n"},
		{args: []string{"jq", "-c", "try .a catch ."}, stdin: "[1]", out: "\"Cannot index array with string \\\"a\\\"\"\n"},
		{args: []string{"jq", "-c", "try .a.b catch ."}, stdin: "{\"a\":5}", out: "\"Cannot index number with string \\\"b\\\"\"\n"},
		{args: []string{"jq", "-c", "try .[0] catch ."}, stdin: "{\"a\":1}", out: "\"Cannot index object with number\"\n"},
		{args: []string{"jq", "-c", "try .[] catch ."}, stdin: "123", out: "\"Cannot iterate over number (123)\"\n"},
		{args: []string{"jq", "-c", "try keys catch ."}, stdin: "1", out: "\"number (1) has no keys\"\n"},
		{args: []string{"jq", "-c", "try length catch ."}, stdin: "true", out: "\"boolean (true) has no length\"\n"},
		{args: []string{"jq", "-c", "try utf8bytelength catch ."}, stdin: "[]", out: "\"array ([]) only strings have UTF-8 byte length\"\n"},
		{args: []string{"jq", "-c", "try implode catch ."}, stdin: "\"x\"", out: "\"implode input must be an array\"\n"},
		{args: []string{"jq", "-c", "try ([nan]|implode) catch ."}, stdin: "null", out: "\"number (null) can't be imploded, unicode codepoint needs to be numeric\"\n"},
		{args: []string{"jq", "-c", "try join(\",\") catch ."}, stdin: "[1,[2]]", out: "\"string (\\\"1,\\\") and array ([2]) cannot be added\"\n"},
		{args: []string{"jq", "-c", "try (.foo[-1] = 0) catch ."}, stdin: "null", out: "\"Out of bounds negative array index\"\n"},
		{args: []string{"jq", "-c", "try delpaths(0) catch ."}, stdin: "{}", out: "\"Paths must be specified as an array\"\n"},
		{args: []string{"jq", "-c", "try getpath([\"a\",0,\"b\"]) catch ."}, stdin: "{\"a\":[0]}", out: "\"Cannot index number with string \\\"b\\\"\"\n"},
		{args: []string{"jq", "-c", "try flatten(-1) catch ."}, stdin: "[1]", out: "\"flatten depth must not be negative\"\n"},
		{args: []string{"jq", "-c", "try mktime catch ."}, stdin: "[\"a\",1,2,3,4,5,6,7]", out: "\"mktime requires parsed datetime inputs\"\n"},
		{args: []string{"jq", "-c", "try fromjson catch ."}, stdin: "\"{\\\"a\\\":\"", out: "\"Unfinished JSON term at EOF at line 1, column 5 (while parsing '{\\\"a\\\":')\"\n"},
		{args: []string{"jq", "-c", "try tonumber catch ."}, stdin: "\"abc\"", out: "\"Invalid numeric literal at EOF at line 1, column 3 (while parsing 'abc')\"\n"},
		{args: []string{"jq", "-c", "try has(0) catch ."}, stdin: "{}", out: "\"Cannot check whether object has a number key\"\n"},
		{args: []string{"jq", "-c", "try sort catch ."}, stdin: "{}", out: "\"object ({}) cannot be sorted, as it is not an array\"\n"},
		{args: []string{"jq", "-c", "try test(\"(\") catch ."}, stdin: "\"a\"", out: "\"Regex failure: end pattern with unmatched parenthesis\"\n"},
		{args: []string{"jq", "-c", "try path(.a | map(select(.b == 0))) catch ."}, stdin: "{\"a\":[{\"b\":0}]}", out: "\"Invalid path expression with result [{\\\"b\\\":0}]\"\n"},
		{args: []string{"jq", "-c", "[.[] | try error catch .]"}, stdin: "[1,\"x\",null]", out: "[1,\"x\",null]\n"},
		{args: []string{"jq", "-c", ".a"}, stdin: "5", out: "", err: "jq: error (at <stdin>:0): Cannot index number with string \"a\"", status: 5},
		{args: []string{"jq", "-c", ".[0]"}, stdin: "{\"a\":1}", out: "", err: "jq: error (at <stdin>:0): Cannot index object with number", status: 5},
		{args: []string{"jq", "-c", ".x.y"}, stdin: "{\"x\":\"s\"}", out: "", err: "jq: error (at <stdin>:0): Cannot index string with string \"y\"", status: 5},
		{args: []string{"jq", "-c", ".[] | .a"}, stdin: "[{\"a\":1},2]", out: "1\n", err: "jq: error (at <stdin>:0): Cannot index number with string \"a\"", status: 5},
		{args: []string{"jq", "-c", "1 / ."}, stdin: "0", out: "", err: "jq: error (at <stdin>:0): number (1) and number (0) cannot be divided because the divisor is zero", status: 5},
		{args: []string{"jq", "-c", "{} + ."}, stdin: "1", out: "", err: "jq: error (at <stdin>:0): object ({}) and number (1) cannot be added", status: 5},
	})
}

// Numbers: literals keep their value as written until modified; arithmetic is IEEE double.
func TestJq17Numbers(t *testing.T) {
	runCases(t, []tcase{
		{args: []string{"jq", "-c", "."}, stdin: "[1.000, 1E2, 100000000000000000000001, -0, 0.00001, 1e-7, 1.5e300]", out: "[1.000,1E+2,100000000000000000000001,-0,0.00001,1E-7,1.5E+300]\n"},
		{args: []string{"jq", "-c", ".[0] | tostring"}, stdin: "[13911860366432393]", out: "\"13911860366432393\"\n"},
		{args: []string{"jq", "-c", ". - 10"}, stdin: "13911860366432393", out: "13911860366432382\n"},
		{args: []string{"jq", "-c", ".[] as $n | $n+0 | [., tostring, . == $n]"}, stdin: "[-9007199254740993]", out: "[-9007199254740992,\"-9007199254740992\",true]\n"},
		{args: []string{"jq", "-c", "-n", "100000000000000000000000"}, out: "100000000000000000000000\n"},
		{args: []string{"jq", "-c", "-n", "[1.000, 1e2, -1.50, 3.0, 0.00001, 1e1000, -1e1000]"}, out: "[1.000,1E+2,-1.5,3.0,0.00001,1E+1000,-1.7976931348623157e+308]\n"},
		{args: []string{"jq", "-c", "-n", "9E999999999, 9999999999E999999990, 1E-999999999, 0.000000001E-999999990"}, out: "9E+999999999\n9.999999999E+999999999\n1E-999999999\n1E-999999999\n"},
		{args: []string{"jq", "-c", "-n", "[1.000|tostring, (1.000|tojson), (1.000+0)]"}, out: "[\"1.000\",\"1.000\",1]\n"},
		{args: []string{"jq", "-c", "-n", "0.1 + 0.2, 1 / 3, 3 * 1.1"}, out: "0.30000000000000004\n0.3333333333333333\n3.3000000000000003\n"},
		{args: []string{"jq", "-c", "map(. == 1)"}, stdin: "[1, 1.0, 1.000, 100e-2, 1e+0, 0.0001e4]", out: "[true,true,true,true,true,true]\n"},
		{args: []string{"jq", "-c", ".[0] + .[1]"}, stdin: "[9007199254740993, 0]", out: "9007199254740992\n"},
		{args: []string{"jq", "-c", "add"}, stdin: "[1.000]", out: "1.000\n"},
		{args: []string{"jq", "-c", "[.[] | -.]"}, stdin: "[1.000, 2, -0.5]", out: "[-1,-2,0.5]\n"},
		{args: []string{"jq", "-c", "[.[] | length]"}, stdin: "[-1.50, 10.00]", out: "[1.5,10]\n"},
		{args: []string{"jq", "-c", "tojson"}, stdin: "{\"a\":[1.10,1E2]}", out: "\"{\\\"a\\\":[1.10,1E+2]}\"\n"},
		{args: []string{"jq", "-c", "@csv"}, stdin: "[1.000, 2.5]", out: "\"1.000,2.5\"\n"},
		{args: []string{"jq", "-c", "-r", ".[] | tostring"}, stdin: "[1.0, 1e1000]", out: "1.0\n1E+1000\n"},
		{args: []string{"jq", "-c", "[.[] % 3]"}, stdin: "[7, -7, 7.9]", out: "[1,-1,1]\n"},
		{args: []string{"jq", "-c", "\"abc\" * ."}, stdin: "1.5", out: "\"abc\"\n"},
	})
}

// Input: a byte order mark, and NaN and Infinity literals (also through fromjson and tonumber).
func TestJq17Input(t *testing.T) {
	runCases(t, []tcase{
		{args: []string{"jq", "-c", "."}, stdin: "[\"a\tb\"]\n", err: "jq: parse error: Invalid string: control characters from U+0000 through U+001F must be escaped at line 1, column 6", status: 5},
		{args: []string{"jq", "-s", ".[0] + \"x\""}, stdin: "1\n2\n", err: "jq: error (at <stdin>:2): number (1) and string (\"x\") cannot be added", status: 5},
		{args: []string{"jq", "-R", ". + 1"}, stdin: "a\nb\n", err: "jq: error (at <stdin>:1): string (\"a\") and number (1) cannot be added", status: 5},
		{args: []string{"jq", "input"}, stdin: "1", err: "jq: error (at <unknown>): break", status: 5},
		{args: []string{"jq", "-n", "input | .a"}, stdin: "[1]\n", err: "jq: error (at <stdin>:1): Cannot index array with string \"a\"", status: 5},
		{args: []string{"jq", "-c", "."}, stdin: "\ufeff\"byte order mark\"", out: "\"byte order mark\"\n"},
		{args: []string{"jq", "-c", "."}, stdin: "[1,null,Infinity,-Infinity,NaN,-NaN]", out: "[1,null,1.7976931348623157e+308,-1.7976931348623157e+308,null,null]\n"},
		{args: []string{"jq", "-c", "[.[] | isnan]"}, stdin: "[NaN, nan, 1]", out: "[true,true,false]\n"},
		{args: []string{"jq", "-c", ".[] = 1"}, stdin: "[1,null,Infinity,-Infinity,NaN,-NaN]", out: "[1,1,1,1,1,1]\n"},
		{args: []string{"jq", "-c", "fromjson | isnan"}, stdin: "\"nan\"", out: "true\n"},
		{args: []string{"jq", "-c", "fromjson | isnan"}, stdin: "\"nan1234\"", out: "true\n"},
		{args: []string{"jq", "-c", "tojson | fromjson"}, stdin: "{\"a\":nan}", out: "{\"a\":null}\n"},
		{args: []string{"jq", "-c", "map(tonumber)"}, stdin: "[\"1\", \"1.50\", \"nan\", \"-Infinity\"]", out: "[1,1.50,null,-1.7976931348623157e+308]\n"},
		{args: []string{"jq", "-c", "."}, stdin: "[.5, 5., +1, 01]", out: "[0.5,5,1,1]\n"},
		{args: []string{"jq", "-c", "."}, stdin: "nanx", out: "", err: "jq: parse error: Invalid numeric literal at EOF at line 1, column 4", status: 5},
	})
}

// Errors that jq reports when it compiles a program fail with status 3.
func TestJq17CompileErrors(t *testing.T) {
	runCases(t, []tcase{
		{args: []string{"jq", "-c", "-n", "{(0):1}"}, out: "", err: "jq: error: Cannot use number (0) as object key at <top-level>, line 1:", status: 3},
		{args: []string{"jq", "-c", "-n", "{non_const:., (0):1}"}, out: "", err: "jq: error: Cannot use number (0) as object key at <top-level>, line 1:", status: 3},
		{args: []string{"jq", "-c", "-n", "{([1]):2}"}, out: "", err: "jq: error: Cannot use array ([1]) as object key at <top-level>, line 1:", status: 3},
		{args: []string{"jq", "-c", "-n", ". as $foo | break $foo"}, out: "", err: "jq: error: $*label-foo is not defined at <top-level>, line 1:", status: 3},
		{args: []string{"jq", "-c", "-n", "module (.+1); 0"}, out: "", err: "jq: error: Module metadata must be constant at <top-level>, line 1:", status: 3},
		{args: []string{"jq", "-c", "-n", "module []; 0"}, out: "", err: "jq: error: Module metadata must be an object at <top-level>, line 1:", status: 3},
		{args: []string{"jq", "-c", "-n", "include \"a\" (.+1); 0"}, out: "", err: "jq: error: Module metadata must be constant at <top-level>, line 1:", status: 3},
		{args: []string{"jq", "-c", "-n", "include \"a\" []; 0"}, out: "", err: "jq: error: Module metadata must be an object at <top-level>, line 1:", status: 3},
		{args: []string{"jq", "-c", "-n", "include \"\\(a)\"; 0"}, out: "", err: "jq: error: Import path must be constant at <top-level>, line 1:", status: 3},
		{args: []string{"jq", "-c", "-n", "foo(1)"}, out: "", err: "jq: error: foo/1 is not defined at <top-level>, line 1:", status: 3},
		{args: []string{"jq", "-c", "-n", "$nope"}, out: "", err: "jq: error: $nope is not defined at <top-level>, line 1:", status: 3},
	})
}

// jq 1.7's builtins that gojq lacks or defines differently.
func TestJq17Builtins(t *testing.T) {
	runCases(t, []tcase{
		{args: []string{"jq", "-c", "debug"}, stdin: "{\"b\":1,\"a\":2}", out: "{\"b\":1,\"a\":2}\n", err: "[\"DEBUG:\",{\"b\":1,\"a\":2}]"},
		{args: []string{"jq", "-c", "debug(\"msg: \\(.)\")"}, stdin: "1", out: "1\n", err: "[\"DEBUG:\",\"msg: 1\"]"},
		{args: []string{"jq", "-c", "stderr"}, stdin: "{\"b\":1,\"a\":2}", out: "{\"b\":1,\"a\":2}\n", err: "{\"b\":1,\"a\":2}"},
		{args: []string{"jq", "-c", "[inputs | input_line_number]"}, stdin: "1\n2\n3", out: "[2,2]\n"},
		{args: []string{"jq", "-c", "-n", "get_search_list"}, out: "[\"~/.jq\",\"$ORIGIN/../lib/jq\",\"$ORIGIN/../lib\"]\n"},
		{args: []string{"jq", "-c", "-n", "$__loc__"}, out: "{\"file\":\"<top-level>\",\"line\":1}\n"},
		{args: []string{"jq", "-c", "-n", "{a: 1,\nb: $__loc__}"}, out: "{\"a\":1,\"b\":{\"file\":\"<top-level>\",\"line\":2}}\n"},
		{args: []string{"jq", "-c", "[.[] | abs]"}, stdin: "[-1, 0.5, \"abc\", -0.0]", out: "[1,0.5,\"abc\",-0.0]\n"},
		{args: []string{"jq", "-c", "pick(.a.b, .c[1])"}, stdin: "{\"c\":[1,2,3],\"a\":{\"b\":1,\"x\":2}}", out: "{\"a\":{\"b\":1},\"c\":[null,2]}\n"},
		{args: []string{"jq", "-c", "[splits(\", *\")]"}, stdin: "\"a, b,c\"", out: "[\"a\",\"b\",\"c\"]\n"},
		{args: []string{"jq", "-c", "[ltrimstr(\"a\"), rtrimstr(\"c\"), ltrimstr(1)]"}, stdin: "\"abc\"", out: "[\"bc\",\"ab\",\"abc\"]\n"},
		{args: []string{"jq", "-c", "[.[] | ltrimstr(\"a\")]"}, stdin: "[1, null, \"ab\"]", out: "[1,null,\"b\"]\n"},
		{args: []string{"jq", "-c", "getpath([\"a\",\"b\"]), getpath([\"x\",\"y\"])"}, stdin: "{\"a\":{\"b\":5}}", out: "5\nnull\n"},
		{args: []string{"jq", "-c", "[paths]"}, stdin: "{\"a\":[1,{\"b\":2}]}", out: "[[\"a\"],[\"a\",0],[\"a\",1],[\"a\",1,\"b\"]]\n"},
		{args: []string{"jq", "-c", "[paths(type == \"number\")]"}, stdin: "{\"a\":[1,{\"b\":2}]}", out: "[[\"a\",0],[\"a\",1,\"b\"]]\n"},
		{args: []string{"jq", "-c", "implode, (implode|explode)"}, stdin: "[65, 128512, 55296]", out: "\"A😀�\"\n[65,128512,65533]\n"},
		{args: []string{"jq", "-c", "[limit(0; 1, 2)], [limit(-1; 1, 2)], [limit(1; 1, 2)]"}, stdin: "null", out: "[]\n[1,2]\n[1]\n"},
		{args: []string{"jq", "-c", "try error(null) catch ."}, stdin: "1", out: "null\n"},
		{args: []string{"jq", "-c", "[nth(0,2; range(5))], try nth(-1; 1) catch ."}, stdin: "null", out: "[0,2]\n\"nth doesn't support negative indices\"\n"},
		{args: []string{"jq", "-c", "lgamma_r, frexp, modf"}, stdin: "2.5", out: "[0.2846828704729192,1]\n[0.625,2]\n[0.5,2]\n"},
		{args: []string{"jq", "-c", "indices(\", \"), index(\",\"), rindex(\",\")"}, stdin: "\"a, b, c\"", out: "[1,4]\n1\n4\n"},
		{args: []string{"jq", "-c", "indices(1), indices([1,2])"}, stdin: "[1,2,1,2]", out: "[0,2]\n[0,2]\n"},
		{args: []string{"jq", "-c", "[splits(\"a\";\"g\")]"}, stdin: "\"banana\"", out: "[\"b\",\"n\",\"n\",\"\"]\n"},
		{args: []string{"jq", "-c", "tostream"}, stdin: "{\"a\":[1]}", out: "[[\"a\",0],1]\n[[\"a\",0]]\n[[\"a\"]]\n"},
		{args: []string{"jq", "-c", "fromstream(tostream)"}, stdin: "{\"b\":[1],\"a\":2}", out: "{\"b\":[1],\"a\":2}\n"},
		{args: []string{"jq", "-c", "[.[] | tojson]"}, stdin: "[1, \"a\", null]", out: "[\"1\",\"\\\"a\\\"\",\"null\"]\n"},
		{args: []string{"jq", "-c", "getpath([\"a\"]) |= . + 1"}, stdin: "{\"a\":1}", out: "{\"a\":2}\n"},
		{args: []string{"jq", "-c", "reverse"}, stdin: "[1,2,3]", out: "[3,2,1]\n"},
		{args: []string{"jq", "-c", "try reverse catch ."}, stdin: "\"abc\"", out: "\"Cannot index string with number\"\n"},
		{args: []string{"jq", "-c", "builtins | length"}, stdin: "null", out: "218\n"},
		{args: []string{"jq", "-c", "input_filename"}, stdin: "1", out: "\"<stdin>\"\n"},
		{args: []string{"jq", "-c", "[significand, logb, (gamma|floor), drem(.; 3), ldexp(.; 2), scalb(.; 1), nearbyint, trunc]"}, stdin: "10.5", out: "[1.3125,3,13,-1.5,42,21,10,10]\n"}, // as with glibc (gamma is lgamma), which the jq 1.7.1 build used here lacked
		{args: []string{"jq", "-c", "@text, @json, @html, @uri, @sh, @base64, (@base64|@base64d)"}, stdin: "\"<é & 'x'>\"", out: "\"<é & 'x'>\"\n\"\\\"<é & 'x'>\\\"\"\n\"&lt;é &amp; &apos;x&apos;&gt;\"\n\"%3C%C3%A9%20%26%20%27x%27%3E\"\n\"'<é & '\\\\''x'\\\\''>'\"\n\"PMOpICYgJ3gnPg==\"\n\"<é & 'x'>\"\n"},
		{args: []string{"jq", "-c", "[.[] | tostring]"}, stdin: "[{\"b\":1,\"a\":2}, [1.0]]", out: "[\"{\\\"b\\\":1,\\\"a\\\":2}\",\"[1.0]\"]\n"},
		{args: []string{"jq", "-c", "splits"}, stdin: "\"a\"", out: "", err: "jq: error: splits/0 is not defined at <top-level>, line 1:", status: 3},
		{args: []string{"jq", "-c", "walk(if type == \"number\" then . + 1 else . end)"}, stdin: "{\"b\":[1],\"a\":2}", out: "{\"b\":[2],\"a\":3}\n"},
		{args: []string{"jq", "-c", "env | type, ($ENV | type)"}, stdin: "null", out: "\"object\"\n\"object\"\n"},
		{args: []string{"jq", "-c", "halt_error"}, stdin: "\"bye\\n\"", out: "", err: "bye", status: 5},
		{args: []string{"jq", "-c", "$__prog_name"}, stdin: "null", out: "", err: "jq: error: $__prog_name is not defined at <top-level>, line 1:", status: 3},
	})
}

// Indexing a string with a number is an error; slicing is not.
func TestJq17StringIndex(t *testing.T) {
	runCases(t, []tcase{
		{args: []string{"jq", "-c", "try .[0] catch ."}, stdin: "\"abc\"", out: "\"Cannot index string with number\"\n"},
		{args: []string{"jq", "-c", "try .[1.5] catch ."}, stdin: "\"foobar\"", out: "\"Cannot index string with number\"\n"},
		{args: []string{"jq", "-c", ". as $s | try $s[0] catch ."}, stdin: "\"abc\"", out: "\"Cannot index string with number\"\n"},
		{args: []string{"jq", "-c", ". as $s | 0 as $i | try $s[$i] catch ."}, stdin: "\"abc\"", out: "\"Cannot index string with number\"\n"},
		{args: []string{"jq", "-c", "try .[\"a\"] catch ."}, stdin: "\"abc\"", out: "\"Cannot index string with string \\\"a\\\"\"\n"},
		{args: []string{"jq", "-c", ".[1:3], .[-2:]"}, stdin: "\"abcdef\"", out: "\"bc\"\n\"ef\"\n"},
		{args: []string{"jq", "-c", "first"}, stdin: "\"abc\"", out: "", err: "jq: error (at <stdin>:0): Cannot index string with number", status: 5},
		{args: []string{"jq", "-c", ".[0]"}, stdin: "\"abc\"", out: "", err: "jq: error (at <stdin>:0): Cannot index string with number", status: 5},
	})
}

// Regular expressions with jq's flags, Unicode classes and anchors.
func TestJq17Regex(t *testing.T) {
	runCases(t, []tcase{
		{args: []string{"jq", "-c", "test(\"a b c\"; \"x\")"}, stdin: "\"abc\"", out: "true\n"},
		{args: []string{"jq", "-c", "test(\"a # comment\\nbc\"; \"x\")"}, stdin: "\"abc\"", out: "true\n"},
		{args: []string{"jq", "-c", "[match(\"b*\"; \"g\") | .offset]"}, stdin: "\"abc\"", out: "[0,1,2,3]\n"},
		{args: []string{"jq", "-c", "[match(\"b*\"; \"gn\") | .offset]"}, stdin: "\"abc\"", out: "[1]\n"},
		{args: []string{"jq", "-c", "[test(\"( )*\"; \"gn\")]"}, stdin: "\"\"", out: "[false]\n"},
		{args: []string{"jq", "-c", "test(\"A\"; \"i\"), test(\"a.b\"), test(\"a.b\"; \"s\"), test(\"a.b\"; \"m\")"}, stdin: "\"a\\nb\"", out: "true\nfalse\nfalse\ntrue\n"},
		{args: []string{"jq", "-c", "test(\"^b\"), test(\"b$\"), test(\"a$\")"}, stdin: "\"a\\nb\\n\"", out: "false\ntrue\nfalse\n"},
		{args: []string{"jq", "-c", "test(\"\\\\w\"), test(\"[[:alpha:]]\"), test(\"\\\\d\")"}, stdin: "\"é٣\"", out: "true\ntrue\ntrue\n"},
		{args: []string{"jq", "-c", "[match(\"(?<y>\\\\d+)-(?<m>\\\\d+)|(?<z>x)\").captures[] | [.name, .string, .offset]]"}, stdin: "\"2024-05\"", out: "[[\"y\",\"2024\",0],[\"m\",\"05\",5],[\"z\",null,-1]]\n"},
		{args: []string{"jq", "-c", "capture(\"(?<y>\\\\d+)-(?<m>\\\\d+)\")"}, stdin: "\"2024-05\"", out: "{\"y\":\"2024\",\"m\":\"05\"}\n"},
		{args: []string{"jq", "-c", "sub(\"(?<x>b)\"; \"[\\(.x)]\"), gsub(\"\\\\s+\"; \" \")"}, stdin: "\"ab  b   c\"", out: "\"a[b]  b   c\"\n\"ab b c\"\n"},
		{args: []string{"jq", "-c", "[scan(\"c\")], [scan(\"(a)(b)\")]"}, stdin: "\"abcabc\"", out: "[\"c\",\"c\"]\n[[\"a\",\"b\"],[\"a\",\"b\"]]\n"},
		{args: []string{"jq", "-c", "try test(\"a\"; \"q\") catch ."}, stdin: "\"a\"", out: "\"q is not a valid modifier string\"\n"},
		{args: []string{"jq", "-c", "try test(1) catch ."}, stdin: "\"a\"", out: "\"number not a string or array\"\n"},
		{args: []string{"jq", "-c", "try test(\"(\") catch ."}, stdin: "\"a\"", out: "\"Regex failure: end pattern with unmatched parenthesis\"\n"},
		{args: []string{"jq", "-c", "split(\", *\"; null)"}, stdin: "\"a, b,c\"", out: "[\"a\",\"b\",\"c\"]\n"},
		{args: []string{"jq", "-c", "ascii_downcase, ascii_upcase"}, stdin: "\"aBé\"", out: "\"abé\"\n\"ABé\"\n"},
	})
}

// Objects keep jq's key order, including those that the program rebuilds.
func TestJq17KeyOrder(t *testing.T) {
	runCases(t, []tcase{
		{args: []string{"jq", "-c", "."}, stdin: "{\"b\":1,\"a\":{\"d\":1,\"c\":2}}", out: "{\"b\":1,\"a\":{\"d\":1,\"c\":2}}\n"},
		{args: []string{"jq", "-c", "-S", "."}, stdin: "{\"b\":1,\"a\":{\"d\":1,\"c\":2}}", out: "{\"a\":{\"c\":2,\"d\":1},\"b\":1}\n"},
		{args: []string{"jq", "-c", "-S", "keys_unsorted, tojson"}, stdin: "{\"b\":1,\"a\":2}", out: "[\"b\",\"a\"]\n\"{\\\"b\\\":1,\\\"a\\\":2}\"\n"},
		{args: []string{"jq", "-c", ".a = 1, .z = 1, .a.x = 1"}, stdin: "{\"b\":1,\"a\":{\"y\":0}}", out: "{\"b\":1,\"a\":1}\n{\"b\":1,\"a\":{\"y\":0},\"z\":1}\n{\"b\":1,\"a\":{\"y\":0,\"x\":1}}\n"},
		{args: []string{"jq", "-c", ".a |= . + 1, .a += 1, .z += 1, .a //= 5"}, stdin: "{\"b\":1,\"a\":2}", out: "{\"b\":1,\"a\":3}\n{\"b\":1,\"a\":3}\n{\"b\":1,\"a\":2,\"z\":1}\n{\"b\":1,\"a\":2}\n"},
		{args: []string{"jq", "-c", "del(.a), del(.b, .c), delpaths([[\"a\"]])"}, stdin: "{\"c\":0,\"b\":1,\"a\":2}", out: "{\"c\":0,\"b\":1}\n{\"a\":2}\n{\"c\":0,\"b\":1}\n"},
		{args: []string{"jq", "-c", ". + {\"z\":1}, . + {\"a\":9}, {\"z\":1} + ."}, stdin: "{\"b\":1,\"a\":2}", out: "{\"b\":1,\"a\":2,\"z\":1}\n{\"b\":1,\"a\":9}\n{\"z\":1,\"b\":1,\"a\":2}\n"},
		{args: []string{"jq", "-c", ". * {\"a\":{\"q\":1}}, {\"a\":{\"q\":1}} * ."}, stdin: "{\"b\":1,\"a\":{\"z\":0}}", out: "{\"b\":1,\"a\":{\"z\":0,\"q\":1}}\n{\"a\":{\"q\":1,\"z\":0},\"b\":1}\n"},
		{args: []string{"jq", "-c", "to_entries, with_entries(.value += 1), (to_entries | from_entries)"}, stdin: "{\"b\":1,\"a\":2}", out: "[{\"key\":\"b\",\"value\":1},{\"key\":\"a\",\"value\":2}]\n{\"b\":2,\"a\":3}\n{\"b\":1,\"a\":2}\n"},
		{args: []string{"jq", "-c", "with_entries(select(.key != \"b\")), map_values(. * 10)"}, stdin: "{\"c\":0,\"b\":1,\"a\":2}", out: "{\"c\":0,\"a\":2}\n{\"c\":0,\"b\":10,\"a\":20}\n"},
		{args: []string{"jq", "-c", "[.[]], keys, keys_unsorted, add"}, stdin: "{\"b\":\"x\",\"a\":\"y\"}", out: "[\"x\",\"y\"]\n[\"a\",\"b\"]\n[\"b\",\"a\"]\n\"xy\"\n"},
		{args: []string{"jq", "-c", "[paths], [..]"}, stdin: "{\"b\":{\"d\":1,\"c\":2},\"a\":[1]}", out: "[[\"b\"],[\"b\",\"d\"],[\"b\",\"c\"],[\"a\"],[\"a\",0]]\n[{\"b\":{\"d\":1,\"c\":2},\"a\":[1]},{\"d\":1,\"c\":2},1,2,[1],1]\n"},
		{args: []string{"jq", "-c", "tojson, tostring, @json, \"\\(.)\""}, stdin: "{\"b\":1,\"a\":2}", out: "\"{\\\"b\\\":1,\\\"a\\\":2}\"\n\"{\\\"b\\\":1,\\\"a\\\":2}\"\n\"{\\\"b\\\":1,\\\"a\\\":2}\"\n\"{\\\"b\\\":1,\\\"a\\\":2}\"\n"},
		{args: []string{"jq", "-c", "{b, a}, {(.k): 1, z: 2}"}, stdin: "{\"a\":1,\"b\":2,\"k\":\"m\"}", out: "{\"b\":2,\"a\":1}\n{\"m\":1,\"z\":2}\n"},
		{args: []string{"jq", "-c", "reduce .[] as $x ({}; .[$x.k] = $x.v)"}, stdin: "[{\"k\":\"z\",\"v\":1},{\"k\":\"a\",\"v\":2}]", out: "{\"z\":1,\"a\":2}\n"},
		{args: []string{"jq", "-c", "INDEX(.id)"}, stdin: "[{\"id\":\"x\",\"v\":1},{\"id\":\"a\",\"v\":2}]", out: "{\"x\":{\"id\":\"x\",\"v\":1},\"a\":{\"id\":\"a\",\"v\":2}}\n"},
		{args: []string{"jq", "-c", "map({(.k): .v}) | add"}, stdin: "[{\"k\":\"z\",\"v\":1},{\"k\":\"a\",\"v\":2}]", out: "{\"z\":1,\"a\":2}\n"},
		{args: []string{"jq", "-c", "walk(if type == \"object\" then del(.z) else . end)"}, stdin: "{\"b\":{\"z\":1,\"y\":2},\"a\":1}", out: "{\"b\":{\"y\":2},\"a\":1}\n"},
		{args: []string{"jq", "-c", "setpath([\"z\"]; 1), setpath([\"a\",\"q\"]; 1)"}, stdin: "{\"b\":1,\"a\":{}}", out: "{\"b\":1,\"a\":{},\"z\":1}\n{\"b\":1,\"a\":{\"q\":1}}\n"},
		{args: []string{"jq", "-c", "fromjson"}, stdin: "\"{\\\"b\\\":1,\\\"a\\\":2}\"", out: "{\"b\":1,\"a\":2}\n"},
		{args: []string{"jq", "-c", "[match(\"a\").captures], capture(\"(?<z>a)(?<y>b)\")"}, stdin: "\"ab\"", out: "[[]]\n{\"z\":\"a\",\"y\":\"b\"}\n"},
		{args: []string{"jq", "-c", "pick(.b, .a)"}, stdin: "{\"a\":1,\"b\":2,\"c\":3}", out: "{\"b\":2,\"a\":1}\n"},
		{args: []string{"jq", "-c", "--arg", "z", "1", "--arg", "a", "2", "$ARGS.named"}, stdin: "null", out: "{\"z\":\"1\",\"a\":\"2\"}\n"},
	})
}

// Modules are read from the sandbox's file system, searched as jq does:
// -L directories, ~/.jq, a dependency's search path.
func TestJq17Modules(t *testing.T) {
	files := map[string]string{
		"lib/a.jq":         `def a: "a";`,
		"lib/b/b.jq":       `def b: "b";`,
		"lib/data.json":    `{"k":1,"b":2}`,
		"lib/m.jq":         `module {name: "m"}; import "a" as a; def m: a::a + "m";`,
		"lib/s/s.jq":       `import "a" as a {search: "../"}; def s: a::a + "s";`,
		".jq/h.jq":         `def h: "home";`,
		"bad/syntax.jq":    `def x: ;`,
		"lib/keys.jq":      `def o: {z: 1, a: 2} | .m = 3;`,
		"lib/arith.jq":     `def n: 13911860366432393 - 10;`,
		"lib/regex.jq":     `def r: capture("(?<y>\\d+)-(?<m>\\d+)");`,
		"lib/loop/loop.jq": `def l: [.[] | . * 2];`,
	}
	runCases(t, []tcase{
		{args: []string{"jq", "-L", "lib", "-nc", `import "a" as x; x::a`}, files: files, out: "\"a\"\n"},
		{args: []string{"jq", "-Llib", "-nc", `include "b"; b`}, files: files, out: "\"b\"\n"},
		{args: []string{"jq", "-L", "lib", "-nc", `import "data" as $d; $d, $d::d`}, files: files, out: "[{\"k\":1,\"b\":2}]\n[{\"k\":1,\"b\":2}]\n"},
		{args: []string{"jq", "-L", "lib", "-nc", `"m" | modulemeta`}, files: files, out: `{"name":"m","deps":[{"as":"a","is_data":false,"relpath":"a"}],"defs":["m/0"]}` + "\n"},
		{args: []string{"jq", "-L", "lib", "-nc", `import "m" as m; m::m`}, files: files, out: "\"am\"\n"},
		{args: []string{"jq", "-L", "lib", "-nc", `import "s" as s; s::s`}, files: files, out: "\"as\"\n"},
		{args: []string{"jq", "-nc", `import "h" as h; h::h`}, files: files, out: "\"home\"\n"},
		{args: []string{"jq", "-nc", `import "a" as a {search: "lib"}; a::a`}, files: files, out: "\"a\"\n"},
		{args: []string{"jq", "-L", "lib", "-nc", `import "keys" as k; k::o`}, files: files, out: `{"z":1,"a":2,"m":3}` + "\n"},
		{args: []string{"jq", "-L", "lib", "-nc", `import "arith" as k; k::n`}, files: files, out: "13911860366432382\n"},
		{args: []string{"jq", "-L", "lib", "-c", `import "regex" as r; r::r`}, stdin: `"2024-05"`, files: files, out: `{"y":"2024","m":"05"}` + "\n"},
		{args: []string{"jq", "-L", "lib", "-c", `include "loop"; l`}, stdin: `[1,2]`, files: files, out: "[2,4]\n"},
		{args: []string{"jq", "-L", "lib", "-nc", `import "nope" as n; 1`}, files: files, err: "jq: error: module not found: nope", status: 3},
		{args: []string{"jq", "-L", "bad", "-nc", `import "syntax" as s; 1`}, files: files, err: "jq: error: ", status: 3},
		{args: []string{"jq", "-L", "lib", "-nc", `get_search_list`}, files: files, out: "[\"lib\"]\n"},
		{args: []string{"jq", "-nc", `get_search_list`}, files: files, out: "[\"~/.jq\",\"$ORIGIN/../lib/jq\",\"$ORIGIN/../lib\"]\n"},
	})
}

// Builtins that jq 1.7.1 lacks and cordon keeps, as later (or earlier) jq
// versions have them.
func TestJqExtraBuiltins(t *testing.T) {
	runCases(t, []tcase{
		{args: []string{"jq", "-c", "toarray, ([1]|toarray)"}, stdin: "1", out: "[1]\n[1]\n"},
		{args: []string{"jq", "-c", "trim, ltrim, rtrim"}, stdin: `"  x  "`, out: "\"x\"\n\"x  \"\n\"  x\"\n"},
		{args: []string{"jq", "-c", "[leaf_paths]"}, stdin: `{"b":{"d":1},"a":[1]}`, out: `[["b","d"],["a",0]]` + "\n"},
		{args: []string{"jq", "-c", "have_literal_numbers, have_decnum"}, stdin: "null", out: "true\nfalse\n"},
		{args: []string{"jq", "-r", "@base32, (@base32|@base32d)"}, stdin: `"hi"`, out: "NBUQ====\nhi\n"},
		{args: []string{"jq", "-c", "pow10"}, stdin: "2", out: "100\n"},
	})
}

// What RE2 cannot do fails with a message that says so.
func TestJqRegexUnsupported(t *testing.T) {
	runCases(t, []tcase{
		{args: []string{"jq", "-c", `try test("a(?=b)") catch .`}, stdin: `"ab"`, out: "\"look-ahead (?=...) is not supported: jq here uses RE2\"\n"},
		{args: []string{"jq", "-c", `try test("a(?!b)") catch .`}, stdin: `"ab"`, out: "\"negative look-ahead (?!...) is not supported: jq here uses RE2\"\n"},
		{args: []string{"jq", "-c", `try test("(?<=a)b") catch .`}, stdin: `"ab"`, out: "\"look-behind (?<=...) is not supported: jq here uses RE2\"\n"},
		{args: []string{"jq", "-c", `try test("(?<!a)b") catch .`}, stdin: `"ab"`, out: "\"negative look-behind (?<!...) is not supported: jq here uses RE2\"\n"},
		{args: []string{"jq", "-c", `try test("(a)\\1") catch .`}, stdin: `"aa"`, out: "\"backreference \\\\1 is not supported: jq here uses RE2\"\n"},
		{args: []string{"jq", "-c", `try test("(?>a)") catch .`}, stdin: `"aa"`, out: "\"atomic group (?>...) is not supported: jq here uses RE2\"\n"},
		{args: []string{"jq", "-c", `try test("a++") catch .`}, stdin: `"aa"`, out: "\"possessive quantifier ++ is not supported: jq here uses RE2\"\n"},
		{args: []string{"jq", "-c", `test("\\(?=")`}, stdin: `"(?="`, out: "true\n"},
		{args: []string{"jq", "-c", `test("[(?=]")`}, stdin: `"="`, out: "true\n"},
		{args: []string{"jq", "-n", `"a" | test("(?=a)")`}, err: "jq: error (at <unknown>): look-ahead (?=...) is not supported: jq here uses RE2", status: 5},
	})
}

// A top-level error names the key that failed, although the program runs
// without the checks that find it (only a failing run is repeated with
// them), and the repeated run prints nothing.
func TestJqIndexErrorNamesKey(t *testing.T) {
	runCases(t, []tcase{
		{args: []string{"jq", "-c", ".a.b"}, stdin: `{"a":[1]}`, err: "jq: error (at <stdin>:0): Cannot index array with string \"b\"", status: 5},
		{args: []string{"jq", "-c", "debug | .x"}, stdin: `5`, out: "", err: "[\"DEBUG:\",5]\njq: error (at <stdin>:0): Cannot index number with string \"x\"\n", status: 5},
		{args: []string{"jq", "-c", "def f: .k; [.[] | f]"}, stdin: `[{"k":1},"s"]`, err: "Cannot index string with string \"k\"", status: 5},
		{args: []string{"jq", "-c", ".k, input.k"}, stdin: `{"k":1} 2`, out: "1\n", err: "Cannot index number with string", status: 5},
		{args: []string{"jq", "-c", "def f: .k; try f catch ."}, stdin: `[1]`, out: "\"Cannot index array with string \\\"k\\\"\"\n"},
	})
}

// Programs compiled at the same time share the parsed prelude, which no
// compilation may change (run with -race).
func TestJqConcurrentCompiles(t *testing.T) {
	var wg sync.WaitGroup
	errs := make(chan string, 32)
	for i := range 32 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			filter := fmt.Sprintf(`with_entries(.value += %d) | to_entries | map(.key) | join(",") | [splits(",")] | length + %d`, i, i)
			r := run(t, nil, nil, `{"b":1,"a":2}`, "jq", filter)
			if want := fmt.Sprintf("%d\n", 2+i); r.out != want {
				errs <- fmt.Sprintf("%s: %q %q", filter, r.out, r.err)
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}

// The key order of objects built by a program is kept for as many as are
// alive (those that die are swept from the table).
func TestJqKeyOrderManyObjects(t *testing.T) {
	runCases(t, []tcase{
		{args: []string{"jq", "-nc", `[range(20000) | {b: ., a: .}] | (map(keys_unsorted[0]) | unique), .[0], .[-1]`}, out: "[\"b\"]\n{\"b\":0,\"a\":0}\n{\"b\":19999,\"a\":19999}\n"},
		{args: []string{"jq", "-nc", `reduce range(20000) as $i (null; {b: $i, a: $i})`}, out: "{\"b\":19999,\"a\":19999}\n"},
	})
}
