const sleep = (ms, v) => new Promise(r => setTimeout(() => r(v), ms))
const order = []
const p = Promise.all([sleep(20, "slow"), sleep(5, "fast"), Promise.resolve("now")])
order.push("sync")
queueMicrotask(() => order.push("micro"))
const results = await p
console.log(results, order)
const settled = await Promise.allSettled([Promise.reject(new Error("no")), Promise.resolve(1)])
console.log(settled.map(s => s.status))
console.log(await Promise.race([sleep(30, "a"), sleep(1, "b")]))
async function twice(x) { await null; return x * 2 }
console.log(await twice(21), await Promise.all([1, 2].map(twice)))
try { await Promise.any([Promise.reject(1)]) } catch (e) { console.log(e.constructor.name) }
