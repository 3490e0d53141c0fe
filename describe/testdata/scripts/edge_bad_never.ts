// want: TS2322
await shapes.draw({ point: [1, 2], kind: { shape: "circle", r: 1 }, nothing: 1 });
