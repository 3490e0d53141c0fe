// Command wasmsize attributes the code of a WebAssembly module built by Go
// to Go packages, from the module's code and "name" sections, to see what
// each dependency of the guest costs in size (and so in compile time).
//
//	go run ./internal/wasmsize [-n 30] FILE.wasm
package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"os"
	"sort"
	"strings"
)

func main() {
	top := flag.Int("n", 30, "how many packages to list")
	flag.Parse()
	if flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: wasmsize [-n N] FILE.wasm")
		os.Exit(2)
	}
	b, err := os.ReadFile(flag.Arg(0))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	sizes, total, err := packageSizes(b)
	if err != nil {
		fmt.Fprintln(os.Stderr, "wasmsize:", err)
		os.Exit(1)
	}
	type row struct {
		pkg  string
		size int
	}
	var rows []row
	for p, s := range sizes {
		rows = append(rows, row{p, s})
	}
	sort.Slice(rows, func(i, j int) bool { return rows[i].size > rows[j].size })
	fmt.Printf("%10d  code bytes in all (module %d bytes)\n", total, len(b))
	for i, r := range rows {
		if i == *top {
			break
		}
		fmt.Printf("%10d  %5.1f%%  %s\n", r.size, 100*float64(r.size)/float64(total), r.pkg)
	}
}

type reader struct {
	b []byte
	i int
}

func (r *reader) u32() (uint32, error) {
	var v uint32
	for shift := 0; shift < 35; shift += 7 {
		if r.i >= len(r.b) {
			return 0, errors.New("truncated")
		}
		c := r.b[r.i]
		r.i++
		v |= uint32(c&0x7f) << shift
		if c < 0x80 {
			return v, nil
		}
	}
	return 0, errors.New("bad LEB128")
}

func (r *reader) bytes(n uint32) ([]byte, error) {
	if uint64(r.i)+uint64(n) > uint64(len(r.b)) {
		return nil, errors.New("truncated")
	}
	out := r.b[r.i : r.i+int(n)]
	r.i += int(n)
	return out, nil
}

// packageSizes returns the code bytes per Go package.
func packageSizes(b []byte) (map[string]int, int, error) {
	if !bytes.HasPrefix(b, []byte("\x00asm")) {
		return nil, 0, errors.New("not a wasm module")
	}
	r := &reader{b: b, i: 8}
	var bodies []int
	imported := 0
	names := map[uint32]string{}
	for r.i < len(b) {
		id := b[r.i]
		r.i++
		n, err := r.u32()
		if err != nil {
			return nil, 0, err
		}
		sec, err := r.bytes(n)
		if err != nil {
			return nil, 0, err
		}
		s := &reader{b: sec}
		switch id {
		case 2: // imports: count the imported functions, which come first in the index space
			cnt, _ := s.u32()
			for k := uint32(0); k < cnt; k++ {
				for j := 0; j < 2; j++ {
					l, _ := s.u32()
					s.bytes(l)
				}
				kind := s.b[s.i]
				s.i++
				switch kind {
				case 0:
					s.u32()
					imported++
				case 1:
					s.i++
					flags, _ := s.u32()
					s.u32()
					if flags&1 != 0 {
						s.u32()
					}
				case 2:
					flags, _ := s.u32()
					s.u32()
					if flags&1 != 0 {
						s.u32()
					}
				case 3:
					s.i += 2
				}
			}
		case 10: // code
			cnt, _ := s.u32()
			for k := uint32(0); k < cnt; k++ {
				l, err := s.u32()
				if err != nil {
					return nil, 0, err
				}
				s.bytes(l)
				bodies = append(bodies, int(l))
			}
		case 0: // custom
			l, _ := s.u32()
			name, _ := s.bytes(l)
			if string(name) != "name" {
				continue
			}
			for s.i < len(s.b) {
				sub := s.b[s.i]
				s.i++
				sl, _ := s.u32()
				data, _ := s.bytes(sl)
				if sub != 1 {
					continue
				}
				d := &reader{b: data}
				cnt, _ := d.u32()
				for k := uint32(0); k < cnt; k++ {
					idx, _ := d.u32()
					nl, _ := d.u32()
					nm, _ := d.bytes(nl)
					names[idx] = string(nm)
				}
			}
		}
	}
	sizes := map[string]int{}
	total := 0
	for i, size := range bodies {
		total += size
		sizes[pkgOf(names[uint32(i+imported)])] += size
	}
	return sizes, total, nil
}

// pkgOf returns the package of a function name as Go's wasm port writes
// it: the import path with "/" replaced by "_", then "." and the symbol, as
// in "github.com_dop251_goja_parser.___parser_.parseStatement" (the dots of
// a host name survive). The package is what comes before the first "." that
// follows the last path element; for the standard library, the path's
// underscores are left as they are ("encoding_json").
func pkgOf(sym string) string {
	if sym == "" {
		return "(unnamed)"
	}
	start := 0
	if i := strings.IndexByte(sym, '_'); i >= 0 && strings.Contains(sym[:i], ".") {
		start = i // a host name such as github.com
	}
	if dot := strings.IndexByte(sym[start:], '.'); dot >= 0 {
		return strings.ReplaceAll(sym[:start+dot], "_", "/")
	}
	return sym
}
