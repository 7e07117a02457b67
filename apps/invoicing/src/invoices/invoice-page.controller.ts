// The hosted invoice page (docs/api.md §6) at /i/<token>, reached through the gateway's /i/*
// forward with a signed `public` context. The token is 32 random bytes stored with the
// invoice: the address is the credential, as with a payment link. Drafts have no page.
//
// Paying: the "Pay" link opens the payments service's card form at /pay/invoices/<sealed
// token> (card data never reaches this service); it charges, emits payment.succeeded|failed
// and sends the payer back here with ?payment=txn_... . Until that event has settled the
// invoice (the payments feed), the page says "processing" and refreshes itself.

import { Controller, Get, Inject, Param, Query, Res } from '@nestjs/common';
import { INVOICE_PAYMENT_TOKEN_PURPOSE, type InvoicePaymentTokenPayload } from '@paygrid/contracts';
import {
  CATALOGUES,
  type Clock,
  minorToJson,
  Public,
  sealToken,
  sendPage,
  sendPdf,
  sendStylesheet,
  toMinor,
} from '@paygrid/platform';
import type { FastifyReply } from 'fastify';
import { invoicePdfFilename, type InvoiceRow } from './invoice.serializer';
import { INVOICE_PAGE_CSS, renderInvoicePage, renderNotFound, type PaymentBanner } from './invoice-page';
import { InvoicesService } from './invoices.service';
import { sellerBranding } from '../account/account-profile';
import { AccountProfileService } from '../account/account.service';

export const INVOICE_PAGE_SETTINGS = 'paygrid:invoice-page-settings';
export interface InvoicePageSettings {
  /** INTERNAL_SIGNING_SECRET: seals the card-form token the payments service opens. */
  secret: string;
  clock: Clock;
}

/** The card-form link stays valid this long after the page was rendered. */
const PAY_TOKEN_TTL_MS = 24 * 3_600_000;

/** The page has no form: the "Pay" button is a link to the payments service's card form. */
const send = (reply: FastifyReply, status: number, html: string) => sendPage(reply, status, html, "'none'");

@Controller('i')
export class InvoicePageController {
  constructor(
    @Inject(InvoicesService) private readonly invoices: InvoicesService,
    @Inject(INVOICE_PAGE_SETTINGS) private readonly settings: InvoicePageSettings,
    @Inject(AccountProfileService) private readonly profiles: AccountProfileService,
  ) {}

  @Get('assets/invoice.css')
  @Public()
  stylesheet(@Res() reply: FastifyReply) {
    return sendStylesheet(reply, INVOICE_PAGE_CSS);
  }

  @Get(':token')
  @Public()
  async page(@Param('token') token: string, @Query('payment') payment: unknown, @Res() reply: FastifyReply) {
    const returned =
      typeof payment === 'string' && /^txn_[0-9A-Za-z]{8,64}$/.test(payment) ? payment : undefined;
    const found = await this.invoices.findForPage(token, returned);
    if (!found) return send(reply, 404, renderNotFound());
    const { row, credited } = found;
    const invoice = this.invoices.serialize(row);
    const banner = this.banner(row, returned, credited);
    const payable = (row.status === 'open' || row.status === 'uncollectible') && banner.kind !== 'processing';
    return send(
      reply,
      200,
      renderInvoicePage({
        invoice,
        banner,
        payUrl: payable && toMinor(row.amount_due) > 0n ? this.payUrl(row, invoice.hosted_url ?? '') : null,
        pdfUrl: `/i/${row.page_token}/pdf`,
        branding: sellerBranding(
          await this.profiles.get(row.account_id),
          this.profiles.publicUrl,
          invoice.seller?.name ?? null,
        ),
      }),
    );
  }

  @Get(':token/pdf')
  @Public()
  async pdf(@Param('token') token: string, @Res() reply: FastifyReply) {
    const row = await this.invoices.findByPageToken(token);
    if (!row) return send(reply, 404, renderNotFound());
    return sendPdf(reply, invoicePdfFilename(row), await this.invoices.pdf(row));
  }

  /** The state to show, taking a `?payment=txn_...` return from the card form into account. */
  private banner(row: InvoiceRow, returned: string | undefined, credited: boolean): PaymentBanner {
    if (row.status === 'paid') return { kind: 'paid' };
    if (row.status === 'void') return { kind: 'void' };
    const last = row.last_payment;
    if (returned) {
      if (last?.transaction === returned && last.status === 'failed') return failed(last);
      // Not settled yet (a partial payment would be in invoice_payments already).
      if (!credited) return { kind: 'processing' };
    }
    if (last?.status === 'failed' && returned === undefined && last.transaction) return failed(last);
    return { kind: 'none' };
  }

  private payUrl(row: InvoiceRow, hostedUrl: string): string {
    const now = this.settings.clock.now();
    const seller = row.seller?.name ?? '';
    const payload: InvoicePaymentTokenPayload = {
      account: row.account_id,
      livemode: row.livemode,
      invoice: row.id,
      customer: row.customer_id,
      amount: minorToJson(toMinor(row.amount_due)),
      currency: row.currency,
      description: `Invoice ${row.number ?? row.id} from ${seller}`,
      merchant_name: seller,
      return_url: hostedUrl,
      offer_save_card: row.collection_method === 'charge_automatically',
    };
    const token = sealToken(
      this.settings.secret,
      INVOICE_PAYMENT_TOKEN_PURPOSE,
      payload,
      new Date(now.getTime() + PAY_TOKEN_TTL_MS),
    );
    return `/pay/invoices/${token}`;
  }
}

/** A failed payment's banner; without a message, the generic decline's. */
const failed = (last: { failure_code: string | null; failure_message: string | null }): PaymentBanner => ({
  kind: 'failed',
  message: last.failure_message ?? CATALOGUES.en['decline.card_declined'],
  code: last.failure_code ?? 'card_declined',
});
