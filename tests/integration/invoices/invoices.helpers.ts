// What the invoices suite's case modules share: the platform and account that
// tests/integration/invoices.test.ts starts once, the three hand-computed lines most invoices
// carry, a customer to bill, and the invoice.* events of an invoice.

import { eventually, type Platform, type TestAccount } from '../../support/platform';

/** Filled in the test file's beforeAll; the cases read it when they run, not when registered. */
export interface InvoicesContext {
  platform: Platform;
  account: TestAccount;
  /** The account's name, which a finalized invoice snapshots as the seller's. */
  accountName: string;
}

/** Three lines, two tax rates (20 % and 5 %), 10 % off. Hand-computed in the first test. */
export const STANDARD = { tax_category: 'S', tax_exemption_reason: null };
export const LINES = [
  { description: 'Consulting (hours)', quantity: 2, unit_amount: 1500, tax_rate_bps: 2000 },
  { description: 'Software licence', quantity: 1, unit_amount: 999, tax_rate_bps: 2000 },
  { description: 'Books', quantity: 3, unit_amount: 333, tax_rate_bps: 500 },
];

export const pathOf = (url: string) => new URL(url).pathname;

export function invoiceHelpers(ctx: () => Pick<InvoicesContext, 'platform' | 'account'>) {
  async function newCustomer(key: string, extra: Record<string, unknown> = {}): Promise<string> {
    const created = await ctx().platform.api(key, 'POST', '/v1/customers', {
      name: 'Jenny Rosen',
      email: 'jenny@example.test',
      currency: 'GBP',
      address: { line1: '1 High Street', city: 'London', postal_code: 'N1 9GU', country: 'GB' },
      ...extra,
    });
    expect(created.status).toBe(200);
    return created.body.id;
  }

  /** The account's invoice.* events about `id`, oldest first, once `types` have all arrived. */
  async function invoiceEvents(key: string, id: string, types: string[]): Promise<any[]> {
    return eventually(async () => {
      const list = await ctx().platform.api(key, 'GET', '/v1/events?limit=100');
      const mine = list.body.data
        .filter((e: any) => e.type.startsWith('invoice.') && e.data.object.id === id)
        .reverse();
      const seen = mine.map((e: any) => e.type);
      return types.every((t) => seen.includes(t)) ? mine : undefined;
    });
  }

  return { newCustomer, invoiceEvents };
}
