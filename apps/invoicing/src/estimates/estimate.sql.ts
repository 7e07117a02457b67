// The estimates table as the estimate use cases (create-estimate.ts, send-estimate.ts,
// convert-estimate.ts, estimate-expiry.ts, estimates.service.ts) read and write it: every
// statement runs in the transaction it is given, and every state change goes through `move`.

import { TOPICS, type InvoicingEventType } from '@paygrid/contracts';
import {
  type Clock,
  emitRowEvent,
  findOwned,
  lockOwned,
  type Tenant,
  type Tx,
  updateColumns,
} from '@paygrid/platform';
import type { LogoLoader } from '../documents/invoice-documents';
import type { CustomerRow } from '../customers/customers.service';
import {
  ENTERED_AT,
  NUMBER_PREFIX,
  transition,
  type EstimateAction,
  type EstimateStatus,
} from './estimate-state';
import { serializeEstimate, type EstimateRow } from './estimate.serializer';

export interface EstimateSettings {
  publicBaseUrl: string;
  /** The account's current logo for the PDF (account/account.service.ts currentLogo). */
  logos: LogoLoader;
}

const EVENT_OF: Partial<Record<EstimateAction, InvoicingEventType>> = {
  send: 'estimate.sent',
  accept: 'estimate.accepted',
  decline: 'estimate.declined',
  expire: 'estimate.expired',
  convert: 'estimate.invoiced',
};

export class EstimateStore {
  constructor(
    readonly clock: Clock,
    readonly settings: EstimateSettings,
  ) {}

  serialize(row: EstimateRow) {
    return serializeEstimate(row, this.settings.publicBaseUrl);
  }

  /** Applies a state-machine action: new status, its timestamp, its event. */
  async move(
    tx: Tx,
    current: EstimateRow,
    action: EstimateAction,
    now: Date,
    changes: Record<string, unknown>,
  ): Promise<EstimateRow> {
    const status: EstimateStatus = transition(current.id, current.status, action);
    const all: Record<string, unknown> = { ...changes, status };
    const enteredAt = ENTERED_AT[status];
    if (enteredAt) all[enteredAt] = now;
    const row = await this.patch(tx, current, all, now);
    const type = EVENT_OF[action];
    if (type) await this.emit(tx, type, row, now);
    return row;
  }

  /** Updates columns of one estimate (names are the use cases' constants, never input). */
  patch(tx: Tx, current: EstimateRow, changes: Record<string, unknown>, now: Date): Promise<EstimateRow> {
    return updateColumns<EstimateRow>(tx, 'invoicing.estimates', current.id, changes, now);
  }

  lock(tx: Tx, tenant: Tenant, id: string): Promise<EstimateRow> {
    return lockOwned<EstimateRow>(tx, 'invoicing.estimates', tenant, id, 'estimate');
  }

  /** The frozen time of the customer's test clock, else `now`. */
  async customerTime(tx: Tx, tenant: Tenant, customerId: string, now: Date): Promise<Date> {
    const [clock] = await tx.query<{ frozen_time: Date }>(
      `select t.frozen_time from invoicing.customers c join invoicing.test_clocks t on t.id = c.test_clock
        where c.id = $1 and c.account_id = $2 and c.livemode = $3`,
      [customerId, tenant.account, tenant.livemode],
    );
    return clock ? new Date(clock.frozen_time) : now;
  }

  customer(tx: Tx, tenant: Tenant, id: string): Promise<CustomerRow> {
    return findOwned<CustomerRow>(tx, 'invoicing.customers', tenant, id, 'customer', 'customer');
  }

  /** The next number of this account, mode and kind (the counter row is locked until commit). */
  async nextNumber(tx: Tx, row: EstimateRow): Promise<string> {
    const [counter] = await tx.query<{ last_number: string }>(
      `insert into invoicing.estimate_number_counters (account_id, livemode, kind, last_number) values ($1, $2, $3, 1)
       on conflict (account_id, livemode, kind) do update set last_number = estimate_number_counters.last_number + 1
       returning last_number`,
      [row.account_id, row.livemode, row.kind],
    );
    return `${NUMBER_PREFIX[row.kind]}-${counter.last_number.toString().padStart(4, '0')}`;
  }

  async emit(tx: Tx, type: InvoicingEventType, row: EstimateRow, at: Date): Promise<void> {
    await emitRowEvent(tx, TOPICS.invoicingEvents, row, {
      type,
      object: this.serialize(row),
      at,
    });
  }
}

/** Whether `expires_at` has passed at `now` (the customer's time). */
export function pastExpiry(row: Pick<EstimateRow, 'expires_at'>, now: Date): boolean {
  return row.expires_at !== null && new Date(row.expires_at).getTime() <= now.getTime();
}
