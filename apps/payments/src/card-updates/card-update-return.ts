// Where a payer comes back to after authenticating (3-D Secure) the card they are saving on
// the portal's card page: the card page's own address with `?saved=<sealed>`, the state sealed
// by payments (libs/platform signed-token.ts) under its own purpose: which mandate, the save's
// idempotency key and the card's summary (brand, last4, expiry: what the mandate shows; never
// the number). The processor adds its own reference (Stripe: `setup_intent=seti_…`), which is
// only believed when the processor's record carries the sealed key. Nothing is stored
// meanwhile; a forged or stale state is refused, and replaying a return only asks the
// processor again and puts the same card on the mandate.

import { openToken, sealToken, type Clock } from '@paygrid/platform';
import type { PaymentMethodSummary } from '../connectors/connector';

const PURPOSE = 'paygrid-card-update-return';
/** Long enough for a slow challenge; a processor's authentication session is shorter. */
const RETURN_TTL_MS = 24 * 60 * 60 * 1000;

export interface CardUpdateReturn {
  mandate: string;
  /** The save's idempotency key, which the processor's record must carry. */
  key: string;
  card: PaymentMethodSummary;
}

export class CardUpdateReturns {
  constructor(
    private readonly secret: string,
    private readonly publicBaseUrl: string,
    private readonly clock: Clock,
  ) {}

  /** The absolute return URL: the card page of `pageToken`, with the sealed state. */
  url(pageToken: string, state: CardUpdateReturn): string {
    const sealed = sealToken(
      this.secret,
      PURPOSE,
      state,
      new Date(this.clock.now().getTime() + RETURN_TTL_MS),
    );
    const url = new URL(`/pay/cards/${encodeURIComponent(pageToken)}`, this.publicBaseUrl);
    url.searchParams.set('saved', sealed);
    return url.toString();
  }

  /** The state of a return for this mandate; null when forged, for another mandate, or old. */
  open(mandate: string, sealed: unknown): CardUpdateReturn | null {
    const state = openToken<CardUpdateReturn>(this.secret, PURPOSE, sealed, this.clock.now());
    return state && state.mandate === mandate && typeof state.key === 'string' ? state : null;
  }
}
