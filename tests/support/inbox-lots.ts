// InboxConsumer's lots (docs/events.md, "Batches on Kafka") on a real database, driven as
// KafkaBus drives them: a fetched slice to the batch handler, the message it stopped at to the
// single-message handler (retried in place), then the rest to the batch handler again. Each
// scenario returns what it observed (batch outcomes, the statements a lot sent, the effects by
// transaction, the inbox); the Kafka (PostgreSQL) and embedded (PGlite) suites assert the same
// expected values. What the lots must keep: effects once per message, none skipped, a failing
// message rolled back alone with its inbox row, the lot before it committed once, a lot the
// Database retries restarting from its claim; one inbox statement per lot, and no savepoint
// unless an effect fails (then the messages before it run again, guarded).

import { randomBytes } from 'node:crypto';
import {
  claimInbox,
  createLogger,
  Database,
  InboxConsumer,
  platformTablesMigration,
  type BatchOutcome,
  type ConsumedMessage,
  type EventBus,
  type InboxDelivery,
  type Subscription,
  type Tx,
} from '@paygrid/platform';
import type { MigrationInterface, QueryRunner } from 'typeorm';
import { onStatement } from './statements';

const CONSUMER = 'lots.effects';

/** What a test message asks of its handler. */
interface Plan {
  /** Fails its first `fail` handlings (a JavaScript error, after its effect's insert). */
  fail?: number;
  /** Fails these handlings of it, counted from 1 (as `fail` does). */
  failOn?: number[];
  /** Its first statement raises a real serialization failure, the first time any does. */
  serializationFailure?: boolean;
  /** Queues a write for the commit (Tx.writeAtCommit) that fails the first commit it is in. */
  commitFails?: boolean;
  /** Runs in transactions of its own (OWN_TRANSACTIONS), claiming its inbox row itself. */
  own?: boolean;
}

interface TestEnvelope {
  id: string;
  type: string;
  account: string;
  livemode: boolean;
  n: number;
}

/** A bus that only keeps the subscription: the scenario plays the bus itself. */
class HeldBus implements EventBus {
  readonly transport = 'kafka' as const;
  subscription?: Subscription;
  async connect(): Promise<void> {}
  async publish(): Promise<void> {}
  async subscribe(subscription: Subscription): Promise<void> {
    this.subscription = subscription;
  }
  async ping(): Promise<void> {}
  async close(): Promise<void> {}
}

export interface LotHarness {
  /** The message of event `n` (id `evt_<n>`), at the next offset. */
  message(n: number): ConsumedMessage;
  /** The batch handler over `messages`; its outcome with the error as its message. */
  batch(messages: ConsumedMessage[]): Promise<{ handled: number; error?: string }>;
  /** The single-message handler until it succeeds: the bus retrying a message in place. */
  retryInPlace(message: ConsumedMessage): Promise<number>;
  /** What was sent since the last call, one word per statement (classify). */
  statements(): string[];
  /** Each committed effect's n, grouped by the transaction that committed it, in order. */
  effects(): Promise<number[][]>;
  /** The ids in the consumer's inbox, sorted. */
  inbox(): Promise<string[]>;
  close(): Promise<void>;
}

/** A statement by its role: the inbox's, a transaction's boundaries, or the test's effect. */
function classify(sql: string): string {
  const text = sql.trim().replace(/\s+/g, ' ').toLowerCase();
  if (/^insert into \w+\.inbox\b/.test(text)) return 'claim';
  if (/^delete from \w+\.inbox\b/.test(text)) return 'release';
  if (/^insert into \w+\.effects\b/.test(text)) return 'effect';
  if (/^rollback to savepoint\b/.test(text)) return 'rollback to savepoint';
  if (/^savepoint\b/.test(text)) return 'savepoint';
  if (/^(begin|commit|rollback)\b/.test(text)) return text.split(' ')[0];
  if (/^insert into \w+\.at_commit\b/.test(text)) return 'at commit';
  if (/fail_once/.test(text)) return 'fails once';
  return text.split(' ').slice(0, 3).join(' ');
}

export async function lotHarness(databaseUrl: string, plans: Record<number, Plan>): Promise<LotHarness> {
  const schema = `inbox_lots_${randomBytes(4).toString('hex')}`;
  const Tables = class implements MigrationInterface {
    name = 'LotTables1700000000997';
    async up(runner: QueryRunner) {
      await runner.query(
        `create table ${schema}.effects (seq bigserial primary key, n int not null, txid bigint not null)`,
      );
      await runner.query(`create table ${schema}.at_commit (n int not null)`);
      // Raises a serialization failure (40001, which the Database retries) on its first call
      // only: a sequence counts the calls, and a rollback does not undo it.
      await runner.query(`create sequence ${schema}.failures`);
      await runner.query(
        `create function ${schema}.fail_once() returns boolean language plpgsql as $$
         begin
           if nextval('${schema}.failures') = 1 then
             raise exception 'could not serialize access (test)' using errcode = '40001';
           end if;
           return true;
         end $$`,
      );
    }
    async down() {}
  };
  const db = await Database.connect({
    url: databaseUrl,
    schema,
    migrations: [platformTablesMigration(schema), Tables],
    poolSize: 2,
  });
  await db.migrate();
  const sent: string[] = [];
  onStatement(db.pool, ({ text }) => {
    // A simple query may hold several statements (a savepoint and a statement with it).
    for (const part of text.split(';')) if (part.trim()) sent.push(classify(part));
  });

  const failuresLeft = new Map(Object.entries(plans).map(([n, plan]) => [Number(n), plan.fail ?? 0]));
  const handlings = new Map<number, number>();
  const effect = async (tx: Tx, event: TestEnvelope) => {
    const plan = plans[event.n] ?? {};
    if (plan.serializationFailure) await tx.query(`select ${schema}.fail_once()`);
    await tx.query(`insert into ${schema}.effects (n, txid) values ($1, txid_current())`, [event.n]);
    if (plan.commitFails) {
      tx.writeAtCommit(`insert into ${schema}.at_commit (n) select $1 where ${schema}.fail_once()`, [
        event.n,
      ]);
    }
    const handling = (handlings.get(event.n) ?? 0) + 1;
    handlings.set(event.n, handling);
    if (plan.failOn?.includes(handling)) throw new Error(`message ${event.n} fails`);
    const left = failuresLeft.get(event.n) ?? 0;
    if (left > 0) {
      failuresLeft.set(event.n, left - 1);
      throw new Error(`message ${event.n} fails`);
    }
  };
  const bus = new HeldBus();
  const consumer = new InboxConsumer(db, bus, createLogger('test', 'silent'));
  await consumer.route<TestEnvelope>(CONSUMER, ['test.events.v1'], (event): InboxDelivery => {
    if (!plans[event.n]?.own) return { inTransaction: (tx) => effect(tx, event) };
    return {
      ownTransactions: () =>
        db.transaction(async (tx) => {
          if (await claimInbox(tx, CONSUMER, event.id)) await effect(tx, event);
        }),
    };
  });
  const subscription = bus.subscription as Subscription;
  const batchHandler = subscription.batchHandler as (m: ConsumedMessage[]) => Promise<BatchOutcome>;
  let offset = 0;
  return {
    message: (n) => ({
      topic: 'test.events.v1',
      partition: 0,
      offset: String(offset++),
      key: 'acct_x',
      value: JSON.stringify({
        id: `evt_${n}`,
        type: 'thing.happened',
        account: 'acct_x',
        livemode: false,
        n,
      }),
    }),
    batch: async (messages) => {
      const outcome = await batchHandler(messages);
      return outcome.error === undefined
        ? { handled: outcome.handled }
        : { handled: outcome.handled, error: (outcome.error as Error).message };
    },
    retryInPlace: async (message) => {
      for (let attempt = 1; ; attempt++) {
        try {
          await subscription.handler(message);
          return attempt;
        } catch {
          if (attempt === 10) throw new Error(`message at ${message.offset} still fails`);
        }
      }
    },
    statements: () => sent.splice(0),
    effects: async () => {
      const rows = await db.query<{ n: number; txid: string }>(
        `select n, txid from ${schema}.effects order by seq`,
      );
      const groups: number[][] = [];
      rows.forEach((row, i) => {
        if (i > 0 && rows[i - 1].txid === row.txid) groups[groups.length - 1].push(row.n);
        else groups.push([row.n]);
      });
      return groups;
    },
    inbox: async () =>
      (
        await db.query<{ message_id: string }>(
          `select message_id from ${schema}.inbox where consumer = $1 order by message_id`,
          [CONSUMER],
        )
      ).map((row) => row.message_id),
    close: async () => {
      await db.query(`drop schema ${schema} cascade`);
      await db.close();
    },
  };
}

interface LotScenario {
  plans: Record<number, Plan>;
  run(h: LotHarness): Promise<unknown>;
  expected: unknown;
}

/** Each scenario, what it runs and what it must observe (the same on PostgreSQL and PGlite). */
export const LOT_SCENARIOS: Record<string, LotScenario> = {
  'a lot of five claims its inbox rows in one statement, and a redelivered lot changes nothing': {
    plans: {},
    run: async (h) => {
      const lot = [0, 1, 2, 3, 4].map((n) => h.message(n));
      const first = await h.batch(lot);
      const sent = h.statements();
      const again = await h.batch(lot);
      return {
        first,
        sent,
        again,
        resent: h.statements(),
        effects: await h.effects(),
        inbox: await h.inbox(),
      };
    },
    expected: {
      first: { handled: 5 },
      // Unguarded: no savepoint. Before: a claim per message, each after the first sent with
      // its savepoint; then one claim, and a savepoint before each effect after the first.
      sent: ['begin', 'claim', 'effect', 'effect', 'effect', 'effect', 'effect', 'commit'],
      again: { handled: 5 },
      resent: ['begin', 'claim', 'commit'],
      effects: [[0, 1, 2, 3, 4]],
      inbox: ['evt_0', 'evt_1', 'evt_2', 'evt_3', 'evt_4'],
    },
  },

  'a message failing in the middle of a lot is rolled back with its inbox row and those after it, retried in place, and the rest handled once later':
    {
      plans: { 2: { fail: 1 } },
      run: async (h) => {
        const lot = [0, 1, 2, 3, 4].map((n) => h.message(n));
        const outcome = await h.batch(lot);
        const sent = h.statements();
        const afterLot = { effects: await h.effects(), inbox: await h.inbox() };
        const attempts = await h.retryInPlace(lot[2]);
        const rest = await h.batch(lot.slice(3));
        const redelivered = await h.batch(lot);
        return {
          outcome,
          sent,
          afterLot,
          attempts,
          rest,
          redelivered,
          effects: await h.effects(),
          inbox: await h.inbox(),
        };
      },
      expected: {
        outcome: { handled: 2, error: 'message 2 fails' },
        sent: [
          // Unguarded: the failure takes the transaction.
          ...['begin', 'claim', 'effect', 'effect', 'effect', 'rollback'],
          // The messages before it again, guarded, and only their rows claimed.
          ...['begin', 'claim', 'effect', 'savepoint', 'effect', 'commit'],
        ],
        // What committed: messages 0 and 1, and only their rows.
        afterLot: { effects: [[0, 1]], inbox: ['evt_0', 'evt_1'] },
        attempts: 1,
        rest: { handled: 2 },
        redelivered: { handled: 5 },
        effects: [[0, 1], [2], [3, 4]],
        inbox: ['evt_0', 'evt_1', 'evt_2', 'evt_3', 'evt_4'],
      },
    },

  "a lot's first effect failing rolls the whole lot back, and the handled message before it counts as handled":
    {
      plans: { 1: { fail: 1 } },
      run: async (h) => {
        await h.retryInPlace(h.message(0));
        h.statements();
        const lot = [0, 1, 2].map((n) => h.message(n));
        const outcome = await h.batch(lot);
        const sent = h.statements();
        const afterLot = { effects: await h.effects(), inbox: await h.inbox() };
        await h.retryInPlace(lot[1]);
        await h.retryInPlace(lot[2]);
        return { outcome, sent, afterLot, effects: await h.effects(), inbox: await h.inbox() };
      },
      expected: {
        outcome: { handled: 1, error: 'message 1 fails' },
        sent: ['begin', 'claim', 'effect', 'rollback'],
        afterLot: { effects: [[0]], inbox: ['evt_0'] },
        effects: [[0], [1], [2]],
        inbox: ['evt_0', 'evt_1', 'evt_2'],
      },
    },

  'a redelivery inside a lot, after the failing message, keeps the row its first message committed': {
    plans: { 1: { fail: 1 } },
    run: async (h) => {
      const lot = [h.message(0), h.message(1), h.message(0), h.message(2)];
      const outcome = await h.batch(lot);
      const afterLot = { effects: await h.effects(), inbox: await h.inbox() };
      await h.retryInPlace(lot[1]);
      const rest = await h.batch(lot.slice(2));
      return { outcome, afterLot, rest, effects: await h.effects(), inbox: await h.inbox() };
    },
    expected: {
      outcome: { handled: 1, error: 'message 1 fails' },
      afterLot: { effects: [[0]], inbox: ['evt_0'] },
      rest: { handled: 2 },
      effects: [[0], [1], [2]],
      inbox: ['evt_0', 'evt_1', 'evt_2'],
    },
  },

  'a lot whose first effect the Database retries (serialization failure) restarts from its claim': {
    plans: { 0: { serializationFailure: true } },
    run: async (h) => {
      const outcome = await h.batch([0, 1, 2].map((n) => h.message(n)));
      return { outcome, sent: h.statements(), effects: await h.effects(), inbox: await h.inbox() };
    },
    expected: {
      outcome: { handled: 3 },
      sent: [
        ...['begin', 'claim', 'fails once', 'rollback'],
        ...['begin', 'claim', 'fails once', 'effect', 'effect', 'effect', 'commit'],
      ],
      effects: [[0, 1, 2]],
      inbox: ['evt_0', 'evt_1', 'evt_2'],
    },
  },

  'a lot that ended at a failing message and whose commit the Database retries restarts from its claim': {
    plans: { 1: { commitFails: true }, 3: { fail: 1 } },
    run: async (h) => {
      const lot = [0, 1, 2, 3, 4].map((n) => h.message(n));
      const outcome = await h.batch(lot);
      const sent = h.statements();
      const afterLot = { effects: await h.effects(), inbox: await h.inbox() };
      await h.retryInPlace(lot[3]);
      await h.retryInPlace(lot[4]);
      const redelivered = await h.batch(lot);
      return { outcome, sent, afterLot, redelivered, effects: await h.effects(), inbox: await h.inbox() };
    },
    expected: {
      outcome: { handled: 3, error: 'message 3 fails' },
      sent: [
        // Unguarded: message 3 fails.
        ...['begin', 'claim', 'effect', 'effect', 'effect', 'effect', 'rollback'],
        // Messages 0-2 again, guarded: the commit fails, the Database runs it again.
        ...[
          'begin',
          'claim',
          'effect',
          'savepoint',
          'effect',
          'savepoint',
          'effect',
          'at commit',
          'rollback',
        ],
        ...['begin', 'claim', 'effect', 'savepoint', 'effect', 'savepoint', 'effect', 'at commit', 'commit'],
      ],
      afterLot: { effects: [[0, 1, 2]], inbox: ['evt_0', 'evt_1', 'evt_2'] },
      redelivered: { handled: 5 },
      effects: [[0, 1, 2], [3], [4]],
      inbox: ['evt_0', 'evt_1', 'evt_2', 'evt_3', 'evt_4'],
    },
  },

  'a message that fails again when the messages before a failure run guarded is rolled back to its savepoint with the rows after it, and a retried commit releases the same rows':
    {
      // Message 1 passes unguarded and fails twice guarded; message 3 fails unguarded.
      plans: { 0: { commitFails: true }, 1: { failOn: [2, 3] }, 3: { fail: 1 } },
      run: async (h) => {
        const lot = [0, 1, 2, 3, 4].map((n) => h.message(n));
        const outcome = await h.batch(lot);
        const sent = h.statements();
        const afterLot = { effects: await h.effects(), inbox: await h.inbox() };
        for (const message of lot.slice(1)) await h.retryInPlace(message);
        const redelivered = await h.batch(lot);
        return { outcome, sent, afterLot, redelivered, effects: await h.effects(), inbox: await h.inbox() };
      },
      expected: {
        outcome: { handled: 1, error: 'message 1 fails' },
        sent: [
          ...['begin', 'claim', 'effect', 'effect', 'effect', 'effect', 'rollback'],
          // Messages 0-2 guarded: 1 fails, its row and 2's are released; the commit fails.
          ...['begin', 'claim', 'effect', 'savepoint', 'effect', 'rollback to savepoint', 'release'],
          ...['at commit', 'rollback'],
          // Run again by the Database: the same.
          ...['begin', 'claim', 'effect', 'savepoint', 'effect', 'rollback to savepoint', 'release'],
          ...['at commit', 'commit'],
        ],
        afterLot: { effects: [[0]], inbox: ['evt_0'] },
        redelivered: { handled: 5 },
        effects: [[0], [1], [2], [3], [4]],
        inbox: ['evt_0', 'evt_1', 'evt_2', 'evt_3', 'evt_4'],
      },
    },

  'a message with transactions of its own ends a lot and claims its own row': {
    plans: { 2: { own: true } },
    run: async (h) => {
      const lot = [0, 1, 2, 3, 4].map((n) => h.message(n));
      const outcome = await h.batch(lot);
      return { outcome, sent: h.statements(), effects: await h.effects(), inbox: await h.inbox() };
    },
    expected: {
      outcome: { handled: 5 },
      sent: [
        ...['begin', 'claim', 'effect', 'effect', 'commit'],
        ...['begin', 'claim', 'effect', 'commit'],
        ...['begin', 'claim', 'effect', 'effect', 'commit'],
      ],
      effects: [[0, 1], [2], [3, 4]],
      inbox: ['evt_0', 'evt_1', 'evt_2', 'evt_3', 'evt_4'],
    },
  },
};
