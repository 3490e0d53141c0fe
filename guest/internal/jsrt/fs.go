package jsrt

import (
	"errors"
	"io/fs"
	"path"
	"strings"
	"syscall"

	"github.com/cordonhq/cordon/vfs"
	"github.com/dop251/goja"
)

// The fs global mirrors Node's fs/promises API (every function returns a
// promise) plus the *Sync twins of fs, over the sandbox VFS. fs.promises is
// the same object. Differences from Node, chosen to forgive agents:
// readFile returns a string unless the encoding is "buffer" or null (then a
// Uint8Array), and fs.exists returns a promise of a boolean.

type fsOp func(call goja.FunctionCall) goja.Value

// errnoText is Node's text for each VFS error code.
var errnoText = map[string]string{
	"ENOENT":       "no such file or directory",
	"EEXIST":       "file already exists",
	"ENOTDIR":      "not a directory",
	"EISDIR":       "illegal operation on a directory",
	"EACCES":       "permission denied",
	"ENOTEMPTY":    "directory not empty",
	"ENOSPC":       "no space left on device",
	"EINVAL":       "invalid argument",
	"ENAMETOOLONG": "name too long",
	"EFBIG":        "file too large",
	"EBADF":        "bad file descriptor",
}

// fsError converts a VFS error into a Node-style Error with code, syscall and
// path properties ("ENOENT: no such file or directory, open '/workspace/x'").
func (r *run) fsError(err error, syscallName, p string) *goja.Object {
	code := vfs.Code(err)
	text, ok := errnoText[code]
	if !ok {
		text = err.Error()
	}
	var pe *fs.PathError
	if code == "ENOSPC" && errors.As(err, &pe) {
		text += " (" + pe.Err.Error() + ")" // which quota
	}
	var ne *vfs.NameError
	if errors.As(err, &ne) {
		text += " (" + ne.Reason + ")" // which name rule
	}
	obj := r.newError("Error", code+": "+text+", "+syscallName+" '"+p+"'")
	_ = obj.Set("code", code)
	_ = obj.Set("syscall", syscallName)
	_ = obj.Set("path", p)
	return obj
}

// fsMethodOps lists fs's operations in the order its properties come in
// (a slice: Object.keys(fs) keeps one order from run to run). Each has a
// promise-returning function and a *Sync twin.
var fsMethodOps = []struct {
	name string
	op   func(r *run) fsOp
}{
	{"readFile", func(r *run) fsOp { return r.fsReadFile }},
	{"writeFile", func(r *run) fsOp { return r.fsWriteFile(false) }},
	{"appendFile", func(r *run) fsOp { return r.fsWriteFile(true) }},
	{"readdir", func(r *run) fsOp { return r.fsReaddir }},
	{"mkdir", func(r *run) fsOp { return r.fsMkdir }},
	{"stat", func(r *run) fsOp { return r.fsStat }},
	{"lstat", func(r *run) fsOp { return r.fsStat }},
	{"unlink", func(r *run) fsOp { return r.fsUnlink }},
	{"rmdir", func(r *run) fsOp { return r.fsRmdir }},
	{"rm", func(r *run) fsOp { return r.fsRm }},
	{"rename", func(r *run) fsOp { return r.fsRename }},
	{"copyFile", func(r *run) fsOp { return r.fsCopyFile }},
	{"access", func(r *run) fsOp { return r.fsAccess }},
	{"exists", func(r *run) fsOp { return r.fsExists }},
}

// fsKeys are fs's property names in order: each operation's *Sync twin
// and promise function, then promises.
var fsKeys = func() []string {
	var keys []string
	for _, m := range fsMethodOps {
		keys = append(keys, m.name+"Sync", m.name)
	}
	return append(keys, "promises")
}()

// fsKeyIndex maps each of fsKeys to its operation (-1 for promises).
var fsKeyIndex = func() map[string]int {
	idx := map[string]int{"promises": -1}
	for i, m := range fsMethodOps {
		idx[m.name+"Sync"], idx[m.name] = i, i
	}
	return idx
}()

// fsObject returns the fs global, a lazyObject: building all its functions
// took longer in the guest than `return 1` (BENCHMARKS.md).
func (r *run) fsObject() *goja.Object {
	var self *goja.Object
	self = r.newLazyObject(fsKeys, func(key string) goja.Value {
		i := fsKeyIndex[key]
		if i < 0 {
			return self // fs.promises
		}
		name := fsMethodOps[i].name
		return r.fsFunc(name, fsMethodOps[i].op(r), key != name)
	})
	return self
}

// fsFunc makes fs's function for op: name+"Sync" when sync, else name,
// which returns a promise.
func (r *run) fsFunc(name string, op fsOp, sync bool) goja.Value {
	if sync {
		return r.fn(name+"Sync", func(call goja.FunctionCall) goja.Value {
			return op(call)
		})
	}
	rt := r.rt
	return r.fn(name, func(call goja.FunctionCall) goja.Value {
		if n := len(call.Arguments); n > 0 {
			if _, isFn := goja.AssertFunction(call.Arguments[n-1]); isFn {
				panic(rt.NewTypeError("fs.%s returns a promise in the sandbox; callbacks are not supported: use await fs.%s(...) or fs.%sSync(...)", name, name, name))
			}
		}
		p, resolve, reject := rt.NewPromise()
		v, thrown := r.catch(func() goja.Value { return op(call) })
		var err error
		if thrown != nil {
			err = reject(thrown)
		} else {
			err = resolve(v)
		}
		if err != nil {
			panic(err)
		}
		return rt.ToValue(p)
	})
}

// catch runs f and returns the JS value it threw, if any. Uncatchable
// errors (interrupts) keep propagating.
func (r *run) catch(f func() goja.Value) (v goja.Value, thrown goja.Value) {
	defer func() {
		if p := recover(); p != nil {
			switch e := p.(type) {
			case *goja.Object:
				thrown = e
			case *goja.Exception:
				thrown = e.Value()
			default:
				panic(p)
			}
		}
	}()
	return f(), nil
}

func (r *run) pathArg(call goja.FunctionCall, i int, name string) string {
	v := call.Argument(i)
	if _, ok := v.Export().(string); !ok {
		panic(r.rt.NewTypeError("The %q argument must be of type string. Received %s", name, describe(v)))
	}
	p := v.String()
	if p == "" {
		panic(r.fsError(syscall.ENOENT, "open", p))
	}
	return path.Clean(r.resolvePath(p))
}

// optBool reads a boolean option from an options object.
func optBool(v goja.Value, name string) bool {
	obj, ok := v.(*goja.Object)
	if !ok {
		return false
	}
	o := obj.Get(name)
	return o != nil && o.ToBoolean()
}

// encodingArg returns the encoding option ("utf8" by default, "" for bytes).
func encodingArg(v goja.Value) string {
	if v == nil || goja.IsUndefined(v) {
		return "utf8"
	}
	if goja.IsNull(v) {
		return ""
	}
	if obj, ok := v.(*goja.Object); ok {
		e := obj.Get("encoding")
		if e == nil || goja.IsUndefined(e) {
			return "utf8"
		}
		if goja.IsNull(e) {
			return ""
		}
		v = e
	}
	switch s := strings.ToLower(v.String()); s {
	case "buffer":
		return ""
	default:
		return s
	}
}

func (r *run) fsReadFile(call goja.FunctionCall) goja.Value {
	p := r.pathArg(call, 0, "path")
	data, err := r.opts.FS.ReadFile(p)
	if err != nil {
		panic(r.fsError(err, "open", p))
	}
	switch enc := encodingArg(call.Argument(1)); enc {
	case "":
		u8, err := r.rt.New(r.rt.Get("Uint8Array"), r.rt.ToValue(r.rt.NewArrayBuffer(data)))
		if err != nil {
			panic(err)
		}
		return u8
	case "utf8", "utf-8":
		return r.rt.ToValue(string(data))
	case "latin1", "binary":
		rs := make([]rune, len(data))
		for i, c := range data {
			rs[i] = rune(c)
		}
		return r.rt.ToValue(string(rs))
	default:
		panic(r.rt.NewTypeError("fs.readFile: unsupported encoding %q (use utf8, latin1 or buffer)", enc))
	}
}

// dataArg converts writeFile's data argument to bytes.
func (r *run) dataArg(v goja.Value) []byte {
	switch x := v.Export().(type) {
	case string:
		return []byte(x)
	case []byte:
		return append([]byte(nil), x...)
	case goja.ArrayBuffer:
		return append([]byte(nil), x.Bytes()...)
	}
	if _, isObj := v.(*goja.Object); !isObj && !goja.IsUndefined(v) && !goja.IsNull(v) {
		// Numbers and booleans are written as their string form, as Node did
		// before v14 (forgiving, but unambiguous).
		return []byte(v.String())
	}
	panic(r.rt.NewTypeError("The \"data\" argument must be of type string or an instance of Uint8Array or ArrayBuffer. Received %s (use JSON.stringify for objects)", describe(v)))
}

func (r *run) fsWriteFile(appendMode bool) fsOp {
	return func(call goja.FunctionCall) goja.Value {
		p := r.pathArg(call, 0, "path")
		data := r.dataArg(call.Argument(1))
		var err error
		if appendMode {
			err = r.opts.FS.AppendFile(p, data, 0o644)
		} else {
			err = r.opts.FS.WriteFile(p, data, 0o644)
		}
		if err != nil {
			panic(r.fsError(err, "open", p))
		}
		return goja.Undefined()
	}
}

func (r *run) fsReaddir(call goja.FunctionCall) goja.Value {
	p := r.pathArg(call, 0, "path")
	entries, err := r.opts.FS.ReadDir(p)
	if err != nil {
		panic(r.fsError(err, "scandir", p))
	}
	withTypes := optBool(call.Argument(1), "withFileTypes")
	out := make([]any, len(entries))
	for i, e := range entries {
		if withTypes {
			out[i] = r.dirent(e.Name(), e.IsDir())
		} else {
			out[i] = e.Name()
		}
	}
	return r.rt.ToValue(out)
}

func (r *run) dirent(name string, isDir bool) *goja.Object {
	d := r.rt.NewObject()
	_ = d.Set("name", name)
	_ = d.Set("isFile", func(goja.FunctionCall) goja.Value { return r.rt.ToValue(!isDir) })
	_ = d.Set("isDirectory", func(goja.FunctionCall) goja.Value { return r.rt.ToValue(isDir) })
	_ = d.Set("isSymbolicLink", func(goja.FunctionCall) goja.Value { return r.rt.ToValue(false) })
	return d
}

func (r *run) fsMkdir(call goja.FunctionCall) goja.Value {
	p := r.pathArg(call, 0, "path")
	if optBool(call.Argument(1), "recursive") {
		// Node returns the first directory created, or undefined.
		first := ""
		for dir := p; dir != "/"; dir = path.Dir(dir) {
			if _, err := r.opts.FS.Stat(dir); err == nil {
				break
			}
			first = dir
		}
		if err := r.opts.FS.MkdirAll(p, 0o755); err != nil {
			panic(r.fsError(err, "mkdir", p))
		}
		if first == "" {
			return goja.Undefined()
		}
		return r.rt.ToValue(first)
	}
	if err := r.opts.FS.Mkdir(p, 0o755); err != nil {
		panic(r.fsError(err, "mkdir", p))
	}
	return goja.Undefined()
}

func (r *run) fsStat(call goja.FunctionCall) goja.Value {
	p := r.pathArg(call, 0, "path")
	fi, err := r.opts.FS.Stat(p)
	if err != nil {
		panic(r.fsError(err, "stat", p))
	}
	st := r.rt.NewObject()
	isDir := fi.IsDir()
	_ = st.Set("size", fi.Size())
	mode := uint32(fi.Mode().Perm())
	if isDir {
		mode |= 0o040000
	} else {
		mode |= 0o100000
	}
	_ = st.Set("mode", mode)
	ms := float64(fi.ModTime().UnixNano()) / 1e6
	_ = st.Set("mtimeMs", ms)
	if d, err := r.rt.New(r.rt.Get("Date"), r.rt.ToValue(ms)); err == nil {
		_ = st.Set("mtime", d)
	}
	_ = st.Set("isFile", func(goja.FunctionCall) goja.Value { return r.rt.ToValue(!isDir) })
	_ = st.Set("isDirectory", func(goja.FunctionCall) goja.Value { return r.rt.ToValue(isDir) })
	_ = st.Set("isSymbolicLink", func(goja.FunctionCall) goja.Value { return r.rt.ToValue(false) })
	return st
}

func (r *run) fsUnlink(call goja.FunctionCall) goja.Value {
	p := r.pathArg(call, 0, "path")
	if fi, err := r.opts.FS.Stat(p); err == nil && fi.IsDir() {
		panic(r.fsError(syscall.EISDIR, "unlink", p))
	}
	if err := r.opts.FS.Remove(p); err != nil {
		panic(r.fsError(err, "unlink", p))
	}
	return goja.Undefined()
}

func (r *run) fsRmdir(call goja.FunctionCall) goja.Value {
	p := r.pathArg(call, 0, "path")
	fi, err := r.opts.FS.Stat(p)
	if err != nil {
		panic(r.fsError(err, "rmdir", p))
	}
	if !fi.IsDir() {
		panic(r.fsError(syscall.ENOTDIR, "rmdir", p))
	}
	if optBool(call.Argument(1), "recursive") {
		err = r.opts.FS.RemoveAll(p)
	} else {
		err = r.opts.FS.Remove(p)
	}
	if err != nil {
		panic(r.fsError(err, "rmdir", p))
	}
	return goja.Undefined()
}

func (r *run) fsRm(call goja.FunctionCall) goja.Value {
	p := r.pathArg(call, 0, "path")
	opts := call.Argument(1)
	fi, err := r.opts.FS.Stat(p)
	if err != nil {
		if optBool(opts, "force") && errors.Is(err, fs.ErrNotExist) {
			return goja.Undefined()
		}
		panic(r.fsError(err, "rm", p))
	}
	if fi.IsDir() {
		if !optBool(opts, "recursive") {
			e := r.fsError(syscall.EISDIR, "rm", p)
			_ = e.Set("code", "ERR_FS_EISDIR")
			panic(e)
		}
		err = r.opts.FS.RemoveAll(p)
	} else {
		err = r.opts.FS.Remove(p)
	}
	if err != nil {
		panic(r.fsError(err, "rm", p))
	}
	return goja.Undefined()
}

func (r *run) fsRename(call goja.FunctionCall) goja.Value {
	from := r.pathArg(call, 0, "oldPath")
	to := r.pathArg(call, 1, "newPath")
	if err := r.opts.FS.Rename(from, to); err != nil {
		panic(r.fsError(err, "rename", from+"' -> '"+to))
	}
	return goja.Undefined()
}

func (r *run) fsCopyFile(call goja.FunctionCall) goja.Value {
	from := r.pathArg(call, 0, "src")
	to := r.pathArg(call, 1, "dest")
	data, err := r.opts.FS.ReadFile(from)
	if err != nil {
		panic(r.fsError(err, "copyfile", from+"' -> '"+to))
	}
	if err := r.opts.FS.WriteFile(to, data, 0o644); err != nil {
		panic(r.fsError(err, "copyfile", from+"' -> '"+to))
	}
	return goja.Undefined()
}

func (r *run) fsAccess(call goja.FunctionCall) goja.Value {
	p := r.pathArg(call, 0, "path")
	if _, err := r.opts.FS.Stat(p); err != nil {
		panic(r.fsError(err, "access", p))
	}
	return goja.Undefined()
}

func (r *run) fsExists(call goja.FunctionCall) goja.Value {
	v := call.Argument(0)
	if _, ok := v.Export().(string); !ok || v.String() == "" {
		return r.rt.ToValue(false)
	}
	_, err := r.opts.FS.Stat(path.Clean(r.resolvePath(v.String())))
	return r.rt.ToValue(err == nil)
}
