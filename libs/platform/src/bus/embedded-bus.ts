// The embedded transport: a durable append-only log in the embedded database (schema `bus`),
// read by each consumer group from its stored position. In-process wake-ups make delivery
// immediate; the stored log and positions make it survive a restart, so the embedded default
// keeps the at-least-once guarantee of Kafka (a message is lost neither between the outbox
// and the consumer, nor when the process dies mid-handler). One reader per group and topic
// handles messages in log order, which is stronger than Kafka's per-key order.

import { EventEmitter } from 'node:events';
import type { MigrationInterface, QueryRunner } from 'typeorm';
import { Database } from '../db/database';
import type { Logger } from '../logging';
import {
  consumeInLots,
  sleep,
  type BusMessage,
  type ConsumedMessage,
  type EventBus,
  type Subscription,
} from './bus';

const POLL_MS = 1_000;
const BATCH = 200;

/**
 * The log's tables, in the `bus` schema (with its own `bus.migrations`). `if not exists`: an
 * embedded database made before this migration already has them (the bus used to create them
 * itself on connect), and then it only records the migration as run.
 */
export class EmbeddedBusTables1700000000010 implements MigrationInterface {
  name = 'EmbeddedBusTables1700000000010';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`create table if not exists bus.messages (
      id bigserial primary key, topic text not null, key text not null, value text not null,
      created_at timestamptz not null default now())`);
    await runner.query('create index if not exists messages_topic_id on bus.messages (topic, id)');
    await runner.query(`create table if not exists bus.positions (
      group_id text not null, topic text not null, position bigint not null default 0,
      primary key (group_id, topic))`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('drop table bus.positions');
    await runner.query('drop table bus.messages');
  }
}

export const EMBEDDED_BUS_MIGRATIONS = [EmbeddedBusTables1700000000010];

export class EmbeddedBus implements EventBus {
  readonly transport = 'embedded' as const;
  private readonly wake = new EventEmitter();
  private database?: Database;
  private running = true;
  private readonly loops: Promise<void>[] = [];

  constructor(
    private readonly url: string,
    private readonly logger: Logger,
  ) {
    this.wake.setMaxListeners(0);
  }

  async connect(): Promise<void> {
    if (this.database) return;
    const database = await Database.connect(
      {
        url: this.url,
        schema: 'bus',
        migrations: EMBEDDED_BUS_MIGRATIONS,
        poolSize: 4,
        applicationName: 'paygrid-bus',
      },
      this.logger,
    );
    try {
      await database.migrate();
    } catch (error) {
      await database.close();
      throw error;
    }
    this.database = database;
  }

  private get db(): Database {
    if (!this.database) throw new Error('EmbeddedBus used before connect');
    return this.database;
  }

  async publish(topic: string, messages: BusMessage[]): Promise<void> {
    if (!messages.length) return;
    const values: string[] = [];
    const rows = messages.map((m, i) => {
      values.push(topic, m.key, m.value);
      return `($${i * 3 + 1}, $${i * 3 + 2}, $${i * 3 + 3})`;
    });
    await this.db.query(`insert into bus.messages (topic, key, value) values ${rows.join(', ')}`, values);
    this.wake.emit(topic);
  }

  async subscribe({ groupId, topics, handler, batchHandler }: Subscription): Promise<void> {
    for (const topic of topics) {
      await this.db.query(
        'insert into bus.positions (group_id, topic) values ($1, $2) on conflict do nothing',
        [groupId, topic],
      );
      this.loops.push(this.consume(groupId, topic, handler, batchHandler));
    }
  }

  /**
   * The reader of one (group, topic). Its position is read once: this reader is the only one
   * that writes it (one process, one reader per group and topic), so it is kept in memory and
   * written after each batch. After a batch it reads the log again only if a message of the
   * topic was published since its last read (or a batch was full); otherwise it waits for one.
   * Both cut what a message costs the embedded database: it used to read the position before
   * every read, and read the log once more after every batch to find it empty, five statements
   * per message and reader where two are needed (bench/README.md finding 53).
   *
   * What a read returns is handled as KafkaBus handles a fetch (consumeInLots):
   * MAX_BATCH_MESSAGES at a time through `batchHandler` (one transaction for a lot:
   * InboxConsumer), the message a batch stopped at retried alone through `handler`, then
   * batching goes on after it; without a batch handler, one at a time. Before, the embedded
   * bus handed every message alone, a transaction per message and consumer on the one-session
   * database (finding 57).
   */
  private async consume(
    groupId: string,
    topic: string,
    handler: Subscription['handler'],
    batchHandler: Subscription['batchHandler'],
  ): Promise<void> {
    const log = this.logger.child({ component: 'embedded-bus', groupId, topic });
    let published = true;
    const onPublish = () => {
      published = true;
    };
    this.wake.on(topic, onPublish);
    let position: string | undefined;
    try {
      while (this.running) {
        try {
          if (position === undefined) {
            const [row] = await this.db.query<{ position: string }>(
              'select position from bus.positions where group_id = $1 and topic = $2',
              [groupId, topic],
            );
            position = row.position;
          }
          // Set before the read: a message published while it runs asks for another.
          published = false;
          const batch = await this.db.query<{ id: string; key: string; value: string }>(
            'select id, key, value from bus.messages where topic = $1 and id > $2 order by id limit $3',
            [topic, position, BATCH],
          );
          if (batch.length) {
            const messages = batch.map((m): ConsumedMessage => ({
              topic,
              partition: 0,
              offset: m.id,
              key: m.key,
              value: m.value,
            }));
            const all = await consumeInLots(messages, {
              handler,
              batchHandler,
              running: () => this.running,
              log,
            });
            if (!all) return;
            // One position write per read: after a crash the batch is handled again, which the
            // consumers' inbox absorbs (at-least-once, as with Kafka's committed offsets).
            const last = batch[batch.length - 1].id;
            await this.db.query('update bus.positions set position = $3 where group_id = $1 and topic = $2', [
              groupId,
              topic,
              last,
            ]);
            position = last;
            if (batch.length === BATCH) continue;
          }
          if (!published) await this.waitForWake(topic);
        } catch (error) {
          if (!this.running) return;
          log.error({ err: error }, 'embedded bus read failed; retrying');
          // Read again from what is stored: a failed position write leaves it where it was.
          position = undefined;
          published = true;
          await sleep(POLL_MS);
        }
      }
    } finally {
      this.wake.off(topic, onPublish);
    }
  }

  private waitForWake(topic: string): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.wake.off(topic, done);
        this.wake.off('close', done);
        resolve();
      };
      const timer = setTimeout(done, POLL_MS);
      this.wake.once(topic, done);
      this.wake.once('close', done);
    });
  }

  /** Drops messages every group has read and that are older than `keepDays`. */
  async prune(keepDays = 7): Promise<void> {
    await this.db.query(
      `delete from bus.messages m where m.created_at < now() - make_interval(days => $1)
         and m.id <= coalesce((select min(position) from bus.positions p where p.topic = m.topic), 0)`,
      [keepDays],
    );
  }

  async ping(): Promise<void> {
    await this.db.query('select 1');
  }

  async close(): Promise<void> {
    this.running = false;
    this.wake.emit('close');
    await Promise.allSettled(this.loops);
    await this.database?.close();
  }
}
