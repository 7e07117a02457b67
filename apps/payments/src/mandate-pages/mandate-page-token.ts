// The address of a recurring payer's own page for a mandate that has no invoicing customer (a
// recurring payment link's): /pay/mandates/<token>, the token sealed by payments with the
// internal secret under its own purpose (AES-GCM, libs/platform signed-token.ts). The checkout's
// success page links to it (docs/api.md Part 2, ADR 0013): such a payer has no account, no
// portal session and maybe no e-mail address, so this link is how they cancel later.

import { sealToken } from '@paygrid/platform';
import { merchantName } from '../payment-links/checkout.page';
import type { PublicLink } from '../payment-links/payment-link';
import type { TransactionRow } from '../transactions/transaction';

export const MANDATE_PAGE_TOKEN_PURPOSE = 'paygrid-mandate-page';

/**
 * How long the link works: a mandate runs until canceled, and the payer has no other way
 * back, so the link outlives any billing period we offer (a year), as a bookmark must. It can
 * only show the card's brand and last digits and cancel future charges: it moves no money.
 */
export const MANDATE_PAGE_TTL_MS = 400 * 24 * 60 * 60 * 1000;

export interface MandatePageTokenPayload {
  account: string;
  livemode: boolean;
  mandate: string;
  /** The seller as the checkout named it. */
  merchant_name: string;
}

export function isMandatePagePayload(value: unknown): value is MandatePageTokenPayload {
  const p = value as Partial<MandatePageTokenPayload> | null;
  return (
    !!p &&
    typeof p.account === 'string' &&
    typeof p.livemode === 'boolean' &&
    typeof p.mandate === 'string' &&
    typeof p.merchant_name === 'string'
  );
}

/** The page's path for a mandate, sealed now. */
export function mandatePagePath(secret: string, now: Date, payload: MandatePageTokenPayload): string {
  const token = sealToken(
    secret,
    MANDATE_PAGE_TOKEN_PURPOSE,
    payload,
    new Date(now.getTime() + MANDATE_PAGE_TTL_MS),
  );
  return `/pay/mandates/${token}`;
}

/** The mandate page of a checkout's payment that created a mandate; undefined for any other. */
export function mandatePageOf(
  secret: string,
  now: Date,
  link: PublicLink,
  payment: TransactionRow,
): string | undefined {
  if (!payment.mandate) return undefined;
  return mandatePagePath(secret, now, {
    account: link.account_id,
    livemode: link.livemode,
    mandate: payment.mandate,
    merchant_name: merchantName(link),
  });
}
