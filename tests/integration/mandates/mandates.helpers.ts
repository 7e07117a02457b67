// What the mandates suite's case modules share: the platform and account that
// tests/integration/mandates.test.ts starts once, and the steps most cases take (a recurring
// link paid through its hosted page, the charges of a mandate, the events of an object, a
// command put on payments.commands.v1).

import { TOPICS, type CommandEnvelope, type PaymentsCommandData } from '@paygrid/contracts';
import { newSortableId } from '@paygrid/platform';
import { CARDS, csrfOf, submitForm } from '../../support/pages';
import type { Platform, TestAccount } from '../../support/platform';

/** Filled in the test file's beforeAll; the cases read it when they run, not when registered. */
export interface MandatesContext {
  platform: Platform;
  account: TestAccount;
}

export function mandateHelpers(ctx: () => MandatesContext) {
  const get = async (path: string, key = ctx().account.testKey) => {
    const response = await ctx().platform.api(key, 'GET', path);
    expect({ path, status: response.status }).toEqual({ path, status: 200 });
    return response.body;
  };

  async function recurringLink(body: Record<string, unknown> = {}) {
    const { platform, account } = ctx();
    const response = await platform.api(account.testKey, 'POST', '/v1/payment-links', {
      type: 'recurring',
      amount: 1500,
      currency: 'EUR',
      description: 'Monthly plan',
      recurring: { interval: 'month' },
      client_reference_id: 'order-42',
      metadata: { plan: 'pro' },
      ...body,
    });
    expect(response.status).toBe(200);
    return response.body;
  }

  /** Pays a recurring link through its hosted page; answers the first payment and the mandate. */
  async function subscribe(card: string = CARDS.ok) {
    const { platform } = ctx();
    const link = await recurringLink();
    const page = await platform.api(undefined, 'GET', `/pay/${link.id}`);
    expect(page.status).toBe(200);
    expect(String(page.body)).toContain('until you cancel');
    const paid = await submitForm(platform, `/pay/${link.id}`, csrfOf(String(page.body)), card, {
      email: 'ada@example.test',
    });
    expect(paid.status).toBe(200);
    expect(String(paid.body)).toContain('Payment successful');
    const [payment] = (await get(`/v1/transactions?payment_link=${link.id}`)).data;
    expect(payment).toMatchObject({ status: 'succeeded', amount: 1500, currency: 'EUR' });
    expect(payment.mandate).toMatch(/^mdt_/);
    const mandate = await get(`/v1/mandates/${payment.mandate}`);
    return { link, payment, mandate };
  }

  const paymentsOfMandate = async (mandate: string) =>
    (await ctx().platform.sql<{ id: string; status: string; failure_code: string | null }>(
      'payments',
      `select id, status, failure_code from payments.transactions where mandate = $1 and type = 'payment' order by created_at`,
      [mandate],
    )) as { id: string; status: string; failure_code: string | null }[];

  const eventTypesOf = async (objectId: string) => {
    const events = (await get('/v1/events?limit=100')).data as any[];
    return events
      .filter((e) => e.data.object.id === objectId)
      .map((e) => e.type)
      .sort();
  };

  /** Puts a payment.charge_mandate command on payments.commands.v1; answers its id. */
  async function publishCommand(
    accountId: string,
    livemode: boolean,
    data: PaymentsCommandData['payment.charge_mandate'],
    id = newSortableId('cmd'),
  ): Promise<string> {
    const command: CommandEnvelope<PaymentsCommandData['payment.charge_mandate']> = {
      id,
      type: 'payment.charge_mandate',
      created_at: new Date().toISOString(),
      livemode,
      account: accountId,
      data,
    };
    await ctx().platform.publish(TOPICS.paymentsCommands, [
      { key: accountId, value: JSON.stringify(command) },
    ]);
    return id;
  }

  return { get, recurringLink, subscribe, paymentsOfMandate, eventTypesOf, publishCommand };
}
