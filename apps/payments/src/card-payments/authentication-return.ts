// The URL a payer comes back to after authenticating at the processor (3-D Secure):
// /pay/return/<transaction id>?token=<sealed>. The token is sealed (libs/platform
// signed-token.ts) for this purpose and this transaction, so a return cannot be forged for
// another payment or crafted to send the payer elsewhere; replaying it is harmless, because
// the return only asks the processor and records through the saga's guarded `record`
// (settle-authentication.ts), which records an outcome once.

import { openToken, sealToken, type Clock } from '@paygrid/platform';

const PURPOSE = 'paygrid-authentication-return';
/** Long enough for a slow challenge; a processor's authentication session is shorter. */
const RETURN_TTL_MS = 24 * 60 * 60 * 1000;

interface ReturnPayload {
  transaction: string;
  /** Where a settled invoice payment goes next (the invoice page's return_url); checkout has none. */
  after?: string;
}

export class AuthenticationReturns {
  constructor(
    private readonly secret: string,
    private readonly publicBaseUrl: string,
    private readonly clock: Clock,
  ) {}

  /** The absolute return URL for one transaction. */
  url(transactionId: string, after?: string): string {
    const token = sealToken<ReturnPayload>(
      this.secret,
      PURPOSE,
      { transaction: transactionId, ...(after ? { after } : {}) },
      new Date(this.clock.now().getTime() + RETURN_TTL_MS),
    );
    const url = new URL(`/pay/return/${encodeURIComponent(transactionId)}`, this.publicBaseUrl);
    url.searchParams.set('token', token);
    return url.toString();
  }

  /** Whether the return URL's path prefix is ours (the sandbox challenge redirects only there). */
  isOurs(url: string): boolean {
    try {
      const parsed = new URL(url);
      return (
        parsed.origin === new URL(this.publicBaseUrl).origin && parsed.pathname.startsWith('/pay/return/')
      );
    } catch {
      return false;
    }
  }

  /** The payload of a return for this transaction; null when forged, for another one, or old. */
  open(transactionId: string, token: unknown): ReturnPayload | null {
    const payload = openToken<ReturnPayload>(this.secret, PURPOSE, token, this.clock.now());
    return payload && payload.transaction === transactionId ? payload : null;
  }
}
