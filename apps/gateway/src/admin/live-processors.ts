// Which accounts can take live payments (issue 13 item 1: the admin API says which accounts have
// no processor). Processor connections are the payments service's data, so the gateway asks it
// for the accounts with an active live connection and marks every other account `none`.

import type { ServiceName } from '@paygrid/contracts';
import { ApiError } from '@paygrid/platform';
import type { OperatorForwarder } from './operator-forwarder';

export type LiveProcessor = 'connected' | 'none';

export class LiveProcessorCoverage {
  constructor(
    private readonly forwarder: OperatorForwarder,
    private readonly services: readonly ServiceName[],
  ) {}

  /**
   * The accounts with an active live processor connection, or null when the payments service
   * cannot say (down): the listing then shows `live_processor: null` rather than guessing.
   * The list is one id per connected account: an operator route, bounded by the platform's own
   * accounts.
   */
  async connectedAccounts(requestId: string): Promise<ReadonlySet<string> | null> {
    // Without the payments service installed no account can take a payment at all.
    if (!this.services.includes('payments')) return new Set();
    try {
      const response = await this.forwarder.get(
        'payments',
        '/internal/processor-connections/live-accounts',
        requestId,
      );
      if (response.status !== 200) return null;
      const body = JSON.parse(response.body.toString('utf8')) as { data?: unknown };
      return Array.isArray(body.data) ? new Set(body.data.map(String)) : null;
    } catch {
      return null;
    }
  }

  /** Like connectedAccounts, but a filter cannot be applied on a guess: 503 upstream_unavailable. */
  async connectedAccountsOrFail(requestId: string): Promise<ReadonlySet<string>> {
    const connected = await this.connectedAccounts(requestId);
    if (!connected) {
      throw new ApiError(
        'upstream_unavailable',
        'The payments service cannot say which accounts have a processor connection right now.',
      );
    }
    return connected;
  }
}

export function liveProcessorOf(
  accountId: string,
  connected: ReadonlySet<string> | null,
): LiveProcessor | null {
  if (!connected) return null;
  return connected.has(accountId) ? 'connected' : 'none';
}
