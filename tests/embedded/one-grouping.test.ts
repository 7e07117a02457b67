// One grouping alone (issue 18 item 6, gateway part): with PAYGRID_SERVICES=payments,webhooks
// the gateway routes only to those services; an invoicing URL is a catalogued 404
// service_not_installed (not a 503 while it waits for a service that is not there), and
// /health and the OpenAPI document describe only what is installed. And the same for an
// invoicing-only installation.

import { startEmbedded, type Embedded } from '@paygrid/embedded';
import { createLogger } from '@paygrid/platform';

async function withServices(services: string, check: (embedded: Embedded, key: string) => Promise<void>) {
  const embedded = await startEmbedded({
    dataDir: 'memory://',
    port: 0,
    logger: createLogger('test', 'silent'),
    env: { PAYGRID_SERVICES: services },
  });
  try {
    await check(embedded, embedded.demo?.secret_key as string);
  } finally {
    await embedded.stop();
  }
}

const get = (embedded: Embedded, key: string | undefined, path: string) =>
  fetch(`${embedded.url}${path}`, { headers: key ? { authorization: `Bearer ${key}` } : {} });

it('a payments-only installation: invoicing routes are 404 service_not_installed', async () => {
  await withServices('payments,webhooks', async (embedded, key) => {
    expect((await get(embedded, key, '/v1/merchants')).status).toBe(200);
    expect((await get(embedded, key, '/v1/events')).status).toBe(200);
    for (const path of [
      '/v1/invoices',
      '/v1/customers',
      '/v1/subscriptions',
      '/i/sometoken',
      '/q/sometoken',
    ]) {
      const answer = await get(embedded, path.startsWith('/v1') ? key : undefined, path);
      const body = (await answer.json()) as { error: { code: string } };
      expect([path, answer.status, body.error.code]).toEqual([path, 404, 'service_not_installed']);
    }
    const health = (await (await get(embedded, undefined, '/health')).json()) as {
      status: string;
      services: Record<string, unknown>;
    };
    expect(Object.keys(health.services).sort()).toEqual(['gateway', 'payments', 'webhooks']);
    expect(health.status).toBe('ok');
    const document = (await (await get(embedded, undefined, '/v1/openapi.json')).json()) as {
      paths: Record<string, unknown>;
    };
    const paths = Object.keys(document.paths);
    expect(paths).toContain('/v1/merchants');
    expect(
      paths.filter((p) => /^\/v1\/(invoices|customers|estimates|subscriptions|test-clocks)/.test(p)),
    ).toEqual([]);
  });
});

it('an invoicing-only installation: payments routes are 404 service_not_installed', async () => {
  await withServices('invoicing,webhooks', async (embedded, key) => {
    expect((await get(embedded, key, '/v1/customers')).status).toBe(200);
    for (const path of ['/v1/merchants', '/v1/payment-links', '/v1/transactions', '/pay/plink_x']) {
      const answer = await get(embedded, path.startsWith('/v1') ? key : undefined, path);
      const body = (await answer.json()) as { error: { code: string } };
      expect([path, answer.status, body.error.code]).toEqual([path, 404, 'service_not_installed']);
    }
    const health = (await (await get(embedded, undefined, '/health')).json()) as {
      status: string;
      services: Record<string, unknown>;
    };
    expect(Object.keys(health.services).sort()).toEqual(['gateway', 'invoicing', 'webhooks']);
    const document = (await (await get(embedded, undefined, '/v1/openapi.json')).json()) as {
      paths: Record<string, unknown>;
    };
    expect(
      Object.keys(document.paths).filter((p) => /^\/v1\/(merchants|payment-links|refunds)/.test(p)),
    ).toEqual([]);
  });
});

it('refuses a configuration without either grouping', async () => {
  await expect(
    startEmbedded({
      dataDir: 'memory://',
      port: 0,
      logger: createLogger('test', 'silent'),
      env: { PAYGRID_SERVICES: 'webhooks' },
    }),
  ).rejects.toThrow(/PAYGRID_SERVICES must include payments or invoicing/);
});
