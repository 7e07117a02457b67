// One Database per service: a pg pool bound to the service's own schema, explicit
// migrations (TypeORM's runner, never synchronize), and a transaction helper that writes
// outbox rows in the same transaction as the business change and wakes the relay after
// commit. The same pg driver runs on PostgreSQL and, through the wire-protocol server, on the
// embedded PGlite (docs/adr/0015).

import { AsyncLocalStorage } from 'node:async_hooks';
import { Pool, type PoolClient } from 'pg';
import { DataSource, type MigrationInterface } from 'typeorm';
import { isRetryableTransactionError } from '../errors';
import { pgTypes } from './timestamps';
import type { Logger } from '../logging';
import { traceparentOf } from '../observability/tracing';

/**
 * Marks the code that runs while the idempotency layer holds a request's transaction open
 * (docs/adr/0015). It is not how a statement finds that transaction: the transaction is passed
 * explicitly (`@RequestTx()`, then `transaction(work, { in: tx })` or `tx.query`). It is a
 * guard: a statement sent to this Database's pool from inside that scope, without the
 * transaction, would commit apart from the idempotency record (and wait forever on the
 * embedded database, which runs one transaction at a time).
 */
export const requestTransaction = new AsyncLocalStorage<{ db: Database; tx: Tx }>();

/**
 * What a statement outside the request's transaction, inside its scope, does: `throw` (the
 * test suites, PAYGRID_STRICT_TRANSACTIONS=true) or `join` it and log an error (production:
 * a missed call site must not cost the request).
 */
export type MissingTransactionPolicy = 'throw' | 'join';

export interface DatabaseOptions {
  url: string;
  /** The service's schema; every table of the service lives in it. */
  schema: string;
  migrations: (new () => MigrationInterface)[];
  poolSize?: number;
  applicationName?: string;
  /** See MissingTransactionPolicy; default `join`. */
  missingTransaction?: MissingTransactionPolicy;
}

export type IsolationLevel = 'READ COMMITTED' | 'REPEATABLE READ' | 'SERIALIZABLE';

export interface OutboxMessage {
  topic: string;
  key: string;
  /** Unique id of the message (the event id); consumers dedupe on it. */
  id: string;
  payload: unknown;
}

/** What a statement is sent through: the pool, or the connection of a transaction. */
export interface Queryable {
  query(sql: string, params?: unknown[]): Promise<{ rows: unknown[] }>;
}

/** A transaction: its connection plus the outbox of this schema. */
export class Tx {
  readonly outboxed: OutboxMessage[] = [];
  /** Published in this transaction and not yet written (writeOutbox). */
  private readonly unwritten: { message: OutboxMessage; traceparent?: string }[] = [];
  /** Run once the transaction has committed (not when it rolls back or is retried). */
  readonly committed: (() => void)[] = [];
  /** Written with the outbox just before the commit (`writeAtCommit`). */
  private readonly atCommit: { sql: string; params: unknown[] }[] = [];
  constructor(
    readonly client: Queryable,
    readonly schema: string,
    private readonly notifyChannel?: string,
  ) {}

  async query<T = Record<string, unknown>>(sql: string, params: unknown[] = []): Promise<T[]> {
    return (await this.client.query(sql, params)).rows as T[];
  }

  /**
   * Calls `then` after the commit of the transaction that owns this one (a wake-up of a
   * worker that reads what this transaction wrote: earlier, it would find nothing yet).
   */
  afterCommit(then: () => void): void {
    this.committed.push(then);
  }

  /**
   * A savepoint named `name` (an SQL identifier of the caller's). `rollback()` undoes the
   * statements since, and with them what they published and the after-commit callbacks they
   * asked for: those live in this object until the commit, and a rolled-back step must not
   * leave an event or a wake-up behind for work that did not happen. `then`: a statement
   * without parameters (its values quoted by the caller) sent with the SAVEPOINT in the same
   * round trip, whose rows `rows` answers; it is inside the savepoint.
   */
  async savepoint(
    name: string,
    then?: string,
  ): Promise<{ rows: unknown[]; release(): Promise<void>; rollback(): Promise<void> }> {
    const unwritten = this.unwritten.length;
    const outboxed = this.outboxed.length;
    const committed = this.committed.length;
    const atCommit = this.atCommit.length;
    // Two statements in one simple query answer one result each.
    const result = (await this.client.query(then ? `savepoint ${name}; ${then}` : `savepoint ${name}`)) as
      { rows: unknown[] } | { rows: unknown[] }[];
    return {
      rows: Array.isArray(result) ? result[result.length - 1].rows : result.rows,
      release: async () => {
        await this.query(`release savepoint ${name}`);
      },
      rollback: async () => {
        await this.query(`rollback to savepoint ${name}`);
        this.unwritten.length = Math.min(this.unwritten.length, unwritten);
        this.outboxed.length = Math.min(this.outboxed.length, outboxed);
        this.committed.length = Math.min(this.committed.length, committed);
        this.atCommit.length = Math.min(this.atCommit.length, atCommit);
      },
    };
  }

  /**
   * Messages for the outbox: written in one statement just before this transaction commits
   * (`writeOutbox`), published by the relay after it. A request that emits three events
   * (an invoice created, finalized and sent) makes one round trip for them, not three; an
   * event's trace is the one active when it was published.
   */
  async publish(...messages: OutboxMessage[]): Promise<void> {
    if (!messages.length) return;
    // The trace this write belongs to (tracing on only): the relay continues it onto the bus.
    const traceparent = traceparentOf();
    for (const message of messages) this.unwritten.push({ message, traceparent });
    this.outboxed.push(...messages);
  }

  /**
   * A write nothing in this transaction reads afterwards (a ledger leg, a row's bookkeeping):
   * sent just before the commit, in the same statement as the other such writes and the
   * outbox's first rows, each one a data-modifying WITH query of it. So they must not touch
   * a row another of them touches (PostgreSQL runs them on one snapshot, in no set order), a
   * failure surfaces at the commit (no caller catches it where it was asked for), and `sql`
   * has no `$` but its parameters, which are renumbered.
   */
  writeAtCommit(sql: string, params: unknown[] = []): void {
    this.atCommit.push({ sql, params });
  }

  /**
   * Writes what `writeAtCommit` and `publish` queued (Database, before COMMIT): the writes
   * and the first OUTBOX_ROWS_PER_STATEMENT outbox rows in one statement, further outbox
   * rows in one statement per OUTBOX_ROWS_PER_STATEMENT, in order.
   */
  async writeOutbox(): Promise<void> {
    const writes = this.atCommit.splice(0);
    const pending = this.unwritten.splice(0);
    if (writes.length && !pending.length) {
      await this.writeTogether(writes);
      return;
    }
    for (let start = 0; start < pending.length; start += OUTBOX_ROWS_PER_STATEMENT) {
      await this.insertOutbox(
        pending.slice(start, start + OUTBOX_ROWS_PER_STATEMENT),
        start === 0,
        start === 0 ? writes : [],
      );
    }
  }

  /** `writes` in one statement (one alone as it is). */
  private async writeTogether(writes: { sql: string; params: unknown[] }[]): Promise<void> {
    if (writes.length === 1) {
      await this.client.query(writes[0].sql, writes[0].params);
      return;
    }
    const values: unknown[] = [];
    const ctes = withQueries(writes, values);
    await this.client.query(`with ${ctes.join(', ')} select 1`, values);
  }

  private async insertOutbox(
    rows: { message: OutboxMessage; traceparent?: string }[],
    notify: boolean,
    writes: { sql: string; params: unknown[] }[],
  ): Promise<void> {
    const values: unknown[] = [];
    const ctes = withQueries(writes, values);
    const traced = rows.some((row) => row.traceparent);
    const width = traced ? 5 : 4;
    const first = values.length;
    const tuples = rows.map(({ message: m, traceparent }, i) => {
      values.push(m.topic, m.key, m.id, JSON.stringify(m.payload));
      if (traced) values.push(traceparent ?? null);
      const at = first + i * width;
      return `($${at + 1}, $${at + 2}, $${at + 3}, $${at + 4}::jsonb${traced ? `, $${at + 5}` : ''})`;
    });
    const columns = `topic, key, message_id, payload${traced ? ', trace_context' : ''}`;
    const insert = `insert into ${this.schema}.outbox (${columns}) values ${tuples.join(', ')}`;
    if (this.notifyChannel && notify) {
      // NOTIFY is delivered at commit, so the relay leader in another instance wakes too.
      values.push(this.notifyChannel);
      ctes.push(`written as (${insert} returning 1)`);
      await this.client.query(
        `with ${ctes.join(', ')} select pg_notify($${values.length}, '') from written limit 1`,
        values,
      );
    } else if (ctes.length) {
      ctes.push(`written as (${insert})`);
      await this.client.query(`with ${ctes.join(', ')} select 1`, values);
    } else {
      await this.client.query(insert, values);
    }
  }
}

/**
 * `writes` as WITH queries `at_commit_<i>`, their parameters appended to `values` (each
 * statement's `$n` renumbered after those before it).
 */
function withQueries(writes: { sql: string; params: unknown[] }[], values: unknown[]): string[] {
  return writes.map(({ sql, params }, i) => {
    const offset = values.length;
    values.push(...params);
    return `at_commit_${i} as (${sql.replace(/\$(\d+)/g, (_, n: string) => `$${Number(n) + offset}`)})`;
  });
}

/** Outbox rows per insert: 5 parameters each, far below PostgreSQL's 65,535 per statement. */
const OUTBOX_ROWS_PER_STATEMENT = 1_000;

export class Database {
  private readonly commitListeners = new Set<() => void>();
  /** Channel NOTIFYed by every transaction that writes outbox rows (distributed mode). */
  notifyChannel?: string;
  private ended = false;

  constructor(
    readonly pool: Pool,
    readonly schema: string,
    private readonly options: Pick<
      DatabaseOptions,
      'url' | 'migrations' | 'applicationName' | 'missingTransaction'
    >,
    private readonly logger?: Logger,
  ) {}

  static async connect(options: DatabaseOptions, logger?: Logger): Promise<Database> {
    const pool = new Pool({
      connectionString: options.url,
      max: options.poolSize ?? 10,
      connectionTimeoutMillis: 10_000,
      application_name: options.applicationName ?? options.schema,
      // timestamptz read without pg's regular expressions (timestamps.ts).
      types: pgTypes,
    });
    // An idle connection that dies (a restarted server) is dropped by the pool; without a
    // listener its error would end the process.
    pool.on('error', (err) => logger?.warn({ err }, 'idle database connection failed'));
    // A connection that dies while checked out (a transaction or the relay's lock when the
    // server restarts) emits 'error' too, and pg leaves that to the holder: without a listener
    // the process ends. Its query in flight rejects with the error, which is what the holder
    // acts on (a transaction rolls back and is retried or fails); here it is only logged.
    pool.on('connect', (client) => {
      client.on('error', (err) => logger?.warn({ err }, 'database connection failed while in use'));
    });
    const db = new Database(pool, options.schema, options, logger);
    try {
      await db.ping();
    } catch (error) {
      await db.close();
      throw error;
    }
    return db;
  }

  /**
   * Creates the schema and runs pending migrations (TypeORM's runner, on a DataSource of its
   * own that lives only for the run) under an advisory lock, so several instances starting
   * at once migrate exactly once.
   */
  async migrate(): Promise<void> {
    const lock = `paygrid:migrate:${this.schema}`;
    const client = await this.pool.connect();
    try {
      await client.query(`create schema if not exists ${this.schema}`);
      await client.query('select pg_advisory_lock(hashtext($1))', [lock]);
      const runner = new DataSource({
        type: 'postgres',
        url: this.options.url,
        schema: this.schema,
        migrations: this.options.migrations,
        migrationsTableName: 'migrations',
        synchronize: false,
        migrationsRun: false,
        logging: false,
        applicationName: this.options.applicationName ?? this.schema,
        extra: { max: 1 },
      });
      try {
        await runner.initialize();
        const ran = await runner.runMigrations({ transaction: 'each' });
        if (ran.length) this.logger?.info({ migrations: ran.map((m) => m.name) }, 'migrations applied');
      } finally {
        if (runner.isInitialized) await runner.destroy();
        await client.query('select pg_advisory_unlock(hashtext($1))', [lock]);
      }
    } finally {
      client.release();
    }
  }

  /** A connection of its own (the relay's leader lock and LISTEN); release it when done. */
  connect(): Promise<PoolClient> {
    return this.pool.connect();
  }

  /** Called after every commit that wrote outbox rows (the relay wakes on it). */
  onOutboxCommit(listener: () => void): () => void {
    this.commitListeners.add(listener);
    return () => this.commitListeners.delete(listener);
  }

  /**
   * One statement on a pooled connection, committed on its own. Inside a request's
   * transaction scope a use case queries that `Tx` instead (see `requestTransaction`).
   */
  async query<T = Record<string, unknown>>(sql: string, params: unknown[] = []): Promise<T[]> {
    const missed = this.missedRequestTransaction('query()');
    if (missed) return missed.query<T>(sql, params);
    return (await this.pool.query(sql, params)).rows as T[];
  }

  /**
   * Runs `work` in a transaction. Serialization failures and deadlocks are retried (the
   * work must be safe to re-run: it sees none of its earlier attempt's writes). With `in`
   * (the caller's transaction, e.g. an idempotent request's from `@RequestTx()`) it runs in
   * that one instead, whose owner commits and retries.
   */
  async transaction<T>(
    work: (tx: Tx) => Promise<T>,
    options: { isolation?: IsolationLevel; retries?: number; in?: Tx } = {},
  ): Promise<T> {
    if (options.in) return work(options.in);
    const missed = this.missedRequestTransaction('transaction()');
    if (missed) return work(missed);
    return this.ownTransaction(work, options);
  }

  /**
   * A statement or transaction of this database asked for from inside the scope of a
   * request's transaction, without that transaction: a call site that did not pass it.
   */
  private missedRequestTransaction(what: string): Tx | undefined {
    const scope = requestTransaction.getStore();
    if (scope?.db !== this) return undefined;
    const message = `${this.schema}: ${what} inside a request's transaction without it (pass the request's Tx: docs/adr/0015)`;
    if (this.options.missingTransaction === 'throw') throw new Error(message);
    this.logger?.error({ stack: new Error(message).stack }, message);
    return scope.tx;
  }

  /**
   * A transaction of its own, even inside a request transaction (used by the idempotency
   * layer to open the request's transaction).
   */
  async ownTransaction<T>(
    work: (tx: Tx) => Promise<T>,
    options: { isolation?: IsolationLevel; retries?: number } = {},
  ): Promise<T> {
    const retries = options.retries ?? 5;
    for (let attempt = 0; ; attempt++) {
      try {
        const { result, tx } = await this.once(work, options.isolation);
        if (tx.outboxed.length) this.commitListeners.forEach((listener) => listener());
        for (const then of tx.committed) {
          try {
            then();
          } catch (err) {
            this.logger?.error({ err }, 'an after-commit callback failed');
          }
        }
        return result;
      } catch (error) {
        if (attempt < retries && isRetryableTransactionError(error)) {
          await new Promise((r) => setTimeout(r, Math.random() * 20 * (attempt + 1)));
          continue;
        }
        throw error;
      }
    }
  }

  /** One attempt: begin, work, commit; rolled back on any failure. */
  private async once<T>(
    work: (tx: Tx) => Promise<T>,
    isolation?: IsolationLevel,
  ): Promise<{ result: T; tx: Tx }> {
    const client = await this.pool.connect();
    try {
      // Without an explicit level no SET TRANSACTION is sent: one round trip less.
      await client.query(isolation ? `begin isolation level ${isolation}` : 'begin');
      const tx = new Tx(client, this.schema, this.notifyChannel);
      const result = await work(tx);
      await tx.writeOutbox();
      await client.query('commit');
      client.release();
      return { result, tx };
    } catch (error) {
      try {
        await client.query('rollback');
        client.release();
      } catch (rollbackError) {
        // A connection whose rollback failed is in an unknown state: the pool drops it.
        client.release(rollbackError instanceof Error ? rollbackError : true);
      }
      throw error;
    }
  }

  async ping(): Promise<void> {
    await this.pool.query('select 1');
  }

  /** The pg pool's connections. */
  poolUsage(): { total: number; idle: number; waiting: number } {
    return { total: this.pool.totalCount, idle: this.pool.idleCount, waiting: this.pool.waitingCount };
  }

  async close(): Promise<void> {
    if (this.ended) return;
    this.ended = true;
    await this.pool.end();
  }
}
