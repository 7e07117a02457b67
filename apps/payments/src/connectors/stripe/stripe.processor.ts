// Stripe as a processor of the platform: its credentials (a secret or restricted API key and a
// webhook signing secret), the Stripe client a connection's connector uses, and verification
// (GET /v1/account, which any working key may call).

import Stripe from 'stripe';
import type { StripeApiBase } from '../../config';
import type { ProcessorCredentials, ProcessorDefinition, ProcessorEvent, Verification } from '../processor';
import { StripeConnector } from './stripe.connector';
import { parseStripeWebhook } from './stripe-webhooks';

/** A Stripe secret or restricted key; also the documented pattern of `credentials.secret_key`. */
export const STRIPE_KEY = /^(sk|rk)_(test|live)_[0-9A-Za-z]{8,247}$/;
/** A Stripe webhook signing secret; also the documented pattern of `credentials.webhook_signing_secret`. */
export const STRIPE_WEBHOOK_SECRET = /^whsec_[0-9A-Za-z+/=]{8,200}$/;

/**
 * How long one request to Stripe may take, and how many times the SDK retries a network error,
 * a 409 lock timeout or a 5xx (with the same Idempotency-Key; never a 4xx). The three attempts
 * of one call, (1 + 2) x 8 s plus the SDK's back-off, end before the gateway's default 30 s
 * upstream time-out (UPSTREAM_TIMEOUT_MS), so a processor that does not answer gives the caller
 * our own answer (the pending intent, a failed verification), not the gateway's 504: with 20 s
 * a verify against an unreachable Stripe outlasted it (Schemathesis, ST101). They also stay
 * well under the 5 minutes after which a pending intent is recovered (jobs/payments-jobs.ts).
 */
export const STRIPE_TIMEOUT_MS = 8_000;
export const STRIPE_NETWORK_RETRIES = 2;

export class StripeProcessor implements ProcessorDefinition {
  readonly name = 'stripe';

  /**
   * @param api where requests go. Only Stripe's own API tells live keys from test keys; a
   *   live connection there needs a live key (a test key would report live payments that move
   *   no money). stripe-mock knows only test keys, so elsewhere the key's mode is not checked.
   */
  constructor(private readonly api: StripeApiBase) {}

  checkCredentials(credentials: ProcessorCredentials, livemode: boolean) {
    const key = STRIPE_KEY.exec(credentials.secret_key);
    if (!key) {
      return {
        param: 'credentials[secret_key]',
        message: 'secret_key must be a Stripe secret (sk_) or restricted (rk_) key.',
      };
    }
    if (this.api.host === 'api.stripe.com' && (key[2] === 'live') !== livemode) {
      return {
        param: 'credentials[secret_key]',
        message: `A ${livemode ? 'live' : 'test'} connection needs a Stripe ${livemode ? 'live' : 'test'} key.`,
      };
    }
    if (!STRIPE_WEBHOOK_SECRET.test(credentials.webhook_signing_secret)) {
      return {
        param: 'credentials[webhook_signing_secret]',
        message: 'webhook_signing_secret must be a Stripe webhook signing secret (whsec_).',
      };
    }
    return undefined;
  }

  client(secretKey: string): Stripe {
    return new Stripe(secretKey, {
      host: this.api.host,
      port: this.api.port,
      protocol: this.api.protocol,
      maxNetworkRetries: STRIPE_NETWORK_RETRIES,
      timeout: STRIPE_TIMEOUT_MS,
      telemetry: false,
      appInfo: { name: 'Paygrid' },
    });
  }

  connector(credentials: ProcessorCredentials): StripeConnector {
    return new StripeConnector(this.client(credentials.secret_key));
  }

  parseWebhook(
    rawBody: Buffer,
    headers: Readonly<Record<string, string | undefined>>,
    credentials: ProcessorCredentials,
    now: Date,
  ): ProcessorEvent {
    return parseStripeWebhook(rawBody, headers, credentials, now);
  }

  async verify(credentials: ProcessorCredentials): Promise<Verification> {
    try {
      const account = await this.client(credentials.secret_key).accounts.retrieveCurrent();
      return { ok: true, processor_account: account.id };
    } catch (error) {
      if (!(error instanceof Stripe.errors.StripeError)) throw error;
      // Stripe's message never carries the key; the type and code are enough to act on.
      return {
        ok: false,
        message:
          error.type === 'StripeConnectionError'
            ? 'Stripe could not be reached.'
            : `Stripe refused the credentials (${error.code ?? error.type}).`,
      };
    }
  }
}
