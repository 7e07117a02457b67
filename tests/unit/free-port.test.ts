// The test harness's freePort: a port is free when drawn but taken only when the service
// listens, so draws made before anything listens must not repeat (a distributed suite's
// process died on EADDRINUSE when two of its eight draws coincided, CI 2026-12-03).

import { freePort } from '../support/harness';

test('sixty draws in a row, before anything listens, give sixty ports', async () => {
  const ports: number[] = [];
  for (let i = 0; i < 60; i++) ports.push(await freePort());
  expect(new Set(ports).size).toBe(60);
});
