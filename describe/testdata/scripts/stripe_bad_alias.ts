// want: TS2345 TS2741
await stripe_charges_create({ amount: 500 });
