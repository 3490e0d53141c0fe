package awk

// array is an associative array that remembers insertion order, so that
// "for (k in a)" visits keys in the order they were first created.
type array struct {
	m    map[string]int // key -> index in ents
	ents []entry
	ndel int
}

type entry struct {
	key string
	v   value
	del bool
}

func newArray() *array { return &array{m: map[string]int{}} }

func (a *array) len() int { return len(a.m) }

// get returns the element's value, creating it (uninitialized) when
// missing, as referencing an element does in awk.
func (a *array) get(key string) value {
	if i, ok := a.m[key]; ok {
		return a.ents[i].v
	}
	a.m[key] = len(a.ents)
	a.ents = append(a.ents, entry{key: key})
	return value{}
}

// lookup returns the element's value without creating it.
func (a *array) lookup(key string) (value, bool) {
	if i, ok := a.m[key]; ok {
		return a.ents[i].v, true
	}
	return value{}, false
}

func (a *array) has(key string) bool {
	_, ok := a.m[key]
	return ok
}

func (a *array) set(key string, v value) {
	if i, ok := a.m[key]; ok {
		a.ents[i].v = v
		return
	}
	a.m[key] = len(a.ents)
	a.ents = append(a.ents, entry{key: key, v: v})
}

func (a *array) delete(key string) {
	i, ok := a.m[key]
	if !ok {
		return
	}
	delete(a.m, key)
	a.ents[i] = entry{del: true}
	a.ndel++
	if a.ndel > 32 && a.ndel > len(a.ents)/2 {
		a.compact()
	}
}

func (a *array) compact() {
	ents := make([]entry, 0, len(a.m))
	for _, e := range a.ents {
		if !e.del {
			a.m[e.key] = len(ents)
			ents = append(ents, e)
		}
	}
	a.ents = ents
	a.ndel = 0
}

func (a *array) clear() {
	a.m = map[string]int{}
	a.ents = nil
	a.ndel = 0
}

// elems returns a snapshot of the elements in insertion order.
func (a *array) elems() []sortElem {
	es := make([]sortElem, 0, len(a.m))
	for _, e := range a.ents {
		if !e.del {
			es = append(es, sortElem{e.key, e.v})
		}
	}
	return es
}

// keys returns a snapshot of the keys in insertion order.
func (a *array) keys() []string {
	ks := make([]string, 0, len(a.m))
	for _, e := range a.ents {
		if !e.del {
			ks = append(ks, e.key)
		}
	}
	return ks
}
