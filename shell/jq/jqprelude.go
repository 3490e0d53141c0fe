package jq

import (
	"strings"
	"sync"

	"github.com/itchyny/gojq"
)

// jqPrelude defines, in jq, the builtins whose gojq versions differ from
// jq 1.7's: in their messages, in the key order of the objects they make,
// in their treatment of numbers, or because gojq lacks them. Most are jq
// 1.7.1's own definitions (src/builtin.jq); the _cordon_ functions are Go
// (jqfuncs.go). The prelude goes through the same rewriting as a program
// (jqrewrite.go), so its .[] follows key order and its arithmetic is jq's.
// A program gets only the definitions it uses (jqPreludeFor). Definitions
// come before their users: a definition sees only those above it.
const jqPrelude = `
def _assign(paths; $value): _cordon_alloc as $a | reduce path(paths) as $p (.; _cordon_setpath($p; $value; $a));
def _modify(paths; update): _cordon_alloc as $a
  | reduce path(paths) as $p ([., []];
      . as [$x, $d]
      | label $out
      | (($x | _cordon_getpath($p; $a) | update) as $v | [($x | _cordon_setpath($p; $v; $a)), $d] | ., break $out),
        [$x, $d + [$p]])
  | . as [$x, $d] | $x | _cordon_delpaths($d; $a);
def map(f): [.[] | f];
def recurse(f): def r: ., (f | r); r;
def recurse(f; cond): def r: ., (f | select(cond) | r); r;
def recurse: recurse(.[]?);
def add: _cordon_addall;
def add(f): reduce f as $x (null; . + $x);
def keys_unsorted: _cordon_keys_unsorted;
def length: _cordon_length;
def utf8bytelength: _cordon_utf8bytelength;
def tojson: _cordon_tojson;
def tostring: _cordon_tostring;
def fromjson: _cordon_fromjson;
def tonumber: _cordon_tonumber;
def join($x): _cordon_join($x);
def implode: _cordon_implode;
def explode: _cordon_explode;
def ascii_downcase: _cordon_ascii(false);
def ascii_upcase: _cordon_ascii(true);
def setpath($p; $v): _cordon_setpath($p; $v; null);
def delpaths($ps): _cordon_delpaths($ps; null);
def del(f): delpaths([path(f)]);
def to_entries: [keys_unsorted[] as $k | {key: $k, value: .[$k]}];
def from_entries: _cordon_from_entries;
def with_entries(f): to_entries | map(f) | from_entries;
def map_values(f): .[] |= f;
def paths: path(recurse) | select(length > 0);
def paths(node_filter): path(recurse | select(node_filter)) | select(length > 0);
def leaf_paths: paths(scalars);
def recurse_down: recurse;
def abs: if type == "number" and . < 0 then - . else . end;
def toarray: if type == "array" then . else [.] end;
def reverse: _cordon_reverse;
def first: .[0];
def last: .[-1];
def nth($n): .[$n];
def indices($i): _cordon_indices($i);
def index($i): indices($i) | .[0];
def rindex($i): indices($i) | .[-1:][0];
def ltrimstr($x): _cordon_trimstr($x; false);
def rtrimstr($x): _cordon_trimstr($x; true);
def todateiso8601: strftime("%Y-%m-%dT%H:%M:%SZ");
def fromdateiso8601: strptime("%Y-%m-%dT%H:%M:%SZ") | mktime;
def todate: todateiso8601;
def fromdate: fromdateiso8601;
def flatten: _cordon_flatten;
def flatten($x): _cordon_flatten($x);
def format($f): _cordon_format($f);
def _tohtml: _cordon_format("html");
def _touri: _cordon_format("uri");
def _tocsv: _cordon_format("csv");
def _totsv: _cordon_format("tsv");
def _tosh: _cordon_format("sh");
def _tobase64: _cordon_format("base64");
def _tobase64d: _cordon_format("base64d");
def _match_impl(re; mode; test): _cordon_match(re; mode; test);
def match(re; mode): _match_impl(re; mode; false) | .[];
def match($val): ($val|type) as $vt | if $vt == "string" then match($val; null)
   elif $vt == "array" and ($val | length) > 1 then match($val[0]; $val[1])
   elif $vt == "array" and ($val | length) > 0 then match($val[0]; null)
   else error( $vt + " not a string or array") end;
def test(re; mode): _match_impl(re; mode; true);
def test($val): ($val|type) as $vt | if $vt == "string" then test($val; null)
   elif $vt == "array" and ($val | length) > 1 then test($val[0]; $val[1])
   elif $vt == "array" and ($val | length) > 0 then test($val[0]; null)
   else error( $vt + " not a string or array") end;
def capture(re; mods): match(re; mods) | reduce ( .captures | .[] | select(.name != null) | { (.name) : .string } ) as $pair ({}; . + $pair);
def capture($val): ($val|type) as $vt | if $vt == "string" then capture($val; null)
   elif $vt == "array" and ($val | length) > 1 then capture($val[0]; $val[1])
   elif $vt == "array" and ($val | length) > 0 then capture($val[0]; null)
   else error( $vt + " not a string or array") end;
def scan($re; $flags):
  match($re; "g" + $flags)
    | if (.captures|length > 0)
      then [ .captures | .[] | .string ]
      else .string
      end;
def scan($re): scan($re; null);
def _nwise($n):
  def n: if length <= $n then . else .[0:$n] , (.[$n:] | n) end;
  n;
def _nwise(a; $n): a | _nwise($n);
def splits($re; flags): . as $s
  | [ match($re; "g" + flags) | (.offset, .offset + .length) ]
  | [0] + . +[$s|length]
  | _nwise(2)
  | $s[.[0]:.[1] ] ;
def splits($re): splits($re; null);
def split($re; flags): [ splits($re; flags) ];
def sub($re; s; $flags):
   . as $in
   | (reduce match($re; $flags) as $edit
        ({result: [], previous: 0};
            $in[ .previous: ($edit | .offset) ] as $gap
            | [reduce ( $edit | .captures | .[] | select(.name != null) | { (.name) : .string } ) as $pair
                 ({}; . + $pair) | s ] as $inserts
            | reduce range(0; $inserts|length) as $ix (.; .result[$ix] += $gap + $inserts[$ix])
            | .previous = ($edit | .offset + .length ) )
          | .result[] + $in[.previous:] )
      // $in;
def sub($re; s): sub($re; s; "");
def gsub($re; s; flags): sub($re; s; flags + "g");
def gsub($re; s): sub($re; s; "g");
def limit($n; exp):
    if $n > 0 then label $out | foreach exp as $item ($n; .-1; $item, if . <= 0 then break $out else empty end)
    elif $n == 0 then empty
    else exp end;
def nth($n; g):
  if $n < 0 then error("nth doesn't support negative indices")
  else label $out | foreach g as $item ($n + 1; . - 1; if . <= 0 then $item, break $out else empty end) end;
def truncate_stream(stream):
  . as $n | null | stream | . as $input | if (.[0]|length) > $n then setpath([0];$input[0][$n:]) else empty end;
def fromstream(i): {x: null, e: false} as $init
  | foreach i as $i ($init
  ; if .e then $init else . end
  | if $i|length == 2
    then setpath(["e"]; $i[0]|length==0) | setpath(["x"]+$i[0]; $i[1])
    else setpath(["e"]; $i[0]|length==1) end
  ; if .e then .x else empty end);
def tostream:
  path(def r: (.[]?|r), .; r) as $p |
  getpath($p) |
  reduce path(.[]?) as $q ([$p, .]; [$p+$q]);
def walk(f):
  def w:
    if type == "object"
    then map_values(w)
    elif type == "array" then map(w)
    else .
    end
    | f;
  w;
def pick(pathexps):
  . as $in
  | reduce path(pathexps) as $a (null;
      setpath($a; $in|getpath($a)) );
def debug: _cordon_debug;
def debug(msgs): (msgs | debug | empty), .;
def stderr: _cordon_stderr;
def input_line_number: _cordon_input_line_number;
def INDEX(stream; idx_expr):
  reduce stream as $row ({}; .[$row|idx_expr|tostring] = $row);
def INDEX(idx_expr): INDEX(.[]; idx_expr);
def JOIN($idx; idx_expr):
  [.[] | [., $idx[idx_expr]]];
def JOIN($idx; stream; idx_expr):
  stream | [., $idx[idx_expr]];
def JOIN($idx; stream; idx_expr; join_expr):
  stream | [., $idx[idx_expr]] | join_expr;
def get_search_list: _cordon_search_list;
def get_jq_origin: _cordon_jq_origin;
def get_prog_origin: _cordon_prog_origin;
def modulemeta: _cordon_modulemeta;
def builtins: _cordon_builtins;
def lgamma_r: _cordon_lgamma_r;
def pow10: exp10;
def gamma: lgamma;
def have_decnum: false;
def have_literal_numbers: true;
.`

// jqPreludeDef is one definition of the prelude, parsed and rewritten on
// first use: the parsed prelude is kept only for the definitions that
// programs use, as all of it would be live memory for the collector to
// scan.
type jqPreludeDef struct {
	name string
	args int
	src  string
	once sync.Once
	def  *gojq.FuncDef
}

// parsed returns the parsed and rewritten definition.
func (d *jqPreludeDef) parsed() *gojq.FuncDef {
	d.once.Do(func() {
		q, err := gojq.Parse(d.src + " .")
		if err != nil || len(q.FuncDefs) != 1 {
			panic("jq prelude: " + d.src + ": " + err.Error())
		}
		rewriteQuery(q, jqRewriteOptions{})
		d.def = q.FuncDefs[0]
	})
	return d.def
}

// jqPreludeIndex returns the definitions of the prelude, in order.
var jqPreludeIndex = sync.OnceValue(func() []*jqPreludeDef {
	q, err := gojq.Parse(jqPrelude)
	if err != nil {
		panic("jq prelude: " + err.Error())
	}
	defs := make([]*jqPreludeDef, len(q.FuncDefs))
	for i, d := range q.FuncDefs {
		defs[i] = &jqPreludeDef{name: d.Name, args: len(d.Args), src: d.String()}
	}
	return defs
})

// jqPreludeFor returns the prelude definitions that q uses, directly or
// through other definitions, in prelude order.
func jqPreludeFor(q *gojq.Query) ([]*gojq.FuncDef, error) {
	defs := jqPreludeIndex()
	type sig struct {
		name string
		args int
	}
	index := make(map[sig][]int, len(defs))
	for i, d := range defs {
		s := sig{d.name, d.args}
		index[s] = append(index[s], i)
	}
	need := make([]bool, len(defs))
	var work []int
	use := func(name string, args int) {
		for _, i := range index[sig{name, args}] {
			if !need[i] {
				need[i] = true
				work = append(work, i)
			}
		}
	}
	walkFuncRefs(q, use)
	for len(work) > 0 {
		i := work[len(work)-1]
		work = work[:len(work)-1]
		walkFuncRefs(defs[i].parsed().Body, use)
	}
	var out []*gojq.FuncDef
	for i, d := range defs {
		if need[i] {
			out = append(out, d.parsed())
		}
	}
	return out, nil
}

// walkFuncRefs calls use for every function that q may call, including
// those that gojq's compiler calls for a construct (.. calls recurse,
// string interpolation tostring, a format its function, an assignment
// _assign or _modify).
func walkFuncRefs(q *gojq.Query, use func(name string, args int)) {
	jqInspect(q, func(node any) bool {
		switch n := node.(type) {
		case *gojq.String:
			if n.Queries != nil {
				use("tostring", 0)
			}
		case *gojq.ObjectKeyVal:
			if strings.HasPrefix(n.Key, "$") {
				use(n.Key, 0)
			}
		case *gojq.Term:
			switch n.Type {
			case gojq.TermTypeRecurse:
				use("recurse", 0)
			case gojq.TermTypeFormat:
				if f := jqFormatFunc(n.Format); f != "" {
					use(f, 0)
				} else {
					use("format", 1)
				}
			}
			if n.Func != nil {
				use(n.Func.Name, len(n.Func.Args))
			}
		case *gojq.Query:
			switch n.Op {
			case gojq.OpAssign:
				use("_assign", 2)
			case gojq.OpModify, gojq.OpUpdateAdd, gojq.OpUpdateSub, gojq.OpUpdateMul,
				gojq.OpUpdateDiv, gojq.OpUpdateMod, gojq.OpUpdateAlt:
				use("_modify", 2)
			}
		}
		return true
	})
}

// jqFormatFunc returns the function gojq compiles a format to.
func jqFormatFunc(format string) string {
	switch format {
	case "@text":
		return "tostring"
	case "@json":
		return "tojson"
	case "@html", "@uri", "@csv", "@tsv", "@sh", "@base64", "@base64d":
		return "_to" + format[1:]
	}
	return ""
}
