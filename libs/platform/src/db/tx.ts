// A service's transaction (`Tx`): its connection, the outbox rows and the writes it sends
// just before its commit, its savepoints and its after-commit callbacks. Made and committed
// by `Database` (database.ts), which re-exports it.

import { traceparentOf } from '../observability/tracing';
import type { StatementConfig, StatementNames } from './statements';
import { commitWrites, type OutboxMessage, type UnwrittenMessage } from './commit-writes';
import type { SqlPart } from './sql-parts';
import { asTextRows } from './text-rows';

export type { OutboxMessage } from './commit-writes';

/** How a statement is sent (Database.query, Tx.query). */
export interface QueryOptions {
  /** Never a named prepared statement (Database.query says when that matters). */
  planEachTime?: boolean;
  /** Each row an array of its columns' text, unparsed (text-rows.ts). */
  textRows?: boolean;
}

/** What a statement is sent through: the pool, or the connection of a transaction. */
export interface Queryable {
  query(sql: string | StatementConfig, params?: unknown[]): Promise<{ rows: unknown[] }>;
}

/**
 * A connection in pg's pipeline mode (`pipeline: true`): a query is written at once, not after
 * the answer to the one before, and the answers come back in order. Its socket is corked
 * around statements sent together, so they leave in one write.
 */
interface PipelinedConnection extends Queryable {
  connection?: { stream?: { cork?(): void; uncork?(): void } };
}

/** How a transaction opens: sent with its first statement when the connection pipelines. */
export interface TxBoundaries {
  /** `begin`, or `begin isolation level ...`: not sent yet. */
  begin: string;
}

/** A transaction: its connection plus the outbox of this schema. */
export class Tx {
  readonly outboxed: OutboxMessage[] = [];
  /** Published in this transaction and not yet written (writeOutbox). */
  private readonly unwritten: UnwrittenMessage[] = [];
  /** Run once the transaction has committed (not when it rolls back or is retried). */
  readonly committed: (() => void)[] = [];
  /**
   * Run when this transaction's attempt ends without its commit (rolled back, or failed and
   * retried: Database.once), or a savepoint is rolled back past where they were asked for.
   */
  private readonly rolledBack: (() => void)[] = [];
  /** Written with the outbox just before the commit (`writeAtCommit`). */
  private readonly atCommit: SqlPart[] = [];
  /**
   * The BEGIN this transaction still owes its connection (pipelined only): it goes out in the
   * same write as the first statement, and the COMMIT in the same write as the last, so a
   * transaction of n statements is n round trips instead of n + 2 (Database, `pipeline`).
   */
  private begin?: string;
  /** The COMMIT was sent behind the transaction's last statement (queryCommitting). */
  private commitSent = false;
  constructor(
    readonly client: Queryable,
    readonly schema: string,
    /** Distributed mode: the channel outbox writes NOTIFY, and this instance's payload. */
    private readonly notify?: { channel: string; token: string },
    /** Named prepared statements (database.ts), or undefined: every statement unnamed. */
    private readonly statements?: StatementNames,
    /** The connection pipelines: BEGIN and COMMIT ride with the first and last statements. */
    private readonly boundaries?: TxBoundaries,
  ) {
    this.begin = boundaries?.begin;
  }

  async query<T = Record<string, unknown>>(
    sql: string,
    params: unknown[] = [],
    options: QueryOptions = {},
  ): Promise<T[]> {
    return (await this.send(sql, params, options)).rows as T[];
  }

  /**
   * `first` (a statement whose answer is not read, such as a lock), then `sql`, sent in one
   * write when the connection pipelines: one round trip for the two. PostgreSQL starts `sql`
   * once `first` has finished, so `sql`'s snapshot is taken after a lock `first` waited for
   * was granted, and holds what the lock's previous holder committed. `first`'s error is the
   * one thrown (`sql` then fails with it: the transaction is aborted).
   */
  async queryAfter<T = Record<string, unknown>>(
    first: SqlPart | undefined,
    sql: string,
    params: unknown[] = [],
    options: QueryOptions = {},
  ): Promise<T[]> {
    return this.sendTogether<T>(first, sql, params, options, false);
  }

  /**
   * `queryAfter`, with the transaction's COMMIT in the same write (pipelined): the whole
   * transaction one round trip, no wait for this process between its statements. For a
   * transaction whose last statement this is, and which writes only what may commit: a
   * refusal read from the answer must have written nothing (the COMMIT is sent before the
   * answer is read), and nothing can be sent in it afterwards (it throws). Should a statement
   * fail, PostgreSQL answers the COMMIT with a rollback and the statement's error is thrown.
   * Not pipelined, it is `queryAfter`, and the commit is the transaction's as usual.
   */
  async queryCommitting<T = Record<string, unknown>>(
    first: SqlPart | undefined,
    sql: string,
    params: unknown[] = [],
  ): Promise<T[]> {
    if (!this.boundaries) return this.queryAfter<T>(first, sql, params);
    if (this.atCommit.length || this.unwritten.length)
      throw new Error('queryCommitting: writes are queued for the commit (writeAtCommit, publish)');
    return this.sendTogether<T>(first, sql, params, {}, true);
  }

  /**
   * `first`, `sql` and, with `commit`, the COMMIT, in one write; the first error among them is
   * thrown (a failed statement's, not the COMMIT's ROLLBACK), else `sql`'s rows answered.
   */
  private async sendTogether<T>(
    first: SqlPart | undefined,
    sql: string,
    params: unknown[],
    options: QueryOptions,
    commit: boolean,
  ): Promise<T[]> {
    const { sent, answered } = this.corked(() => {
      const all: Promise<unknown>[] = first ? [this.send(first.sql, first.params)] : [];
      const answer = this.send(sql, params, options);
      all.push(answer);
      if (commit) {
        this.commitSent = true;
        all.push(this.client.query('commit'));
      }
      return { sent: all, answered: answer };
    });
    for (const result of await Promise.allSettled(sent))
      if (result.status === 'rejected') throw result.reason;
    return (await answered).rows as T[];
  }

  private send(sql: string, params: unknown[], options: QueryOptions = {}): Promise<{ rows: unknown[] }> {
    const config =
      this.statements && !options.planEachTime
        ? this.statements.config(sql, params)
        : options.textRows
          ? { text: sql, values: params }
          : undefined;
    if (config && options.textRows) asTextRows(config);
    return this.opened(() => (config ? this.client.query(config) : this.client.query(sql, params)));
  }

  /**
   * Sends `statement` (which must write its query before it awaits anything), preceded in the
   * same write by the BEGIN this transaction still owes. A plain BEGIN fails only with its
   * connection, and then so does the statement written behind it: the statement never runs
   * outside the transaction. Should BEGIN fail alone all the same, its error is thrown.
   */
  private async opened<R>(statement: () => Promise<R>): Promise<R> {
    // Sent after it, a statement would run outside any transaction.
    if (this.commitSent) throw new Error('this transaction has committed (queryCommitting)');
    const begin = this.begin;
    if (begin === undefined) return statement();
    this.begin = undefined;
    const [begun, sent] = await Promise.allSettled(this.together(() => this.client.query(begin), statement));
    if (begun.status === 'rejected') throw begun.reason;
    if (sent.status === 'rejected') throw sent.reason;
    return sent.value;
  }

  /**
   * Both queries written before either answer is awaited, in one write of the socket (corks
   * nest: a BEGIN still owed, corked with `first`, leaves in the same write).
   */
  private together<A, B>(first: () => Promise<A>, second: () => Promise<B>): [Promise<A>, Promise<B>] {
    return this.corked(() => {
      const a = first();
      return [a, second()];
    });
  }

  /** What `write` sends leaves in one write of the socket. */
  private corked<R>(write: () => R): R {
    const stream = (this.client as PipelinedConnection).connection?.stream;
    stream?.cork?.();
    try {
      return write();
    } finally {
      stream?.uncork?.();
    }
  }

  /**
   * Writes what `writeAtCommit` and `publish` queued and commits (Database). Pipelined, the last
   * of those statements and the COMMIT leave in one write; a transaction that sent nothing
   * and has nothing to write sends neither BEGIN nor COMMIT.
   */
  async commit(): Promise<void> {
    if (this.commitSent) {
      if (this.atCommit.length || this.unwritten.length)
        throw new Error('writes were queued after the transaction committed (queryCommitting)');
      return;
    }
    if (!this.boundaries) {
      await this.writeOutbox();
      await this.client.query('commit');
      return;
    }
    const statements = this.pendingWrites();
    if (this.begin !== undefined && !statements.length) {
      this.begin = undefined;
      return;
    }
    const last = statements.pop();
    for (const { sql, params } of statements) await this.send(sql, params);
    if (!last) {
      await this.client.query('commit');
      return;
    }
    // After a failed statement PostgreSQL answers the COMMIT with ROLLBACK, not an error: the
    // statement's error is the one thrown, and the transaction is rolled back either way.
    const [written, committed] = await Promise.allSettled(
      this.together(
        () => this.send(last.sql, last.params),
        () => this.client.query('commit'),
      ),
    );
    if (written.status === 'rejected') throw written.reason;
    if (committed.status === 'rejected') throw committed.reason;
  }

  /**
   * Calls `then` after the commit of the transaction that owns this one (a wake-up of a
   * worker that reads what this transaction wrote: earlier, it would find nothing yet).
   */
  afterCommit(then: () => void): void {
    this.committed.push(then);
  }

  /**
   * Calls `then` if this attempt does not commit, or a savepoint rolls back past this call:
   * a hold on something outside the database (a worker's slot) taken for work the rollback
   * undid. Of an afterCommit and an afterRollback callback asked for at the same point, one
   * runs and never both.
   */
  afterRollback(then: () => void): void {
    this.rolledBack.push(then);
  }

  /** Runs (once) the afterRollback callbacks asked for since the `from`th. */
  undo(from = 0): void {
    for (const then of this.rolledBack.splice(from)) {
      try {
        then();
      } catch {
        // A callback's failure must not hide the rollback's cause.
      }
    }
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
    const rolledBack = this.rolledBack.length;
    // Two statements in one simple query answer one result each.
    const sql = then ? `savepoint ${name}; ${then}` : `savepoint ${name}`;
    const result = (await this.opened(() => this.client.query(sql))) as
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
        this.undo(rolledBack);
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
  private async writeOutbox(): Promise<void> {
    for (const { sql, params } of this.pendingWrites()) await this.send(sql, params);
  }

  /** The statements of writeOutbox, taken from the queues (which it empties). */
  private pendingWrites(): SqlPart[] {
    return commitWrites(this.schema, this.atCommit.splice(0), this.unwritten.splice(0), this.notify);
  }
}
