// Mandates: a card the payer allowed the merchant to charge again, stored at the processor
// (we keep its `credential` handle, brand, last4 and expiry; never the number or CVC).
//   recurring  created by the checkout of a recurring link (with its first charge), charged
//              by the scheduler on every cycle (cycle.ts: dates from the anchor, retries);
//   on-demand  created when a payer saves the card paying an invoice (`customer` set, no
//              interval), charged by the invoicing service through payments.commands.v1.
// Status: active -> canceled (POST /v1/mandates/:id/cancel) | failed (last retry of a cycle
// failed). Every change emits mandate.created|canceled|failed through the outbox.
//
// Every charge of a stored card follows the intent pattern with a row in mandate_charges:
//   tx1  claim (scheduler: FOR UPDATE SKIP LOCKED on the due mandate; command: the inbox and
//        the unique transaction reference), write the pending transaction and the intent row
//        (unique per mandate, cycle and attempt);
//   call connector.chargeStored OUTSIDE any transaction, idempotency key = transaction id;
//   tx2  record the outcome (transaction, ledger, payment.*), then advance the mandate.
// An intent left pending by a crash is re-driven by recoverPending(): unlike a card typed
// into a form, a stored credential can be charged again, and the processor dedupes on the
// idempotency key, so the re-drive never charges twice.

import { TOPICS } from '@paygrid/contracts';
import {
  ApiError,
  claimInbox,
  type Clock,
  type Database,
  emitEvent,
  type EventBus,
  findOwned,
  type ListQuery,
  type Logger,
  minorToJson,
  newId,
  paginateOwned,
  toMinor,
  type Tx,
  type Tenant,
} from '@paygrid/platform';
import type { ConnectorOutcome, PaymentMethodSummary } from '../connectors/connector';
import { PROCESSOR_NOT_CONFIGURED_MESSAGE, type ConnectorRouter } from '../connectors/connector-router';
import {
  assertOutsideTransaction,
  type TransactionRow,
  type TransactionsService,
} from '../transactions/transactions.service';
import { cycleDate, retryAt, type Interval } from './cycle';

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

const iso = (d: Date | null) => (d ? new Date(d).toISOString() : null);

export function serializeMandate(m: MandateRow) {
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
    next_charge_at: m.status === 'active' ? iso(m.next_charge_at) : null,
    failure_code: m.failure_code,
    canceled_at: iso(m.canceled_at),
    metadata: m.metadata,
    created_at: iso(m.created_at) as string,
    updated_at: iso(m.updated_at) as string,
  };
}

type MandateEvent = 'mandate.created' | 'mandate.canceled' | 'mandate.failed';

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

/** The command of payments.commands.v1 (libs/contracts commands.ts), after validation. */
export interface ChargeMandateRequest {
  message_id: string;
  account: string;
  livemode: boolean;
  mandate: string;
  amount: bigint;
  currency: string;
  invoice: string;
  customer: string | null;
  reference: string;
}

export const COMMANDS_CONSUMER = 'payments.commands';

export class MandatesService {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    private readonly connectors: ConnectorRouter,
    private readonly transactions: TransactionsService,
    private readonly logger: Logger,
  ) {}

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

  /** active -> canceled; canceling a canceled mandate answers it unchanged; failed is 409. */
  async cancel(tenant: Tenant, id: string): Promise<MandateRow> {
    return this.db.transaction(async (tx) => {
      const [current] = await tx.query<MandateRow>(
        'select * from payments.mandates where id = $1 and account_id = $2 and livemode = $3 for update',
        [id, tenant.account, tenant.livemode],
      );
      if (!current) throw new ApiError('resource_missing', `No such mandate: '${id}'`, 'id');
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
      await this.emit(tx, row, 'mandate.canceled', now, { status: 'active' });
      return row;
    });
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
    await this.emit(tx, mandate, 'mandate.created', now);
    const [linked] = await tx.query<TransactionRow>(
      'update payments.transactions set mandate = $2 where id = $1 returning *',
      [payment.id, mandate.id],
    );
    return linked;
  }

  // ---------------------------------------------------------------- scheduler

  /**
   * Charges the mandates due at the clock's now, at most `limit` of them, and answers how
   * many charges it started. Safe with any number of instances running it at once: the
   * claim skips rows another instance holds, and the intent row's unique (mandate, cycle,
   * attempt) refuses a second start of the same attempt.
   */
  async chargeDue(limit = 50): Promise<number> {
    assertOutsideTransaction(this.db);
    const now = this.clock.now();
    const claimed = await this.db.transaction(async (tx) => {
      const due = await tx.query<MandateRow>(
        `select m.* from payments.mandates m
          where m.status = 'active' and m.next_charge_at is not null and m.next_charge_at <= $1
            and not exists (select 1 from payments.mandate_charges c where c.mandate_id = m.id and c.status = 'pending')
          order by m.next_charge_at
          limit $2
          for update of m skip locked`,
        [now, limit],
      );
      const started: { charge: MandateChargeRow; mandate: MandateRow }[] = [];
      for (const mandate of due) {
        // Under the row lock, a charge of this attempt cannot be started by anyone else.
        const [already] = await tx.query(
          `select 1 from payments.mandate_charges where mandate_id = $1 and kind = 'cycle' and cycle = $2 and attempt = $3`,
          [mandate.id, mandate.next_cycle, mandate.next_attempt],
        );
        if (already) continue;
        const charge = await this.writeIntent(tx, mandate, {
          kind: 'cycle',
          cycle: mandate.next_cycle,
          attempt: mandate.next_attempt,
          amount: toMinor(mandate.amount ?? '0'),
          invoice: null,
          customer: mandate.customer,
          reference: null,
        });
        started.push({ charge, mandate });
      }
      return started;
    });
    for (const { charge, mandate } of claimed) await this.drive(charge, mandate);
    return claimed.length;
  }

  /** Re-drives intents left pending longer than `olderThanMs` (a crash after tx1). */
  async recoverPending(olderThanMs: number): Promise<number> {
    const cutoff = new Date(this.clock.now().getTime() - olderThanMs);
    const stale = await this.db.query<MandateChargeRow>(
      `select * from payments.mandate_charges where status = 'pending' and created_at < $1 order by created_at limit 200`,
      [cutoff],
    );
    for (const charge of stale) {
      const [mandate] = await this.db.query<MandateRow>('select * from payments.mandates where id = $1', [
        charge.mandate_id,
      ]);
      await this.drive(charge, mandate);
    }
    return stale.length;
  }

  // ---------------------------------------------------------------- commands

  /** Subscribes to payments.commands.v1 (see handleCommand). */
  async startCommandConsumer(bus: EventBus, topic: string): Promise<void> {
    await bus.subscribe({
      groupId: COMMANDS_CONSUMER,
      topics: [topic],
      handler: async (message) => {
        const request = parseChargeMandate(message.value);
        if ('problem' in request) {
          this.logger.error(
            { problem: request.problem },
            'dropping a payments command that cannot be charged',
          );
          return;
        }
        await this.handleCommand(request);
      },
    });
  }

  /**
   * `payment.charge_mandate`, exactly once per reference. tx1 records the message in the
   * inbox and writes the intent (or, for an invalid mandate, the failed transaction and
   * payment.failed, so the sender always gets an answer). The connector call follows tx1's
   * commit: that is why this consumer calls claimInbox itself instead of running inside
   * InboxConsumer's transaction, where a network call would be inside a transaction. A
   * redelivery finds the inbox row and only drives an intent still pending (a crash between
   * tx1 and tx2); a second command with the same reference charges nothing.
   */
  async handleCommand(command: ChargeMandateRequest): Promise<TransactionRow | undefined> {
    const tenant = { account: command.account, livemode: command.livemode };
    const work = await this.db.transaction(async (tx) => {
      const fresh = await claimInbox(tx, COMMANDS_CONSUMER, command.message_id);
      const [existing] = await tx.query<TransactionRow>(
        'select * from payments.transactions where account_id = $1 and livemode = $2 and reference = $3',
        [command.account, command.livemode, command.reference],
      );
      if (existing || !fresh) {
        if (!existing || existing.status !== 'pending') return { done: existing };
        const [charge] = await tx.query<MandateChargeRow>(
          `select * from payments.mandate_charges where transaction_id = $1 and status = 'pending'`,
          [existing.id],
        );
        return charge ? { charge } : { done: existing };
      }
      const [mandate] = await tx.query<MandateRow>(
        'select * from payments.mandates where id = $1 and account_id = $2 and livemode = $3',
        [command.mandate, command.account, command.livemode],
      );
      const problem = !mandate
        ? `No such mandate: '${command.mandate}'.`
        : mandate.status !== 'active'
          ? `The mandate is ${mandate.status}.`
          : mandate.currency !== command.currency
            ? `The mandate charges ${mandate.currency}, not ${command.currency}.`
            : undefined;
      if (problem || !mandate) {
        const failed = await this.transactions.insertFailed(
          tx,
          tenant,
          {
            amount: command.amount,
            currency: command.currency,
            merchant: mandate?.merchant_id ?? null,
            mandate: command.mandate,
            invoice: command.invoice,
            customer: command.customer,
            reference: command.reference,
            payment_method: mandate?.payment_method ?? null,
          },
          'mandate_invalid',
          problem ?? 'The mandate cannot be charged.',
        );
        return { done: failed };
      }
      const charge = await this.writeIntent(tx, mandate, {
        kind: 'command',
        cycle: null,
        attempt: 1,
        amount: command.amount,
        invoice: command.invoice,
        customer: command.customer ?? mandate.customer,
        reference: command.reference,
      });
      return { charge };
    });
    if ('done' in work) return work.done;
    const [mandate] = await this.db.query<MandateRow>('select * from payments.mandates where id = $1', [
      work.charge.mandate_id,
    ]);
    return this.drive(work.charge, mandate);
  }

  // ---------------------------------------------------------------- the intent pattern

  private async writeIntent(
    tx: Tx,
    mandate: MandateRow,
    charge: {
      kind: 'cycle' | 'command';
      cycle: number | null;
      attempt: number;
      amount: bigint;
      invoice: string | null;
      customer: string | null;
      reference: string | null;
    },
  ): Promise<MandateChargeRow> {
    const payment = await this.transactions.insertIntent(
      tx,
      { account: mandate.account_id, livemode: mandate.livemode },
      {
        amount: charge.amount,
        currency: mandate.currency,
        merchant: mandate.merchant_id,
        payment_link: mandate.payment_link,
        mandate: mandate.id,
        invoice: charge.invoice,
        customer: charge.customer,
        client_reference_id: mandate.client_reference_id,
        reference: charge.reference,
        payment_method: mandate.payment_method,
        metadata: charge.kind === 'cycle' ? mandate.metadata : {},
      },
    );
    const [row] = await tx.query<MandateChargeRow>(
      `insert into payments.mandate_charges (id, account_id, livemode, mandate_id, kind, cycle, attempt, transaction_id,
         status, created_at, updated_at)
       values ($1, $2, $3, $4, $5, $6, $7, $8, 'pending', $9, $9) returning *`,
      [
        newId('att'),
        mandate.account_id,
        mandate.livemode,
        mandate.id,
        charge.kind,
        charge.cycle,
        charge.attempt,
        payment.id,
        this.clock.now(),
      ],
    );
    return row;
  }

  /** The connector call for one intent (outside any transaction), then tx2. */
  private async drive(charge: MandateChargeRow, mandate: MandateRow): Promise<TransactionRow> {
    const [payment] = await this.db.query<TransactionRow>(
      'select * from payments.transactions where id = $1',
      [charge.transaction_id],
    );
    let outcome: ConnectorOutcome;
    const tenant = { account: payment.account_id, livemode: payment.livemode };
    if (!(await this.connectors.available(tenant))) {
      // Live without a processor: the attempt fails (nothing is charged or recorded as
      // succeeded); a cycle follows its retry policy and a command's sender gets payment.failed.
      return this.recordUnavailable(charge, payment);
    }
    try {
      const connector = await this.connectors.forTenant(tenant);
      outcome = await connector.chargeStored({
        idempotency_key: payment.id,
        amount: toMinor(payment.amount),
        currency: payment.currency,
        livemode: payment.livemode,
        credential: mandate.credential,
        attempt: charge.attempt,
      });
    } catch (err) {
      // The intent stays pending; recoverPending re-drives it with the same idempotency key.
      this.logger.warn(
        { err, charge: charge.id },
        'stored-credential charge did not complete; left for recovery',
      );
      return payment;
    }
    return this.db.transaction(async (tx) => {
      const [claimed] = await tx.query<MandateChargeRow>(
        `update payments.mandate_charges set status = $2, updated_at = $3 where id = $1 and status = 'pending' returning *`,
        [charge.id, outcome.status, this.clock.now()],
      );
      if (!claimed) return this.transactions.reload(tx, payment.id);
      const recorded = await this.transactions.recordOutcome(tx, payment.id, outcome);
      if (charge.kind === 'cycle') {
        await this.advance(tx, charge, outcome.status === 'succeeded' ? undefined : outcome.code);
      }
      return recorded;
    });
  }

  /** tx2 of an attempt that could not reach a processor: failed with processor_not_configured. */
  private recordUnavailable(charge: MandateChargeRow, payment: TransactionRow): Promise<TransactionRow> {
    return this.db.transaction(async (tx) => {
      const [claimed] = await tx.query<MandateChargeRow>(
        `update payments.mandate_charges set status = 'failed', updated_at = $2 where id = $1 and status = 'pending' returning *`,
        [charge.id, this.clock.now()],
      );
      if (!claimed) return this.transactions.reload(tx, payment.id);
      const recorded = await this.transactions.recordFailure(
        tx,
        payment.id,
        'processor_not_configured',
        PROCESSOR_NOT_CONFIGURED_MESSAGE,
        null,
      );
      if (charge.kind === 'cycle') await this.advance(tx, charge, 'processor_not_configured');
      return recorded;
    });
  }

  /** After a cycle's attempt: the next cycle, a retry, or the mandate fails (see cycle.ts). */
  private async advance(tx: Tx, charge: MandateChargeRow, failureCode: string | undefined): Promise<void> {
    const [mandate] = await tx.query<MandateRow>('select * from payments.mandates where id = $1 for update', [
      charge.mandate_id,
    ]);
    // Canceled while the charge ran, or already moved on: nothing to schedule.
    if (
      mandate.status !== 'active' ||
      mandate.next_cycle !== charge.cycle ||
      mandate.next_attempt !== charge.attempt ||
      !mandate.anchor_at ||
      !mandate.interval ||
      !mandate.interval_count
    ) {
      return;
    }
    const now = this.clock.now();
    if (failureCode === undefined) {
      const next = mandate.next_cycle + 1;
      await tx.query(
        `update payments.mandates set next_cycle = $2, next_attempt = 1, next_charge_at = $3, failure_code = null,
           updated_at = $4 where id = $1`,
        [
          mandate.id,
          next,
          cycleDate(new Date(mandate.anchor_at), mandate.interval, mandate.interval_count, next),
          now,
        ],
      );
      return;
    }
    const retry = retryAt(now, charge.attempt);
    if (retry) {
      await tx.query(
        `update payments.mandates set next_attempt = $2, next_charge_at = $3, failure_code = $4, updated_at = $5 where id = $1`,
        [mandate.id, charge.attempt + 1, retry, failureCode, now],
      );
      return;
    }
    const [failed] = await tx.query<MandateRow>(
      `update payments.mandates set status = 'failed', next_charge_at = null, failure_code = $2, updated_at = $3
        where id = $1 returning *`,
      [mandate.id, failureCode, now],
    );
    await this.emit(tx, failed, 'mandate.failed', now, { status: 'active' });
  }

  private async emit(
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
}

/** Validates a payments.commands.v1 message (CommandEnvelope<ChargeMandateCommand>). */
export function parseChargeMandate(raw: string): ChargeMandateRequest | { problem: string } {
  let envelope: unknown;
  try {
    envelope = JSON.parse(raw);
  } catch {
    return { problem: 'not JSON' };
  }
  const e = envelope as {
    id?: unknown;
    type?: unknown;
    account?: unknown;
    livemode?: unknown;
    data?: Record<string, unknown>;
  };
  if (typeof e?.id !== 'string' || typeof e.account !== 'string' || typeof e.livemode !== 'boolean') {
    return { problem: 'envelope without id, account or livemode' };
  }
  if (e.type !== 'payment.charge_mandate') return { problem: `unknown command type ${String(e.type)}` };
  const d = e.data ?? {};
  const amount = d.amount;
  if (typeof amount !== 'number' || !Number.isSafeInteger(amount) || amount < 1 || amount > 99_999_999_999) {
    return { problem: 'amount must be an integer of minor units, 1 to 99999999999' };
  }
  for (const field of ['mandate', 'currency', 'invoice', 'reference'] as const) {
    if (typeof d[field] !== 'string' || !(d[field] as string).length)
      return { problem: `${field} is missing` };
  }
  if (d.customer !== null && d.customer !== undefined && typeof d.customer !== 'string') {
    return { problem: 'customer must be a string or null' };
  }
  return {
    message_id: e.id,
    account: e.account,
    livemode: e.livemode,
    mandate: d.mandate as string,
    amount: BigInt(amount),
    currency: (d.currency as string).toUpperCase(),
    invoice: d.invoice as string,
    customer: (d.customer as string | null | undefined) ?? null,
    reference: d.reference as string,
  };
}
