package awk

import "io"

// execList runs statements until one ends abnormally.
func (in *interp) execList(list []stmt) ctl {
	for _, s := range list {
		if c := in.exec(s); c != ctlNone {
			return c
		}
	}
	return ctlNone
}

func (in *interp) exec(s stmt) ctl {
	switch s := s.(type) {
	case *exprStmt:
		in.eval(s.x)
	case *printStmt:
		in.print(s)
	case *blockStmt:
		return in.execList(s.list)
	case *lineStmt:
		in.line = s.line
	case *ifStmt:
		if in.eval(s.cond).toBool() {
			return in.exec(s.then)
		} else if s.els != nil {
			return in.exec(s.els)
		}
	case *whileStmt:
		for {
			in.poll()
			if !in.eval(s.cond).toBool() {
				break
			}
			c := in.exec(s.body)
			if c == ctlBreak {
				break
			}
			if c != ctlNone && c != ctlContinue {
				return c
			}
		}
	case *doStmt:
		for {
			in.poll()
			c := in.exec(s.body)
			if c == ctlBreak {
				break
			}
			if c != ctlNone && c != ctlContinue {
				return c
			}
			if !in.eval(s.cond).toBool() {
				break
			}
		}
	case *forStmt:
		if s.init != nil {
			in.exec(s.init)
		}
		for {
			in.poll()
			if s.cond != nil && !in.eval(s.cond).toBool() {
				break
			}
			c := in.exec(s.body)
			if c == ctlBreak {
				break
			}
			if c != ctlNone && c != ctlContinue {
				return c
			}
			if s.post != nil {
				in.exec(s.post)
			}
		}
	case *forInStmt:
		arr := in.arrayOf(s.arr)
		keys := in.sortedKeys(arr)
		if keys == nil {
			keys = arr.keys()
		}
		for _, k := range keys {
			in.poll()
			if !arr.has(k) {
				continue
			}
			in.setVar(s.v, str(k))
			c := in.exec(s.body)
			if c == ctlBreak {
				break
			}
			if c != ctlNone && c != ctlContinue {
				return c
			}
		}
	case *deleteStmt:
		arr := in.arrayOf(s.arr)
		if s.index == nil {
			arr.clear()
		} else {
			arr.delete(in.key(s.index))
		}
	case *nextStmt:
		return ctlNext
	case *nextfileStmt:
		return ctlNextFile
	case *breakStmt:
		return ctlBreak
	case *continueStmt:
		return ctlContinue
	case *exitStmt:
		if s.x != nil {
			in.exitCode = int(in.eval(s.x).toNum()) & 0xff
		}
		return ctlExit
	case *returnStmt:
		if s.x != nil {
			v := in.eval(s.x)
			in.retVal = v
		} else {
			in.retVal = value{}
		}
		return ctlReturn
	default:
		fatal("invalid statement")
	}
	return ctlNone
}

// runBlock runs a BEGIN or END action or a function-free rule body and
// turns control signals raised inside functions into control codes.
func (in *interp) runBlock(list []stmt) (c ctl) {
	defer func() {
		if r := recover(); r != nil {
			if sig, ok := r.(ctlSignal); ok {
				in.frame = nil
				in.depth = 0
				c = sig.c
				return
			}
			panic(r)
		}
	}()
	return in.execList(list)
}

// runItems runs the main rules on the current record.
func (in *interp) runItems() (c ctl) {
	defer func() {
		if r := recover(); r != nil {
			if sig, ok := r.(ctlSignal); ok {
				in.frame = nil
				in.depth = 0
				c = sig.c
				return
			}
			panic(r)
		}
	}()
	items := in.prog.items
	for i := range items {
		it := &items[i]
		matched := true
		switch {
		case it.pattern2 != nil:
			if in.rangeActive[it.rangeIdx] {
				if in.eval(it.pattern2).toBool() {
					in.rangeActive[it.rangeIdx] = false
				}
			} else if in.eval(it.pattern).toBool() {
				in.rangeActive[it.rangeIdx] = !in.eval(it.pattern2).toBool()
			} else {
				matched = false
			}
		case it.pattern != nil:
			matched = in.eval(it.pattern).toBool()
		}
		if !matched {
			continue
		}
		if it.noAction {
			in.pbuf = append(append(in.pbuf[:0], in.getRecord()...), in.ors...)
			in.write(in.out, in.pbuf)
			continue
		}
		switch c := in.execList(it.body); c {
		case ctlNext:
			return ctlNone
		case ctlNextFile, ctlExit:
			return c
		}
	}
	return ctlNone
}

// write writes to an output stream and aborts on failure.
func (in *interp) write(w io.Writer, p []byte) {
	if _, err := w.Write(p); err != nil {
		panic(&writeError{err})
	}
}

type writeError struct{ err error }
