const re = /(\d{4})-(\d{2})-(\d{2})/
const m = "on 2024-03-15 and 2025-01-02".match(re)
console.log(m[0], m[1], m.index)
console.log("a1b2c3".replace(/\d/g, d => d * 2))
console.log([..."x=1, y=22".matchAll(/(\w)=(\d+)/g)].map(m => m[1] + m[2]))
console.log(/^[\w.]+@\w+\.com$/.test("a.b@c.com"), /abc/i.flags)
console.log("Split, by; punct".split(/[,;]\s*/))
const named = "2024-03".match(/(?<y>\d+)-(?<m>\d+)/).groups
console.log(named.y, named.m)
console.log(/a+b/g.source)
