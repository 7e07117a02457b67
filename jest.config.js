// Three projects:
//   unit         pure logic next to the source (src/**/*.spec.ts), no I/O
//   embedded     the integration suites against the embedded default (PGlite + embedded bus),
//                and the browser suites (playwright-core driving /usr/bin/chromium)
//   distributed  the same suites, plus Kafka/crash suites, against real PostgreSQL, Kafka, Redis
const swc = [
  '@swc/jest',
  {
    jsc: {
      parser: { syntax: 'typescript', decorators: true },
      transform: { legacyDecorator: true, decoratorMetadata: true, useDefineForClassFields: false },
      target: 'es2022',
    },
    module: { type: 'commonjs' },
    sourceMaps: 'inline',
  },
];

const moduleNameMapper = {
  '^@paygrid/(contracts|platform)$': '<rootDir>/libs/$1/src',
  '^@paygrid/(gateway|payments|invoicing|webhooks|embedded)$': '<rootDir>/apps/$1/src',
  '^@paygrid/(sdk|cli)$': '<rootDir>/packages/$1/src',
  // packages/* are also built as ES modules, so their relative imports name the .js file.
  '^(\\.{1,2}/.*)\\.js$': '$1',
};

const base = {
  rootDir: __dirname,
  transform: { '^.+\\.ts$': swc },
  moduleNameMapper,
  testEnvironment: 'node',
};

module.exports = {
  // Jest's default is one worker per core minus one, which is a single worker on the 2-core CI
  // machine: the embedded suites (PGlite and the four apps in the worker's own process) then use
  // one core while the other waits. Two workers use both; more cores keep Jest's default.
  // JEST_MAX_WORKERS overrides it (1 to debug a suite alone).
  maxWorkers: process.env.JEST_MAX_WORKERS ?? Math.max(2, require('node:os').availableParallelism() - 1),
  // A worker keeps what every test file it ran left behind (each embedded file loads the four
  // apps, NestJS and a PGlite into a VM context of its own), and the last files of a worker ran
  // 3-5x slower than the same files early on (a CI rehearsal: unit specs of milliseconds took
  // 6-33 s at the end). Jest replaces a worker whose memory exceeds this after a file: the
  // clean-clone `npm test` went from 1,225 s to 716 s of Jest time on the same machine.
  workerIdleMemoryLimit: '1GB',
  // CI (.ci/run) sets PAYGRID_TEST_TALLY: each run also appends its counts there, and CI's last
  // line adds them up (scripts/test-tally.mjs).
  reporters: process.env.PAYGRID_TEST_TALLY
    ? ['default', `${__dirname}/scripts/jest-tally-reporter.cjs`]
    : ['default'],
  projects: [
    {
      ...base,
      displayName: 'unit',
      testMatch: ['<rootDir>/{apps,libs}/*/src/**/*.spec.ts', '<rootDir>/tests/unit/**/*.test.ts'],
    },
    {
      ...base,
      displayName: 'embedded',
      // tests/browser: a real chromium against the embedded platform (tests/support/browser.ts).
      testMatch: [
        '<rootDir>/tests/integration/**/*.test.ts',
        '<rootDir>/tests/embedded/**/*.test.ts',
        '<rootDir>/tests/browser/**/*.test.ts',
      ],
      setupFiles: ['<rootDir>/tests/setup/embedded.js'],
      setupFilesAfterEnv: ['<rootDir>/tests/setup/timeout-60s.js'],
    },
    {
      ...base,
      displayName: 'distributed',
      testMatch: ['<rootDir>/tests/integration/**/*.test.ts', '<rootDir>/tests/distributed/**/*.test.ts'],
      setupFiles: ['<rootDir>/tests/setup/distributed.js'],
      setupFilesAfterEnv: ['<rootDir>/tests/setup/timeout-120s.js'],
    },
    // Costs that stay flat (docs/scaling.md): EXPLAIN of every hot-path statement against
    // 1,000,000 seeded rows on the real PostgreSQL; run in CI after the distributed suites.
    {
      ...base,
      displayName: 'plans',
      testMatch: ['<rootDir>/tests/plans/**/*.test.ts'],
      setupFiles: ['<rootDir>/tests/setup/distributed.js'],
      setupFilesAfterEnv: ['<rootDir>/tests/setup/timeout-120s.js'],
    },
    // Contract fuzz (npm run test:contract): fast-check requests from the OpenAPI document.
    {
      ...base,
      displayName: 'contract',
      testMatch: ['<rootDir>/tests/contract/**/*.test.ts'],
      setupFiles: ['<rootDir>/tests/setup/embedded.js'],
      setupFilesAfterEnv: ['<rootDir>/tests/setup/timeout-60s.js'],
    },
    {
      ...base,
      displayName: 'contract-distributed',
      testMatch: ['<rootDir>/tests/contract/**/*.test.ts'],
      setupFiles: ['<rootDir>/tests/setup/distributed.js'],
      setupFilesAfterEnv: ['<rootDir>/tests/setup/timeout-120s.js'],
    },
    // Reliability suite (npm run test:chaos): the checker's own unit tests run here; the
    // fault run itself is scripts/chaos.mjs (real infrastructure, real processes).
    {
      ...base,
      displayName: 'chaos',
      testMatch: ['<rootDir>/tests/chaos/**/*.test.ts'],
      setupFiles: ['<rootDir>/tests/setup/embedded.js'],
      setupFilesAfterEnv: ['<rootDir>/tests/setup/timeout-60s.js'],
    },
    {
      ...base,
      displayName: 'chaos-run',
      testMatch: ['<rootDir>/tests/chaos/**/*.chaos.ts'],
      setupFiles: ['<rootDir>/tests/setup/distributed.js'],
      setupFilesAfterEnv: ['<rootDir>/tests/setup/timeout-120s.js'],
    },
  ],
};
