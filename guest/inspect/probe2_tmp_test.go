package inspect

import (
	"testing"

	"github.com/dop251/goja"
)

var scripts = map[string]string{
	"typed": `const T = Object.getPrototypeOf(Uint8Array.prototype); const a = {Int8Array, Uint8Array, Uint8ClampedArray, Int16Array, Uint16Array, Int32Array, Uint32Array, Float32Array, Float64Array, BigInt64Array, BigUint64Array}; Object.getOwnPropertyDescriptor(T, 'length')`,
	"dates": `const u = Function.prototype.bind.bind(Function.prototype.call); u(Date.prototype.getTime); u(Date.prototype.toISOString); u(Date.prototype.toString); u(Date.prototype.getUTCFullYear)`,
	"weak": `WeakMap.prototype.has; WeakSet.prototype.has; Object.getOwnPropertyDescriptor(DataView.prototype, 'byteLength')`,
	"fnprotos": `Object.getPrototypeOf(async function() {}); Object.getPrototypeOf(function*() {})`,
	"globalnames": `Object.getOwnPropertyNames(globalThis).filter(n => /^[A-Z][a-zA-Z0-9]+$/.test(n))`,
	"safemap": `class S extends Map {}; class T extends Set {}`,
	"binds100": `const u = Function.prototype.bind.bind(Function.prototype.call); const f = Array.prototype.push; for (let i = 0; i < 100; i++) u(f)`,
	"colors": `const c = {a:[1,2],b:[1,2],c:[1,2],d:[1,2],e:[1,2],f:[1,2],g:[1,2],h:[1,2],i:[1,2],j:[1,2],k:[1,2],l:[1,2],m:[1,2],n:[1,2],o:[1,2],p:[1,2],q:[1,2],r:[1,2],s:[1,2],t:[1,2],u:[1,2],v:[1,2],w:[1,2],x:[1,2],y:[1,2],z:[1,2],aa:[1,2],ab:[1,2],ac:[1,2],ad:[1,2],ae:[1,2],af:[1,2],ag:[1,2],ah:[1,2],ai:[1,2],aj:[1,2],ak:[1,2],al:[1,2],am:[1,2],an:[1,2],ao:[1,2],ap:[1,2],aq:[1,2]}`,
	"meta": `const meta = ['\\x00', '\\x01', '\\x02', '\\x03', '\\x04', '\\x05', '\\x06', '\\x07','\\b', '\\t', '\\n', '\\x0B', '\\f', '\\r', '\\x0E', '\\x0F','\\x10', '\\x11', '\\x12', '\\x13', '\\x14', '\\x15', '\\x16', '\\x17','\\x18', '\\x19', '\\x1A', '\\x1B', '\\x1C', '\\x1D', '\\x1E', '\\x1F','', '', '', '', '', '', '', "\\'", '', '', '', '', '', '', '', '','', '', '', '', '', '', '', '', '', '', '', '', '', '', '', '','', '', '', '', '', '', '', '', '', '', '', '', '', '', '', '','', '', '', '', '', '', '', '', '', '', '', '', '\\\\', '', '', '','', '', '', '', '', '', '', '', '', '', '', '', '', '', '', '','', '', '', '', '', '', '', '', '', '', '', '', '', '', '', '\\x7F','\\x80', '\\x81', '\\x82', '\\x83', '\\x84', '\\x85', '\\x86', '\\x87','\\x88', '\\x89', '\\x8A', '\\x8B', '\\x8C', '\\x8D', '\\x8E', '\\x8F','\\x90', '\\x91', '\\x92', '\\x93', '\\x94', '\\x95', '\\x96', '\\x97','\\x98', '\\x99', '\\x9A', '\\x9B', '\\x9C', '\\x9D', '\\x9E', '\\x9F']`,
	"ansi": `const ansi = new RegExp('[\\u001B\\u009B][[\\]()#;?]*' + '(?:(?:(?:(?:;[-a-zA-Z\\d\\/\\#&.:=?%@~_]+)*' + '|[a-zA-Z\\d]+(?:;[-a-zA-Z\\d\\/\\#&.:=?%@~_]*)*)?' + '(?:\\u0007|\\u001B\\u005C|\\u009C))' + '|(?:(?:\\d{1,4}(?:;\\d{0,4})*)?' + '[\\dA-PR-TZcf-nq-uy=><~]))', 'g')`,
}

func BenchmarkPartsTmp(b *testing.B) {
	for name, src := range scripts {
		prg := goja.MustCompile(name, src, true)
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				rt := goja.New()
				if _, err := rt.RunProgram(prg); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
