// Adds up the Jest runs that scripts/jest-tally-reporter.cjs recorded in PAYGRID_TEST_TALLY
// (one JSON line per run) and prints CI's closing line, `tests: N passed, N failed, N skipped`,
// with a line per run above it. Exits 1 when a run failed a test or no test ran at all.
import { readFileSync, existsSync } from 'node:fs';

const file = process.argv[2] ?? process.env.PAYGRID_TEST_TALLY;
const runs =
  file && existsSync(file)
    ? readFileSync(file, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line))
    : [];
const total = { passed: 0, failed: 0, skipped: 0 };
for (const run of runs) {
  total.passed += run.passed;
  total.failed += run.failed;
  total.skipped += run.skipped + run.todo;
  console.log(
    `  jest ${run.argv || '(all projects)'}: ${run.suites} files; passed ${run.passed}, failed ${run.failed}, skipped ${run.skipped + run.todo}`,
  );
}
console.log(`Jest runs: ${runs.length}`);
console.log(`tests: ${total.passed} passed, ${total.failed} failed, ${total.skipped} skipped`);
process.exit(total.failed > 0 || total.passed === 0 ? 1 : 0);
