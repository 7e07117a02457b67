// The hosted invoice card form (/pay/invoices/:token): it pays an invoice once, can save the
// card as an on-demand mandate, takes no live payment without a processor, and refuses forged,
// expired and other-purpose tokens and posts without a valid CSRF token.

import { INVOICE_PAYMENT_TOKEN_PURPOSE, type InvoicePaymentTokenPayload } from '@paygrid/contracts';
import { sealToken } from '@paygrid/platform';
import { CARDS, csrfOf, submitForm } from '../../support/pages';
import { DAY_MS, eventually } from '../../support/platform';
import { mandateHelpers, type MandatesContext } from './mandates.helpers';

export function invoicePaymentCases(ctx: () => MandatesContext) {
  const { get, eventTypesOf } = mandateHelpers(ctx);

  describe('card payment of an invoice (/pay/invoices/:token)', () => {
    const payload = (overrides: Partial<InvoicePaymentTokenPayload> = {}): InvoicePaymentTokenPayload => ({
      account: ctx().account.id,
      livemode: false,
      invoice: 'inv_00000000000payinv01',
      customer: 'cus_00000000000payinv01',
      amount: 12_345,
      currency: 'GBP',
      description: 'Invoice INV-0007 from Acme',
      merchant_name: 'Acme <Ltd>',
      return_url: 'https://invoices.example.test/i/abc',
      offer_save_card: true,
      ...overrides,
    });
    /** Sealed as the invoicing service does, valid for an hour of the payments clock (moved by the tests before these). */
    const seal = async (p: InvoicePaymentTokenPayload) => {
      const { platform } = ctx();
      const { now } = await platform.advancePaymentsClock(0);
      return sealToken(
        platform.internalSecret,
        INVOICE_PAYMENT_TOKEN_PURPOSE,
        p,
        new Date(now.getTime() + 3_600_000),
      );
    };

    it('renders the form, re-renders a decline, pays once, saves the card as an on-demand mandate', async () => {
      const { platform } = ctx();
      const path = `/pay/invoices/${await seal(payload())}`;
      const page = await platform.api(undefined, 'GET', path);
      expect(page.status).toBe(200);
      const html = String(page.body);
      expect(html).toContain('Acme &lt;Ltd&gt;');
      expect(html).toContain('Invoice INV-0007 from Acme');
      expect(html).toContain('123.45 GBP');
      expect(html).toContain('name="save_card"');
      expect(html).toContain('<label for="card_number">');
      expect(page.headers.get('content-security-policy')).toContain(
        "form-action 'self' https://invoices.example.test",
      );

      const declined = await submitForm(platform, path, csrfOf(html), CARDS.declined, { save_card: 'yes' });
      expect(declined.status).toBe(402);
      expect(String(declined.body)).toContain('role="alert"');
      expect(String(declined.body)).toContain('The card was declined.');

      const token = csrfOf(String(declined.body));
      const [paid, doubleClick] = await Promise.all([
        submitForm(platform, path, token, CARDS.ok, { save_card: 'yes' }),
        submitForm(platform, path, token, CARDS.ok, { save_card: 'yes' }),
      ]);
      expect(paid.status).toBe(303);
      expect(doubleClick.status).toBe(303);
      const location = new URL(String(paid.headers.get('location')));
      expect(location.origin + location.pathname).toBe('https://invoices.example.test/i/abc');
      const txnId = location.searchParams.get('payment');
      expect(doubleClick.headers.get('location')).toBe(paid.headers.get('location'));

      const payment = await get(`/v1/transactions/${txnId}`);
      expect(payment).toMatchObject({
        status: 'succeeded',
        amount: 12_345,
        currency: 'GBP',
        invoice: 'inv_00000000000payinv01',
        customer: 'cus_00000000000payinv01',
      });
      const mandate = await get(`/v1/mandates/${payment.mandate}`);
      expect(mandate).toMatchObject({
        type: 'on_demand',
        customer: 'cus_00000000000payinv01',
        status: 'active',
      });
      const merchant = await get(`/v1/merchants/${payment.merchant}`);
      expect(merchant).toMatchObject({ is_default: true });

      // The invoice token pays once: the page now goes back to the invoice, and so does a new form post.
      const reopened = await platform.api(undefined, 'GET', path);
      expect(reopened.status).toBe(303);
      const invoicePayments = await platform.sql(
        'payments',
        'select id from payments.transactions where invoice = $1',
        ['inv_00000000000payinv01'],
      );
      expect(invoicePayments).toHaveLength(2); // the decline and the payment
      await eventually(async () =>
        (await eventTypesOf(mandate.id)).includes('mandate.created') ? true : undefined,
      );
    });

    it('takes no live payment while the account has no processor (409 page, no card form)', async () => {
      const { platform } = ctx();
      const path = `/pay/invoices/${await seal(payload({ livemode: true, invoice: 'inv_00000000000payinv03' }))}`;
      const answer = await platform.api(undefined, 'GET', path);
      expect(answer.status).toBe(409);
      expect(String(answer.body)).toContain('Payments are not available yet');
      expect(String(answer.body)).not.toContain('card_number');
      const rows = await platform.sql('payments', 'select id from payments.transactions where invoice = $1', [
        'inv_00000000000payinv03',
      ]);
      expect(rows).toHaveLength(0);
    });

    it('refuses forged, expired and other-purpose tokens, and forms without a valid CSRF token', async () => {
      const { platform } = ctx();
      const good = await seal(payload({ invoice: 'inv_00000000000payinv02', offer_save_card: false }));
      const forged = `${good.slice(0, -2)}xx`;
      expect((await platform.api(undefined, 'GET', `/pay/invoices/${forged}`)).status).toBe(404);
      const expired = sealToken(
        platform.internalSecret,
        INVOICE_PAYMENT_TOKEN_PURPOSE,
        payload(),
        new Date(Date.now() - 1000),
      );
      expect((await platform.api(undefined, 'GET', `/pay/invoices/${expired}`)).status).toBe(404);
      const { now } = await platform.advancePaymentsClock(0);
      const otherPurpose = sealToken(
        platform.internalSecret,
        'something.else',
        payload(),
        new Date(now.getTime() + DAY_MS),
      );
      expect((await platform.api(undefined, 'GET', `/pay/invoices/${otherPurpose}`)).status).toBe(404);
      const page = await platform.api(undefined, 'GET', `/pay/invoices/${good}`);
      expect(String(page.body)).not.toContain('save_card');
      const noCsrf = await submitForm(platform, `/pay/invoices/${good}`, 'nope', CARDS.ok);
      expect(noCsrf.status).toBe(403);
      expect(
        await platform.sql('payments', 'select id from payments.transactions where invoice = $1', [
          'inv_00000000000payinv02',
        ]),
      ).toHaveLength(0);
    });
  });
}
