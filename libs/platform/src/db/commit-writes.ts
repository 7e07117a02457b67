// What a transaction writes just before its COMMIT (Tx.commit, tx.ts): the writes queued with
// `writeAtCommit` and the outbox rows queued with `publish`, as the fewest statements: the
// writes and the first outbox rows in one, each a data-modifying WITH query of it.

import { placeSql, type SqlPart } from './sql-parts';

export interface OutboxMessage {
  topic: string;
  key: string;
  /** Unique id of the message (the event id); consumers dedupe on it. */
  id: string;
  payload: unknown;
}

/** An outbox row queued by Tx.publish, with the trace it was published in (tracing on). */
export interface UnwrittenMessage {
  message: OutboxMessage;
  traceparent?: string;
}

/**
 * The statements that write `writes` and `pending` into `schema`: the writes and the first
 * OUTBOX_ROWS_PER_STATEMENT outbox rows in one statement, further outbox rows in one statement
 * per OUTBOX_ROWS_PER_STATEMENT, in order. `notify` (distributed mode): the first statement
 * also NOTIFYs the relay's channel.
 */
export function commitWrites(
  schema: string,
  writes: SqlPart[],
  pending: UnwrittenMessage[],
  notify?: { channel: string; token: string },
): SqlPart[] {
  if (writes.length && !pending.length) return [together(writes)];
  const statements: SqlPart[] = [];
  for (let start = 0; start < pending.length; start += OUTBOX_ROWS_PER_STATEMENT) {
    statements.push(
      insertOutbox(
        schema,
        pending.slice(start, start + OUTBOX_ROWS_PER_STATEMENT),
        start === 0 ? notify : undefined,
        start === 0 ? writes : [],
      ),
    );
  }
  return statements;
}

function insertOutbox(
  schema: string,
  rows: UnwrittenMessage[],
  notify: { channel: string; token: string } | undefined,
  writes: SqlPart[],
): SqlPart {
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
  const insert = `insert into ${schema}.outbox (${columns}) values ${tuples.join(', ')}`;
  if (notify) {
    // NOTIFY is delivered at commit, so the relay leader in another instance wakes too;
    // this instance's own relay knows its token and leaves the notification to its commit hook.
    values.push(notify.channel, notify.token);
    ctes.push(`written as (${insert} returning 1)`);
    return {
      sql: `with ${ctes.join(', ')} select pg_notify($${values.length - 1}, $${values.length}) from written limit 1`,
      params: values,
    };
  }
  if (ctes.length) {
    ctes.push(`written as (${insert})`);
    return { sql: `with ${ctes.join(', ')} select 1`, params: values };
  }
  return { sql: insert, params: values };
}

/** `writes` in one statement (one alone as it is). */
function together(writes: SqlPart[]): SqlPart {
  if (writes.length === 1) return writes[0];
  const values: unknown[] = [];
  const ctes = withQueries(writes, values);
  return { sql: `with ${ctes.join(', ')} select 1`, params: values };
}

/**
 * `writes` as WITH queries `at_commit_<i>`, their parameters appended to `values` (each
 * statement's `$n` renumbered after those before it).
 */
function withQueries(writes: SqlPart[], values: unknown[]): string[] {
  return writes.map((write, i) => `at_commit_${i} as (${placeSql(write, values)})`);
}

/** Outbox rows per insert: 5 parameters each, far below PostgreSQL's 65,535 per statement. */
const OUTBOX_ROWS_PER_STATEMENT = 1_000;
