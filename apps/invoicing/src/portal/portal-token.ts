// The customer portal's link (docs/adr/0013): `/portal/<token>`, the token sealed with the
// shared internal secret (libs/platform signed-token.ts) under its own purpose, carrying the
// customer and its tenant, the return address and the language. Nothing is stored: the link
// is the credential until it expires, as a payment link's address is.

import { newId, openToken, sealToken } from '@paygrid/platform';

export const PORTAL_TOKEN_PURPOSE = 'paygrid.customer-portal.v1';

/** POST /v1/customers/:id/portal-sessions: an hour unless `expires_in` says otherwise. */
export const PORTAL_SESSION_TTL_S = 3_600;
/** The "manage" link of an e-mail: the customer may open it days later. */
export const PORTAL_MAIL_LINK_TTL_S = 30 * 86_400;

export interface PortalTokenPayload {
  session: string;
  account: string;
  livemode: boolean;
  customer: string;
  return_url: string | null;
  locale: string | null;
}

export interface PortalLink {
  payload: PortalTokenPayload;
  url: string;
  expires_at: Date;
}

export function portalLink(
  secret: string,
  publicBaseUrl: string,
  fields: Omit<PortalTokenPayload, 'session'>,
  now: Date,
  ttlSeconds: number,
): PortalLink {
  const payload: PortalTokenPayload = { session: newId('bps'), ...fields };
  const expires_at = new Date(now.getTime() + ttlSeconds * 1000);
  const token = sealToken(secret, PORTAL_TOKEN_PURPOSE, payload, expires_at);
  return { payload, url: `${publicBaseUrl}/portal/${token}`, expires_at };
}

function isPayload(value: unknown): value is PortalTokenPayload {
  const p = value as Partial<PortalTokenPayload> | null;
  return (
    !!p &&
    typeof p.session === 'string' &&
    typeof p.account === 'string' &&
    typeof p.livemode === 'boolean' &&
    typeof p.customer === 'string' &&
    (p.return_url === null || typeof p.return_url === 'string') &&
    (p.locale === null || typeof p.locale === 'string')
  );
}

export function openPortalToken(secret: string, token: string, now: Date): PortalTokenPayload | null {
  const payload = openToken<PortalTokenPayload>(secret, PORTAL_TOKEN_PURPOSE, token, now);
  return isPayload(payload) ? payload : null;
}
