// The Nest messaging layer end to end (docs/adr/0002): a Nest microservice on InboxTransport
// whose @EventPattern handlers are fed by OutboxClient writes through the real relay and bus.
// What it must keep from ADR 0004, observed here and asserted by the Kafka and embedded suites:
//   - a command or event emitted through OutboxClient leaves only if its transaction commits;
//   - a redelivered message has its effect once (the handler's writes and the inbox row are
//     one transaction);
//   - a failing handler is retried in place: it runs again until it succeeds, and the messages
//     behind it on the same key wait (per-key order), each failure counted;
//   - a consumer with per-event patterns handles only those events (the rest leave no row);
//   - an OWN_TRANSACTIONS handler gets no inbox transaction and dedupes with claimInbox;
//   - the bus logs each retry with the handler's own error, not Nest's generic RPC error.

import { randomBytes } from 'node:crypto';
import { Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { Ctx, EventPattern, Payload, type MicroserviceOptions } from '@nestjs/microservices';
import {
  claimInbox,
  createLogger,
  Database,
  InboxConsumer,
  InboxContext,
  InboxController,
  inboxPattern,
  InboxTransport,
  Metrics,
  OutboxClient,
  OutboxRelay,
  outboxTraceContextMigration,
  OWN_TRANSACTIONS,
  platformTablesMigration,
  type EventBus,
  type Logger,
  type Tx,
} from '@paygrid/platform';
import pino from 'pino';
import { lastValueFrom } from 'rxjs';
import type { MigrationInterface, QueryRunner } from 'typeorm';
import { eventually } from './platform';

const TOPIC = 'test.events.v1';

interface TestEvent {
  id: string;
  type: string;
  account: string;
  livemode: boolean;
}

export interface TransportObservations {
  /** Effects of the counting consumer, in the order they committed. */
  counted: string[];
  counter: number;
  /** Inbox rows per consumer. */
  inbox: Record<string, number>;
  /** Failed handlings counted by paygrid_inbox_retries_total for the counting consumer. */
  retries: number;
  /** What the per-event consumer handled. */
  special: string[];
  /** What the OWN_TRANSACTIONS consumer did: [id, had a transaction, first time]. */
  own: [string, boolean, boolean][];
  /** Outbox rows of the transaction that rolled back. */
  rolledBackRows: number;
  /** The errors the bus logged for its retries. */
  retryErrors: string[];
}

export async function runInboxTransportScenario(
  databaseUrl: string,
  makeBus: (logger: Logger) => EventBus,
): Promise<TransportObservations> {
  const schema = `transport_${randomBytes(4).toString('hex')}`;
  const counting = `${schema}.counting`;
  const perEvent = `${schema}.special`;
  const ownTx = `${schema}.own`;
  const Counter = class implements MigrationInterface {
    name = 'Counter1700000000998';
    async up(runner: QueryRunner) {
      await runner.query(`create table ${schema}.counter (id int primary key, n int not null)`);
      await runner.query(`insert into ${schema}.counter values (1, 0)`);
    }
    async down() {}
  };
  const logger = createLogger('test', 'silent');
  const db = await Database.connect({
    url: databaseUrl,
    schema,
    migrations: [
      platformTablesMigration(schema),
      outboxTraceContextMigration(schema, 1700000000350),
      Counter,
    ],
    poolSize: 4,
  });
  await db.migrate();
  // The bus's log: each retry must name the handler's own error (InboxErrorFilter).
  const lines: string[] = [];
  const bus = makeBus(pino({ level: 'error' }, { write: (line: string) => void lines.push(line) }));
  await bus.connect();
  const metrics = new Metrics();
  const retries = metrics.counter('paygrid_inbox_retries_total', 'retries', ['service', 'consumer']);
  const consumer = new InboxConsumer(db, bus, logger, { retries, service: 'test' });
  const relay = new OutboxRelay(db, bus, logger, { singleInstance: true, pollMs: 100 });

  const counted: string[] = [];
  const special: string[] = [];
  const own: [string, boolean, boolean][] = [];
  let flakyFailures = 2;

  @InboxController()
  class CountingConsumer {
    @EventPattern(inboxPattern(counting, TOPIC))
    async count(@Payload() event: TestEvent, @Ctx() inbox: InboxContext) {
      if (event.type === 'thing.flaky' && flakyFailures > 0) {
        flakyFailures--;
        throw new Error('a dependency is down');
      }
      await inbox.tx.query(`update ${schema}.counter set n = n + 1 where id = 1`);
      // At the commit: a lot's effect may run in a transaction that rolls back and again.
      inbox.tx.afterCommit(() => counted.push(event.id));
    }
  }

  @InboxController()
  class SpecialConsumer {
    @EventPattern(inboxPattern(perEvent, TOPIC, 'thing.special'))
    async special(@Payload() event: TestEvent, @Ctx() inbox: InboxContext) {
      await inbox.tx.query('select 1');
      special.push(event.id);
    }
  }

  @InboxController()
  class OwnTransactionsConsumer {
    @EventPattern(inboxPattern(ownTx, TOPIC, 'thing.special'), OWN_TRANSACTIONS)
    async own(@Payload() event: TestEvent, @Ctx() inbox: InboxContext) {
      let hadTx = true;
      try {
        void inbox.tx;
      } catch {
        hadTx = false;
      }
      const fresh = await db.transaction((tx) => claimInbox(tx, ownTx, event.id));
      own.push([event.id, hadTx, fresh]);
    }
  }

  @Module({ controllers: [CountingConsumer, SpecialConsumer, OwnTransactionsConsumer] })
  class TestModule {}

  const app = await NestFactory.createMicroservice<MicroserviceOptions>(TestModule, {
    strategy: new InboxTransport(consumer),
    logger: false,
  });
  try {
    await app.listen();
    relay.start();
    const event = (id: string, type = 'thing.happened'): TestEvent => ({
      id,
      type,
      account: 'acct_x',
      livemode: false,
    });
    const emit = (tx: Tx, e: TestEvent) => lastValueFrom(new OutboxClient(tx).emit(TOPIC, e));
    // One transaction that rolls back after emitting: nothing may leave.
    await db
      .transaction(async (tx) => {
        await emit(tx, event('evt_rolled_back'));
        throw new Error('the change is refused');
      })
      .catch(() => undefined);
    await db.transaction(async (tx) => {
      await emit(tx, event('evt_a1'));
      await emit(tx, event('evt_flaky', 'thing.flaky'));
      await emit(tx, event('evt_a2'));
    });
    await db.transaction((tx) => emit(tx, event('evt_special', 'thing.special')));
    // The originals are on the bus before the redeliveries (the order asserted below).
    await eventually(async () => (relay.published >= 4 ? true : undefined), 30_000);
    // Redeliveries, as after a crash between publish and mark: straight onto the bus.
    await bus.publish(TOPIC, [
      { key: 'acct_x', value: JSON.stringify(event('evt_a1')) },
      { key: 'acct_x', value: JSON.stringify(event('evt_special', 'thing.special')) },
    ]);
    await eventually(async () => (counted.length >= 4 && own.length >= 2 ? true : undefined), 60_000);
    // Leave time for any duplicate to be (wrongly) applied.
    await new Promise((r) => setTimeout(r, 1_500));
    const [{ n }] = await db.query<{ n: number }>(`select n from ${schema}.counter`);
    const rows = await db.query<{ consumer: string; count: string }>(
      `select consumer, count(*)::text as count from ${schema}.inbox group by consumer`,
    );
    const [{ count: rolledBack }] = await db.query<{ count: string }>(
      `select count(*)::text as count from ${schema}.outbox where message_id = 'evt_rolled_back'`,
    );
    const retried = (await retries.get()).values.find((v) => v.labels.consumer === counting)?.value ?? -1;
    return {
      counted,
      counter: n,
      inbox: Object.fromEntries(rows.map((r) => [r.consumer.slice(schema.length + 1), Number(r.count)])),
      retries: retried,
      special,
      own,
      rolledBackRows: Number(rolledBack),
      retryErrors: lines
        .map((line) => JSON.parse(line) as { msg: string; err?: { message?: string } })
        .filter((entry) => entry.msg === 'message handler failed; retrying')
        .map((entry) => entry.err?.message ?? String(entry.err)),
    };
  } finally {
    await relay.stop();
    await app.close();
    await bus.close();
    await db.query(`drop schema ${schema} cascade`);
    await db.close();
  }
}

/** What both transports must show (the effects once, in order, retried in place). */
export const EXPECTED_TRANSPORT_OBSERVATIONS: TransportObservations = {
  counted: ['evt_a1', 'evt_flaky', 'evt_a2', 'evt_special'],
  counter: 4,
  inbox: { counting: 4, special: 1, own: 1 },
  retries: 2,
  special: ['evt_special'],
  own: [
    ['evt_special', false, true],
    ['evt_special', false, false],
  ],
  rolledBackRows: 0,
  retryErrors: ['a dependency is down', 'a dependency is down'],
};
