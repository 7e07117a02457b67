// The embedded default: the four apps in one Node process on one port, with PGlite as the
// database (through the Postgres wire protocol, so the production driver and migrations run
// unchanged) and the embedded event bus. This is the composition root, not a fifth service:
// it only wires the apps together the way the distributed deployment does with processes.

import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createGateway, InjectUpstream, readGatewayConfig, type Gateway } from '@paygrid/gateway';
import { createInvoicing, readInvoicingConfig, type InvoicingService } from '@paygrid/invoicing';
import { createPayments, readPaymentsConfig, SecretBox, type PaymentsService } from '@paygrid/payments';
import {
  createLogger,
  EmbeddedBus,
  Metrics,
  makePrivate,
  PRIVATE_DIR_MODE,
  randomBase62,
  startEmbeddedDatabase,
  type Clock,
  type EmbeddedDatabase,
  type Logger,
} from '@paygrid/platform';
import { createWebhooks, readWebhooksConfig, type WebhooksService } from '@paygrid/webhooks';

export interface EmbeddedOptions {
  /** Where data lives; "memory://" keeps everything in memory (tests). */
  dataDir: string;
  port: number;
  host?: string;
  env?: Record<string, string | undefined>;
  logger?: Logger;
  clock?: Clock;
  /** Create the demo account and key on first start. */
  demo?: boolean;
  /**
   * With "memory://": the database starts from this image (`emptyDatabaseImage()`) instead of
   * running initdb, for callers that start many in-memory platforms (the test suites).
   */
  databaseImage?: Blob;
}

export interface DemoCredentials {
  account: string;
  secret_key: string;
}

export interface Embedded {
  url: string;
  gateway: Gateway;
  /** The services behind the gateway (tests reach their internal routes, e.g. /openapi.json). */
  services: { payments: PaymentsService; invoicing: InvoicingService; webhooks: WebhooksService };
  operatorToken: string;
  demo?: DemoCredentials;
  /** The process's Prometheus registry (served on METRICS_PORT by main.ts when set). */
  metrics: Metrics;
  stop(): Promise<void>;
  /**
   * Stops like `stop()` and answers the database as an image: with "memory://", a later
   * start from it (`databaseImage`) finds every migration applied. The test harness builds one
   * per run from a platform started and stopped at once.
   */
  stopToImage(): Promise<Blob>;
}

function operatorTokenFor(dataDir: string, env: Record<string, string | undefined>): string {
  if (env.OPERATOR_TOKEN) return env.OPERATOR_TOKEN;
  if (dataDir.startsWith('memory://')) return `op_${randomBase62(40)}`;
  const file = join(dataDir, 'operator-token');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  const token = `op_${randomBase62(40)}`;
  writeFileSync(file, `${token}\n`, { mode: 0o600 });
  return token;
}

/**
 * The key ring that seals processor credentials (PROCESSOR_SECRETS_KEYS): the operator's if
 * set, else one generated on first start into DATA_DIR (0600, beside the database it protects;
 * back both up together, or the sealed credentials cannot be opened).
 */
function processorSecretsKeysFor(dataDir: string, env: Record<string, string | undefined>): string {
  if (env.PROCESSOR_SECRETS_KEYS) return env.PROCESSOR_SECRETS_KEYS;
  if (dataDir.startsWith('memory://')) return SecretBox.generateEntry('k1');
  const file = join(dataDir, 'processor-secrets-keys');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  const keys = SecretBox.generateEntry('k1');
  writeFileSync(file, `${keys}\n`, { mode: 0o600 });
  return keys;
}

async function ensureDemo(gateway: Gateway, dataDir: string): Promise<DemoCredentials> {
  const file = dataDir.startsWith('memory://') ? undefined : join(dataDir, 'demo.json');
  if (file && existsSync(file)) return JSON.parse(readFileSync(file, 'utf8')) as DemoCredentials;
  const account = await gateway.accounts.createAccount({
    name: 'Demo account',
    groupings: ['payments', 'invoicing'],
  });
  const key = await gateway.accounts.createKey({ account: account.id, livemode: false, kind: 'secret' });
  const demo = { account: account.id, secret_key: key.secret };
  // Only a hash of the key is in the database; this local file is what lets `npm start`
  // show the demo key again on the next start. It is a sandbox key of a local install.
  if (file) writeFileSync(file, `${JSON.stringify(demo, null, 2)}\n`, { mode: 0o600 });
  return demo;
}

export async function startEmbedded(options: EmbeddedOptions): Promise<Embedded> {
  const env = options.env ?? {};
  const logger = options.logger ?? createLogger('paygrid', env.LOG_LEVEL ?? 'info');
  const memory = options.dataDir.startsWith('memory://');
  // DATA_DIR holds the database, the operator token and the demo key: the service's user only.
  if (!memory) {
    mkdirSync(options.dataDir, { recursive: true, mode: PRIVATE_DIR_MODE });
    makePrivate(options.dataDir);
  }
  const database = memory
    ? await startEmbeddedDatabase('memory://', 0, { image: options.databaseImage })
    : await startEmbeddedDatabase(join(options.dataDir, 'pg'));
  // What has started so far, stopped in reverse if a later step fails (a bad setting, a
  // failed migration), so a failed start leaves no open database or timers behind.
  const started: Array<() => Promise<void>> = [() => database.close()];
  try {
    return await startApps(options, env, logger, database, started);
  } catch (error) {
    for (const stop of started.reverse()) await stop().catch(() => undefined);
    throw error;
  }
}

async function startApps(
  options: EmbeddedOptions,
  env: Record<string, string | undefined>,
  logger: Logger,
  database: EmbeddedDatabase,
  started: Array<() => Promise<void>>,
): Promise<Embedded> {
  // One registry for the process: the four apps label their series with their service.
  const metrics = new Metrics();
  const bus = new EmbeddedBus(database.url, logger.child({ service: 'bus' }));
  started.push(() => bus.close());
  await bus.connect();

  const operatorToken = operatorTokenFor(options.dataDir, env);
  const shared = {
    ...env,
    PAYGRID_MODE: 'embedded',
    DATABASE_URL: database.url,
    // One process: the internal context never leaves it, so a per-start secret is enough.
    INTERNAL_SIGNING_SECRET: randomBase62(48),
    OPERATOR_TOKEN: operatorToken,
    PROCESSOR_SECRETS_KEYS: processorSecretsKeysFor(options.dataDir, env),
    PORT: String(options.port),
  };
  // Read first: a configuration problem stops the start before anything else runs.
  const gatewayConfig = readGatewayConfig(shared);
  const deps = { metrics, bus, clock: options.clock };
  const payments = await createPayments(readPaymentsConfig(shared), {
    ...deps,
    logger: logger.child({ service: 'payments' }),
  });
  started.push(() => payments.stop());
  const invoicing = await createInvoicing(readInvoicingConfig(shared), {
    ...deps,
    logger: logger.child({ service: 'invoicing' }),
  });
  started.push(() => invoicing.stop());
  const webhooks = await createWebhooks(readWebhooksConfig(shared), {
    ...deps,
    logger: logger.child({ service: 'webhooks' }),
  });
  started.push(() => webhooks.stop());
  const upstream = new InjectUpstream(
    {
      payments: payments.app.getHttpAdapter().getInstance(),
      invoicing: invoicing.app.getHttpAdapter().getInstance(),
      webhooks: webhooks.app.getHttpAdapter().getInstance(),
    },
    gatewayConfig.upstreamTimeoutMs,
    gatewayConfig.internalSecret,
  );
  const gateway = await createGateway(gatewayConfig, {
    upstream,
    logger: logger.child({ service: 'gateway' }),
    metrics,
  });
  started.push(() => gateway.stop());
  const demo = options.demo === false ? undefined : await ensureDemo(gateway, options.dataDir);
  const url = await gateway.listen(options.port, options.host ?? '127.0.0.1');
  const stopServices = async () => {
    await gateway.stop();
    await Promise.all([payments.stop(), invoicing.stop(), webhooks.stop()]);
    await bus.close();
  };

  return {
    url,
    gateway,
    services: { payments, invoicing, webhooks },
    operatorToken,
    demo,
    metrics,
    async stop() {
      await stopServices();
      await database.close();
    },
    async stopToImage() {
      await stopServices();
      return database.closeToImage();
    },
  };
}
