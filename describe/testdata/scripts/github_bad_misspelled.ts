// want: TS2353 TS2561
await github.issues.list({ owner: "o", repo: "r", perPage: 10 });
