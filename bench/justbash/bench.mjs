import { Bash } from "just-bash";
import { readFileSync } from "node:fs";
const data = readFileSync(process.argv[2], "utf8");
const script = process.argv[3];
const n = Number(process.argv[4] || 5);
const bash = new Bash({ files: { "/home/user/log.txt": data }, cwd: "/home/user", executionLimits: { maxExecutionTimeMs: 600000 } });
const times = [];
let out;
for (let i = 0; i < n; i++) {
  const t = process.hrtime.bigint();
  out = await bash.exec(script);
  times.push(Number(process.hrtime.bigint() - t) / 1e6);
}
times.sort((a, b) => a - b);
console.log(JSON.stringify({ median_ms: times[Math.floor(times.length / 2)], times, stdout: out.stdout, stderr: out.stderr.slice(0, 300), exitCode: out.exitCode }));
