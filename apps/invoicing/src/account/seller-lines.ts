// The seller as the pages and documents print it: the lines under its name (legal name,
// address, tax ids, contact) and the logo at the top of a hosted page.

import { escapeHtml, messagesFor, type Messages } from '@paygrid/platform';
import type { SellerBranding, SellerSnapshot } from './account-profile';

const TAX_ID_LABELS: Record<string, string> = {
  eu_vat: 'VAT',
  gb_vat: 'VAT',
  ch_vat: 'VAT',
  no_vat: 'VAT',
  us_ein: 'EIN',
  au_abn: 'ABN',
};

/** "VAT PL5260250274". */
export const taxIdLine = (taxId: { type: string; value: string }) =>
  `${TAX_ID_LABELS[taxId.type] ?? 'Tax ID'} ${taxId.value}`;

/** Legal name (when it differs from the name), address, tax ids, e-mail, phone, website. */
export function sellerLines(seller: Partial<SellerSnapshot> | null | undefined): string[] {
  if (!seller) return [];
  const a = seller.address;
  const cityLine = [a?.postal_code, a?.city].filter(Boolean).join(' ');
  return [
    seller.legal_name && seller.legal_name !== seller.name ? seller.legal_name : null,
    a?.line1,
    a?.line2,
    [cityLine, a?.state].filter(Boolean).join(', '),
    a?.country,
    ...(seller.tax_ids ?? []).map(taxIdLine),
    seller.email,
    seller.phone,
    seller.website,
  ].filter((line): line is string => Boolean(line));
}

/** The logo at the top of a hosted page, when the seller has one; its alt text is the name. */
export function brandLogo(branding: SellerBranding | undefined, name: string): string {
  if (!branding?.logo_url) return '';
  return `<img class="brand-logo" src="${escapeHtml(new URL(branding.logo_url).pathname)}" alt="${escapeHtml(name || 'Seller logo')}">\n`;
}

/** A short "Questions? billing@… · +44 …" line for the pages, when the seller gave a contact. */
export function supportLine(
  branding: SellerBranding | undefined,
  messages: Messages = messagesFor([]),
): string {
  const contacts = [branding?.support_email, branding?.support_phone].filter(Boolean) as string[];
  if (!contacts.length) return '';
  const [first, second] = contacts;
  const text = second
    ? messages.t('common.contact_either', { first, second })
    : messages.t('common.contact', { contact: first });
  return `<p class="seller-contact">${escapeHtml(text)}</p>\n`;
}
