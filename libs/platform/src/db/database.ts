// One Database per service: a pg pool bound to the service's own schema, explicit
// migrations (TypeORM's runner, never synchronize), and a transaction helper that writes
// outbox rows in the same transaction as the business change and wakes the relay after
// commit. The same pg driver runs on PostgreSQL and, through the wire-protocol server, on the
// embedded PGlite (docs/adr/0015).

import { AsyncLocalStorage } from 'node:async_hooks';
import { randomBytes } from 'node:crypto';
import { Pool, type PoolClient } from 'pg';
import type { MigrationInterface } from 'typeorm';
import { isRetryableTransactionError } from '../errors';
import { pgTypes } from './timestamps';
import type { Logger } from '../logging';
import { isStalePreparedStatement, StatementNames } from './statements';
import { asTextRows } from './text-rows';
import { Tx, type QueryOptions } from './tx';

export { Tx, type OutboxMessage, type Queryable, type QueryOptions } from './tx';

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
  /**
   * Send repeated statements with parameters as named prepared statements (statements.ts).
   * On PostgreSQL and on the embedded database alike: its wire server gives each connection
   * its own statement names (sync-group-queue.ts; runtime.ts sets it from the config).
   * Default false.
   */
  preparedStatements?: boolean;
  /**
   * pg's pipeline mode: a transaction's BEGIN is written with its first statement and its
   * COMMIT with its last (Tx), two round trips fewer per transaction. In both modes
   * (`PAYGRID_DB_PIPELINE`, on by default). Default false here.
   */
  pipeline?: boolean;
}

export type IsolationLevel = 'READ COMMITTED' | 'REPEATABLE READ' | 'SERIALIZABLE';

export class Database {
  private readonly commitListeners = new Set<() => void>();
  /** Channel NOTIFYed by every transaction that writes outbox rows (distributed mode). */
  notifyChannel?: string;
  /**
   * The payload of this Database's NOTIFYs. Its own commits wake its relay already
   * (onOutboxCommit), so the relay ignores notifications that carry it: each commit woke the
   * relay twice, and the second poll found nothing (bench/README.md finding 33).
   */
  readonly notifyToken = randomBytes(6).toString('hex');
  /**
   * This process's relay leads the schema's outbox (OutboxRelay sets it while it holds the
   * lock). Then a commit NOTIFYs no one: the only relay that publishes is woken in process
   * (onOutboxCommit), and a NOTIFY would cost PostgreSQL a signal to the leader's listening
   * backend and that backend a message to the leader, for a notification it ignores (its own
   * token), on every commit that writes events (bench/README.md finding 52). A transaction
   * begun while the lead is here and committed after it moved is picked up by the new leader's
   * poll (RelayOptions.pollMs).
   */
  relayLeadsHere = false;
  private ended = false;
  /** Named prepared statements, when on (`preparedStatements`). */
  private readonly statements?: StatementNames;

  constructor(
    readonly pool: Pool,
    readonly schema: string,
    private readonly options: Pick<
      DatabaseOptions,
      'url' | 'migrations' | 'applicationName' | 'missingTransaction' | 'preparedStatements' | 'pipeline'
    >,
    private readonly logger?: Logger,
  ) {
    if (options.preparedStatements) this.statements = new StatementNames(schema);
  }

  static async connect(options: DatabaseOptions, logger?: Logger): Promise<Database> {
    const pool = new Pool({
      connectionString: options.url,
      max: options.poolSize ?? 10,
      connectionTimeoutMillis: 10_000,
      application_name: options.applicationName ?? options.schema,
      // timestamptz read without pg's regular expressions (timestamps.ts).
      types: pgTypes,
      // A query is written without waiting for the answers before it (Tx: BEGIN and COMMIT).
      pipeline: options.pipeline === true,
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
      if (await this.migrationsApplied(client)) return;
      await client.query(`create schema if not exists ${this.schema}`);
      await client.query('select pg_advisory_lock(hashtext($1))', [lock]);
      // Loaded only when a migration is pending: TypeORM is about 370 modules (0.3 s of a
      // start on a quiet machine), and a service whose schema is current never needs it.
      const { DataSource } = await import('typeorm');
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

  /**
   * Whether every migration of this service is already recorded in its `migrations` table
   * (TypeORM's, matched by name as its runner does): then a start has nothing to migrate and
   * takes no lock. Migrations only ever add rows, so a table that lists them all stays current.
   */
  private async migrationsApplied(client: PoolClient): Promise<boolean> {
    const table = `${this.schema}.migrations`;
    const [found] = (
      await client.query<{ present: boolean }>('select to_regclass($1) is not null as present', [table])
    ).rows;
    if (!found?.present) return false;
    const applied = new Set(
      (await client.query<{ name: string }>(`select name from ${table}`)).rows.map((row) => row.name),
    );
    return this.options.migrations.every((migration) => applied.has(new migration().name ?? migration.name));
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
   *
   * `planEachTime`: never a named prepared statement, so PostgreSQL plans it for each call's
   * values and the table's current statistics. For a statement over rows whose number swings
   * from none to thousands between two ANALYZEs (a queue's due rows): a generic plan made
   * while the queue was empty kept scanning every queued row per candidate once a backlog
   * arrived (the webhook delivery claim: bench/README.md finding 33).
   *
   * `textRows`: each row an array of its columns' text, unparsed (db/text-rows.ts).
   */
  async query<T = Record<string, unknown>>(
    sql: string,
    params: unknown[] = [],
    options: QueryOptions = {},
  ): Promise<T[]> {
    const missed = this.missedRequestTransaction('query()');
    if (missed) return missed.query<T>(sql, params, options);
    if (!this.statements || options.planEachTime) {
      const unnamed = { text: sql, values: params };
      return (await this.pool.query(options.textRows ? asTextRows(unnamed) : unnamed)).rows as T[];
    }
    for (let attempt = 0; ; attempt++) {
      const client = await this.pool.connect();
      try {
        const config = this.statements.config(sql, params);
        const rows = (await client.query(options.textRows ? asTextRows(config) : config)).rows as T[];
        client.release();
        return rows;
      } catch (error) {
        // A statement prepared before a migration widened its table: a fresh connection.
        const stale = isStalePreparedStatement(error);
        client.release(stale ? (error as Error) : undefined);
        if (!stale || attempt > 0) throw error;
      }
    }
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
        if (isStalePreparedStatement(error) && attempt < retries) continue;
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
    let tx: Tx | undefined;
    try {
      // Without an explicit level no SET TRANSACTION is sent: one round trip less.
      const begin = isolation ? `begin isolation level ${isolation}` : 'begin';
      // Pipelined, the Tx writes BEGIN with its first statement (no round trip of its own).
      if (!this.options.pipeline) await client.query(begin);
      const notify =
        this.notifyChannel && !this.relayLeadsHere
          ? { channel: this.notifyChannel, token: this.notifyToken }
          : undefined;
      tx = new Tx(
        client,
        this.schema,
        notify,
        this.statements,
        this.options.pipeline ? { begin } : undefined,
      );
      const result = await work(tx);
      await tx.commit();
      client.release();
      return { result, tx };
    } catch (error) {
      tx?.undo();
      if (isStalePreparedStatement(error)) {
        // The connection holds prepared statements older than the table: it is dropped
        // (rolling its transaction back) and the transaction retried on another.
        client.release(error as Error);
        throw error;
      }
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
