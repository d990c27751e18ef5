// Runs the browser suite with node's test runner, one file at a time, and ends with the plain
// "N passed, N failed" line that CI reads.
import {readdirSync} from 'node:fs';
import {dirname, join} from 'node:path';
import {run} from 'node:test';
import {spec} from 'node:test/reporters';
import {fileURLToPath} from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const only = process.argv.slice(2);
const files = (only.length ? only : readdirSync(here).filter((f) => f.endsWith('.e2e.test.mjs')).map((f) => join(here, f)));

let passed = 0;
let failed = 0;
const stream = run({files, concurrency: 1});
stream.on('test:pass', (event) => {
  if (event.details?.type !== 'suite') passed++;
});
stream.on('test:fail', (event) => {
  if (event.details?.type !== 'suite') failed++;
});
stream.compose(new spec()).pipe(process.stdout);
stream.on('end', () => {
  // A file that crashes before registering tests reports no test: never let that pass as green.
  if (passed + failed === 0) failed = 1;
  setImmediate(() => {
    console.log(`${passed} passed, ${failed} failed`);
    process.exitCode = failed > 0 ? 1 : 0;
  });
});
