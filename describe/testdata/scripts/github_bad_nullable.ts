// want: TS18047 TS2531
const issues = await github.issues.list({ owner: "o", repo: "r" });
console.log(issues[0].user.login);
