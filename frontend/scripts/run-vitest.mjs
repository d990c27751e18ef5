// Runs Vitest, then prints the plain "N passed, N failed" line that CI reads (it ignores
// Vitest's own summary). The exit code is Vitest's.
import {spawnSync} from 'node:child_process';
import {mkdtempSync, readFileSync, rmSync} from 'node:fs';
import {createRequire} from 'node:module';
import {tmpdir} from 'node:os';
import {dirname, join} from 'node:path';
import {fileURLToPath} from 'node:url';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const vitest = join(dirname(createRequire(import.meta.url).resolve('vitest/package.json')), 'vitest.mjs');
const dir = mkdtempSync(join(tmpdir(), 'bookchat-vitest-'));
const out = join(dir, 'report.json');
const result = spawnSync(
  process.execPath,
  [vitest, 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${out}`, ...process.argv.slice(2)],
  {stdio: 'inherit', cwd: root},
);
let passed = 0;
let failed = 1;
try {
  const report = JSON.parse(readFileSync(out, 'utf8'));
  passed = report.numPassedTests;
  // A file that fails to load has no tests: count it so a broken file cannot pass silently.
  const brokenFiles = report.testResults.filter((r) => r.status === 'failed' && r.assertionResults.length === 0).length;
  failed = report.numFailedTests + brokenFiles;
} catch {
  // No report at all: Vitest itself failed.
}
rmSync(dir, {recursive: true, force: true});
console.log(`${passed} passed, ${failed} failed`);
process.exit(result.status ?? 1);
