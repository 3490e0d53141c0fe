package command

import (
	"fmt"
	"strings"
)

// Opt is one parsed option: Name is the short letter ("n") or the long name
// ("line-number") without dashes, and Value its argument ("" when it takes
// none).
type Opt struct {
	Name  string
	Value string
}

// UsageError is a bad option, with a message in GNU getopt's words
// ("invalid option -- 'Z'", "option requires an argument -- 'k'").
type UsageError struct{ Msg string }

// Error returns the message.
func (e *UsageError) Error() string { return e.Msg }

// Getopt parses args (without the command name) the way GNU getopt_long
// does with permutation: options and operands may be mixed, "--" ends the
// options, "-" alone is an operand, short options combine ("-rn"), and a
// short option's argument may be attached ("-k2") or the next word ("-k 2").
//
// short lists the short options, each letter followed by ':' when it takes
// an argument (as in "rnA:B:"). long lists long option names, each followed
// by '=' when it takes an argument (as in "max-depth="). A long option may be
// abbreviated to any unambiguous prefix. Set posixly to stop at the first
// operand (as xargs, env and find need, so that the rest is a command).
func Getopt(args []string, short string, long []string, posixly bool) (opts []Opt, operands []string, err error) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			return opts, append(operands, args[i+1:]...), nil
		case strings.HasPrefix(a, "--"):
			name, val, hasVal := strings.Cut(a[2:], "=")
			full, takes, err := matchLong(name, long)
			if err != nil {
				return nil, nil, err
			}
			if takes && !hasVal {
				if i+1 >= len(args) {
					return nil, nil, &UsageError{fmt.Sprintf("option '--%s' requires an argument", full)}
				}
				i++
				val = args[i]
			} else if !takes && hasVal {
				return nil, nil, &UsageError{fmt.Sprintf("option '--%s' doesn't allow an argument", full)}
			}
			opts = append(opts, Opt{Name: full, Value: val})
		case len(a) > 1 && a[0] == '-':
			for j := 1; j < len(a); j++ {
				c := a[j]
				k := strings.IndexByte(short, c)
				if k < 0 || c == ':' {
					return nil, nil, &UsageError{fmt.Sprintf("invalid option -- '%c'", c)}
				}
				if k+1 < len(short) && short[k+1] == ':' {
					val := a[j+1:]
					if val == "" {
						if i+1 >= len(args) {
							return nil, nil, &UsageError{fmt.Sprintf("option requires an argument -- '%c'", c)}
						}
						i++
						val = args[i]
					}
					opts = append(opts, Opt{Name: string(c), Value: val})
					break
				}
				opts = append(opts, Opt{Name: string(c)})
			}
		default:
			if posixly {
				return opts, append(operands, args[i:]...), nil
			}
			operands = append(operands, a)
		}
	}
	return opts, operands, nil
}

func matchLong(name string, long []string) (full string, takesArg bool, err error) {
	var found []string
	for _, l := range long {
		n := strings.TrimSuffix(l, "=")
		if n == name {
			return n, strings.HasSuffix(l, "="), nil
		}
		if strings.HasPrefix(n, name) {
			found = append(found, l)
		}
	}
	switch len(found) {
	case 0:
		return "", false, &UsageError{fmt.Sprintf("unrecognized option '--%s'", name)}
	case 1:
		return strings.TrimSuffix(found[0], "="), strings.HasSuffix(found[0], "="), nil
	}
	// glibc's getopt_long lists the candidates, in the table's order.
	var b strings.Builder
	for _, l := range found {
		fmt.Fprintf(&b, " '--%s'", strings.TrimSuffix(l, "="))
	}
	return "", false, &UsageError{fmt.Sprintf("option '--%s' is ambiguous; possibilities:%s", name, b.String())}
}
