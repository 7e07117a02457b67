// The charges of stored cards (mandates.service.ts says what a mandate is): the scheduler's
// cycles and the commands of payments.commands.v1. Each charge runs through the intent saga
// (intents/intent-saga.ts) with a row in mandate_charges beside its transaction:
//   tx1  claim (scheduler: FOR UPDATE SKIP LOCKED on the due mandate; command: the inbox and
//        the unique transaction reference), write the pending transaction and the attempt row
//        (unique per mandate, cycle and attempt);
//   call connector.chargeStored OUTSIDE any transaction, idempotency key = transaction id;
//   tx2  the attempt row leaves pending (the guard), the outcome is recorded (transaction,
//        ledger, payment.*), then the mandate advances (next cycle, retry, or failed).
// An intent left pending by a crash is re-driven by recoverPending(): unlike a card typed
// into a form, a stored credential can be charged again, and the processor dedupes on the
// idempotency key, so the re-drive never charges twice.

import {
  claimInbox,
  type Clock,
  type Database,
  type Logger,
  newId,
  toMinor,
  type Tx,
} from '@paygrid/platform';
import { PROCESSOR_NOT_CONFIGURED_MESSAGE, type ConnectorRouter } from '../connectors/connector-router';
import { IntentSaga, type FinalOutcome } from '../intents/intent-saga';
import { insertPaymentIntent, transactionById } from '../intents/intents.sql';
import type { TransactionRow } from '../transactions/transaction';
import { cycleDate, retryAt } from './cycle';
import { emitMandateEvent, type MandateChargeRow, type MandateRow } from './mandate';
import { COMMANDS_CONSUMER, parseChargeMandateEnvelope, type ChargeMandateRequest } from './mandate-commands';

export class MandateCharges {
  private readonly saga: IntentSaga;

  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    private readonly connectors: ConnectorRouter,
    private readonly logger: Logger,
  ) {
    this.saga = new IntentSaga(db, clock);
  }

  /**
   * Charges the mandates due at the clock's now, at most `limit` of them, and answers how
   * many charges it started. Safe with any number of instances running it at once: the
   * claim skips rows another instance holds, and the intent row's unique (mandate, cycle,
   * attempt) refuses a second start of the same attempt. `only` limits it to one mandate (the
   * sandbox's test helper, sandbox-charge-now.ts).
   */
  async chargeDue(limit = 50, only?: string): Promise<number> {
    const now = this.clock.now();
    const claimed = await this.saga.write(async (tx) => {
      const due = await tx.query<MandateRow>(
        `select m.* from payments.mandates m
          where m.status = 'active' and m.next_charge_at is not null and m.next_charge_at <= $1
            and ($3::text is null or m.id = $3)
            and not exists (select 1 from payments.mandate_charges c where c.mandate_id = m.id and c.status = 'pending')
          order by m.next_charge_at
          limit $2
          for update of m skip locked`,
        [now, limit, only ?? null],
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
  recoverPending(olderThanMs: number): Promise<number> {
    return this.saga.recover(
      olderThanMs,
      (cutoff) =>
        this.db.query<MandateChargeRow>(
          `select * from payments.mandate_charges where status = 'pending' and created_at < $1 order by created_at limit 200`,
          [cutoff],
        ),
      async (charge) => {
        await this.drive(charge, await this.mandateOf(charge));
        return true;
      },
    );
  }

  /**
   * One message of payments.commands.v1 (MandateCommandsConsumer): a malformed command is
   * logged and dropped (no retry can mend it); a valid one is charged (handleCommand).
   */
  async acceptCommand(envelope: unknown): Promise<void> {
    const request = parseChargeMandateEnvelope(envelope);
    if ('problem' in request) {
      this.logger.error({ problem: request.problem }, 'dropping a payments command that cannot be charged');
      return;
    }
    await this.handleCommand(request);
  }

  /**
   * `payment.charge_mandate`, exactly once per reference. tx1 records the message in the
   * inbox and writes the intent (or, for an invalid mandate, the failed transaction and
   * payment.failed, so the sender always gets an answer). The connector call follows tx1's
   * commit: that is why this consumer runs with OWN_TRANSACTIONS and calls claimInbox itself
   * instead of running inside the inbox transaction, where a network call would be inside a
   * transaction. A
   * redelivery finds the inbox row and only drives an intent still pending (a crash between
   * tx1 and tx2); a second command with the same reference charges nothing.
   */
  async handleCommand(command: ChargeMandateRequest): Promise<TransactionRow | undefined> {
    const tenant = { account: command.account, livemode: command.livemode };
    const work = await this.saga.write(async (tx) => {
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
        const intent = await insertPaymentIntent(
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
          this.clock.now(),
        );
        // Never sent to a processor: recorded failed at once, so the sender gets payment.failed.
        const failed = await this.saga.record(tx, intent.id, {
          status: 'failed',
          code: 'mandate_invalid',
          message: problem ?? 'The mandate cannot be charged.',
          processor_reference: null,
        });
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
    return this.drive(work.charge, await this.mandateOf(work.charge));
  }

  private async mandateOf(charge: MandateChargeRow): Promise<MandateRow> {
    const [mandate] = await this.db.query<MandateRow>('select * from payments.mandates where id = $1', [
      charge.mandate_id,
    ]);
    return mandate;
  }

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
    const payment = await insertPaymentIntent(
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
        // A recurring checkout's payer gave this address for receipts: each cycle's goes there too.
        receipt_email: charge.kind === 'cycle' ? (mandate.payer.email ?? null) : null,
        payment_method: mandate.payment_method,
        metadata: charge.kind === 'cycle' ? mandate.metadata : {},
      },
      this.clock.now(),
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
    const payment = await transactionById(this.db, charge.transaction_id);
    const tenant = { account: payment.account_id, livemode: payment.livemode };
    if (!(await this.connectors.available(tenant))) {
      // Live without a processor: the attempt fails (nothing is charged or recorded as
      // succeeded); a cycle follows its retry policy and a command's sender gets payment.failed.
      return this.db.transaction((tx) =>
        this.record(tx, charge, payment, {
          status: 'failed',
          code: 'processor_not_configured',
          message: PROCESSOR_NOT_CONFIGURED_MESSAGE,
          processor_reference: null,
        }),
      );
    }
    return this.saga.resume(payment, {
      call: async (p) =>
        (await this.connectors.forTenant(tenant)).chargeStored({
          idempotency_key: p.id,
          amount: toMinor(p.amount),
          currency: p.currency,
          livemode: p.livemode,
          credential: mandate.credential,
          attempt: charge.attempt,
        }),
      record: (tx, p, outcome) => this.record(tx, charge, p, outcome),
      // The intent stays pending; recoverPending re-drives it with the same idempotency key.
      callFailed: async (p, err) => {
        this.logger.warn(
          { err, charge: charge.id },
          'stored-credential charge did not complete; left for recovery',
        );
        return p;
      },
    });
  }

  /** tx2 of an attempt: the attempt row is the guard, then the outcome, then the schedule. */
  private record(tx: Tx, charge: MandateChargeRow, payment: TransactionRow, outcome: FinalOutcome) {
    return this.saga.record(tx, payment.id, outcome, {
      // In the statement that moves the payment (RecordEffects.claim).
      claim: (now) => ({
        sql: `update payments.mandate_charges set status = $2, updated_at = $3 where id = $1 and status = 'pending' returning id`,
        params: [charge.id, outcome.status, now],
      }),
      ...(charge.kind === 'cycle'
        ? {
            onRecorded: (t: Tx) =>
              this.advance(t, charge, outcome.status === 'succeeded' ? undefined : outcome.code),
          }
        : {}),
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
    await emitMandateEvent(tx, failed, 'mandate.failed', now, { status: 'active' });
  }
}
