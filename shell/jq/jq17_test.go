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
		{Args: []string{"jq", "-c", "try (1/0) catch ."}, Stdin: "null", Out: "\"number (1) and number (0) cannot be divided because the divisor is zero\"\n"},
		{Args: []string{"jq", "-c", "try (1%0) catch ."}, Stdin: "null", Out: "\"number (1) and number (0) cannot be divided (remainder) because the divisor is zero\"\n"},
		{Args: []string{"jq", "-c", "try (.[] / 0) catch ."}, Stdin: "[5]", Out: "\"number (5) and number (0) cannot be divided because the divisor is zero\"\n"},
		{Args: []string{"jq", "-c", "try (\"a\" + 1) catch ."}, Stdin: "null", Out: "\"string (\\\"a\\\") and number (1) cannot be added\"\n"},
		{Args: []string{"jq", "-c", "try ({\"b\":1,\"a\":2} - 1) catch ."}, Stdin: "null", Out: "\"object ({\\\"b\\\":1,\\\"a\\\":2}) and number (1) cannot be subtracted\"\n"},
		{Args: []string{"jq", "-c", "try ([] * 2) catch ."}, Stdin: "null", Out: "\"array ([]) and number (2) cannot be multiplied\"\n"},
		{Args: []string{"jq", "-c", "try (-.) catch ."}, Stdin: "\"very-long-string\"", Out: "\"string (\\\"very-long-...) cannot be negated\"\n"},
		{Args: []string{"jq", "-c", "try .a catch ."}, Stdin: "[1]", Out: "\"Cannot index array with string \\\"a\\\"\"\n"},
		{Args: []string{"jq", "-c", "try .a.b catch ."}, Stdin: "{\"a\":5}", Out: "\"Cannot index number with string \\\"b\\\"\"\n"},
		{Args: []string{"jq", "-c", "try .[0] catch ."}, Stdin: "{\"a\":1}", Out: "\"Cannot index object with number\"\n"},
		{Args: []string{"jq", "-c", "try .[] catch ."}, Stdin: "123", Out: "\"Cannot iterate over number (123)\"\n"},
		{Args: []string{"jq", "-c", "try keys catch ."}, Stdin: "1", Out: "\"number (1) has no keys\"\n"},
		{Args: []string{"jq", "-c", "try length catch ."}, Stdin: "true", Out: "\"boolean (true) has no length\"\n"},
		{Args: []string{"jq", "-c", "try utf8bytelength catch ."}, Stdin: "[]", Out: "\"array ([]) only strings have UTF-8 byte length\"\n"},
		{Args: []string{"jq", "-c", "try implode catch ."}, Stdin: "\"x\"", Out: "\"implode input must be an array\"\n"},
		{Args: []string{"jq", "-c", "try ([nan]|implode) catch ."}, Stdin: "null", Out: "\"number (null) can't be imploded, unicode codepoint needs to be numeric\"\n"},
		{Args: []string{"jq", "-c", "try join(\",\") catch ."}, Stdin: "[1,[2]]", Out: "\"string (\\\"1,\\\") and array ([2]) cannot be added\"\n"},
		{Args: []string{"jq", "-c", "try (.foo[-1] = 0) catch ."}, Stdin: "null", Out: "\"Out of bounds negative array index\"\n"},
		{Args: []string{"jq", "-c", "try delpaths(0) catch ."}, Stdin: "{}", Out: "\"Paths must be specified as an array\"\n"},
		{Args: []string{"jq", "-c", "try getpath([\"a\",0,\"b\"]) catch ."}, Stdin: "{\"a\":[0]}", Out: "\"Cannot index number with string \\\"b\\\"\"\n"},
		{Args: []string{"jq", "-c", "try flatten(-1) catch ."}, Stdin: "[1]", Out: "\"flatten depth must not be negative\"\n"},
		{Args: []string{"jq", "-c", "try mktime catch ."}, Stdin: "[\"a\",1,2,3,4,5,6,7]", Out: "\"mktime requires parsed datetime inputs\"\n"},
		{Args: []string{"jq", "-c", "try fromjson catch ."}, Stdin: "\"{\\\"a\\\":\"", Out: "\"Unfinished JSON term at EOF at line 1, column 5 (while parsing '{\\\"a\\\":')\"\n"},
		{Args: []string{"jq", "-c", "try tonumber catch ."}, Stdin: "\"abc\"", Out: "\"Invalid numeric literal at EOF at line 1, column 3 (while parsing 'abc')\"\n"},
		{Args: []string{"jq", "-c", "try has(0) catch ."}, Stdin: "{}", Out: "\"Cannot check whether object has a number key\"\n"},
		{Args: []string{"jq", "-c", "try sort catch ."}, Stdin: "{}", Out: "\"object ({}) cannot be sorted, as it is not an array\"\n"},
		{Args: []string{"jq", "-c", "try test(\"(\") catch ."}, Stdin: "\"a\"", Out: "\"Regex failure: end pattern with unmatched parenthesis\"\n"},
		{Args: []string{"jq", "-c", "try path(.a | map(select(.b == 0))) catch ."}, Stdin: "{\"a\":[{\"b\":0}]}", Out: "\"Invalid path expression with result [{\\\"b\\\":0}]\"\n"},
		{Args: []string{"jq", "-c", "[.[] | try error catch .]"}, Stdin: "[1,\"x\",null]", Out: "[1,\"x\",null]\n"},
		{Args: []string{"jq", "-c", ".a"}, Stdin: "5", Out: "", Err: "jq: error (at <stdin>:0): Cannot index number with string \"a\"", Status: 5},
		{Args: []string{"jq", "-c", ".[0]"}, Stdin: "{\"a\":1}", Out: "", Err: "jq: error (at <stdin>:0): Cannot index object with number", Status: 5},
		{Args: []string{"jq", "-c", ".x.y"}, Stdin: "{\"x\":\"s\"}", Out: "", Err: "jq: error (at <stdin>:0): Cannot index string with string \"y\"", Status: 5},
		{Args: []string{"jq", "-c", ".[] | .a"}, Stdin: "[{\"a\":1},2]", Out: "1\n", Err: "jq: error (at <stdin>:0): Cannot index number with string \"a\"", Status: 5},
		{Args: []string{"jq", "-c", "1 / ."}, Stdin: "0", Out: "", Err: "jq: error (at <stdin>:0): number (1) and number (0) cannot be divided because the divisor is zero", Status: 5},
		{Args: []string{"jq", "-c", "{} + ."}, Stdin: "1", Out: "", Err: "jq: error (at <stdin>:0): object ({}) and number (1) cannot be added", Status: 5},
	})
}

// Numbers: literals keep their value as written until modified; arithmetic is IEEE double.
func TestJq17Numbers(t *testing.T) {
	runCases(t, []tcase{
		{Args: []string{"jq", "-c", "."}, Stdin: "[1.000, 1E2, 100000000000000000000001, -0, 0.00001, 1e-7, 1.5e300]", Out: "[1.000,1E+2,100000000000000000000001,-0,0.00001,1E-7,1.5E+300]\n"},
		{Args: []string{"jq", "-c", ".[0] | tostring"}, Stdin: "[13911860366432393]", Out: "\"13911860366432393\"\n"},
		{Args: []string{"jq", "-c", ". - 10"}, Stdin: "13911860366432393", Out: "13911860366432382\n"},
		{Args: []string{"jq", "-c", ".[] as $n | $n+0 | [., tostring, . == $n]"}, Stdin: "[-9007199254740993]", Out: "[-9007199254740992,\"-9007199254740992\",true]\n"},
		{Args: []string{"jq", "-c", "-n", "100000000000000000000000"}, Out: "100000000000000000000000\n"},
		{Args: []string{"jq", "-c", "-n", "[1.000, 1e2, -1.50, 3.0, 0.00001, 1e1000, -1e1000]"}, Out: "[1.000,1E+2,-1.5,3.0,0.00001,1E+1000,-1.7976931348623157e+308]\n"},
		{Args: []string{"jq", "-c", "-n", "9E999999999, 9999999999E999999990, 1E-999999999, 0.000000001E-999999990"}, Out: "9E+999999999\n9.999999999E+999999999\n1E-999999999\n1E-999999999\n"},
		{Args: []string{"jq", "-c", "-n", "[1.000|tostring, (1.000|tojson), (1.000+0)]"}, Out: "[\"1.000\",\"1.000\",1]\n"},
		{Args: []string{"jq", "-c", "-n", "0.1 + 0.2, 1 / 3, 3 * 1.1"}, Out: "0.30000000000000004\n0.3333333333333333\n3.3000000000000003\n"},
		{Args: []string{"jq", "-c", "map(. == 1)"}, Stdin: "[1, 1.0, 1.000, 100e-2, 1e+0, 0.0001e4]", Out: "[true,true,true,true,true,true]\n"},
		{Args: []string{"jq", "-c", ".[0] + .[1]"}, Stdin: "[9007199254740993, 0]", Out: "9007199254740992\n"},
		{Args: []string{"jq", "-c", "add"}, Stdin: "[1.000]", Out: "1.000\n"},
		{Args: []string{"jq", "-c", "[.[] | -.]"}, Stdin: "[1.000, 2, -0.5]", Out: "[-1,-2,0.5]\n"},
		{Args: []string{"jq", "-c", "[.[] | length]"}, Stdin: "[-1.50, 10.00]", Out: "[1.5,10]\n"},
		{Args: []string{"jq", "-c", "tojson"}, Stdin: "{\"a\":[1.10,1E2]}", Out: "\"{\\\"a\\\":[1.10,1E+2]}\"\n"},
		{Args: []string{"jq", "-c", "@csv"}, Stdin: "[1.000, 2.5]", Out: "\"1.000,2.5\"\n"},
		{Args: []string{"jq", "-c", "-r", ".[] | tostring"}, Stdin: "[1.0, 1e1000]", Out: "1.0\n1E+1000\n"},
		{Args: []string{"jq", "-c", "[.[] % 3]"}, Stdin: "[7, -7, 7.9]", Out: "[1,-1,1]\n"},
		{Args: []string{"jq", "-c", "\"abc\" * ."}, Stdin: "1.5", Out: "\"abc\"\n"},
	})
}

// Input: a byte order mark, and NaN and Infinity literals (also through fromjson and tonumber).
func TestJq17Input(t *testing.T) {
	runCases(t, []tcase{
		{Args: []string{"jq", "-c", "."}, Stdin: "[\"a\tb\"]\n", Err: "jq: parse error: Invalid string: control characters from U+0000 through U+001F must be escaped at line 1, column 6", Status: 5},
		{Args: []string{"jq", "-s", ".[0] + \"x\""}, Stdin: "1\n2\n", Err: "jq: error (at <stdin>:2): number (1) and string (\"x\") cannot be added", Status: 5},
		{Args: []string{"jq", "-R", ". + 1"}, Stdin: "a\nb\n", Err: "jq: error (at <stdin>:1): string (\"a\") and number (1) cannot be added", Status: 5},
		{Args: []string{"jq", "input"}, Stdin: "1", Err: "jq: error (at <unknown>): break", Status: 5},
		{Args: []string{"jq", "-n", "input | .a"}, Stdin: "[1]\n", Err: "jq: error (at <stdin>:1): Cannot index array with string \"a\"", Status: 5},
		{Args: []string{"jq", "-c", "."}, Stdin: "\ufeff\"byte order mark\"", Out: "\"byte order mark\"\n"},
		{Args: []string{"jq", "-c", "."}, Stdin: "[1,null,Infinity,-Infinity,NaN,-NaN]", Out: "[1,null,1.7976931348623157e+308,-1.7976931348623157e+308,null,null]\n"},
		{Args: []string{"jq", "-c", "[.[] | isnan]"}, Stdin: "[NaN, nan, 1]", Out: "[true,true,false]\n"},
		{Args: []string{"jq", "-c", ".[] = 1"}, Stdin: "[1,null,Infinity,-Infinity,NaN,-NaN]", Out: "[1,1,1,1,1,1]\n"},
		{Args: []string{"jq", "-c", "fromjson | isnan"}, Stdin: "\"nan\"", Out: "true\n"},
		{Args: []string{"jq", "-c", "fromjson | isnan"}, Stdin: "\"nan1234\"", Out: "true\n"},
		{Args: []string{"jq", "-c", "tojson | fromjson"}, Stdin: "{\"a\":nan}", Out: "{\"a\":null}\n"},
		{Args: []string{"jq", "-c", "map(tonumber)"}, Stdin: "[\"1\", \"1.50\", \"nan\", \"-Infinity\"]", Out: "[1,1.50,null,-1.7976931348623157e+308]\n"},
		{Args: []string{"jq", "-c", "."}, Stdin: "[.5, 5., +1, 01]", Out: "[0.5,5,1,1]\n"},
		{Args: []string{"jq", "-c", "."}, Stdin: "nanx", Out: "", Err: "jq: parse error: Invalid numeric literal at EOF at line 1, column 4", Status: 5},
	})
}

// Errors that jq reports when it compiles a program fail with status 3.
func TestJq17CompileErrors(t *testing.T) {
	runCases(t, []tcase{
		{Args: []string{"jq", "-c", "-n", "{(0):1}"}, Out: "", Err: "jq: error: Cannot use number (0) as object key at <top-level>, line 1:", Status: 3},
		{Args: []string{"jq", "-c", "-n", "{non_const:., (0):1}"}, Out: "", Err: "jq: error: Cannot use number (0) as object key at <top-level>, line 1:", Status: 3},
		{Args: []string{"jq", "-c", "-n", "{([1]):2}"}, Out: "", Err: "jq: error: Cannot use array ([1]) as object key at <top-level>, line 1:", Status: 3},
		{Args: []string{"jq", "-c", "-n", ". as $foo | break $foo"}, Out: "", Err: "jq: error: $*label-foo is not defined at <top-level>, line 1:", Status: 3},
		{Args: []string{"jq", "-c", "-n", "module (.+1); 0"}, Out: "", Err: "jq: error: Module metadata must be constant at <top-level>, line 1:", Status: 3},
		{Args: []string{"jq", "-c", "-n", "module []; 0"}, Out: "", Err: "jq: error: Module metadata must be an object at <top-level>, line 1:", Status: 3},
		{Args: []string{"jq", "-c", "-n", "include \"a\" (.+1); 0"}, Out: "", Err: "jq: error: Module metadata must be constant at <top-level>, line 1:", Status: 3},
		{Args: []string{"jq", "-c", "-n", "include \"a\" []; 0"}, Out: "", Err: "jq: error: Module metadata must be an object at <top-level>, line 1:", Status: 3},
		{Args: []string{"jq", "-c", "-n", "include \"\\(a)\"; 0"}, Out: "", Err: "jq: error: Import path must be constant at <top-level>, line 1:", Status: 3},
		{Args: []string{"jq", "-c", "-n", "foo(1)"}, Out: "", Err: "jq: error: foo/1 is not defined at <top-level>, line 1:", Status: 3},
		{Args: []string{"jq", "-c", "-n", "$nope"}, Out: "", Err: "jq: error: $nope is not defined at <top-level>, line 1:", Status: 3},
	})
}

// jq 1.7's builtins that gojq lacks or defines differently.
func TestJq17Builtins(t *testing.T) {
	runCases(t, []tcase{
		{Args: []string{"jq", "-c", "debug"}, Stdin: "{\"b\":1,\"a\":2}", Out: "{\"b\":1,\"a\":2}\n", Err: "[\"DEBUG:\",{\"b\":1,\"a\":2}]"},
		{Args: []string{"jq", "-c", "debug(\"msg: \\(.)\")"}, Stdin: "1", Out: "1\n", Err: "[\"DEBUG:\",\"msg: 1\"]"},
		{Args: []string{"jq", "-c", "stderr"}, Stdin: "{\"b\":1,\"a\":2}", Out: "{\"b\":1,\"a\":2}\n", Err: "{\"b\":1,\"a\":2}"},
		{Args: []string{"jq", "-c", "[inputs | input_line_number]"}, Stdin: "1\n2\n3", Out: "[2,2]\n"},
		{Args: []string{"jq", "-c", "-n", "get_search_list"}, Out: "[\"~/.jq\",\"$ORIGIN/../lib/jq\",\"$ORIGIN/../lib\"]\n"},
		{Args: []string{"jq", "-c", "-n", "$__loc__"}, Out: "{\"file\":\"<top-level>\",\"line\":1}\n"},
		{Args: []string{"jq", "-c", "-n", "{a: 1,\nb: $__loc__}"}, Out: "{\"a\":1,\"b\":{\"file\":\"<top-level>\",\"line\":2}}\n"},
		{Args: []string{"jq", "-c", "[.[] | abs]"}, Stdin: "[-1, 0.5, \"abc\", -0.0]", Out: "[1,0.5,\"abc\",-0.0]\n"},
		{Args: []string{"jq", "-c", "pick(.a.b, .c[1])"}, Stdin: "{\"c\":[1,2,3],\"a\":{\"b\":1,\"x\":2}}", Out: "{\"a\":{\"b\":1},\"c\":[null,2]}\n"},
		{Args: []string{"jq", "-c", "[splits(\", *\")]"}, Stdin: "\"a, b,c\"", Out: "[\"a\",\"b\",\"c\"]\n"},
		{Args: []string{"jq", "-c", "[ltrimstr(\"a\"), rtrimstr(\"c\"), ltrimstr(1)]"}, Stdin: "\"abc\"", Out: "[\"bc\",\"ab\",\"abc\"]\n"},
		{Args: []string{"jq", "-c", "[.[] | ltrimstr(\"a\")]"}, Stdin: "[1, null, \"ab\"]", Out: "[1,null,\"b\"]\n"},
		{Args: []string{"jq", "-c", "getpath([\"a\",\"b\"]), getpath([\"x\",\"y\"])"}, Stdin: "{\"a\":{\"b\":5}}", Out: "5\nnull\n"},
		{Args: []string{"jq", "-c", "[paths]"}, Stdin: "{\"a\":[1,{\"b\":2}]}", Out: "[[\"a\"],[\"a\",0],[\"a\",1],[\"a\",1,\"b\"]]\n"},
		{Args: []string{"jq", "-c", "[paths(type == \"number\")]"}, Stdin: "{\"a\":[1,{\"b\":2}]}", Out: "[[\"a\",0],[\"a\",1,\"b\"]]\n"},
		{Args: []string{"jq", "-c", "implode, (implode|explode)"}, Stdin: "[65, 128512, 55296]", Out: "\"A😀�\"\n[65,128512,65533]\n"},
		{Args: []string{"jq", "-c", "[limit(0; 1, 2)], [limit(-1; 1, 2)], [limit(1; 1, 2)]"}, Stdin: "null", Out: "[]\n[1,2]\n[1]\n"},
		{Args: []string{"jq", "-c", "try error(null) catch ."}, Stdin: "1", Out: "null\n"},
		{Args: []string{"jq", "-c", "[nth(0,2; range(5))], try nth(-1; 1) catch ."}, Stdin: "null", Out: "[0,2]\n\"nth doesn't support negative indices\"\n"},
		{Args: []string{"jq", "-c", "lgamma_r, frexp, modf"}, Stdin: "2.5", Out: "[0.2846828704729192,1]\n[0.625,2]\n[0.5,2]\n"},
		{Args: []string{"jq", "-c", "indices(\", \"), index(\",\"), rindex(\",\")"}, Stdin: "\"a, b, c\"", Out: "[1,4]\n1\n4\n"},
		{Args: []string{"jq", "-c", "indices(1), indices([1,2])"}, Stdin: "[1,2,1,2]", Out: "[0,2]\n[0,2]\n"},
		{Args: []string{"jq", "-c", "[splits(\"a\";\"g\")]"}, Stdin: "\"banana\"", Out: "[\"b\",\"n\",\"n\",\"\"]\n"},
		{Args: []string{"jq", "-c", "tostream"}, Stdin: "{\"a\":[1]}", Out: "[[\"a\",0],1]\n[[\"a\",0]]\n[[\"a\"]]\n"},
		{Args: []string{"jq", "-c", "fromstream(tostream)"}, Stdin: "{\"b\":[1],\"a\":2}", Out: "{\"b\":[1],\"a\":2}\n"},
		{Args: []string{"jq", "-c", "[.[] | tojson]"}, Stdin: "[1, \"a\", null]", Out: "[\"1\",\"\\\"a\\\"\",\"null\"]\n"},
		{Args: []string{"jq", "-c", "getpath([\"a\"]) |= . + 1"}, Stdin: "{\"a\":1}", Out: "{\"a\":2}\n"},
		{Args: []string{"jq", "-c", "reverse"}, Stdin: "[1,2,3]", Out: "[3,2,1]\n"},
		{Args: []string{"jq", "-c", "try reverse catch ."}, Stdin: "\"abc\"", Out: "\"Cannot index string with number\"\n"},
		{Args: []string{"jq", "-c", "builtins | length"}, Stdin: "null", Out: "218\n"},
		{Args: []string{"jq", "-c", "input_filename"}, Stdin: "1", Out: "\"<stdin>\"\n"},
		{Args: []string{"jq", "-c", "[significand, logb, (gamma|floor), drem(.; 3), ldexp(.; 2), scalb(.; 1), nearbyint, trunc]"}, Stdin: "10.5", Out: "[1.3125,3,13,-1.5,42,21,10,10]\n"}, // as with glibc (gamma is lgamma), which the jq 1.7.1 build used here lacked
		{Args: []string{"jq", "-c", "@text, @json, @html, @uri, @sh, @base64, (@base64|@base64d)"}, Stdin: "\"<é & 'x'>\"", Out: "\"<é & 'x'>\"\n\"\\\"<é & 'x'>\\\"\"\n\"&lt;é &amp; &apos;x&apos;&gt;\"\n\"%3C%C3%A9%20%26%20%27x%27%3E\"\n\"'<é & '\\\\''x'\\\\''>'\"\n\"PMOpICYgJ3gnPg==\"\n\"<é & 'x'>\"\n"},
		{Args: []string{"jq", "-c", "[.[] | tostring]"}, Stdin: "[{\"b\":1,\"a\":2}, [1.0]]", Out: "[\"{\\\"b\\\":1,\\\"a\\\":2}\",\"[1.0]\"]\n"},
		{Args: []string{"jq", "-c", "splits"}, Stdin: "\"a\"", Out: "", Err: "jq: error: splits/0 is not defined at <top-level>, line 1:", Status: 3},
		{Args: []string{"jq", "-c", "walk(if type == \"number\" then . + 1 else . end)"}, Stdin: "{\"b\":[1],\"a\":2}", Out: "{\"b\":[2],\"a\":3}\n"},
		{Args: []string{"jq", "-c", "env | type, ($ENV | type)"}, Stdin: "null", Out: "\"object\"\n\"object\"\n"},
		{Args: []string{"jq", "-c", "halt_error"}, Stdin: "\"bye\\n\"", Out: "", Err: "bye", Status: 5},
		{Args: []string{"jq", "-c", "$__prog_name"}, Stdin: "null", Out: "", Err: "jq: error: $__prog_name is not defined at <top-level>, line 1:", Status: 3},
	})
}

// Indexing a string with a number is an error; slicing is not.
func TestJq17StringIndex(t *testing.T) {
	runCases(t, []tcase{
		{Args: []string{"jq", "-c", "try .[0] catch ."}, Stdin: "\"abc\"", Out: "\"Cannot index string with number\"\n"},
		{Args: []string{"jq", "-c", "try .[1.5] catch ."}, Stdin: "\"foobar\"", Out: "\"Cannot index string with number\"\n"},
		{Args: []string{"jq", "-c", ". as $s | try $s[0] catch ."}, Stdin: "\"abc\"", Out: "\"Cannot index string with number\"\n"},
		{Args: []string{"jq", "-c", ". as $s | 0 as $i | try $s[$i] catch ."}, Stdin: "\"abc\"", Out: "\"Cannot index string with number\"\n"},
		{Args: []string{"jq", "-c", "try .[\"a\"] catch ."}, Stdin: "\"abc\"", Out: "\"Cannot index string with string \\\"a\\\"\"\n"},
		{Args: []string{"jq", "-c", ".[1:3], .[-2:]"}, Stdin: "\"abcdef\"", Out: "\"bc\"\n\"ef\"\n"},
		{Args: []string{"jq", "-c", "first"}, Stdin: "\"abc\"", Out: "", Err: "jq: error (at <stdin>:0): Cannot index string with number", Status: 5},
		{Args: []string{"jq", "-c", ".[0]"}, Stdin: "\"abc\"", Out: "", Err: "jq: error (at <stdin>:0): Cannot index string with number", Status: 5},
	})
}

// Regular expressions with jq's flags, Unicode classes and anchors.
func TestJq17Regex(t *testing.T) {
	runCases(t, []tcase{
		{Args: []string{"jq", "-c", "test(\"a b c\"; \"x\")"}, Stdin: "\"abc\"", Out: "true\n"},
		{Args: []string{"jq", "-c", "test(\"a # comment\\nbc\"; \"x\")"}, Stdin: "\"abc\"", Out: "true\n"},
		{Args: []string{"jq", "-c", "[match(\"b*\"; \"g\") | .offset]"}, Stdin: "\"abc\"", Out: "[0,1,2,3]\n"},
		{Args: []string{"jq", "-c", "[match(\"b*\"; \"gn\") | .offset]"}, Stdin: "\"abc\"", Out: "[1]\n"},
		{Args: []string{"jq", "-c", "[test(\"( )*\"; \"gn\")]"}, Stdin: "\"\"", Out: "[false]\n"},
		{Args: []string{"jq", "-c", "test(\"A\"; \"i\"), test(\"a.b\"), test(\"a.b\"; \"s\"), test(\"a.b\"; \"m\")"}, Stdin: "\"a\\nb\"", Out: "true\nfalse\nfalse\ntrue\n"},
		{Args: []string{"jq", "-c", "test(\"^b\"), test(\"b$\"), test(\"a$\")"}, Stdin: "\"a\\nb\\n\"", Out: "false\ntrue\nfalse\n"},
		{Args: []string{"jq", "-c", "test(\"\\\\w\"), test(\"[[:alpha:]]\"), test(\"\\\\d\")"}, Stdin: "\"é٣\"", Out: "true\ntrue\ntrue\n"},
		{Args: []string{"jq", "-c", "[match(\"(?<y>\\\\d+)-(?<m>\\\\d+)|(?<z>x)\").captures[] | [.name, .string, .offset]]"}, Stdin: "\"2024-05\"", Out: "[[\"y\",\"2024\",0],[\"m\",\"05\",5],[\"z\",null,-1]]\n"},
		{Args: []string{"jq", "-c", "capture(\"(?<y>\\\\d+)-(?<m>\\\\d+)\")"}, Stdin: "\"2024-05\"", Out: "{\"y\":\"2024\",\"m\":\"05\"}\n"},
		{Args: []string{"jq", "-c", "sub(\"(?<x>b)\"; \"[\\(.x)]\"), gsub(\"\\\\s+\"; \" \")"}, Stdin: "\"ab  b   c\"", Out: "\"a[b]  b   c\"\n\"ab b c\"\n"},
		{Args: []string{"jq", "-c", "[scan(\"c\")], [scan(\"(a)(b)\")]"}, Stdin: "\"abcabc\"", Out: "[\"c\",\"c\"]\n[[\"a\",\"b\"],[\"a\",\"b\"]]\n"},
		{Args: []string{"jq", "-c", "try test(\"a\"; \"q\") catch ."}, Stdin: "\"a\"", Out: "\"q is not a valid modifier string\"\n"},
		{Args: []string{"jq", "-c", "try test(1) catch ."}, Stdin: "\"a\"", Out: "\"number not a string or array\"\n"},
		{Args: []string{"jq", "-c", "try test(\"(\") catch ."}, Stdin: "\"a\"", Out: "\"Regex failure: end pattern with unmatched parenthesis\"\n"},
		{Args: []string{"jq", "-c", "split(\", *\"; null)"}, Stdin: "\"a, b,c\"", Out: "[\"a\",\"b\",\"c\"]\n"},
		{Args: []string{"jq", "-c", "ascii_downcase, ascii_upcase"}, Stdin: "\"aBé\"", Out: "\"abé\"\n\"ABé\"\n"},
	})
}

// Objects keep jq's key order, including those that the program rebuilds.
func TestJq17KeyOrder(t *testing.T) {
	runCases(t, []tcase{
		{Args: []string{"jq", "-c", "."}, Stdin: "{\"b\":1,\"a\":{\"d\":1,\"c\":2}}", Out: "{\"b\":1,\"a\":{\"d\":1,\"c\":2}}\n"},
		{Args: []string{"jq", "-c", "-S", "."}, Stdin: "{\"b\":1,\"a\":{\"d\":1,\"c\":2}}", Out: "{\"a\":{\"c\":2,\"d\":1},\"b\":1}\n"},
		{Args: []string{"jq", "-c", "-S", "keys_unsorted, tojson"}, Stdin: "{\"b\":1,\"a\":2}", Out: "[\"b\",\"a\"]\n\"{\\\"b\\\":1,\\\"a\\\":2}\"\n"},
		{Args: []string{"jq", "-c", ".a = 1, .z = 1, .a.x = 1"}, Stdin: "{\"b\":1,\"a\":{\"y\":0}}", Out: "{\"b\":1,\"a\":1}\n{\"b\":1,\"a\":{\"y\":0},\"z\":1}\n{\"b\":1,\"a\":{\"y\":0,\"x\":1}}\n"},
		{Args: []string{"jq", "-c", ".a |= . + 1, .a += 1, .z += 1, .a //= 5"}, Stdin: "{\"b\":1,\"a\":2}", Out: "{\"b\":1,\"a\":3}\n{\"b\":1,\"a\":3}\n{\"b\":1,\"a\":2,\"z\":1}\n{\"b\":1,\"a\":2}\n"},
		{Args: []string{"jq", "-c", "del(.a), del(.b, .c), delpaths([[\"a\"]])"}, Stdin: "{\"c\":0,\"b\":1,\"a\":2}", Out: "{\"c\":0,\"b\":1}\n{\"a\":2}\n{\"c\":0,\"b\":1}\n"},
		{Args: []string{"jq", "-c", ". + {\"z\":1}, . + {\"a\":9}, {\"z\":1} + ."}, Stdin: "{\"b\":1,\"a\":2}", Out: "{\"b\":1,\"a\":2,\"z\":1}\n{\"b\":1,\"a\":9}\n{\"z\":1,\"b\":1,\"a\":2}\n"},
		{Args: []string{"jq", "-c", ". * {\"a\":{\"q\":1}}, {\"a\":{\"q\":1}} * ."}, Stdin: "{\"b\":1,\"a\":{\"z\":0}}", Out: "{\"b\":1,\"a\":{\"z\":0,\"q\":1}}\n{\"a\":{\"q\":1,\"z\":0},\"b\":1}\n"},
		{Args: []string{"jq", "-c", "to_entries, with_entries(.value += 1), (to_entries | from_entries)"}, Stdin: "{\"b\":1,\"a\":2}", Out: "[{\"key\":\"b\",\"value\":1},{\"key\":\"a\",\"value\":2}]\n{\"b\":2,\"a\":3}\n{\"b\":1,\"a\":2}\n"},
		{Args: []string{"jq", "-c", "with_entries(select(.key != \"b\")), map_values(. * 10)"}, Stdin: "{\"c\":0,\"b\":1,\"a\":2}", Out: "{\"c\":0,\"a\":2}\n{\"c\":0,\"b\":10,\"a\":20}\n"},
		{Args: []string{"jq", "-c", "[.[]], keys, keys_unsorted, add"}, Stdin: "{\"b\":\"x\",\"a\":\"y\"}", Out: "[\"x\",\"y\"]\n[\"a\",\"b\"]\n[\"b\",\"a\"]\n\"xy\"\n"},
		{Args: []string{"jq", "-c", "[paths], [..]"}, Stdin: "{\"b\":{\"d\":1,\"c\":2},\"a\":[1]}", Out: "[[\"b\"],[\"b\",\"d\"],[\"b\",\"c\"],[\"a\"],[\"a\",0]]\n[{\"b\":{\"d\":1,\"c\":2},\"a\":[1]},{\"d\":1,\"c\":2},1,2,[1],1]\n"},
		{Args: []string{"jq", "-c", "tojson, tostring, @json, \"\\(.)\""}, Stdin: "{\"b\":1,\"a\":2}", Out: "\"{\\\"b\\\":1,\\\"a\\\":2}\"\n\"{\\\"b\\\":1,\\\"a\\\":2}\"\n\"{\\\"b\\\":1,\\\"a\\\":2}\"\n\"{\\\"b\\\":1,\\\"a\\\":2}\"\n"},
		{Args: []string{"jq", "-c", "{b, a}, {(.k): 1, z: 2}"}, Stdin: "{\"a\":1,\"b\":2,\"k\":\"m\"}", Out: "{\"b\":2,\"a\":1}\n{\"m\":1,\"z\":2}\n"},
		{Args: []string{"jq", "-c", "reduce .[] as $x ({}; .[$x.k] = $x.v)"}, Stdin: "[{\"k\":\"z\",\"v\":1},{\"k\":\"a\",\"v\":2}]", Out: "{\"z\":1,\"a\":2}\n"},
		{Args: []string{"jq", "-c", "INDEX(.id)"}, Stdin: "[{\"id\":\"x\",\"v\":1},{\"id\":\"a\",\"v\":2}]", Out: "{\"x\":{\"id\":\"x\",\"v\":1},\"a\":{\"id\":\"a\",\"v\":2}}\n"},
		{Args: []string{"jq", "-c", "map({(.k): .v}) | add"}, Stdin: "[{\"k\":\"z\",\"v\":1},{\"k\":\"a\",\"v\":2}]", Out: "{\"z\":1,\"a\":2}\n"},
		{Args: []string{"jq", "-c", "walk(if type == \"object\" then del(.z) else . end)"}, Stdin: "{\"b\":{\"z\":1,\"y\":2},\"a\":1}", Out: "{\"b\":{\"y\":2},\"a\":1}\n"},
		{Args: []string{"jq", "-c", "setpath([\"z\"]; 1), setpath([\"a\",\"q\"]; 1)"}, Stdin: "{\"b\":1,\"a\":{}}", Out: "{\"b\":1,\"a\":{},\"z\":1}\n{\"b\":1,\"a\":{\"q\":1}}\n"},
		{Args: []string{"jq", "-c", "fromjson"}, Stdin: "\"{\\\"b\\\":1,\\\"a\\\":2}\"", Out: "{\"b\":1,\"a\":2}\n"},
		{Args: []string{"jq", "-c", "[match(\"a\").captures], capture(\"(?<z>a)(?<y>b)\")"}, Stdin: "\"ab\"", Out: "[[]]\n{\"z\":\"a\",\"y\":\"b\"}\n"},
		{Args: []string{"jq", "-c", "pick(.b, .a)"}, Stdin: "{\"a\":1,\"b\":2,\"c\":3}", Out: "{\"b\":2,\"a\":1}\n"},
		{Args: []string{"jq", "-c", "--arg", "z", "1", "--arg", "a", "2", "$ARGS.named"}, Stdin: "null", Out: "{\"z\":\"1\",\"a\":\"2\"}\n"},
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
		{Args: []string{"jq", "-L", "lib", "-nc", `import "a" as x; x::a`}, Files: files, Out: "\"a\"\n"},
		{Args: []string{"jq", "-Llib", "-nc", `include "b"; b`}, Files: files, Out: "\"b\"\n"},
		{Args: []string{"jq", "-L", "lib", "-nc", `import "data" as $d; $d, $d::d`}, Files: files, Out: "[{\"k\":1,\"b\":2}]\n[{\"k\":1,\"b\":2}]\n"},
		{Args: []string{"jq", "-L", "lib", "-nc", `"m" | modulemeta`}, Files: files, Out: `{"name":"m","deps":[{"as":"a","is_data":false,"relpath":"a"}],"defs":["m/0"]}` + "\n"},
		{Args: []string{"jq", "-L", "lib", "-nc", `import "m" as m; m::m`}, Files: files, Out: "\"am\"\n"},
		{Args: []string{"jq", "-L", "lib", "-nc", `import "s" as s; s::s`}, Files: files, Out: "\"as\"\n"},
		{Args: []string{"jq", "-nc", `import "h" as h; h::h`}, Files: files, Out: "\"home\"\n"},
		{Args: []string{"jq", "-nc", `import "a" as a {search: "lib"}; a::a`}, Files: files, Out: "\"a\"\n"},
		{Args: []string{"jq", "-L", "lib", "-nc", `import "keys" as k; k::o`}, Files: files, Out: `{"z":1,"a":2,"m":3}` + "\n"},
		{Args: []string{"jq", "-L", "lib", "-nc", `import "arith" as k; k::n`}, Files: files, Out: "13911860366432382\n"},
		{Args: []string{"jq", "-L", "lib", "-c", `import "regex" as r; r::r`}, Stdin: `"2024-05"`, Files: files, Out: `{"y":"2024","m":"05"}` + "\n"},
		{Args: []string{"jq", "-L", "lib", "-c", `include "loop"; l`}, Stdin: `[1,2]`, Files: files, Out: "[2,4]\n"},
		{Args: []string{"jq", "-L", "lib", "-nc", `import "nope" as n; 1`}, Files: files, Err: "jq: error: module not found: nope", Status: 3},
		{Args: []string{"jq", "-L", "bad", "-nc", `import "syntax" as s; 1`}, Files: files, Err: "jq: error: ", Status: 3},
		{Args: []string{"jq", "-L", "lib", "-nc", `get_search_list`}, Files: files, Out: "[\"lib\"]\n"},
		{Args: []string{"jq", "-nc", `get_search_list`}, Files: files, Out: "[\"~/.jq\",\"$ORIGIN/../lib/jq\",\"$ORIGIN/../lib\"]\n"},
	})
}

// Builtins that jq 1.7.1 lacks and cordon keeps, as later (or earlier) jq
// versions have them.
func TestJqExtraBuiltins(t *testing.T) {
	runCases(t, []tcase{
		{Args: []string{"jq", "-c", "toarray, ([1]|toarray)"}, Stdin: "1", Out: "[1]\n[1]\n"},
		{Args: []string{"jq", "-c", "trim, ltrim, rtrim"}, Stdin: `"  x  "`, Out: "\"x\"\n\"x  \"\n\"  x\"\n"},
		{Args: []string{"jq", "-c", "[leaf_paths]"}, Stdin: `{"b":{"d":1},"a":[1]}`, Out: `[["b","d"],["a",0]]` + "\n"},
		{Args: []string{"jq", "-c", "have_literal_numbers, have_decnum"}, Stdin: "null", Out: "true\nfalse\n"},
		{Args: []string{"jq", "-r", "@base32, (@base32|@base32d)"}, Stdin: `"hi"`, Out: "NBUQ====\nhi\n"},
		{Args: []string{"jq", "-c", "pow10"}, Stdin: "2", Out: "100\n"},
	})
}

// What RE2 cannot do fails with a message that says so.
func TestJqRegexUnsupported(t *testing.T) {
	runCases(t, []tcase{
		{Args: []string{"jq", "-c", `try test("a(?=b)") catch .`}, Stdin: `"ab"`, Out: "\"look-ahead (?=...) is not supported: jq here uses RE2\"\n"},
		{Args: []string{"jq", "-c", `try test("a(?!b)") catch .`}, Stdin: `"ab"`, Out: "\"negative look-ahead (?!...) is not supported: jq here uses RE2\"\n"},
		{Args: []string{"jq", "-c", `try test("(?<=a)b") catch .`}, Stdin: `"ab"`, Out: "\"look-behind (?<=...) is not supported: jq here uses RE2\"\n"},
		{Args: []string{"jq", "-c", `try test("(?<!a)b") catch .`}, Stdin: `"ab"`, Out: "\"negative look-behind (?<!...) is not supported: jq here uses RE2\"\n"},
		{Args: []string{"jq", "-c", `try test("(a)\\1") catch .`}, Stdin: `"aa"`, Out: "\"backreference \\\\1 is not supported: jq here uses RE2\"\n"},
		{Args: []string{"jq", "-c", `try test("(?>a)") catch .`}, Stdin: `"aa"`, Out: "\"atomic group (?>...) is not supported: jq here uses RE2\"\n"},
		{Args: []string{"jq", "-c", `try test("a++") catch .`}, Stdin: `"aa"`, Out: "\"possessive quantifier ++ is not supported: jq here uses RE2\"\n"},
		{Args: []string{"jq", "-c", `test("\\(?=")`}, Stdin: `"(?="`, Out: "true\n"},
		{Args: []string{"jq", "-c", `test("[(?=]")`}, Stdin: `"="`, Out: "true\n"},
		{Args: []string{"jq", "-n", `"a" | test("(?=a)")`}, Err: "jq: error (at <unknown>): look-ahead (?=...) is not supported: jq here uses RE2", Status: 5},
	})
}

// A top-level error names the key that failed, although the program runs
// without the checks that find it (only a failing run is repeated with
// them), and the repeated run prints nothing.
func TestJqIndexErrorNamesKey(t *testing.T) {
	runCases(t, []tcase{
		{Args: []string{"jq", "-c", ".a.b"}, Stdin: `{"a":[1]}`, Err: "jq: error (at <stdin>:0): Cannot index array with string \"b\"", Status: 5},
		{Args: []string{"jq", "-c", "debug | .x"}, Stdin: `5`, Out: "", Err: "[\"DEBUG:\",5]\njq: error (at <stdin>:0): Cannot index number with string \"x\"\n", Status: 5},
		{Args: []string{"jq", "-c", "def f: .k; [.[] | f]"}, Stdin: `[{"k":1},"s"]`, Err: "Cannot index string with string \"k\"", Status: 5},
		{Args: []string{"jq", "-c", ".k, input.k"}, Stdin: `{"k":1} 2`, Out: "1\n", Err: "Cannot index number with string", Status: 5},
		{Args: []string{"jq", "-c", "def f: .k; try f catch ."}, Stdin: `[1]`, Out: "\"Cannot index array with string \\\"k\\\"\"\n"},
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
			if want := fmt.Sprintf("%d\n", 2+i); r.Out != want {
				errs <- fmt.Sprintf("%s: %q %q", filter, r.Out, r.Err)
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
		{Args: []string{"jq", "-nc", `[range(20000) | {b: ., a: .}] | (map(keys_unsorted[0]) | unique), .[0], .[-1]`}, Out: "[\"b\"]\n{\"b\":0,\"a\":0}\n{\"b\":19999,\"a\":19999}\n"},
		{Args: []string{"jq", "-nc", `reduce range(20000) as $i (null; {b: $i, a: $i})`}, Out: "{\"b\":19999,\"a\":19999}\n"},
	})
}
