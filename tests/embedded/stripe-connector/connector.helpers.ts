// What the Stripe connector suite's case modules share: the card and key they charge with,
// a connector pointed at the recording proxy in front of one stripe-mock (one per fixture set,
// all started once by tests/embedded/stripe-connector.test.ts), and readers of what it sent.

import { StripeConnector, StripeProcessor } from '../../../apps/payments/src/connectors/stripe';
import { apiBaseOf, type RecordingProxy, type StripeMockOutcome } from '../../support/stripe-mock';

export const OUTCOMES: StripeMockOutcome[] = ['succeeded', 'requires_action', 'declined', 'bundled'];
export const CARD = { number: '4242424242424242', exp_month: 12, exp_year: 2030, cvc: '123' };
export const KEY = 'sk_test_4eC39HqLyjWDarjtT1zdp7dc';

/** The recording proxy of each fixture set; the test file fills it in its beforeAll. */
export type Proxies = Map<StripeMockOutcome, RecordingProxy>;

/** `connectorFor(outcome)`: a connector whose stripe-mock answers PaymentIntents with `outcome`. */
export const connectorsOf =
  (proxies: Proxies) =>
  (outcome: StripeMockOutcome): { connector: StripeConnector; proxy: RecordingProxy } => {
    const proxy = proxies.get(outcome) as RecordingProxy;
    const processor = new StripeProcessor(apiBaseOf(proxy.url));
    return { connector: processor.connector({ secret_key: KEY, webhook_signing_secret: 'whsec_x' }), proxy };
  };

export const form = (body: string) => new URLSearchParams(body);
export const since = (proxy: RecordingProxy, start: number) => proxy.requests.slice(start);
