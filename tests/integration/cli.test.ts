// The `paygrid` CLI (packages/cli) against the platform, in both run modes: login keeps the
// key in a 0600 file, get/post/delete print tables or JSON with the admin CLI's exit codes,
// and `trigger` causes every event type it knows, each reaching a local endpoint through
// `listen` (the event stream), re-signed with the session secret and verified by the SDK.

import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { listen, run, TRIGGERS, type Io } from '@paygrid/cli';
import { EVENT_OBJECTS } from '@paygrid/contracts';
import { Paygrid, verify } from '@paygrid/sdk';
import { eventually, usePlatform } from '../support/platform';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver';

const suite = usePlatform();
const home = mkdtempSync(join(tmpdir(), 'paygrid-cli-'));
const configFile = join(home, 'paygrid.json');

async function cli(...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  // run() with an Io: what main.ts passes, but captured.
  const io: Io = {
    out: (t) => out.push(t),
    err: (t) => err.push(t),
    env: { PAYGRID_CONFIG: configFile },
    home,
  };
  const code = await run(argv, io);
  return { code, out: out.join('\n'), err: err.join('\n') };
}

beforeAll(async () => {
  const login = await cli('login', '--key', suite.account.testKey, '--base-url', suite.platform.url);
  expect(login).toMatchObject({ code: 0 });
});

describe('paygrid', () => {
  it('login keeps the key per profile in a file only its owner can read, and refuses a bad key', async () => {
    expect(statSync(configFile).mode & 0o777).toBe(0o600);
    const stored = JSON.parse(readFileSync(configFile, 'utf8'));
    expect(stored.profiles.default).toEqual({ key: suite.account.testKey, base_url: suite.platform.url });
    const bad = await cli(
      'login',
      '--profile',
      'bad',
      '--key',
      'sk_test_nope0000000000000000',
      '--base-url',
      suite.platform.url,
    );
    expect(bad.code).toBe(1);
    expect(bad.err).toContain('invalid_api_key');
    expect(JSON.parse(readFileSync(configFile, 'utf8')).profiles.bad).toBeUndefined();
    expect((await cli('login')).code).toBe(2);
    expect((await cli('get', '/v1/events', '--profile', 'nobody')).code).toBe(2);
  });

  it('get/post/delete: typed -d data, tables, --json, and the exit codes', async () => {
    const created = await cli(
      'post',
      '/v1/payment-links',
      '-d',
      'amount=1500',
      '-d',
      'currency=EUR',
      '-d',
      'metadata[order]:="7"',
      '--json',
    );
    expect(created.code).toBe(0);
    const link = JSON.parse(created.out);
    expect(link).toMatchObject({ object: 'payment_link', amount: 1500, metadata: { order: '7' } });
    const shown = await cli('get', `/v1/payment-links/${link.id}`);
    expect(shown.out).toMatch(new RegExp(`^id\\s+${link.id}$`, 'm'));
    const listed = await cli('get', '/v1/payment-links', '-d', 'limit=5');
    expect(listed.out.split('\n')[0]).toMatch(/^ID\s+/);
    expect(listed.out).toContain(link.id);
    const customer = JSON.parse((await cli('post', '/v1/customers', '-d', 'name=Ada', '--json')).out);
    expect((await cli('delete', `/v1/customers/${customer.id}`)).code).toBe(0);
    const missing = await cli('get', '/v1/payment-links/plink_doesnotexist0000');
    expect(missing).toMatchObject({ code: 1 });
    expect(missing.err).toMatch(/404 resource_missing: .* \[req_/);
    expect((await cli('post', '/v1/payment-links', '-d', 'amount=-1', '-d', 'currency=EUR')).err).toContain(
      '(amount)',
    );
    expect((await cli('frobnicate')).code).toBe(2);
    expect((await cli('get', 'payment-links')).code).toBe(2);
    expect((await cli('post', '/v1/payment-links', '-d', 'no-equals')).code).toBe(2);
    expect((await cli('trigger', 'payment.exploded')).code).toBe(2);
  });

  it('typed commands: create, list as a table, actions, --json, and the exit codes', async () => {
    const created = await cli(
      'payment-links',
      'create',
      '--amount',
      '1000',
      '--currency',
      'eur',
      '--max-completions',
      '1',
    );
    expect(created).toMatchObject({ code: 0 });
    expect(created.out).toMatch(/^amount +1000$/m);
    expect(created.out).toMatch(/^currency +EUR$/m);
    const id = /^id +(plink_\w+)$/m.exec(created.out)?.[1];
    expect(id).toBeDefined();
    const fetched = await cli('payment-links', 'get', String(id), '--json');
    expect(JSON.parse(fetched.out)).toMatchObject({ id, amount: 1000, max_completions: 1 });

    const customer = await cli(
      'customers',
      'create',
      '--name',
      'Typed Ltd',
      '--email',
      'typed@cli.test',
      '--json',
    );
    const customerId = JSON.parse(customer.out).id;
    const listed = await cli('customers', 'list', '--limit', '100');
    expect(listed).toMatchObject({ code: 0 });
    const [header, ...rows] = listed.out.split('\n');
    expect(header.split(/ {2,}/)).toEqual(['ID', 'NAME', 'EMAIL', 'CURRENCY']);
    expect(rows.find((row) => row.startsWith(customerId))).toContain('typed@cli.test');

    const invoice = await cli(
      'invoices',
      'create',
      '--customer',
      customerId,
      '--currency',
      'eur',
      '--collection-method',
      'send_invoice',
      '--days-until-due',
      '30',
      '--lines[0][description]',
      'Typed',
      '--lines[0][quantity]',
      '1',
      '--lines[0][unit_amount]',
      '700',
      '--send',
      'false',
      '--json',
    );
    expect(invoice).toMatchObject({ code: 0 });
    const invoiceId = JSON.parse(invoice.out).id;
    expect((await cli('invoices', 'finalize', invoiceId)).code).toBe(0);
    const paid = await cli('invoices', 'pay', invoiceId, '--paid-out-of-band', '--json');
    expect(JSON.parse(paid.out)).toMatchObject({ id: invoiceId, status: 'paid' });

    // The server checks the fields: an unknown one and a bad value are API errors (1).
    const unknown = await cli('customers', 'create', '--name', 'X', '--frobnicate', '1');
    expect(unknown.code).toBe(1);
    expect(unknown.err).toContain('(frobnicate)');
    expect((await cli('payment-links', 'create', '--amount', '-5', '--currency', 'eur')).err).toContain(
      '(amount)',
    );
    // Usage errors (2): an action the resource lacks, a missing id, a stray word.
    expect((await cli('transactions', 'create', '--amount', '1')).code).toBe(2);
    expect((await cli('customers', 'get')).code).toBe(2);
    expect((await cli('customers', 'list', 'stray')).code).toBe(2);
    expect((await cli('customers', 'frobnicate')).err).toContain('customers: list|get <id>|create');
  });

  describe('trigger, through listen', () => {
    let receiver: WebhookReceiver;
    let listening: Promise<number>;
    const stop = new AbortController();
    const secret = 'whsec_' + Buffer.alloc(32, 7).toString('base64');
    const lines: string[] = [];

    beforeAll(async () => {
      receiver = await startWebhookReceiver();
      let ready!: () => void;
      const started = new Promise<void>((resolve) => (ready = resolve));
      // listen() as `paygrid listen --forward-to` runs it, with a fixed secret so the
      // receiver can check the signatures (the command prints a random one).
      listening = listen(new Paygrid(suite.account.testKey, { baseUrl: suite.platform.url }), {
        forwardTo: receiver.url,
        signal: stop.signal,
        json: false,
        out: (t) => lines.push(t),
        err: (t) => t.startsWith('Ready') && ready(),
        secret,
      });
      await started;
    });

    afterAll(async () => {
      stop.abort();
      expect(await listening).toBe(0);
      await receiver?.stop();
    });

    // What no API call of an account can cause in the sandbox (none today: the sandbox's test
    // cards and test helpers reach every type). A new event type without a trigger, or one
    // marked `unsupported`, fails the first test below.
    const NOT_TRIGGERABLE: string[] = [];

    it('has a trigger for every event type of the catalogue but the listed ones', () => {
      const catalogue = Object.keys(EVENT_OBJECTS).sort();
      expect(Object.keys(TRIGGERS).sort()).toEqual(catalogue);
      const untriggerable = catalogue.filter(
        (type) => typeof TRIGGERS[type as keyof typeof TRIGGERS] !== 'function',
      );
      expect(untriggerable).toEqual(NOT_TRIGGERABLE);
    });

    const triggerable = Object.entries(TRIGGERS)
      .filter(([, recipe]) => typeof recipe === 'function')
      .map(([type]) => type);

    it.each(triggerable)(
      '%s reaches the listener, signed with the session secret',
      async (type) => {
        const before = receiver.received.length;
        const triggered = await cli('trigger', type);
        // The command's complaint, if any, is the failure's message.
        expect({ type, code: triggered.code, err: triggered.code ? triggered.err : '' }).toEqual({
          type,
          code: 0,
          err: '',
        });
        // A link's expiry waits for the payments job (every 10 s by default).
        const delivery = await eventually(
          async () => receiver.received.slice(before).find((r) => JSON.parse(r.body).type === type),
          30_000,
        );
        const event = verify(delivery.body, delivery.headers, secret);
        expect(event.type).toBe(type);
        expect(event.livemode).toBe(false);
        // The line is printed once the local answer is back, just after the receiver got it.
        await eventually(
          async () => lines.some((line) => line.includes(event.id) && line.includes('-> 200')) || undefined,
        );
        // A failed renewal waits up to 90 s for its charge (triggers-timed.ts), then the delivery.
      },
      180_000,
    );
  });
});
