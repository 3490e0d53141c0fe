package whatif

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
	"text/tabwriter"
	"unicode"
)

// WriteJSON writes r as one indented JSON document.
func (r *Report) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	if err := enc.Encode(r); err != nil {
		return fmt.Errorf("whatif: %w", err)
	}
	return nil
}

// WriteText writes r for a reader: a summary line, the counts by method
// and by capability, then each changed call with its params and its old
// and new decisions and reasons.
func (r *Report) WriteText(w io.Writer) error {
	bw := bufio.NewWriter(w)
	t := r.Total
	fmt.Fprintf(bw, "%d calls decided again under policy %s", t.Calls, r.PolicyRevision)
	if len(r.RecordedRevisions) > 0 {
		fmt.Fprintf(bw, " (recorded under %s)", strings.Join(r.RecordedRevisions, ", "))
	}
	fmt.Fprintf(bw, ": %d changed", t.Changed)
	if t.Changed > 0 {
		fmt.Fprintf(bw, " (%s)", kinds(&t))
	}
	if t.ReasonsChanged > 0 {
		fmt.Fprintf(bw, ", %d with other reasons", t.ReasonsChanged)
	}
	bw.WriteString("\n")
	if r.Skipped > 0 {
		fmt.Fprintf(bw, "%d calls skipped:", r.Skipped)
		for _, k := range slices.Sorted(maps.Keys(r.SkippedReasons)) {
			fmt.Fprintf(bw, " %s (%d);", k, r.SkippedReasons[k])
		}
		bw.WriteString("\n")
	}
	table(bw, "method", r.ByMethod)
	table(bw, "capability", r.ByCapability)
	if len(r.Changes) > 0 {
		bw.WriteString("\nchanges:\n")
	}
	for _, c := range r.Changes {
		fmt.Fprintf(bw, "  %s  %s  %s\n", c.Source, c.Method, c.Kind())
		fmt.Fprintf(bw, "    params: %s\n", paramsText(c))
		fmt.Fprintf(bw, "    old: %s\n", decisionText(c.Old))
		fmt.Fprintf(bw, "    new: %s\n", decisionText(c.New))
	}
	if r.ChangesOmitted > 0 {
		fmt.Fprintf(bw, "  ... and %d more changes\n", r.ChangesOmitted)
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("whatif: %w", err)
	}
	return nil
}

// kinds lists the nonzero kinds of change of c.
func kinds(c *Counts) string {
	var parts []string
	for _, k := range []struct {
		name string
		n    int
	}{{"allow→deny", c.AllowToDeny}, {"deny→allow", c.DenyToAllow}, {"→ask", c.ToAsk}, {"ask→allow", c.AskToAllow}, {"ask→deny", c.AskToDeny}} {
		if k.n > 0 {
			parts = append(parts, fmt.Sprintf("%s %d", k.name, k.n))
		}
	}
	return strings.Join(parts, ", ")
}

func table(w io.Writer, what string, m map[string]*Counts) {
	if len(m) == 0 {
		return
	}
	fmt.Fprintf(w, "\nby %s:\n", what)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "  %s\tcalls\tchanged\tallow→deny\tdeny→allow\t→ask\task→allow\task→deny\n", what)
	for _, k := range slices.Sorted(maps.Keys(m)) {
		c := m[k]
		fmt.Fprintf(tw, "  %s\t%d\t%d\t%d\t%d\t%d\t%d\t%d\n", k, c.Calls, c.Changed, c.AllowToDeny, c.DenyToAllow, c.ToAsk, c.AskToAllow, c.AskToDeny)
	}
	tw.Flush()
}

func paramsText(c Change) string {
	p := c.Params
	switch {
	case p.Bytes == 0:
		return "(none)"
	case len(p.JSON) > 0:
		return string(p.JSON)
	case p.Truncated:
		return fmt.Sprintf("%s… (%d bytes)", quoteControls(p.Text), p.Bytes)
	}
	return quoteControls(p.Text)
}

// quoteControls writes the control characters of s escaped (\n, \u001b),
// so that a report keeps one line per field and a terminal shows them.
func quoteControls(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\t':
			b.WriteString(`\t`)
		case unicode.IsControl(r):
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

func decisionText(d Decision) string {
	s := d.Decision
	if d.Outcome != "" {
		s += ", " + d.Outcome
	}
	if d.Capability != "" {
		s += " (capability " + d.Capability + ")"
	}
	if len(d.Reasons) > 0 {
		s += ": " + quoteControls(strings.Join(d.Reasons, "; "))
	}
	if d.Error != "" {
		s += " [error: " + quoteControls(d.Error) + "]"
	}
	return s
}
