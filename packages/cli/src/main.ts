#!/usr/bin/env node
// The `paygrid` executable (package.json "bin"): runs the command, Ctrl-C stops `listen`.

import { run } from './cli';

const stop = new AbortController();
process.once('SIGINT', () => stop.abort());
run(process.argv.slice(2), {
  out: (text) => process.stdout.write(`${text}\n`),
  err: (text) => process.stderr.write(`${text}\n`),
  env: process.env,
  signal: stop.signal,
}).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(
      `paygrid: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    process.exitCode = 1;
  },
);
