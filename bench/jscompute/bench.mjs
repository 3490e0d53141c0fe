// bench.mjs SCRIPTS COUNT [WARMUP]: runs each script of SCRIPTS
// (bench/jscompute/scripts.json) COUNT times in node (a new V8 context per
// run) and in QuickJS compiled to WebAssembly (a new QuickJS context per
// run), as cordon gives each execution a fresh runtime, and prints the
// median milliseconds of each as one JSON object: {name: {node, quickjs}}.
// Each script first runs WARMUP times (default 2) in each, untimed, so that
// V8 has tiered up QuickJS's WebAssembly and the script's own code before
// the timed runs: a count of 1 would otherwise time baseline code.
import { readFileSync } from "node:fs";
import vm from "node:vm";
import { getQuickJS } from "quickjs-emscripten";

const [file, countArg, warmupArg] = process.argv.slice(2);
const count = Number(countArg || 5);
const warmup = Number(warmupArg ?? 2);
const scripts = JSON.parse(readFileSync(file, "utf8"));
const QuickJS = await getQuickJS();

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

function inNode(code) {
  return String(vm.runInNewContext(`(function() {${code}})()`));
}

function inQuickJS(code) {
  const ctx = QuickJS.newContext();
  try {
    const r = ctx.evalCode(`String((function() {${code}})())`);
    if (r.error) {
      const e = ctx.dump(r.error);
      r.error.dispose();
      throw new Error(JSON.stringify(e));
    }
    const v = ctx.getString(r.value);
    r.value.dispose();
    return v;
  } finally {
    ctx.dispose();
  }
}

const out = {};
for (const s of scripts) {
  const times = { node: [], quickjs: [] };
  for (let i = 0; i < warmup; i++) {
    for (const run of [inNode, inQuickJS]) {
      const got = run(s.code);
      if (got !== s.want) throw new Error(`${s.name} (warm-up): got ${got}, want ${s.want}`);
    }
  }
  // Interleaved rounds, so that the machine's moods fall on both.
  for (let i = 0; i < count; i++) {
    for (const [name, run] of [["node", inNode], ["quickjs", inQuickJS]]) {
      const t0 = process.hrtime.bigint();
      const got = run(s.code);
      const ms = Number(process.hrtime.bigint() - t0) / 1e6;
      if (got !== s.want) throw new Error(`${s.name} in ${name}: got ${got}, want ${s.want}`);
      times[name].push(ms);
    }
  }
  out[s.name] = { node: median(times.node), quickjs: median(times.quickjs) };
}
console.log(JSON.stringify(out));
