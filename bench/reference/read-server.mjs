#!/usr/bin/env node
// The reference of the authenticated read (issue 15): a bare Fastify + pg server doing what
// `GET /v1/merchants` needs and nothing else, on the same PostgreSQL as the service.
//
//   key lookup   SHA-256 of the bearer key, then the gateway's own query (gateway.api_keys ⋈
//                gateway.accounts by secret_hash), cached per key for 60 s as the gateway does
//   query        the page the payments service reads: the account's merchants in its mode,
//                newest first, limit + 1 (libs/platform paginate), answered as a list
//
// No validation, no internal context, no second hop, no logging: the least work the read
// needs. Prints {"url": ...} on its first line once listening (port 0: a free port).
//
//   DATABASE_URL=... node bench/reference/read-server.mjs

import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
// The Fastify the gateway runs and the pg the platform runs (the same versions as the service).
const fastify = createRequire(join(ROOT, 'apps', 'gateway', 'package.json'))('fastify');
const platformRequire = createRequire(
  createRequire(join(ROOT, 'bench', 'package.json')).resolve('@paygrid/platform'),
);
const { Pool } = platformRequire('pg');

const pool = new Pool({ connectionString: process.env.DATABASE_URL, max: 20 });
const cache = new Map();
const TTL_MS = 60_000;

async function authenticate(secret) {
  const hash = createHash('sha256').update(secret).digest();
  const cacheKey = hash.toString('base64');
  const hit = cache.get(cacheKey);
  if (hit && hit.expires > Date.now()) return hit.value;
  const { rows } = await pool.query({
    name: 'key',
    text: `select k.id, k.livemode, k.revoked_at, k.expires_at, a.id as account_id, a.status
             from gateway.api_keys k join gateway.accounts a on a.id = k.account_id where k.secret_hash = $1`,
    values: [hash],
  });
  const value = rows[0] ?? null;
  cache.set(cacheKey, { value, expires: Date.now() + TTL_MS });
  return value;
}

const app = fastify({ logger: false });
app.get('/v1/merchants', async (request, reply) => {
  const match = /^bearer +(\S+)$/i.exec(request.headers.authorization ?? '');
  const key = match && (await authenticate(match[1]));
  if (!key || key.revoked_at || key.status !== 'active')
    return reply.status(401).send({ error: 'invalid_api_key' });
  const limit = Math.min(100, Number(request.query.limit ?? 10) || 10);
  const { rows } = await pool.query({
    name: 'merchants',
    text: `select * from payments.merchants where account_id = $1 and livemode = $2
             order by created_at desc, id desc limit $3`,
    values: [key.account_id, key.livemode, limit + 1],
  });
  return { object: 'list', data: rows.slice(0, limit), has_more: rows.length > limit, url: '/v1/merchants' };
});

const url = await app.listen({ port: 0, host: '127.0.0.1' });
process.stdout.write(`${JSON.stringify({ url })}\n`);
for (const signal of ['SIGTERM', 'SIGINT']) {
  process.once(signal, () => {
    void app
      .close()
      .then(() => pool.end())
      .then(() => process.exit(0));
  });
}
