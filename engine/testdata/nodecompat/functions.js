function named() {}
const arrow = () => 1
async function asyncFn() {}
function* genFn() {}
console.log(named, arrow, asyncFn, genFn, class Foo {}, Math.max)
console.log([named, {fn: arrow}])
const counter = (() => { let n = 0; return () => ++n })()
counter(); counter()
console.log(counter())
const memo = new Map()
const fib = n => n < 2 ? n : memo.get(n) ?? (memo.set(n, fib(n - 1) + fib(n - 2)), memo.get(n))
console.log(fib(50))
console.log(typeof Symbol("x"), Symbol("desc"), 10n ** 20n)
