// Calls that must type-check against the declarations of stripe.json.
const charge = await stripe.charges.create({
  amount: 500,
  currency: "usd",
  metadata: { order_id: "6735" },
  shipping: { name: "Ada", address: { line1: "1 Main St", line2: null } },
  payment_method_types: ["card"],
});
console.log(charge.id, charge.status === "succeeded", charge.outcome?.risk_level, charge.failure_code ?? "none");
const page = await stripe.customers.list();
const recent = await stripe_customers_list({ created: { gte: 1700000000 }, limit: 10 });
const exact = await stripe.customers.list({ created: 1700000000, email: "ada@example.com" });
for (const c of [...page.data, ...recent.data, ...exact.data]) console.log(c.email?.toLowerCase(), c.address?.city);
const gone = await stripe.customers.delete({ customer: "cus_1" });
const deleted: true = gone.deleted;
const refund = await stripe.refunds.create({ charge: charge.id, amount: 100, reason: "duplicate", metadata: { order_id: "1", note: "x" } });
console.log(deleted, refund.status);
await stripe["payment-intents"].confirm({ intent: "pi_1", off_session: "one_off", return_url: "https://shop.example.com/done" });
await stripe_payment_intents_confirm({ intent: "pi_1", off_session: true });
const balance: unknown = await stripe.balance.retrieve();
const readers = await stripe_terminal_readers_list({ status: "online" });
console.log(balance, readers.map((r) => r.label));
