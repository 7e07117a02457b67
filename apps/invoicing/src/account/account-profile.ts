// The account's business profile as stored and as the API shows it, and what the documents
// take from it: the seller snapshot an invoice keeps and the name mail is sent under.

import type { TaxId } from './tax-ids';
import type { Account } from '@paygrid/contracts';

export interface AccountAddress {
  line1: string | null;
  line2: string | null;
  city: string | null;
  postal_code: string | null;
  state: string | null;
  country: string | null;
}

export interface AccountProfile {
  legal_name: string | null;
  trading_name: string | null;
  address: AccountAddress | null;
  tax_ids: TaxId[];
  support_email: string | null;
  support_phone: string | null;
  website: string | null;
  brand_color: string | null;
  statement_descriptor: string | null;
  invoice_footer: string | null;
  payment_terms_days: number | null;
  /** Which e-mails go to the account's customers (docs/adr/0012): payment receipts, refund notices. */
  receipts: ReceiptSwitches;
  /** Whether customers may cancel their subscriptions at period end in the customer portal. */
  portal_subscription_cancel: boolean;
}

export interface ReceiptSwitches {
  payments: boolean;
  refunds: boolean;
}

/** Both on: the checkout asks the payer for an address "for receipts". */
export const DEFAULT_RECEIPTS: ReceiptSwitches = { payments: true, refunds: true };

export const PROFILE_FIELDS = [
  'legal_name',
  'trading_name',
  'address',
  'tax_ids',
  'support_email',
  'support_phone',
  'website',
  'brand_color',
  'statement_descriptor',
  'invoice_footer',
  'payment_terms_days',
  'receipts',
  'portal_subscription_cancel',
] as const satisfies readonly (keyof AccountProfile)[];

/** One row of invoicing.account_profiles, without the logo's bytes. */
export interface AccountProfileRow {
  account_id: string;
  version: number;
  profile: Partial<AccountProfile>;
  /** The gateway's name for the account, as the last signed context said (the fallback name). */
  account_name: string | null;
  logo_type: string | null;
  logo_digest: string | null;
  created_at: Date;
  updated_at: Date;
}

export const EMPTY_PROFILE: AccountProfile = {
  legal_name: null,
  trading_name: null,
  address: null,
  tax_ids: [],
  support_email: null,
  support_phone: null,
  website: null,
  brand_color: null,
  statement_descriptor: null,
  invoice_footer: null,
  payment_terms_days: null,
  receipts: DEFAULT_RECEIPTS,
  portal_subscription_cancel: false,
};

export const profileOf = (row: Pick<AccountProfileRow, 'profile'> | undefined): AccountProfile => ({
  ...EMPTY_PROFILE,
  ...(row?.profile ?? {}),
  // A switch stored null (before null meant "the default") reads as its default.
  receipts: {
    payments: row?.profile?.receipts?.payments ?? DEFAULT_RECEIPTS.payments,
    refunds: row?.profile?.receipts?.refunds ?? DEFAULT_RECEIPTS.refunds,
  },
});

/** The stable public URL of a logo: its digest is in the path, so a new logo is a new URL. */
export function logoUrl(
  row: Pick<AccountProfileRow, 'account_id' | 'logo_digest'> | undefined,
  publicBaseUrl: string,
): string | null {
  if (!row?.logo_digest) return null;
  return `${publicBaseUrl}/i/logos/${row.account_id}/${row.logo_digest}`;
}

/** The account object of docs/api.md §5. */
export function serializeAccount(
  account: string,
  row: AccountProfileRow | undefined,
  publicBaseUrl: string,
): Account {
  const profile = profileOf(row);
  return {
    id: account,
    object: 'account' as const,
    ...profile,
    logo_url: logoUrl(row, publicBaseUrl),
    version: row?.version ?? 0,
    updated_at: row ? new Date(row.updated_at).toISOString() : null,
  };
}

/** The name customers know the seller by: trading name, else legal name, else the account's name. */
export function sellerDisplayName(
  profile: AccountProfile,
  fallback: string | null | undefined,
): string | null {
  return profile.trading_name ?? profile.legal_name ?? fallback ?? null;
}

/** What an invoice keeps of its seller at finalization (docs/api.md §5, invoice.seller). */
export interface SellerSnapshot {
  name: string | null;
  legal_name: string | null;
  address: AccountAddress | null;
  tax_ids: TaxId[];
  email: string | null;
  phone: string | null;
  website: string | null;
  /** The profile's default invoice footer, printed at the foot of every page. */
  footer: string | null;
}

/** A stored snapshot in today's shape (invoices finalized before the profile kept only a name). */
export const fullSellerSnapshot = (stored: Partial<SellerSnapshot>): SellerSnapshot => ({
  name: stored.name ?? null,
  legal_name: stored.legal_name ?? null,
  address: stored.address ?? null,
  tax_ids: stored.tax_ids ?? [],
  email: stored.email ?? null,
  phone: stored.phone ?? null,
  website: stored.website ?? null,
  footer: stored.footer ?? null,
});

export function sellerSnapshot(profile: AccountProfile, fallbackName: string | null): SellerSnapshot {
  return {
    name: sellerDisplayName(profile, fallbackName),
    legal_name: profile.legal_name,
    address: profile.address,
    tax_ids: profile.tax_ids,
    email: profile.support_email,
    phone: profile.support_phone,
    website: profile.website,
    footer: profile.invoice_footer,
  };
}

/** What the hosted pages show of the seller: name, logo, brand colour, support contact. */
export interface SellerBranding {
  name: string | null;
  logo_url: string | null;
  brand_color: string | null;
  support_email: string | null;
  support_phone: string | null;
  website: string | null;
}

export function sellerBranding(
  row: AccountProfileRow | undefined,
  publicBaseUrl: string,
  fallbackName: string | null,
): SellerBranding {
  const profile = profileOf(row);
  return {
    name: sellerDisplayName(profile, fallbackName ?? row?.account_name),
    logo_url: logoUrl(row, publicBaseUrl),
    brand_color: profile.brand_color,
    support_email: profile.support_email,
    support_phone: profile.support_phone,
    website: profile.website,
  };
}

/** PNG or JPEG by the file's first bytes (a declared type proves nothing). */
export function sniffImageType(bytes: Buffer): 'image/png' | 'image/jpeg' | null {
  if (
    bytes.length >= 8 &&
    bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))
  )
    return 'image/png';
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'image/jpeg';
  return null;
}

export const LOGO_MAX_BYTES = 512 * 1024;
