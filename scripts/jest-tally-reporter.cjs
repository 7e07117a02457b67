// Appends one JSON line per Jest run (passed, failed, skipped, todo) to the file named by
// PAYGRID_TEST_TALLY; .ci/run sets it, and scripts/test-tally.mjs adds the lines up into CI's
// closing line. Jest's own summary ("Tests: N passed, N total") is not a format CI's reader
// knows, and Schemathesis closes with a pytest-style rule that reads as a run of no test.
const { appendFileSync } = require('node:fs');

class TallyReporter {
  onRunComplete(_contexts, results) {
    const file = process.env.PAYGRID_TEST_TALLY;
    if (!file) return;
    const line = {
      suites: results.numTotalTestSuites,
      passed: results.numPassedTests,
      failed: results.numFailedTests,
      skipped: results.numPendingTests,
      todo: results.numTodoTests,
      argv: process.argv.slice(2).join(' '),
    };
    appendFileSync(file, `${JSON.stringify(line)}\n`);
  }
}

module.exports = TallyReporter;
