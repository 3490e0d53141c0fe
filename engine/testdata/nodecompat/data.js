const orders = [
  {id: 1, customer: "ada", total: 120.5, items: 3},
  {id: 2, customer: "bob", total: 80, items: 1},
  {id: 3, customer: "ada", total: 42.25, items: 2},
  {id: 4, customer: "cy", total: 300, items: 7},
]
const byCustomer = {}
for (const o of orders) {
  byCustomer[o.customer] ??= {count: 0, total: 0}
  byCustomer[o.customer].count++
  byCustomer[o.customer].total += o.total
}
console.log(byCustomer)
const top = Object.entries(byCustomer).sort((a, b) => b[1].total - a[1].total).map(([k]) => k)
console.log(top.join(" > "))
console.log(orders.filter(o => o.items > 1).map(o => o.id))
const csv = ["id,customer,total", ...orders.map(o => [o.id, o.customer, o.total.toFixed(2)].join(","))].join("\n")
console.log(csv)
const {id, ...rest} = orders[0]
console.log(id, rest, [...new Set(orders.map(o => o.customer))])
console.log(Math.max(...orders.map(o => o.total)), Math.round(2.5), (0.1 + 0.2).toFixed(2), 7 / 2 | 0)
console.log(Number("42"), parseInt("08"), parseFloat("3.14abc"), Number.isInteger(5.0))
