package awk

import "regexp"

// expr is an expression node. The concrete types below are the only
// implementations; the interpreter switches on them.
type expr interface{}

// stmt is a statement node.
type stmt interface{}

// scope says where a variable lives.
type scope uint8

const (
	scopeGlobal scope = iota
	scopeLocal
	scopeNF // the special variable NF, which depends on field splitting
)

type (
	// numLit and strLit are constants.
	numLit struct{ v value }
	strLit struct{ v value }
	// regexLit is /re/: a match against $0 when used as a value.
	regexLit struct {
		src string
		re  *regexp.Regexp
	}
	// varExpr is a named variable resolved to a slot.
	varExpr struct {
		scope scope
		idx   int
		name  string
	}
	// fieldExpr is $index.
	fieldExpr struct{ index expr }
	// indexExpr is arr[index...].
	indexExpr struct {
		arr   *varExpr
		index []expr
	}
	// assignExpr is lhs = rhs or lhs op= rhs (op is tAssign or tAddAssign...).
	assignExpr struct {
		lhs expr
		op  tokKind
		rhs expr
	}
	condExpr   struct{ cond, yes, no expr }
	binaryExpr struct {
		op   tokKind
		l, r expr
	}
	unaryExpr struct {
		op tokKind
		x  expr
	}
	// incrExpr is ++x, --x, x++ or x--.
	incrExpr struct {
		lhs   expr
		pre   bool
		delta float64
	}
	// matchExpr is l ~ re or l !~ re.
	matchExpr struct {
		l, re expr
		neg   bool
	}
	// inExpr is (index...) in arr.
	inExpr struct {
		index []expr
		arr   *varExpr
	}
	// concatExpr is a chain of juxtaposed expressions.
	concatExpr struct{ parts []expr }
	// groupExpr is a parenthesized expression.
	groupExpr struct{ x expr }
	// multiExpr is (a, b, ...), valid only before "in" or as print's list.
	multiExpr struct {
		list []expr
		used bool
	}
	builtinCall struct {
		fn   int
		name string
		args []expr
	}
	userCall struct {
		name string
		fn   *funcDef
		args []expr
		line int
	}
	// getlineExpr is getline [lhs] [< src] or src | getline [lhs].
	getlineExpr struct {
		kind getlineKind
		lhs  expr // nil means $0
		src  expr
	}
)

type getlineKind uint8

const (
	getlineMain getlineKind = iota
	getlineFile
	getlineCmd
)

type (
	printStmt struct {
		printf bool
		args   []expr
		redir  tokKind // 0, tGT, tAppend or tPipe
		dest   expr
	}
	exprStmt  struct{ x expr }
	blockStmt struct{ list []stmt }
	// lineStmt records the source line of the statements that follow it
	// in their list, for runtime errors.
	lineStmt struct{ line int }
	ifStmt   struct {
		cond      expr
		then, els stmt
	}
	whileStmt struct {
		cond expr
		body stmt
	}
	doStmt struct {
		body stmt
		cond expr
	}
	forStmt struct {
		init stmt
		cond expr
		post stmt
		body stmt
	}
	forInStmt struct {
		v    *varExpr
		arr  *varExpr
		body stmt
	}
	deleteStmt struct {
		arr   *varExpr
		index []expr // nil: delete the whole array
	}
	nextStmt     struct{}
	nextfileStmt struct{}
	breakStmt    struct{}
	continueStmt struct{}
	exitStmt     struct{ x expr }
	returnStmt   struct{ x expr }
)

// item is a pattern-action rule of the main loop.
type item struct {
	pattern  expr // nil: every record
	pattern2 expr // the end of a range pattern, or nil
	body     []stmt
	noAction bool // no action: print $0
	rangeIdx int  // index of the range's state
}

// funcDef is a user-defined function.
type funcDef struct {
	name     string
	params   []string
	isArray  []bool // parameter used as an array
	isScalar []bool
	assigned []bool // parameter assigned to as a scalar
	body     []stmt
	defined  bool
	line     int
}
