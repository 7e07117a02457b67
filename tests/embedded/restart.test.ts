// The embedded default keeps all data across restarts (PGlite persisted under DATA_DIR).

import { mkdtempSync, rmSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEmbedded } from '@paygrid/embedded';
import { createLogger } from '@paygrid/platform';

it('keeps accounts, keys, merchants and events after a restart, with the same demo key', async () => {
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
    }).then((r) => r.json());
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
      expect((await fetched.json()).business_name).toBe('Persisted');
    } finally {
      await second.stop();
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
});
