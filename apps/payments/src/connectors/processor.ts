// What a payment processor brings to the platform (docs/connectors.md): the shape of its
// credentials, a connector built from them, and a call that checks them. A second processor
// is one folder beside connectors/stripe/ exporting one of these, added to PROCESSORS.

import type { PaymentConnector, ProcessorDispute } from './connector';

/** The secrets of one processor connection, as the API takes them; sealed at rest. */
export interface ProcessorCredentials {
  /** The API key the connector authenticates with. */
  secret_key: string;
  /** The secret the processor signs its webhooks with (POST /hooks/<processor>/<connection>). */
  webhook_signing_secret: string;
}

export type Verification = { ok: true; processor_account: string } | { ok: false; message: string };

/**
 * One processor webhook event, verified and mapped onto what we act on (docs/connectors.md,
 * processor webhooks in). `other` is stored and otherwise ignored.
 */
export type ProcessorEvent = { id: string; type: string; created: Date } & (
  | {
      kind: 'payment';
      intent: string;
      outcome: 'succeeded' | 'failed';
      processor_reference: string;
      failure?: { code: string; message: string };
      /** The card the processor kept, for a payment that asked to keep it (a mandate's first). */
      credential?: string;
    }
  | {
      kind: 'refund';
      refund: string;
      outcome: 'succeeded' | 'failed';
      processor_reference: string;
      message?: string;
    }
  | { kind: 'dispute'; dispute: ProcessorDispute }
  | { kind: 'other' }
);

/** A webhook whose signature or payload the processor's rules refuse. */
export class WebhookSignatureError extends Error {}

export interface ProcessorDefinition {
  readonly name: string;
  /** Whether the credentials have the processor's shape for this mode; the problem or undefined. */
  checkCredentials(
    credentials: ProcessorCredentials,
    livemode: boolean,
  ): { param: string; message: string } | undefined;
  connector(credentials: ProcessorCredentials): PaymentConnector;
  /** Calls the processor with the credentials: its account id, or why it refused them. */
  verify(credentials: ProcessorCredentials): Promise<Verification>;
  /**
   * Verifies a webhook's signature over the raw body with the connection's signing secret and
   * maps the event; throws WebhookSignatureError when the signature (or its age) is refused.
   */
  parseWebhook(
    rawBody: Buffer,
    headers: Readonly<Record<string, string | undefined>>,
    credentials: ProcessorCredentials,
    now: Date,
  ): ProcessorEvent;
}
