// want: TS2339 TS2551
await ns.class_of();
