// want: TS2554
await stripe.refunds.create({ charge: "ch_1" }, { idempotency_key: "k" });
