const data = {name: "widget", tags: ["a", "b"], price: 9.5, nested: {ok: true, none: null}}
const text = JSON.stringify(data)
console.log(text)
console.log(JSON.stringify(data, null, 2))
const back = JSON.parse(text)
console.log(back.nested.ok, back.tags.length, typeof back.price)
console.log(JSON.stringify({u: undefined, f() {}, d: new Date(0), n: NaN, i: Infinity}))
try { JSON.parse("{bad") } catch (e) { console.log(e.name) }
console.log(JSON.stringify([new Map([[1, 2]]), new Set([1])]))
