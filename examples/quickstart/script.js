// A script an agent might write in "code mode": several tool calls, some in
// parallel, with the data shaped in between. Run it with the built-in demo
// config:
//
//   go run ./cmd/cordon run examples/quickstart/script.js
const [weather, customers] = await Promise.all([
  weather_current({city: "San Francisco"}),
  crm.customers.list({limit: 10}),
])

const pro = customers.filter(c => c.plan === "pro")
const mrr = pro.reduce((sum, c) => sum + c.mrr, 0)
console.log(`It is ${weather.temp}°${weather.unit} and ${weather.conditions} in ${weather.city}.`)
console.log(`${pro.length} pro customers, $${mrr} MRR:`, pro.map(c => c.name))

for (const c of pro) {
  await email.send({to: c.email, subject: "Thanks for being a pro customer"})
}
await fs.writeFile("report.json", JSON.stringify({mrr, customers: pro.map(c => c.id)}))
return {emailed: pro.length, report: "/workspace/report.json"}
