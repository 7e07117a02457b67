// Which processor a charge or refund goes to. Test mode: the built-in sandbox connector.
// Live mode: the account's own processor connection, and never the sandbox. Until an account
// has one, every live charge, stored-credential charge and refund is refused with 409
// processor_not_configured before anything is written: a live `succeeded` must mean that a
// real processor took the money (the sandbox answering live checkouts with "Payment
// successful" was the most dangerous thing the product did).

import { ApiError } from '@paygrid/platform';
import type { PaymentConnector } from './connector';

/** Where live charges go: the account's active processor connection. */
export interface LiveConnectors {
  /** The connector of the account's active live processor connection, or null when it has none. */
  forAccount(accountId: string): Promise<PaymentConnector | null>;
  /** How many accounts have an active live connection (for /health). */
  configuredAccounts(): Promise<number>;
}

/** No live connection for any account: every live payment is refused (tests of the refusal). */
export const NO_LIVE_CONNECTORS: LiveConnectors = {
  forAccount: async () => null,
  configuredAccounts: async () => 0,
};

export const PROCESSOR_NOT_CONFIGURED_MESSAGE =
  'Live payments are not available for this account yet: no payment processor is connected. ' +
  'Test mode (test keys, sandbox test cards) works without one.';

export function processorNotConfigured(): ApiError {
  return new ApiError('processor_not_configured', PROCESSOR_NOT_CONFIGURED_MESSAGE);
}

export class ConnectorRouter {
  constructor(
    private readonly sandbox: PaymentConnector,
    private readonly live: LiveConnectors,
  ) {}

  /** The connector for the tenant's mode; 409 processor_not_configured for live without one. */
  async forTenant(tenant: { account: string; livemode: boolean }): Promise<PaymentConnector> {
    if (!tenant.livemode) return this.sandbox;
    const connector = await this.live.forAccount(tenant.account);
    if (!connector) throw processorNotConfigured();
    return connector;
  }

  /** Whether the tenant can take payments at all (the hosted pages ask before showing a form). */
  async available(tenant: { account: string; livemode: boolean }): Promise<boolean> {
    return !tenant.livemode || (await this.live.forAccount(tenant.account)) !== null;
  }

  /** Where a payment of the tenant may send the payer to authenticate (a page's form-action). */
  async authenticationOrigins(tenant: { account: string; livemode: boolean }): Promise<readonly string[]> {
    if (!tenant.livemode) return this.sandbox.authenticationOrigins;
    return (await this.live.forAccount(tenant.account))?.authenticationOrigins ?? [];
  }

  configuredLiveAccounts(): Promise<number> {
    return this.live.configuredAccounts();
  }
}
