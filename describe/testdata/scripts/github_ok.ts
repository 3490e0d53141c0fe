// Calls that must type-check against the declarations of github.json.
const issues = await github.issues.list({ owner: "octocat", repo: "hello-world", state: "all", per_page: 50 });
for (const issue of issues) {
  const who: string | undefined = issue.user?.login;
  const labels = issue.labels.map((l) => (typeof l === "string" ? l : l.name));
  if (issue.pull_request) console.log(issue.pull_request.url, who, labels, issue.milestone?.due_on);
}
const created = await github_issues_create({ owner: "o", repo: "r", title: "Bug", labels: ["bug", { name: "ui" }], milestone: null });
console.log(created.number, created.user?.site_admin);
const content = await github.repos["get-content"]({ owner: "o", repo: "r", path: "README.md" });
if (!Array.isArray(content)) console.log(atob(content.content));
const [found, merged] = await Promise.all([
  github.search.code({ q: "addClass in:file" }),
  github.pulls.merge({ owner: "o", repo: "r", pull_number: 1, merge_method: "squash" }),
]);
console.log(found.items[0]?.repository.full_name, merged.merged);
try {
  await github_repos_delete({ owner: "o", repo: "r" });
} catch (err) {
  if (err instanceof ToolError && err.kind === "denied") console.error(err.method, err.reasons.join("; "));
}
const files = await fs.readdir("/workspace");
await fs.writeFile("issues.json", JSON.stringify(issues), "utf8");
fs.mkdirSync("/workspace/out", { recursive: true });
const text: string = fs.readFileSync("issues.json", "utf8");
const { stdout, exitCode } = await shell("jq length issues.json");
console.log(files, text.length, stdout, exitCode, listTools("github").map((t) => t.alias), getToolInfo("github_issues_list")?.inputSchema);
setTimeout(() => console.log("later"), 10);
