// The mandate object: its row, its states and its JSON (docs/api.md §5), and its events.
// Status: active -> canceled (POST /v1/mandates/:id/cancel) | failed (last retry of a cycle
// failed); every change emits mandate.created|canceled|failed through the outbox.

import { TOPICS, type Mandate } from '@paygrid/contracts';
import { emitEvent, isoOrNull, minorToJson, toMinor, type Tx } from '@paygrid/platform';
import type { PaymentMethodSummary } from '../connectors/connector';
import type { Interval } from './cycle';

export type MandateStatus = 'active' | 'canceled' | 'failed';

export interface MandateRow {
  id: string;
  account_id: string;
  livemode: boolean;
  merchant_id: string | null;
  payment_link: string | null;
  customer: string | null;
  client_reference_id: string | null;
  payer: { name?: string | null; email?: string | null };
  payment_method: PaymentMethodSummary;
  credential: string;
  amount: string | null;
  currency: string;
  interval: Interval | null;
  interval_count: number | null;
  anchor_at: Date | null;
  next_cycle: number;
  next_attempt: number;
  next_charge_at: Date | null;
  status: MandateStatus;
  failure_code: string | null;
  canceled_at: Date | null;
  metadata: Record<string, string>;
  created_at: Date;
  updated_at: Date;
}

export interface MandateChargeRow {
  id: string;
  account_id: string;
  livemode: boolean;
  mandate_id: string;
  kind: 'cycle' | 'command';
  cycle: number | null;
  attempt: number;
  transaction_id: string;
  status: 'pending' | 'succeeded' | 'failed';
  created_at: Date;
}

export function serializeMandate(m: MandateRow): Mandate {
  return {
    id: m.id,
    object: 'mandate',
    livemode: m.livemode,
    status: m.status,
    type: m.interval ? 'recurring' : 'on_demand',
    merchant: m.merchant_id,
    payment_link: m.payment_link,
    customer: m.customer,
    client_reference_id: m.client_reference_id,
    payer: { name: m.payer.name ?? null, email: m.payer.email ?? null },
    payment_method: m.payment_method,
    amount: m.amount === null ? null : minorToJson(toMinor(m.amount)),
    currency: m.currency,
    interval: m.interval,
    interval_count: m.interval_count,
    next_charge_at: m.status === 'active' ? isoOrNull(m.next_charge_at) : null,
    failure_code: m.failure_code,
    canceled_at: isoOrNull(m.canceled_at),
    metadata: m.metadata,
    created_at: isoOrNull(m.created_at) as string,
    updated_at: isoOrNull(m.updated_at) as string,
  };
}

export type MandateEvent = 'mandate.created' | 'mandate.updated' | 'mandate.canceled' | 'mandate.failed';

/** mandate.created | canceled | failed through the outbox, in the caller's transaction. */
export async function emitMandateEvent(
  tx: Tx,
  row: MandateRow,
  type: MandateEvent,
  now: Date,
  previous?: Record<string, unknown>,
): Promise<void> {
  await emitEvent(tx, TOPICS.paymentsEvents, {
    type,
    account: row.account_id,
    livemode: row.livemode,
    ...(row.merchant_id ? { merchant: row.merchant_id } : {}),
    object: serializeMandate(row),
    ...(previous ? { previous_attributes: previous } : {}),
    at: now,
  });
}
