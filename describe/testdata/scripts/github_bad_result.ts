// want: TS2322
const merged: string = (await github_pulls_merge({ owner: "o", repo: "r", pull_number: 1 })).merged;
