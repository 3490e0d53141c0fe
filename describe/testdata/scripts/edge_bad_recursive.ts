// want: TS2322
await tree.walk({ name: "a", children: [{ name: "b", children: [{ name: 3 }] }] });
