#!/usr/bin/env node
// The reference of webhook delivery (issue 15): a bare undici loop posting the same signed
// payloads as the webhooks worker to the same receiver, and nothing else (no claim, no lease,
// no attempt row, no SSRF check, keep-alive connections). Run by bench/webhooks.mjs as a
// process of its own, like the webhooks service it stands for.
//
//   RECEIVER=http://127.0.0.1:PORT PATHS='["/max/0",...]' COUNT=4000 TAG=abcd \
//     node bench/reference/delivery-loop.mjs
//
// Payloads: the backlog's (webhooks.mjs maxDeliveries: an event of ~1 KiB with a padding
// field), signed per Standard Webhooks with the webhooks service's own `sign` (HMAC-SHA256 over
// id.timestamp.body). At most 10 in flight per endpoint path, as the worker's per-endpoint cap,
// and 200 in all, as one worker. Prints {"sent": n, "failed": n} when done.

import { randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const require = createRequire(join(ROOT, 'bench', 'package.json'));
const { Pool } = require('undici');
const { sign } = require(join(ROOT, 'apps', 'webhooks', 'dist', 'delivery', 'signing.js'));

const PER_ENDPOINT = 10;
const IN_FLIGHT = 200;
const receiver = process.env.RECEIVER;
const paths = JSON.parse(process.env.PATHS);
const count = Number(process.env.COUNT);
const tag = process.env.TAG;
const secret = `whsec_${randomBytes(32).toString('base64')}`;
const padding = 'x'.repeat(700);
const pool = new Pool(receiver, { connections: IN_FLIGHT, pipelining: 1, keepAliveTimeout: 30_000 });

// One queue per endpoint path, as the deliveries are spread over the endpoints.
const queues = paths.map(() => []);
for (let g = 1; g <= count; g++) queues[g % paths.length].push(g);

let sent = 0;
let failed = 0;
async function deliver(path, g) {
  const id = `evt_b${tag}${g}`;
  const body = JSON.stringify({
    id,
    object: 'event',
    type: 'bench.delivery',
    account: 'acct_reference',
    livemode: false,
    created_at: new Date().toISOString(),
    data: { object: { id: `obj_b${tag}${g}`, padding } },
  });
  const timestamp = Math.floor(Date.now() / 1000);
  try {
    const response = await pool.request({
      method: 'POST',
      path,
      headers: {
        'content-type': 'application/json',
        'webhook-id': id,
        'webhook-timestamp': String(timestamp),
        'webhook-signature': sign(secret, id, timestamp, body),
        'user-agent': 'Paygrid-Webhooks/1',
      },
      body,
      headersTimeout: 15_000,
      bodyTimeout: 15_000,
    });
    await response.body.dump();
    if (response.statusCode >= 200 && response.statusCode < 300) sent++;
    else failed++;
  } catch {
    failed++;
  }
}

// Each endpoint path gets PER_ENDPOINT lanes (IN_FLIGHT in all at most).
const lanes = Math.min(PER_ENDPOINT, Math.max(1, Math.floor(IN_FLIGHT / paths.length)));
await Promise.all(
  paths.flatMap((path, i) =>
    Array.from({ length: lanes }, async () => {
      for (let g = queues[i].shift(); g !== undefined; g = queues[i].shift()) await deliver(path, g);
    }),
  ),
);
await pool.close();
process.stdout.write(`${JSON.stringify({ sent, failed })}\n`);
