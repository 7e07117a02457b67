// The seller's identity (issue 17 item 1), in both modes: the account's business profile
// (GET/POST /v1/account, its logo), validated and scoped; then everywhere the seller shows:
// the invoice's seller snapshot, its PDF read back with pdftotext, the mail's From display
// name and Reply-To as a real SMTP server received them, the hosted invoice page, the checkout
// page (through payments' projection of account.updated), and a billing-engine invoice that
// names the plan and period in words.

import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { eventAbout } from '../support/events';
import { pathOf } from '../support/pages';
import { eventually, startPlatform, type Platform, type TestAccount } from '../support/platform';
import { startSmtpSink, type SmtpSink } from '../support/smtp-sink';

let platform: Platform;
let smtp: SmtpSink;
let dir: string;

beforeAll(async () => {
  smtp = await startSmtpSink();
  dir = await mkdtemp(join(tmpdir(), 'paygrid-account-profile-'));
  platform = await startPlatform({ env: { SMTP_URL: smtp.url, MAIL_FROM: 'Paygrid <no-reply@mail.test>' } });
});

afterAll(async () => {
  await platform?.stop();
  await smtp?.close();
  await rm(dir, { recursive: true, force: true });
});

async function pdfText(pdf: Buffer): Promise<string> {
  const file = join(dir, `${Math.random().toString(36).slice(2)}.pdf`);
  await writeFile(file, pdf);
  const { stdout } = await promisify(execFile)('pdftotext', ['-layout', file, '-']);
  return stdout;
}

/** A PNG: the 8-byte signature, then `size` bytes (the service checks the type by its first bytes). */
const png = (size = 64) =>
  Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(size, 7)]);

const PROFILE = {
  legal_name: 'Zoë Łukasiewicz Sp. z o.o.',
  trading_name: 'Zoë Studio',
  address: { line1: 'ul. Świętokrzyska 12', city: 'Warszawa', postal_code: '00-916', country: 'pl' },
  tax_ids: [{ type: 'eu_vat', value: 'pl 526-025-02-74' }],
  support_email: 'Billing@Zoe.example',
  support_phone: '+48 22 123 45 67',
  website: 'https://zoe.example',
  brand_color: '#0A7C59',
  statement_descriptor: 'ZOE STUDIO',
  invoice_footer: 'Zoë Studio, KRS 0000123456',
  payment_terms_days: 14,
};

describe('the business profile', () => {
  let account: TestAccount;
  const api = (method: string, path: string, body?: unknown) =>
    platform.api(account.testKey, method, path, body);

  beforeAll(async () => {
    account = await platform.newAccount(['payments', 'invoicing']);
  });

  it('starts empty, stores what is given (normalised), clears with null, and emits account.updated', async () => {
    const empty = await api('GET', '/v1/account');
    expect(empty.status).toBe(200);
    expect(empty.body).toMatchObject({
      id: account.id,
      object: 'account',
      legal_name: null,
      tax_ids: [],
      logo_url: null,
      version: 0,
      updated_at: null,
    });

    const saved = await api('POST', '/v1/account', PROFILE);
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({
      legal_name: 'Zoë Łukasiewicz Sp. z o.o.',
      address: { line1: 'ul. Świętokrzyska 12', line2: null, country: 'PL' },
      tax_ids: [{ type: 'eu_vat', value: 'PL5260250274' }],
      support_email: 'billing@zoe.example',
      brand_color: '#0a7c59',
      payment_terms_days: 14,
      version: 1,
    });
    expect((await api('GET', '/v1/account')).body).toEqual(saved.body);
    // The same profile from the live key: one per account.
    expect((await platform.api(account.liveKey, 'GET', '/v1/account')).body).toEqual(saved.body);

    const cleared = await api('POST', '/v1/account', { website: null });
    expect(cleared.body).toMatchObject({ website: null, version: 2, legal_name: PROFILE.legal_name });
    // Nothing changed: no new version, no event.
    expect((await api('POST', '/v1/account', { website: null })).body.version).toBe(2);

    const event = await eventAbout(platform, account.testKey, 'account.updated', account.id);
    expect(event.data.object.object).toBe('account');
    const versions = await eventually(async () => {
      const listed = await api('GET', '/v1/events?type=account.updated&limit=10');
      return listed.body.data.length === 2 ? listed.body.data : undefined;
    });
    expect(versions[0].data).toMatchObject({
      object: { version: 2, website: null },
      previous_attributes: { website: 'https://zoe.example' },
    });
  });

  it('refuses bad values and unknown fields with the error envelope', async () => {
    const cases: [unknown, string, string][] = [
      [{ tax_ids: [{ type: 'eu_vat', value: 'DE12345' }] }, 'parameter_invalid', 'tax_ids[0][value]'],
      [{ tax_ids: [{ type: 'eu_vat', value: 'GR123456789' }] }, 'parameter_invalid', 'tax_ids[0][value]'],
      [{ tax_ids: [{ type: 'eu_vat', value: 'US123456789' }] }, 'parameter_invalid', 'tax_ids[0][value]'],
      [{ tax_ids: [{ type: 'vat', value: 'DE123456789' }] }, 'parameter_invalid', 'tax_ids[0][type]'],
      [{ brand_color: 'green' }, 'parameter_invalid', 'brand_color'],
      [{ brand_color: '#12345' }, 'parameter_invalid', 'brand_color'],
      [{ statement_descriptor: 'ACME' }, 'parameter_invalid', 'statement_descriptor'],
      [{ statement_descriptor: 'ACME*STORE' }, 'parameter_invalid', 'statement_descriptor'],
      [{ statement_descriptor: '123456' }, 'parameter_invalid', 'statement_descriptor'],
      [{ support_email: 'not-an-address' }, 'parameter_invalid', 'support_email'],
      // 41 characters: the pattern's optional + came on top of its 40 (Schemathesis: an answer
      // longer than the object's 40).
      [{ support_phone: `+${'1'.repeat(40)}` }, 'parameter_invalid', 'support_phone'],
      [{ payment_terms_days: 400 }, 'parameter_invalid', 'payment_terms_days'],
      [{ address: { country: 'Poland' } }, 'parameter_invalid', 'address[country]'],
      [{ colour: '#ffffff' }, 'parameter_unknown', 'colour'],
    ];
    for (const [body, code, param] of cases) {
      const response = await api('POST', '/v1/account', body);
      expect({
        body,
        status: response.status,
        code: response.body.error?.code,
        param: response.body.error?.param,
      }).toEqual({
        body,
        status: 400,
        code,
        param,
      });
      expect(response.body.error.request_id).toBe(response.headers.get('request-id'));
    }
    // Valid numbers of other member states and types pass.
    const ok = await api('POST', '/v1/account', {
      tax_ids: [
        { type: 'eu_vat', value: 'DE123456789' },
        { type: 'eu_vat', value: 'FR40303265045' },
        { type: 'gb_vat', value: 'GB 123 4567 89' },
      ],
    });
    expect(ok.status).toBe(200);
    expect(ok.body.tax_ids.map((t: any) => t.value)).toEqual(['DE123456789', 'FR40303265045', 'GB123456789']);
  });

  it('takes a PNG or JPEG logo up to 512 KiB, told by its bytes, and serves it at a public URL', async () => {
    const tooBig = await api('POST', '/v1/account/logo', { file: png(512 * 1024).toString('base64') });
    expect(tooBig.status).toBe(400);
    expect(tooBig.body.error).toMatchObject({ code: 'parameter_invalid', param: 'file' });
    const gif = await api('POST', '/v1/account/logo', {
      file: Buffer.from('GIF89a-not-allowed').toString('base64'),
    });
    expect(gif.status).toBe(400);
    expect(gif.body.error).toMatchObject({ code: 'parameter_invalid', param: 'file' });
    expect(gif.body.error.message).toContain('PNG or JPEG');
    // Not base64 as the document's pattern states it (RFC 4648, padded, not empty): an empty
    // file was valid by the schema and refused by the server (Schemathesis ST202).
    for (const file of ['***', '', 'iVBORw0', 'iVBO\nRw0K']) {
      const notBase64 = await api('POST', '/v1/account/logo', { file });
      expect(notBase64.body.error).toMatchObject({ code: 'parameter_invalid', param: 'file' });
    }
    const extra = await api('POST', '/v1/account/logo', {
      file: png().toString('base64'),
      type: 'image/png',
    });
    expect(extra.body.error).toMatchObject({ code: 'parameter_unknown', param: 'type' });

    const logo = png(2048);
    const uploaded = await api('POST', '/v1/account/logo', { file: logo.toString('base64') });
    expect(uploaded.status).toBe(200);
    expect(uploaded.body.logo_url).toMatch(new RegExp(`/i/logos/${account.id}/[0-9a-f]{32}$`));
    const served = await fetch(`${platform.url}${pathOf(uploaded.body.logo_url)}`);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/png');
    expect(served.headers.get('cache-control')).toContain('immutable');
    expect(Buffer.from(await served.arrayBuffer()).equals(logo)).toBe(true);

    // A JPEG replaces it: a new URL; the old one is gone.
    const jpeg = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(100, 1)]);
    const replaced = await api('POST', '/v1/account/logo', { file: jpeg.toString('base64') });
    expect(replaced.body.logo_url).not.toBe(uploaded.body.logo_url);
    expect(
      (await fetch(`${platform.url}${pathOf(replaced.body.logo_url)}`)).headers.get('content-type'),
    ).toBe('image/jpeg');
    expect((await fetch(`${platform.url}${pathOf(uploaded.body.logo_url)}`)).status).toBe(404);
    const removed = await api('DELETE', '/v1/account/logo');
    expect(removed.body.logo_url).toBeNull();
    expect((await fetch(`${platform.url}${pathOf(replaced.body.logo_url)}`)).status).toBe(404);
  });

  it('needs account:read / account:write; each account sees its own profile; the operator sees any', async () => {
    const key = async (scopes: string[]) =>
      (
        await platform.admin('POST', `/admin/v1/accounts/${account.id}/keys`, {
          mode: 'test',
          kind: 'restricted',
          scopes,
        })
      ).body.secret as string;
    const readOnly = await key(['account:read']);
    const invoicesOnly = await key(['invoices:write']);
    expect((await platform.api(readOnly, 'GET', '/v1/account')).status).toBe(200);
    const denied = await platform.api(readOnly, 'POST', '/v1/account', { trading_name: 'Other' });
    expect(denied.status).toBe(403);
    expect(denied.body.error).toMatchObject({ code: 'insufficient_scope' });
    expect(denied.body.error.message).toContain('account:write');
    const noRead = await platform.api(invoicesOnly, 'GET', '/v1/account');
    expect(noRead.status).toBe(403);
    expect(noRead.body.error.message).toContain('account:read');

    const other = await platform.newAccount(['payments']);
    const theirs = await platform.api(other.testKey, 'GET', '/v1/account');
    expect(theirs.status).toBe(200);
    expect(theirs.body).toMatchObject({ id: other.id, legal_name: null, version: 0 });

    const viaAdmin = await platform.admin('GET', `/admin/v1/accounts/${account.id}/profile`);
    expect(viaAdmin.status).toBe(200);
    expect(viaAdmin.body).toMatchObject({ id: account.id, legal_name: PROFILE.legal_name });
    const adminBad = await platform.admin('POST', `/admin/v1/accounts/${account.id}/profile`, {
      brand_color: 'red',
    });
    expect(adminBad.status).toBe(400);
    expect(adminBad.body.error).toMatchObject({ code: 'parameter_invalid', param: 'brand_color' });
    expect((await platform.admin('GET', '/admin/v1/accounts/acct_00000000missing/profile')).status).toBe(404);
    // An API key cannot reach the operator's route.
    expect(
      (await platform.api(account.testKey, 'GET', `/internal/accounts/${account.id}/profile`)).status,
    ).toBe(404);
  });
});

describe('the seller, everywhere it shows', () => {
  let account: TestAccount;
  const api = (method: string, path: string, body?: unknown) =>
    platform.api(account.testKey, method, path, body);

  beforeAll(async () => {
    account = await platform.newAccount(['payments', 'invoicing']);
    expect((await api('POST', '/v1/account', PROFILE)).status).toBe(200);
    expect((await api('POST', '/v1/account/logo', { file: png().toString('base64') })).status).toBe(200);
  });

  it('snapshots the seller on the invoice, prints it on the PDF, and mails under its name with its Reply-To', async () => {
    const email = `ap.${Math.random().toString(36).slice(2, 8)}@customer.test`;
    const customer = await api('POST', '/v1/customers', { name: 'Jürgen Weiß GmbH', email, currency: 'PLN' });
    const created = await api('POST', '/v1/invoices', {
      customer: customer.body.id,
      lines: [{ description: 'Projekt', quantity: 1, unit_amount: 100_000, tax_rate_bps: 2300 }],
    });
    expect(created.status).toBe(200);
    const invoice = created.body;
    expect(invoice.seller).toEqual({
      name: 'Zoë Studio',
      legal_name: 'Zoë Łukasiewicz Sp. z o.o.',
      address: {
        line1: 'ul. Świętokrzyska 12',
        line2: null,
        city: 'Warszawa',
        postal_code: '00-916',
        state: null,
        country: 'PL',
      },
      tax_ids: [{ type: 'eu_vat', value: 'PL5260250274' }],
      email: 'billing@zoe.example',
      phone: '+48 22 123 45 67',
      website: 'https://zoe.example',
      footer: 'Zoë Studio, KRS 0000123456',
    });
    // The profile's payment terms set the due date: 14 days after finalization.
    const finalized = new Date(invoice.status_transitions.finalized_at).getTime();
    expect(new Date(invoice.due_date).getTime() - finalized).toBe(14 * 86_400_000);

    const received = await eventually(
      async () => smtp.received.find((m) => m.envelopeTo.includes(email)),
      30_000,
    );
    expect(received.mail.from?.value).toEqual([{ name: 'Zoë Studio', address: 'no-reply@mail.test' }]);
    expect(received.mail.replyTo?.value).toEqual([{ name: '', address: 'billing@zoe.example' }]);
    expect(received.mail.subject).toBe(`Invoice ${invoice.number} from Zoë Studio`);
    const pdf = received.mail.attachments.find((a) => a.contentType === 'application/pdf');
    const text = await pdfText(pdf?.content ?? Buffer.alloc(0));
    for (const expected of [
      'Zoë Studio',
      'Zoë Łukasiewicz Sp. z o.o.',
      'ul. Świętokrzyska 12',
      '00-916 Warszawa',
      'VAT PL5260250274',
      'billing@zoe.example',
      'Zoë Studio, KRS 0000123456',
      'Jürgen Weiß GmbH',
    ]) {
      expect({ expected, found: text.includes(expected) }).toEqual({ expected, found: true });
    }
    expect(text).not.toContain(account.id);

    // The hosted page: the snapshot's seller, the logo, the brand colour's stylesheet.
    const page = await platform.api(undefined, 'GET', pathOf(invoice.hosted_url));
    expect(page.status).toBe(200);
    const html = String(page.body);
    expect(html).toContain('from Zoë Studio');
    expect(html).toContain('VAT PL5260250274');
    expect(html).toMatch(
      new RegExp(`<img class="brand-logo" src="/i/logos/${account.id}/[0-9a-f]{32}" alt="Zoë Studio">`),
    );
    expect(html).toContain('<link rel="stylesheet" href="/i/brand/0a7c59.css">');
    const css = await platform.api(undefined, 'GET', '/i/brand/0a7c59.css');
    expect(css.headers.get('content-type')).toMatch(/^text\/css/);
    expect(String(css.body)).toContain('--brand: #0a7c59');
    expect((await platform.api(undefined, 'GET', '/i/brand/0a7c59;}.css')).status).toBe(404);

    // A later change of the profile does not rewrite the finalized invoice's seller.
    await api('POST', '/v1/account', { trading_name: 'Zoë Renamed' });
    expect((await api('GET', `/v1/invoices/${invoice.id}`)).body.seller.name).toBe('Zoë Studio');
    await api('POST', '/v1/account', { trading_name: PROFILE.trading_name });
  });

  it('shows the profile on the checkout page (payments keeps it from account.updated)', async () => {
    const link = await api('POST', '/v1/payment-links', {
      amount: 2500,
      currency: 'PLN',
      description: 'Warsztat',
    });
    expect(link.status).toBe(200);
    const html = await eventually(async () => {
      const page = await platform.api(undefined, 'GET', pathOf(link.body.url));
      const body = String(page.body);
      return body.includes('<h1>Zoë Studio</h1>') ? body : undefined;
    }, 30_000);
    expect(html).toMatch(
      new RegExp(`<img class="brand-logo" src="/i/logos/${account.id}/[0-9a-f]{32}" alt="Zoë Studio">`),
    );
    expect(html).toContain('<link rel="stylesheet" href="/pay/brand/0a7c59.css">');
    expect(html).toContain('Questions? Contact billing@zoe.example or +48 22 123 45 67.');
    const css = await platform.api(undefined, 'GET', '/pay/brand/0a7c59.css');
    expect(String(css.body)).toContain('--brand: #0a7c59');
  });

  it("names the plan and the period in words on the billing engine's invoices, and the seller by name", async () => {
    // A second account without a profile: the seller is the account's name, never its id.
    const bare = await platform.newAccount(['invoicing']);
    const bareName = (await platform.admin('GET', `/admin/v1/accounts/${bare.id}`)).body.name;
    for (const [who, name] of [
      [account, 'Zoë Studio'],
      [bare, bareName],
    ] as const) {
      const call = (method: string, path: string, body?: unknown) =>
        platform.api(who.testKey, method, path, body);
      const clock = await call('POST', '/v1/test-clocks', { frozen_time: '2026-11-24T10:00:00Z' });
      const customer = await call('POST', '/v1/customers', {
        name: 'Clockwork Ltd',
        email: 'ap@clockwork.test',
        test_clock: clock.body.id,
      });
      const subscription = await call('POST', '/v1/subscriptions', {
        customer: customer.body.id,
        items: [
          { description: 'Pro plan', unit_amount: 1000, currency: 'EUR', quantity: 3, interval: 'month' },
        ],
        billing_cycle_anchor: '2026-12-15T00:00:00Z',
        collection_method: 'send_invoice',
      });
      expect(subscription.status).toBe(200);
      const invoice = (await call('GET', `/v1/invoices/${subscription.body.latest_invoice}`)).body;
      expect(invoice.description).toBe('Pro plan × 3, 24 Nov – 15 Dec 2026');
      expect(invoice.lines[0].description).toBe('Pro plan × 3, 24 Nov – 15 Dec 2026 (pro rata)');
      expect(invoice.seller.name).toBe(name);
      expect(invoice.seller.name).not.toContain('acct_');
    }
  });
});
