// The embedded database's wire-protocol queue (pglite-server.ts serves PGlite through it).
//
// Why not PGLiteSocketServer's own multiplexer: it interleaves single protocol messages of
// different connections, so one client's Parse can replace another's unnamed statement
// between its Parse and Bind ("unnamed prepared statement does not exist" under load,
// reproduced with 4 pools x 4 connections). Here each connection's messages are grouped up
// to the Sync (or a simple Query) and a group runs as one unit; while a connection holds a
// transaction open, only its groups run. PGlite is single-session, so this serialises work
// exactly as a real transaction would, and nothing a client does can see another's half-done
// statement. Consequence for code: never wait on a second connection inside a transaction.
//
// Named prepared statements live in that one session too, so each connection's names are made
// its own (`payments_3` of connection 7 is `payments_3@7` to PGlite) and closed when the
// connection ends: every connection sees only the statements it prepared, as on PostgreSQL,
// and a pool's churn leaves none behind (ownStatementName, SyncGroupQueue.forget).

import type { PGlite } from '@electric-sql/pglite';

const PROTOCOL_V3 = 196608;

interface Job {
  handlerId: number;
  buffer: Uint8Array;
  onData: (data: Uint8Array) => void;
  resolve: (bytes: number) => void;
  reject: (error: unknown) => void;
}

/** No connection has this id (PGLiteSocketHandler's start at 1): the server's own groups. */
const SERVER_HANDLER = 0;

/**
 * `message` with the prepared statement it names made connection `handlerId`'s own: the name
 * of a Parse, of a Bind's statement, of a Describe or Close of a statement ('S'), gets
 * `@<handlerId>`. The unnamed statement, portals and every other message pass unchanged.
 * Returns the message and the statement's name in PGlite when a Parse prepares one.
 */
function ownStatementName(
  handlerId: number,
  message: Uint8Array,
): { message: Uint8Array; prepared?: string } {
  const type = message[0];
  // Where the statement's name starts: first in a Parse, after the portal's name in a Bind,
  // after 'S' in a Describe or Close (a portal's, 'P', is left alone).
  let at = -1;
  if (type === 0x50) at = 5;
  else if (type === 0x42) at = message.indexOf(0, 5) + 1;
  else if ((type === 0x44 || type === 0x43) && message[5] === 0x53) at = 6;
  const end = at > 0 ? message.indexOf(0, at) : -1;
  if (end <= at) return { message };
  const suffix = Buffer.from(`@${handlerId}`);
  const owned = new Uint8Array(message.length + suffix.length);
  owned.set(message.subarray(0, end), 0);
  owned.set(suffix, end);
  owned.set(message.subarray(end), end + suffix.length);
  new DataView(owned.buffer).setInt32(1, owned.length - 1);
  if (type !== 0x50) return { message: owned };
  return { message: owned, prepared: Buffer.from(owned.subarray(at, end + suffix.length)).toString('utf8') };
}

/** Close of each named statement, then Sync: one group that frees them. */
function closeStatements(names: Iterable<string>): Uint8Array {
  const parts: Buffer[] = [];
  for (const name of names) {
    const bytes = Buffer.from(name, 'utf8');
    const close = Buffer.alloc(1 + 4 + 1 + bytes.length + 1);
    close[0] = 0x43;
    close.writeInt32BE(close.length - 1, 1);
    close[5] = 0x53;
    bytes.copy(close, 6);
    parts.push(close);
  }
  parts.push(Buffer.from([0x53, 0, 0, 0, 4]));
  return Buffer.concat(parts);
}

/** Implements the queue contract PGLiteSocketHandler expects, grouping messages per Sync. */
export class SyncGroupQueue {
  private readonly pending = new Map<number, Uint8Array[]>();
  /** Each connection's prepared statements, by their names in PGlite (ownStatementName). */
  private readonly prepared = new Map<number, Set<string>>();
  private queue: Job[] = [];
  private owner: number | null = null;
  private running = false;
  private closed = false;

  constructor(private readonly db: PGlite) {}

  enqueue(handlerId: number, message: Uint8Array, onData: (data: Uint8Array) => void): Promise<number> {
    if (this.closed) return Promise.reject(new Error('database closed'));
    const type = message[0];
    if (type === 0x58) return Promise.resolve(0); // Terminate: the socket closes; nothing to run.
    const isStartup =
      message.length >= 8 &&
      new DataView(message.buffer, message.byteOffset, message.byteLength).getInt32(4) === PROTOCOL_V3;
    if (!isStartup) {
      const owned = ownStatementName(handlerId, message);
      message = owned.message;
      if (owned.prepared !== undefined) {
        const names = this.prepared.get(handlerId) ?? new Set<string>();
        names.add(owned.prepared);
        this.prepared.set(handlerId, names);
      }
    }
    const parts = this.pending.get(handlerId) ?? [];
    parts.push(message);
    // Sync, simple Query, Flush and the startup packet end a group.
    const ends = isStartup || type === 0x53 || type === 0x51 || type === 0x48;
    if (!ends) {
      this.pending.set(handlerId, parts);
      return Promise.resolve(0);
    }
    this.pending.delete(handlerId);
    const buffer = parts.length === 1 ? parts[0] : Buffer.concat(parts);
    return new Promise((resolve, reject) => {
      this.queue.push({ handlerId, buffer, onData, resolve, reject });
      void this.drain();
    });
  }

  private async drain(): Promise<void> {
    if (this.running) return;
    this.running = true;
    try {
      while (this.queue.length && !this.closed) {
        const index = this.owner === null ? 0 : this.queue.findIndex((j) => j.handlerId === this.owner);
        if (index < 0) break; // the transaction owner has not sent its next group yet
        const [job] = this.queue.splice(index, 1);
        let bytes = 0;
        try {
          await this.db.runExclusive(() =>
            this.db.execProtocolRawStream(job.buffer, {
              onRawData: (data) => {
                bytes += data.length;
                job.onData(data);
              },
            }),
          );
          this.owner = this.db.isInTransaction() ? job.handlerId : null;
          job.resolve(bytes);
        } catch (error) {
          this.owner = !this.closed && this.db.isInTransaction() ? job.handlerId : null;
          job.reject(error);
        }
      }
    } finally {
      this.running = false;
    }
  }

  getQueueLength(): number {
    return this.queue.length;
  }

  clearQueueForHandler(handlerId: number): void {
    this.pending.delete(handlerId);
    this.queue = this.queue.filter((job) => {
      if (job.handlerId !== handlerId) return true;
      job.reject(new Error('connection closed'));
      return false;
    });
  }

  /** Called by PGLiteSocketHandler when a connection ends (after clearQueueForHandler). */
  async clearTransactionIfNeeded(handlerId: number): Promise<void> {
    this.forget(handlerId);
    if (this.owner !== handlerId) return;
    // A client vanished mid-transaction: roll it back so the others can go on.
    if (!this.closed && this.db.isInTransaction()) await this.db.exec('ROLLBACK');
    this.owner = null;
    void this.drain();
  }

  /**
   * Closes the statements connection `handlerId` prepared, in a group of the server's own that
   * runs when no transaction holds the session: they would outlive it in PGlite's one session.
   */
  private forget(handlerId: number): void {
    const names = this.prepared.get(handlerId);
    this.prepared.delete(handlerId);
    if (!names?.size || this.closed) return;
    const done = () => undefined;
    this.queue.push({
      handlerId: SERVER_HANDLER,
      buffer: closeStatements(names),
      onData: done,
      resolve: done,
      reject: done,
    });
    void this.drain();
  }

  close(): void {
    this.closed = true;
    for (const job of this.queue) job.reject(new Error('database closed'));
    this.queue = [];
  }
}
