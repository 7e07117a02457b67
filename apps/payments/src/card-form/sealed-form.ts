// The form handling the two pages reached through a token sealed by another service share
// (an invoice's card form /pay/invoices/<token>, the portal's card page /pay/cards/<token>):
// opening the sealed token (AES-GCM under its purpose, expiring, shape-checked), and the
// page's CSRF form token, bound to the sealed token's hash so a form answers only its own page.

import { openToken, signFormToken, tokenHash, verifyFormToken, type Clock } from '@paygrid/platform';

export interface SealedFormSettings {
  secret: string;
  clock: Clock;
}

export interface SealedFormSpec<T extends object> {
  /** The purpose the other service sealed the token for (libs/contracts commands.ts). */
  tokenPurpose: string;
  /** The purpose this page signs its CSRF form tokens for. */
  formPurpose: string;
  /** What the sealed token must hold; anything else is treated as no token. */
  isPayload: (value: unknown) => value is T;
  /** The CSRF token's subject for the sealed token's hash (kept apart from other forms). */
  subject?: (hash: string) => string;
}

export class SealedForm<T extends object> {
  constructor(
    private readonly settings: SealedFormSettings,
    private readonly spec: SealedFormSpec<T>,
  ) {}

  /** The sealed token's payload, or undefined when forged, expired or of another shape. */
  open(token: string): T | undefined {
    const payload = openToken<T>(
      this.settings.secret,
      this.spec.tokenPurpose,
      token,
      this.settings.clock.now(),
    );
    return this.spec.isPayload(payload) ? payload : undefined;
  }

  /** A fresh CSRF form token for the page of `token`. */
  csrf(token: string): string {
    return signFormToken(
      this.settings.secret,
      this.spec.formPurpose,
      this.subject(token),
      this.settings.clock.now(),
    );
  }

  /** The posted CSRF token is ours, recent, and for the page of `token`. */
  csrfValid(token: string, csrf: string): boolean {
    return verifyFormToken(
      this.settings.secret,
      this.spec.formPurpose,
      this.subject(token),
      csrf,
      this.settings.clock.now(),
    );
  }

  private subject(token: string): string {
    const hash = tokenHash(token);
    return this.spec.subject ? this.spec.subject(hash) : hash;
  }
}
