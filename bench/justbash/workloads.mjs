// Runs bench/shell-workloads.txt in just-bash: COUNT runs of each in one
// Bash instance; prints "NAME MEDIAN_MS STDOUT" (stdout JSON-quoted) lines.
import { Bash } from "just-bash";
import { readFileSync } from "node:fs";
const lines = readFileSync(process.argv[2], "utf8").split("\n").filter((l) => l && !l.startsWith("#"));
const n = Number(process.argv[3] || 5);
for (const line of lines) {
  const [name, script] = line.split("\t");
  const bash = new Bash({ cwd: "/home/user", executionLimits: { maxExecutionTimeMs: 600000, maxLoopIterations: 1e9, maxCommandCount: 1e9 } });
  const times = [];
  let out;
  for (let i = 0; i < n; i++) {
    const t = process.hrtime.bigint();
    out = await bash.exec(script);
    times.push(Number(process.hrtime.bigint() - t) / 1e6);
  }
  times.sort((a, b) => a - b);
  console.log(name, times[Math.floor(times.length / 2)].toFixed(2), JSON.stringify(out.stdout));
}
