#!/usr/bin/env node
// Writes the public OpenAPI document to a file (default: dist/openapi.json) for Spectral and
// anyone who wants it without running the server: boots the embedded platform in memory on
// a free port, fetches GET /v1/openapi.json (exactly what the gateway serves), and stops.
// Needs the build (`npm run build`).

import { mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const out = resolve(process.argv[2] ?? join(root, 'dist', 'openapi.json'));
const require = createRequire(import.meta.url);

let startEmbedded, createLogger;
try {
  ({ startEmbedded } = require(join(root, 'apps', 'embedded', 'dist', 'embedded.js')));
  ({ createLogger } = require(join(root, 'libs', 'platform', 'dist', 'index.js')));
} catch (error) {
  console.error(`openapi: the build is missing (run \`npm run build\` first): ${error.message}`);
  process.exit(1);
}

const embedded = await startEmbedded({
  dataDir: 'memory://',
  port: 0,
  demo: false,
  env: { PUBLIC_BASE_URL: process.env.PUBLIC_BASE_URL ?? 'http://localhost:3000' },
  logger: createLogger('openapi', process.env.LOG_LEVEL ?? 'warn'),
});
let code = 0;
try {
  const response = await fetch(`${embedded.url}/v1/openapi.json`);
  const text = await response.text();
  if (response.status !== 200) throw new Error(`GET /v1/openapi.json answered ${response.status}: ${text}`);
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, `${JSON.stringify(JSON.parse(text), null, 2)}\n`);
  const operations = Object.values(JSON.parse(text).paths).flatMap((item) => Object.keys(item)).length;
  console.error(`openapi: wrote ${out} (${operations} operations)`);
} catch (error) {
  console.error(`openapi: ${error.message}`);
  code = 1;
} finally {
  await embedded.stop();
}
process.exit(code);
