package awk

import (
	"math"
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/cordonhq/cordon/shell/internal/ere"
)

func (in *interp) makeRS(s string) recordSep {
	switch len(s) {
	case 0:
		return recordSep{mode: rsPara}
	case 1:
		return recordSep{mode: rsByte, c: s[0]}
	}
	rs := recordSep{mode: rsRegex, re: in.regex(s)}
	if strings.IndexByte(s, '^') >= 0 {
		// "^" matches only at the start of each file, as in gawk.
		syn := awkSyntax
		syn.NotBOL = true
		if re, err := ere.Compile(s, syn); err == nil {
			rs.rest = re
		}
	}
	return rs
}

func (in *interp) makeSplitter(fs string) splitter {
	para := in.rs.mode == rsPara
	switch {
	case fs == " ":
		return splitter{mode: splitBlank}
	case fs == "":
		return splitter{mode: splitChars}
	case len(fs) == 1:
		if para && fs != "\n" && fs[0] < utf8.RuneSelf {
			return splitter{mode: splitRegex, re: regexp.MustCompile("[" + regexp.QuoteMeta(fs) + "\n]")}
		}
		return splitter{mode: splitByte, c: fs[0]}
	}
	if para {
		return splitter{mode: splitRegex, re: in.regex("(" + fs + ")|\n")}
	}
	return splitter{mode: splitRegex, re: in.regex(fs)}
}

// regex compiles a dynamic regex, with a cache.
func (in *interp) regex(src string) *regexp.Regexp {
	if re, ok := in.regexCache[src]; ok {
		return re
	}
	re, err := compileRegex(src)
	if err != nil {
		fatal("%s %q: %v", regexProblem(src, err), src, err)
	}
	if len(in.regexCache) >= 500 {
		clear(in.regexCache)
	}
	in.regexCache[src] = re
	return re
}

// split splits s into fields, appending to dst.
func splitFields(s string, sp splitter, dst []value) []value {
	switch sp.mode {
	case splitBlank:
		i := 0
		for {
			for i < len(s) && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n') {
				i++
			}
			if i >= len(s) {
				return dst
			}
			j := i
			for j < len(s) && s[j] != ' ' && s[j] != '\t' && s[j] != '\n' {
				j++
			}
			dst = append(dst, value{k: kUnchecked, s: s[i:j]})
			i = j
		}
	case splitByte:
		if s == "" {
			return dst
		}
		for {
			j := strings.IndexByte(s, sp.c)
			if j < 0 {
				return append(dst, value{k: kUnchecked, s: s})
			}
			dst = append(dst, value{k: kUnchecked, s: s[:j]})
			s = s[j+1:]
		}
	case splitChars:
		for i := 0; i < len(s); {
			n := runeLen(s[i:])
			dst = append(dst, value{k: kUnchecked, s: s[i : i+n]})
			i += n
		}
		return dst
	}
	if s == "" {
		return dst
	}
	prev := 0
	for _, loc := range sp.re.FindAllStringIndex(s, -1) {
		if loc[1] == loc[0] {
			continue
		}
		dst = append(dst, value{k: kUnchecked, s: s[prev:loc[0]]})
		prev = loc[1]
	}
	return append(dst, value{k: kUnchecked, s: s[prev:]})
}

// setRecord sets $0 from input or an assignment.
func (in *interp) setRecord(s string) {
	in.record = s
	in.recVal = value{k: kUnchecked, s: s}
	in.nfSet = false
	in.splitDone = false
	in.recDirty = false
	in.recSplit = in.fsSplit
}

func (in *interp) ensureSplit() {
	if !in.splitDone {
		in.fields = splitFields(in.record, in.recSplit, in.fields[:0])
		in.nf = len(in.fields)
		in.splitDone = true
	}
}

func (in *interp) getRecord() string {
	if in.recDirty {
		in.rebuild()
	}
	return in.record
}

func (in *interp) rebuild() {
	var b strings.Builder
	for i := 0; i < in.nf; i++ {
		if i > 0 {
			b.WriteString(in.ofs)
		}
		b.WriteString(in.toStr(in.fields[i]))
	}
	in.record = b.String()
	in.recVal = value{k: kUnchecked, s: in.record}
	in.recDirty = false
}

func (in *interp) getField(i int) value {
	if i == 0 {
		if in.recDirty {
			in.rebuild()
		}
		if in.recVal.k == kUnchecked {
			in.recVal = in.recVal.classify()
		}
		return in.recVal
	}
	in.ensureSplit()
	if i > in.nf {
		// A field that does not exist is the empty string, which compares
		// as a string: "$2 != 0" is true when there is no $2.
		return value{k: kStr}
	}
	v := in.fields[i-1]
	if v.k == kUnchecked {
		v = v.classify()
		in.fields[i-1] = v
	}
	return v
}

func fieldIndex(n float64) int {
	if n < 0 || math.IsNaN(n) || n > maxFields*1024 {
		// A field past 2^30 cannot exist (a record holds at most
		// maxFields): onetrueawk and mawk fail as here, gawk reads "".
		fatal("trying to access out of range field %s", formatInt(math.Trunc(n)))
	}
	return int(n)
}

func (in *interp) setField(i int, v value) {
	if i == 0 {
		in.setRecord(in.toStr(v))
		if v.k == kStr {
			// A string assigned to $0 stays a string, as in every awk:
			// only input text is a strnum. Its fields are still input.
			in.recVal = v
		}
		return
	}
	if i > maxFields {
		fatal("field index %d too large", i)
	}
	in.ensureSplit()
	for in.nf < i {
		in.fields = append(in.fields[:in.nf], value{k: kStr})
		in.nf++
	}
	in.fields[i-1] = v
	in.recDirty = true
}

func (in *interp) getNF() int {
	in.ensureSplit()
	return in.nf
}

func (in *interp) setNF(n float64) {
	in.ensureSplit()
	if n < 0 || math.IsNaN(n) {
		fatal("cannot set NF to a negative value")
	}
	if n > maxFields {
		fatal("NF value %s too large", formatInt(math.Trunc(n)))
	}
	nf := int(n)
	for in.nf < nf {
		in.fields = append(in.fields[:in.nf], value{k: kStr})
		in.nf++
	}
	in.nf = nf
	in.fields = in.fields[:nf]
	in.recDirty = true
}
