// want: TS2345 TS2741
await github.issues.create({ owner: "o", repo: "r" });
