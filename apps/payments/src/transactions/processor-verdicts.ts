// What a processor says of a typed-card payment left pending (a crash between the call and
// tx2, an answer lost) or waiting on the payer's 3-D Secure, as an outcome the intent saga
// records: TransactionsService.recoverPending asks both, the payer's return asks the first
// (settle-authentication.ts). Never a guess: no answer is undefined, asked again next run.

import { ApiError } from '@paygrid/platform';
import type { LookupOutcome, LookupRequest, PaymentConnector } from '../connectors/connector';
import type { ConnectorRouter } from '../connectors/connector-router';
import type { IntentOutcome } from '../intents/intent-saga';
import type { StaleCardPayment } from '../intents/intents.sql';

/**
 * How old a payment the processor has no record of must be before it is failed: Stripe's
 * Search API, which finds a PaymentIntent by our key, is eventually consistent (usually under
 * a minute, longer during incidents), so a younger "not found" may only mean "not indexed yet".
 */
export const NOT_FOUND_AFTER_MS = 60 * 60 * 1000;

/**
 * `ask`'s answer from the intent's processor, or undefined when it cannot be asked (no
 * connection any more, the processor unreachable or undecided: an ApiError).
 */
async function askProcessor(
  connectors: ConnectorRouter,
  intent: StaleCardPayment,
  ask: (connector: PaymentConnector, request: LookupRequest) => Promise<LookupOutcome>,
): Promise<LookupOutcome | undefined> {
  try {
    const connector = await connectors.forTenant({ account: intent.account_id, livemode: intent.livemode });
    return await ask(connector, {
      idempotency_key: intent.id,
      processor_reference: intent.processor_reference,
      livemode: intent.livemode,
      ...(intent.payment_method ? { card_last4: intent.payment_method.last4 } : {}),
    });
  } catch (error) {
    if (error instanceof ApiError) return undefined;
    throw error;
  }
}

/**
 * The processor's record of the payment, found by its reference or our idempotency key: its
 * verdict; failed once the intent is older than NOT_FOUND_AFTER_MS and the processor has no
 * such charge (nothing was taken); undefined while the payer is still authenticating.
 */
export async function lookedUpOutcome(
  connectors: ConnectorRouter,
  now: Date,
  intent: StaleCardPayment,
): Promise<IntentOutcome | undefined> {
  const found = await askProcessor(connectors, intent, (connector, request) => connector.lookup(request));
  if (!found || found.status === 'requires_action') return undefined;
  if (found.status !== 'not_found') return found;
  const age = now.getTime() - new Date(intent.created_at).getTime();
  if (age < NOT_FOUND_AFTER_MS) return undefined;
  return {
    status: 'failed',
    code: 'processing_error',
    message: 'The processor has no record of this payment; no money was taken by this attempt.',
    processor_reference: null,
  };
}

/**
 * A payment whose payer has not come back from 3-D Secure within `timeoutMs`: canceled at the
 * processor (its key derived from the intent id, so a retry after a crash cancels once), and
 * what the processor then says is recorded through the same guarded `record` as any verdict:
 * `failed` (`authentication_required`, nothing charged; payment.failed), or the success the
 * payer reached just before the cancel, which stands. Undefined (asked again next run) while
 * the bound has not passed, the processor cannot be asked, or the cancel did not take.
 */
export async function abandonedOutcome(
  connectors: ConnectorRouter,
  now: Date,
  intent: StaleCardPayment,
  timeoutMs: number,
): Promise<IntentOutcome | undefined> {
  const age = now.getTime() - new Date(intent.created_at).getTime();
  const reference = intent.processor_reference;
  if (intent.status !== 'requires_action' || !reference || age < timeoutMs) return undefined;
  const found = await askProcessor(connectors, intent, (connector, request) =>
    connector.cancelAuthentication(Object.assign({}, request, { processor_reference: reference })),
  );
  return !found || found.status === 'requires_action' || found.status === 'not_found' ? undefined : found;
}
