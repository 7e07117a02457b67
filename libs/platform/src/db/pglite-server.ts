// The embedded database: PGlite (Postgres compiled to WASM) served over the Postgres wire
// protocol, so the services use the same pg driver, TypeORM and migrations as in production.
// Every connection's messages go through one SyncGroupQueue (sync-group-queue.ts): PGlite is
// one session, which the queue shares between the connections as PostgreSQL would.

import { existsSync, mkdirSync } from 'node:fs';
import net from 'node:net';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketHandler } from '@electric-sql/pglite-socket';
import { makePrivate, PRIVATE_DIR_MODE } from './private-files';
import { SyncGroupQueue } from './sync-group-queue';

export interface EmbeddedDatabase {
  url: string;
  /**
   * Closes the connections and then the database, like `close()`, and answers its data
   * directory as an image for `startEmbeddedDatabase('memory://', port, { image })`.
   */
  closeToImage(): Promise<Blob>;
  close(): Promise<void>;
}

export interface EmbeddedDatabaseOptions {
  /**
   * For "memory://" only: a data directory image (`emptyDatabaseImage()`) to start from
   * instead of running initdb. initdb is most of an in-memory start (1.6-2.8 s against
   * 0.4-0.5 s to load an image, measured on the 2-core CI machine), which the test suites pay
   * once per platform they start.
   */
  image?: Blob;
  /**
   * The compiled thread module to run the database on (default: pglite-thread.js beside this
   * module), or false for the caller's thread. Tests run from the TypeScript sources name the
   * compiled one.
   */
  thread?: string | false;
}

/**
 * Starts PGlite with its data in `dataDir` (or in memory for "memory://") and serves it on
 * a loopback port. Returns a DATABASE_URL for it.
 *
 * The database runs on a thread of its own (pglite-thread.ts) when the compiled thread module
 * is there: PostgreSQL's work (the WASM, its file system, the wire protocol) then uses the
 * machine's second core instead of queueing on the event loop that also runs the gateway, the
 * services and the bus (bench/README.md finding 38). Run from the TypeScript sources (as the
 * tests that import this file do) or with `PAYGRID_DB_THREAD=0`, it runs on the caller's thread.
 */
export async function startEmbeddedDatabase(
  dataDir: string,
  port = 0,
  options: EmbeddedDatabaseOptions = {},
): Promise<EmbeddedDatabase> {
  const thread = options.thread ?? join(__dirname, 'pglite-thread.js');
  if (thread && process.env.PAYGRID_DB_THREAD !== '0' && existsSync(thread))
    return startOnThread(thread, dataDir, port, options);
  return serveEmbeddedDatabase(dataDir, port, options);
}

/** What the database thread answers (pglite-thread.ts). */
export type DatabaseThreadMessage =
  | { kind: 'started'; url: string }
  | { kind: 'failed'; message: string; stack?: string }
  | { kind: 'closed'; image?: ArrayBuffer };

/** What the database thread is asked to do. */
export type DatabaseThreadCommand = { kind: 'close'; image: boolean };

/** What the database thread starts from (its `workerData`). */
export interface DatabaseThreadData {
  dataDir: string;
  port: number;
  /** `options.image`'s bytes (a copy: the caller's image may start other databases). */
  image?: ArrayBuffer;
}

async function startOnThread(
  filename: string,
  dataDir: string,
  port: number,
  options: EmbeddedDatabaseOptions,
): Promise<EmbeddedDatabase> {
  const workerData: DatabaseThreadData = {
    dataDir,
    port,
    ...(options.image ? { image: await options.image.arrayBuffer() } : {}),
  };
  const worker = new Worker(filename, { workerData });
  const answer = () =>
    new Promise<DatabaseThreadMessage>((resolve, reject) => {
      const onMessage = (message: DatabaseThreadMessage) => {
        worker.off('error', onError);
        worker.off('exit', onExit);
        resolve(message);
      };
      const onError = (error: Error) => {
        worker.off('message', onMessage);
        worker.off('exit', onExit);
        reject(error);
      };
      const onExit = (code: number) => {
        worker.off('message', onMessage);
        worker.off('error', onError);
        reject(new Error(`the embedded database thread exited (code ${code})`));
      };
      worker.once('message', onMessage);
      worker.once('error', onError);
      worker.once('exit', onExit);
    });
  const started = await answer();
  if (started.kind !== 'started') {
    await worker.terminate();
    const error = new Error(started.kind === 'failed' ? started.message : 'embedded database did not start');
    if (started.kind === 'failed' && started.stack) error.stack = started.stack;
    throw error;
  }
  // A thread that dies while serving takes the database with it: like PGlite failing on the
  // event loop before, that ends the process rather than leaving the services without one.
  let closing = false;
  let exited = false;
  const crash = (error: Error) => {
    if (!closing)
      process.nextTick(() => {
        throw error;
      });
  };
  worker.on('error', crash);
  worker.once('exit', (code) => {
    exited = true;
    crash(new Error(`the embedded database thread exited (code ${code})`));
  });
  const close = async (image: boolean): Promise<ArrayBuffer | undefined> => {
    closing = true;
    worker.off('error', crash);
    if (exited) throw new Error('the embedded database thread has exited');
    const closed = answer();
    worker.postMessage({ kind: 'close', image } satisfies DatabaseThreadCommand);
    const message = await closed;
    await worker.terminate();
    if (message.kind === 'failed') throw new Error(message.message);
    return message.kind === 'closed' ? message.image : undefined;
  };
  return {
    url: started.url,
    async closeToImage() {
      const image = await close(true);
      if (!image) throw new Error('the embedded database thread sent no image');
      return new Blob([image]);
    },
    async close() {
      await close(false);
    },
  };
}

/** `startEmbeddedDatabase` on the caller's thread (and the body of the database thread). */
export async function serveEmbeddedDatabase(
  dataDir: string,
  port = 0,
  options: EmbeddedDatabaseOptions = {},
): Promise<EmbeddedDatabase> {
  const onDisk = !dataDir.startsWith('memory://');
  if (onDisk) {
    mkdirSync(dataDir, { recursive: true, mode: PRIVATE_DIR_MODE });
    makePrivate(dataDir);
  }
  const db =
    !onDisk && options.image
      ? await PGlite.create({ loadDataDir: options.image })
      : await PGlite.create(dataDir);
  if (onDisk) makePrivate(dataDir);
  const queue = new SyncGroupQueue(db);
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
    const handler = new PGLiteSocketHandler({ queryQueue: queue as never, closeOnDetach: true });
    handler.attach(socket).catch(() => socket.destroy());
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  const address = server.address();
  if (address === null || typeof address === 'string')
    throw new Error('embedded database did not bind a TCP port');
  const disconnect = async () => {
    queue.close();
    // server.close() waits for every connection to end: a leaked client must not hang shutdown.
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    for (const socket of sockets) socket.destroy();
    await closed;
  };
  return {
    url: `postgres://postgres:postgres@127.0.0.1:${address.port}/postgres`,
    async closeToImage() {
      await disconnect();
      try {
        return await db.dumpDataDir('none');
      } finally {
        await db.close();
      }
    },
    async close() {
      await disconnect();
      await db.close();
    },
  };
}

/**
 * A freshly initialised, empty database cluster as a data directory image (an uncompressed
 * tar, about 40 MB), for `startEmbeddedDatabase('memory://', port, { image })`. It holds no
 * table of ours: the services' migrations still run on every start.
 */
export async function emptyDatabaseImage(): Promise<Blob> {
  const db = await PGlite.create('memory://');
  try {
    return await db.dumpDataDir('none');
  } finally {
    await db.close();
  }
}
