// Mandates and recurring charges end to end, in both modes: a recurring link's hosted
// checkout stores the card, creates the mandate and makes the first charge; the scheduler
// charges the next cycle once the payments test clock moves one interval (and only once);
// the 0341 card fails its later charges until the mandate fails; cancel stops charges;
// payments.commands.v1 charges a mandate exactly once per reference; the hosted invoice card
// form pays an invoice and can save the card as an on-demand mandate; every account has a
// default merchant; links expire on time.
//
// The cases live in mandates/ by concern and run here, in this order, against one platform:
// each test file that starts one costs seconds of CPU per mode, so the suite stays one file.
// The order matters: the cases share the account and the payments test clock, which only
// moves forward.

import { CARDS, payPage } from '../support/pages';
import { eventually, startPlatform, type Platform, type TestAccount } from '../support/platform';
import { chargeCommandCases } from './mandates/commands.cases';
import { invoicePaymentCases } from './mandates/invoice-payment.cases';
import { mandateHelpers, type MandatesContext } from './mandates/mandates.helpers';
import { schedulerCases } from './mandates/scheduler.cases';

let platform: Platform;
let account: TestAccount;
const ctx = (): MandatesContext => ({ platform, account });
const { get } = mandateHelpers(ctx);

beforeAll(async () => {
  platform = await startPlatform({ paymentsTestClock: true });
  account = await platform.newAccount(['payments', 'invoicing']);
});

afterAll(async () => {
  await platform?.stop();
});

schedulerCases(ctx);
chargeCommandCases(ctx);
invoicePaymentCases(ctx);

describe('default merchant and link expiry', () => {
  it('gives every account one default merchant, active at once in the sandbox and pending in live mode', async () => {
    const fresh = await platform.newAccount(['payments']);
    const links = await Promise.all(
      [1, 2, 3].map(() =>
        platform.api(fresh.testKey, 'POST', '/v1/payment-links', { amount: 500, currency: 'USD' }),
      ),
    );
    const merchants = new Set(links.map((l) => l.body.merchant));
    expect(merchants.size).toBe(1);
    const [merchantId] = [...merchants];
    const merchant = (await platform.api(fresh.testKey, 'GET', `/v1/merchants/${merchantId}`)).body;
    expect(merchant).toMatchObject({ is_default: true, onboarding: { status: 'active' } });
    expect(merchant.business_name).toMatch(/^Test /);

    const live = await platform.api(fresh.liveKey, 'POST', '/v1/payment-links', {
      amount: 500,
      currency: 'USD',
    });
    expect(live.status).toBe(200);
    const liveMerchant = (await platform.api(fresh.liveKey, 'GET', `/v1/merchants/${live.body.merchant}`))
      .body;
    expect(liveMerchant).toMatchObject({
      is_default: true,
      livemode: true,
      onboarding: { status: 'pending' },
    });
    expect(liveMerchant.id).not.toBe(merchantId);
  });

  it('expires a link at expires_at with payment_link.expired, and its page says so', async () => {
    const { now } = await platform.advancePaymentsClock(0);
    const created = await platform.api(account.testKey, 'POST', '/v1/payment-links', {
      amount: 700,
      currency: 'USD',
      expires_at: new Date(now.getTime() + 60_000).toISOString(),
    });
    expect(created.status).toBe(200);
    const open = await payPage(platform, `/pay/${created.body.id}`, CARDS.declined);
    expect(open.status).toBe(402);
    const { ran } = await platform.advancePaymentsClock(120_000);
    expect(ran.links_expired).toBeGreaterThanOrEqual(1);
    expect((await get(`/v1/payment-links/${created.body.id}`)).status).toBe('expired');
    const page = await platform.api(undefined, 'GET', `/pay/${created.body.id}`);
    expect(page.status).toBe(410);
    expect(String(page.body)).toContain('This payment link has expired');
    const event = await eventually(async () =>
      (await get('/v1/events?type=payment_link.expired&limit=100')).data.find(
        (e: any) => e.data.object.id === created.body.id,
      ),
    );
    expect(event.data.previous_attributes).toEqual({ status: 'active' });
  });
});
