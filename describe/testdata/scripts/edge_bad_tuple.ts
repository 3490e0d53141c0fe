// want: TS2322
await shapes.draw({ point: [1], kind: { shape: "circle", r: 1 } });
