// want: TS2322
await stripe.charges.create({ amount: "500", currency: "usd" });
