// An agent's script: two customer lists and four transfers, one of them
// above the recorded policy's limit.
await crm.customers.list({});
for (const amount of [50, 500, 2000, 80]) {
  try {
    await payments.transfer({to: "acct_1", amount, currency: "EUR"});
  } catch (e) {
    console.log(`transfer ${amount}: ${e.message}`);
  }
}
await crm.customers.list({});
