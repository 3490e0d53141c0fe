package textutils

import (
	"regexp"

	"github.com/cordonhq/cordon/shell/internal/ere"
)

// reOpts selects the dialect of a POSIX regular expression.
type reOpts struct {
	ere    bool // extended (grep -E, sed -E) rather than basic syntax
	dotNL  bool // . and negated brackets match a newline (sed's pattern space)
	icase  bool
	sedEsc bool // sed: \n and \t denote newline and tab
}

// errTooBig is the error for a pattern RE2 cannot hold.
var errTooBig = ere.ErrTooBig

// translateRE returns the RE2 form of the POSIX regular expression pat,
// by the translation that grep, sed and awk share (package ere).
func translateRE(pat string, o reOpts) (string, error) {
	return ere.Translate(pat, ere.Syntax{Extended: o.ere, DotNL: o.dotNL, ICase: o.icase, Sed: o.sedEsc})
}

// compileRE2 compiles an RE2 pattern with POSIX leftmost-longest matching.
func compileRE2(s string) (*regexp.Regexp, error) { return ere.CompileRE2(s, true) }

// compileGo compiles an RE2 pattern, leftmost-longest when longest is set
// and leftmost-first (Perl's rule) otherwise.
func compileGo(s string, longest bool) (*regexp.Regexp, error) { return ere.CompileRE2(s, longest) }
