// Mandates: a card the payer allowed the merchant to charge again, stored at the processor
// (we keep its `credential` handle, brand, last4 and expiry; never the number or CVC).
//   recurring  created by the checkout of a recurring link (with its first charge), charged
//              by the scheduler on every cycle (cycle.ts: dates from the anchor, retries);
//   on-demand  created when a payer saves the card paying an invoice (`customer` set, no
//              interval), charged by the invoicing service through payments.commands.v1.
// The object and its states are in mandate.ts; the charges (scheduler, commands, recovery)
// in mandate-charges.ts, through the intent saga.

import {
  ApiError,
  type Clock,
  type Database,
  findOwned,
  type ListQuery,
  lockOwned,
  type Logger,
  newId,
  paginateOwned,
  type Tx,
  type Tenant,
} from '@paygrid/platform';
import type { PaymentMethodSummary } from '../connectors/connector';
import type { ConnectorRouter } from '../connectors/connector-router';
import type { TransactionRow } from '../transactions/transaction';
import type { TransactionsService } from '../transactions/transactions.service';
import { cycleDate, type Interval } from './cycle';
import { emitMandateEvent, type MandateRow } from './mandate';
import { MandateCharges } from './mandate-charges';
import type { ChargeMandateRequest } from './mandate-commands';
import { chargeSandboxMandateNow } from './sandbox-charge-now';

export { serializeMandate, type MandateChargeRow, type MandateRow, type MandateStatus } from './mandate';
export { COMMANDS_CONSUMER, parseChargeMandate, type ChargeMandateRequest } from './mandate-commands';

/** A new mandate, created in tx2 of its first successful charge. */
export interface NewMandate {
  merchant: string | null;
  payment_link?: string | null;
  customer?: string | null;
  client_reference_id?: string | null;
  payer: { name: string | null; email: string | null };
  payment_method: PaymentMethodSummary;
  credential: string;
  currency: string;
  /** Recurring mandates: the amount of each cycle and the schedule; anchored at `now`. */
  recurring?: { amount: bigint; interval: Interval; interval_count: number };
  metadata?: Record<string, string>;
}

export class MandatesService {
  private readonly charges: MandateCharges;

  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    connectors: ConnectorRouter,
    // Kept for the composition roots and tests that build the service with it: the intent
    // saga (intents/intent-saga.ts) now does what this service borrowed it for.
    _transactions: TransactionsService,
    logger: Logger,
  ) {
    this.charges = new MandateCharges(db, clock, connectors, logger);
  }

  // ---------------------------------------------------------------- API

  async get(tenant: Tenant, id: string): Promise<MandateRow> {
    return findOwned<MandateRow>(this.db, 'payments.mandates', tenant, id, 'mandate');
  }

  list(tenant: Tenant, query: ListQuery) {
    return paginateOwned<MandateRow>(this.db, tenant, {
      table: 'payments.mandates',
      list: query,
      url: '/v1/mandates',
    });
  }

  /** Test mode: the mandate's next scheduled attempt runs now (sandbox-charge-now.ts). */
  chargeSandboxNow(tenant: Tenant, id: string): Promise<MandateRow> {
    return chargeSandboxMandateNow({ db: this.db, clock: this.clock, charges: this.charges }, tenant, id);
  }

  /**
   * active -> canceled; canceling a canceled mandate answers it unchanged; failed is 409.
   * `tx`: the idempotent request's transaction (docs/adr/0015).
   */
  async cancel(tenant: Tenant, id: string, tx?: Tx): Promise<MandateRow> {
    return this.db.transaction(
      async (tx) => {
        const current = await lockOwned<MandateRow>(tx, 'payments.mandates', tenant, id, 'mandate');
        if (current.status === 'canceled') return current;
        if (current.status !== 'active') {
          throw new ApiError(
            'invalid_state_transition',
            `A mandate that is ${current.status} cannot be canceled.`,
          );
        }
        const now = this.clock.now();
        const [row] = await tx.query<MandateRow>(
          `update payments.mandates set status = 'canceled', canceled_at = $2, next_charge_at = null, updated_at = $2
          where id = $1 returning *`,
          [id, now],
        );
        await emitMandateEvent(tx, row, 'mandate.canceled', now, { status: 'active' });
        return row;
      },
      { in: tx },
    );
  }

  /**
   * The customer portal's card replacement (card-updates/): the customer's active mandate
   * takes the newly stored card; `mandate.updated` with the previous payment_method. The same
   * card stored again (a repeated form) changes nothing.
   */
  async replaceCard(
    tenant: Tenant,
    id: string,
    customer: string,
    card: { payment_method: PaymentMethodSummary; credential: string },
  ): Promise<MandateRow | null> {
    return this.db.transaction(async (tx) => {
      const current = await this.customerMandate(tx, tenant, id, customer);
      if (!current || current.status !== 'active') return null;
      if (current.credential === card.credential) return current;
      const now = this.clock.now();
      const [row] = await tx.query<MandateRow>(
        `update payments.mandates set payment_method = $2::jsonb, credential = $3, updated_at = $4
          where id = $1 returning *`,
        [id, JSON.stringify(card.payment_method), card.credential, now],
      );
      await emitMandateEvent(tx, row, 'mandate.updated', now, { payment_method: current.payment_method });
      return row;
    });
  }

  /** The mandate if it is this customer's (the portal's card page may act on no other). */
  async forCustomer(tenant: Tenant, id: string, customer: string): Promise<MandateRow | null> {
    return this.customerMandate(this.db, tenant, id, customer);
  }

  private async customerMandate(
    db: Pick<Database, 'query'>,
    tenant: Tenant,
    id: string,
    customer: string,
  ): Promise<MandateRow | null> {
    const [row] = await db.query<MandateRow>(
      `select * from payments.mandates where id = $1 and account_id = $2 and livemode = $3 and customer = $4${
        db === this.db ? '' : ' for update'
      }`,
      [id, tenant.account, tenant.livemode, customer],
    );
    return row ?? null;
  }

  // ---------------------------------------------------------------- creation

  /**
   * Creates the mandate in tx2 of its first charge and links the payment to it; the caller
   * passes the payment row, which is returned with `mandate` set.
   */
  async createWithPayment(tx: Tx, payment: TransactionRow, input: NewMandate): Promise<TransactionRow> {
    const now = this.clock.now();
    const recurring = input.recurring;
    const [mandate] = await tx.query<MandateRow>(
      `insert into payments.mandates (id, account_id, livemode, merchant_id, payment_link, customer, client_reference_id,
         payer, payment_method, credential, amount, currency, interval, interval_count, anchor_at, next_cycle,
         next_charge_at, status, metadata, created_at, updated_at)
       values ($1, $2, $3, $4, $5, $6, $7, $8::jsonb, $9::jsonb, $10, $11::bigint, $12, $13, $14, $15, 1, $16, 'active',
         $17::jsonb, $18, $18)
       returning *`,
      [
        newId('mdt'),
        payment.account_id,
        payment.livemode,
        input.merchant,
        input.payment_link ?? null,
        input.customer ?? null,
        input.client_reference_id ?? null,
        JSON.stringify(input.payer),
        JSON.stringify(input.payment_method),
        input.credential,
        recurring ? recurring.amount.toString() : null,
        input.currency,
        recurring?.interval ?? null,
        recurring?.interval_count ?? null,
        recurring ? now : null,
        recurring ? cycleDate(now, recurring.interval, recurring.interval_count, 1) : null,
        JSON.stringify(input.metadata ?? {}),
        now,
      ],
    );
    await emitMandateEvent(tx, mandate, 'mandate.created', now);
    const [linked] = await tx.query<TransactionRow>(
      'update payments.transactions set mandate = $2 where id = $1 returning *',
      [payment.id, mandate.id],
    );
    return linked;
  }

  // ---------------------------------------------------------------- charges (mandate-charges.ts)

  chargeDue(limit = 50): Promise<number> {
    return this.charges.chargeDue(limit);
  }

  recoverPending(olderThanMs: number): Promise<number> {
    return this.charges.recoverPending(olderThanMs);
  }

  acceptCommand(envelope: unknown): Promise<void> {
    return this.charges.acceptCommand(envelope);
  }

  handleCommand(command: ChargeMandateRequest): Promise<TransactionRow | undefined> {
    return this.charges.handleCommand(command);
  }
}
