// want: TS2367
try {
  await github.repos.delete({ owner: "o", repo: "r" });
} catch (err) {
  if (err instanceof ToolError && err.kind === "refused") console.log(err.reasons);
}
