// gen_golden.js runs every case of cases.js under Node.js and writes what
// console.log printed to stdout, each case introduced by a "=== name" line.
// inspect_test.go stores that output as node.golden:
//
//	go test ./guest/internal/inspect/ -run TestGolden -update
//
// The cases call the real console.log; process.stdout is a pipe here, which
// Node writes synchronously, so the markers and the output interleave
// correctly.
'use strict';

const fs = require('fs');
const path = require('path');
const vm = require('vm');

// Cases may use util.inspect / util.format with options; the goja side
// provides the same global.
globalThis.util = require('util');

// Rejected promises are inspected, not awaited.
process.on('unhandledRejection', () => {});

const source = fs.readFileSync(path.join(__dirname, 'cases.js'), 'utf8');
const cases = vm.runInThisContext(source, { filename: 'cases.js' });

const names = new Set();
for (const [name, fn] of cases) {
  if (names.has(name)) {
    throw new Error(`duplicate case name ${name}`);
  }
  names.add(name);
  process.stdout.write(`=== ${name}\n`);
  fn();
}
