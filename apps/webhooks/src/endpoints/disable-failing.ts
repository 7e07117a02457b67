// Disabling an endpoint whose deliveries all fail: the delivery worker does it once every
// delivery failed for 5 days (delivery/worker.ts noteFailure), and the sandbox's test helper
// (POST /v1/webhooks/:id/test-helpers/disable) does it at once, through this same function,
// so `webhook_endpoint.disabled` is one event with one shape whichever caused it.

import { TOPICS } from '@paygrid/contracts';
import { emitEvent, type Tx } from '@paygrid/platform';
import { serializeEndpoint, type EndpointRow } from './endpoint';

/** How long every delivery to an endpoint must have failed before it is disabled. */
export const DISABLE_AFTER_MS = 5 * 24 * 3600 * 1000;
export const FAILING_DISABLED_REASON = 'every delivery failed for 5 days';

/**
 * enabled -> disabled with `webhook_endpoint.disabled`, in the caller's transaction. Answers
 * the disabled row, or undefined when the endpoint was not enabled (nothing emitted).
 */
export async function disableFailingEndpoint(
  tx: Tx,
  endpointId: string,
  at: Date,
): Promise<EndpointRow | undefined> {
  const [disabled] = await tx.query<EndpointRow>(
    `update webhooks.endpoints set status = 'disabled', disabled_reason = $3, updated_at = $2
     where id = $1 and status = 'enabled' returning *`,
    [endpointId, at, FAILING_DISABLED_REASON],
  );
  if (!disabled) return undefined;
  await emitEvent(tx, TOPICS.webhooksEvents, {
    type: 'webhook_endpoint.disabled',
    account: disabled.account_id,
    livemode: disabled.livemode,
    object: serializeEndpoint(disabled),
    at,
  });
  return disabled;
}
