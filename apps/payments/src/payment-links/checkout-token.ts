// The hosted checkout's CSRF token: a platform form token (libs/platform signed-token.ts)
// bound to the payment link. Each token pays at most once: its hash is the primary key of
// payments.checkout_submissions.

import { signFormToken, tokenHash, verifyFormToken } from '@paygrid/platform';
import { CARD_FORM_TOKEN_PURPOSE } from '../card-form/card-form';

export const signCheckoutToken = (secret: string, linkId: string, now: Date) =>
  signFormToken(secret, CARD_FORM_TOKEN_PURPOSE, linkId, now);

export const verifyCheckoutToken = (secret: string, linkId: string, token: unknown, now: Date) =>
  verifyFormToken(secret, CARD_FORM_TOKEN_PURPOSE, linkId, token, now);

/** What is stored for a used token: its hash, never the token itself. */
export const checkoutTokenHash = tokenHash;
