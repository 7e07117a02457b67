#!/usr/bin/env node
// The embedded platform as a bench target, in a process of its own: startEmbedded() of
// apps/embedded (PGlite in memory, the embedded bus, the three services injected into the
// gateway) on a free port, plus the payments app listening on a port of its own so the bench
// can call the service straight, bypassing the gateway. Prints one JSON line with the URLs
// and the secrets the bench needs, then runs until SIGTERM.
//
//   node bench/lib/embedded-target.mjs   (needs a prior build: npm run build)

import { randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const require = createRequire(import.meta.url);
require('reflect-metadata');
const { createLogger } = require('@paygrid/platform');
const { startEmbedded } = require(join(ROOT, 'apps', 'embedded', 'dist', 'index.js'));

async function main() {
  const embedded = await startEmbedded({
    dataDir: 'memory://',
    port: 0,
    demo: false,
    env: {
      OPERATOR_TOKEN: `op_${randomBytes(24).toString('hex')}`,
      // The run's stripe-mock (lib/stripe-mock.mjs), for the checkout-through-Stripe row.
      ...(process.env.STRIPE_API_BASE ? { STRIPE_API_BASE: process.env.STRIPE_API_BASE } : {}),
      // An A/B of named prepared statements and pipelining (false: as before 2026-12-07, when
      // the embedded database had neither; bench/README.md finding 61).
      ...(process.env.PAYGRID_DB_PREPARED_STATEMENTS
        ? { PAYGRID_DB_PREPARED_STATEMENTS: process.env.PAYGRID_DB_PREPARED_STATEMENTS }
        : {}),
      ...(process.env.PAYGRID_DB_PIPELINE ? { PAYGRID_DB_PIPELINE: process.env.PAYGRID_DB_PIPELINE } : {}),
    },
    logger: createLogger('bench-embedded', process.env.LOG_LEVEL ?? 'warn'),
  });
  const payments = embedded.services.payments;
  await payments.app.listen({ port: 0, host: '127.0.0.1' });
  process.stdout.write(
    `${JSON.stringify({
      gateway: embedded.url,
      payments: `http://127.0.0.1:${payments.app.getHttpServer().address().port}`,
      // Generated per start by startEmbedded; the bench signs its direct requests with it.
      internal_secret: payments.runtime.config.internalSecret,
      operator_token: embedded.operatorToken,
      // PGlite over the wire protocol: the bench seeds and inspects through it.
      database_url: payments.runtime.config.databaseUrl,
    })}\n`,
  );
  const stop = async () => {
    await embedded.stop();
    process.exit(0);
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

main().catch((error) => {
  process.stderr.write(`[embedded-target] ${error?.stack ?? error}\n`);
  process.exit(1);
});
