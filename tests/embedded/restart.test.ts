// The embedded default keeps all data across restarts (PGlite persisted under DATA_DIR).

import { chmodSync, lstatSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEmbedded } from '@paygrid/embedded';
import { createLogger } from '@paygrid/platform';

// Each test starts the platform twice on a PGlite database on disk (initdb and every
// migration on the first start): about 16 s on a quiet 2-core machine, but over 60 s (the
// embedded project's default) in a CI rehearsal where every suite ran 1.5-5x slower.
const TWO_STARTS_MS = 180_000;

it(
  'keeps accounts, keys, merchants and events after a restart, with the same demo key',
  async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'paygrid-'));
    const logger = createLogger('test', 'silent');
    try {
      const first = await startEmbedded({ dataDir, port: 0, logger });
      const key = first.demo?.secret_key as string;
      expect(key).toMatch(/^sk_test_/);
      const created = await fetch(`${first.url}/v1/merchants`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ business_name: 'Persisted' }),
      }).then((r) => r.json() as Promise<{ id: string }>);
      await first.stop();

      const second = await startEmbedded({ dataDir, port: 0, logger });
      try {
        expect(second.demo?.secret_key).toBe(key);
        expect(second.operatorToken).toBe(first.operatorToken);
        expect(readFileSync(join(dataDir, 'operator-token'), 'utf8').trim()).toBe(first.operatorToken);
        const fetched = await fetch(`${second.url}/v1/merchants/${created.id}`, {
          headers: { authorization: `Bearer ${key}` },
        });
        expect(fetched.status).toBe(200);
        expect(((await fetched.json()) as { business_name: string }).business_name).toBe('Persisted');
      } finally {
        await second.stop();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  },
  TWO_STARTS_MS,
);

/** Paths under `dir` whose mode lets anyone but the owner in (issue 12 finding 3). */
function openToOthers(dir: string): string[] {
  const found: string[] = [];
  const walk = (path: string) => {
    const stat = lstatSync(path);
    if (stat.isSymbolicLink()) return;
    if ((stat.mode & 0o077) !== 0) found.push(`${path} ${(stat.mode & 0o777).toString(8)}`);
    if (stat.isDirectory()) for (const entry of readdirSync(path)) walk(join(path, entry));
  };
  walk(dir);
  return found;
}

it(
  'keeps DATA_DIR private: directories 0700 and files 0600 after each start',
  async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'paygrid-'));
    const logger = createLogger('test', 'silent');
    try {
      const first = await startEmbedded({ dataDir, port: 0, logger });
      expect(openToOthers(dataDir)).toEqual([]);
      await first.stop();
      // Whatever happened to the files meanwhile (PGlite writes 0666), the next start closes them.
      chmodSync(join(dataDir, 'pg', 'global', 'pg_control'), 0o666);
      chmodSync(join(dataDir, 'pg'), 0o755);
      const second = await startEmbedded({ dataDir, port: 0, logger });
      try {
        expect(openToOthers(dataDir)).toEqual([]);
        expect(statSync(join(dataDir, 'pg', 'global', 'pg_control')).mode & 0o777).toBe(0o600);
        expect(statSync(dataDir).mode & 0o777).toBe(0o700);
      } finally {
        await second.stop();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  },
  TWO_STARTS_MS,
);
