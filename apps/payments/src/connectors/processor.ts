// What a payment processor brings to the platform (docs/connectors.md): the shape of its
// credentials, a connector built from them, and a call that checks them. A second processor
// is one folder beside connectors/stripe/ exporting one of these, added to PROCESSORS.

import type { PaymentConnector } from './connector';

/** The secrets of one processor connection, as the API takes them; sealed at rest. */
export interface ProcessorCredentials {
  /** The API key the connector authenticates with. */
  secret_key: string;
  /** The secret the processor signs its webhooks with (processor webhooks in: later work). */
  webhook_signing_secret: string;
}

export type Verification = { ok: true; processor_account: string } | { ok: false; message: string };

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
}
