// Webhook deliveries are signed with the Standard Webhooks scheme (apps/webhooks signs them):
// verify one with the endpoint's `whsec_...` secret and get the typed event back.

import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import type { Event } from './types.js';

/** Node's IncomingHttpHeaders, a fetch Headers, or a plain record. */
export type HeadersLike = Headers | Record<string, string | string[] | undefined>;

function headerRecord(headers: HeadersLike): Record<string, string> {
  const out: Record<string, string> = {};
  if (headers instanceof Headers) headers.forEach((value, name) => (out[name.toLowerCase()] = value));
  else
    for (const [name, value] of Object.entries(headers))
      if (value !== undefined) out[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  return out;
}

export { WebhookVerificationError };

/**
 * The event of a delivery, after checking its signature against `secret` and that its
 * timestamp is within 5 minutes. `body` must be the raw body as received (the signature is
 * over its bytes): a string or a Buffer, never a re-serialised object. Throws
 * WebhookVerificationError when the delivery is not authentic.
 */
export function verify(body: string | Uint8Array, headers: HeadersLike, secret: string): Event {
  const payload = typeof body === 'string' ? body : Buffer.from(body).toString('utf8');
  return new Webhook(secret).verify(payload, headerRecord(headers)) as Event;
}

/**
 * The three Standard Webhooks headers for `body`, signed with `secret`: what the CLI's
 * `listen` sends to a local endpoint, and what a test of a receiver needs.
 */
export function sign(
  body: string,
  secret: string,
  id: string,
  at: Date = new Date(),
): { 'webhook-id': string; 'webhook-timestamp': string; 'webhook-signature': string } {
  return {
    'webhook-id': id,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': new Webhook(secret).sign(id, at, body),
  };
}

export const webhooks = { verify, sign };
