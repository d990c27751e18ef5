// Ends the run with the plain "N passed, N failed" line that CI reads (Playwright's own summary
// is not one it reads). A run that broke around its tests (a server that did not start, a file
// that did not load, no test at all) counts as failed, never as green.
export default class SummaryReporter {
  onBegin(_config, suite) {
    this.suite = suite;
  }

  onEnd(result) {
    let passed = 0;
    let failed = 0;
    let skipped = 0;
    for (const test of this.suite?.allTests() ?? []) {
      const outcome = test.outcome();
      if (outcome === 'expected' || outcome === 'flaky') passed++;
      else if (outcome === 'unexpected') failed++;
      else skipped++;
    }
    if (failed === 0 && (result.status !== 'passed' || passed === 0)) failed = 1;
    console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
  }

  printsToStdio() {
    return true;
  }
}
