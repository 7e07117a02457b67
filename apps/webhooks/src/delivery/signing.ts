// Standard Webhooks signing: `whsec_` secrets and `v1,<base64 HMAC-SHA256>` signatures over
// `id.timestamp.body`, keyed with the secret's decoded bytes.

import { createHmac, randomBytes } from 'node:crypto';

export const newSecret = (): string => `whsec_${randomBytes(32).toString('base64')}`;

export function sign(secret: string, id: string, timestamp: number, body: string): string {
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  return `v1,${createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64')}`;
}

/** The webhook-signature header: one signature per active secret, space-separated. */
export function signatureHeader(secrets: string[], id: string, timestamp: number, body: string): string {
  return secrets.map((s) => sign(s, id, timestamp, body)).join(' ');
}
