// want: TS2741 TS2345
await stripe.charges.create({ amount: 500, currency: "usd", shipping: { name: "Ada" } });
