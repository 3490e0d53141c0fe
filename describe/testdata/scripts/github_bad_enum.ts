// want: TS2322 TS2820
await github.issues.list({ owner: "o", repo: "r", state: "opened" });
