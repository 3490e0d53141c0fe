// want: TS2322
await shapes.draw({ point: [1, 2], kind: { shape: "square", r: 1 } });
