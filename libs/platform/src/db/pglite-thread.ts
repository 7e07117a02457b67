// The embedded database's thread (pglite-server.ts, startEmbeddedDatabase): PGlite and its
// wire-protocol server, off the event loop of the process that runs the apps. It answers
// `started` with the database's URL (or `failed`), and on `close` closes the connections and
// the database, with the data directory's image when asked for one.

import { parentPort, workerData } from 'node:worker_threads';
import {
  type DatabaseThreadCommand,
  type DatabaseThreadData,
  type DatabaseThreadMessage,
  type EmbeddedDatabase,
  serveEmbeddedDatabase,
} from './pglite-server';

const port = (() => {
  if (!parentPort) throw new Error('pglite-thread.ts runs as a worker thread');
  return parentPort;
})();
const send = (message: DatabaseThreadMessage, transfer: ArrayBuffer[] = []) =>
  port.postMessage(message, transfer);
const failed = (error: unknown): DatabaseThreadMessage => ({
  kind: 'failed',
  message: error instanceof Error ? error.message : String(error),
  stack: error instanceof Error ? error.stack : undefined,
});

async function main(data: DatabaseThreadData) {
  let database: EmbeddedDatabase;
  try {
    database = await serveEmbeddedDatabase(data.dataDir, data.port, {
      ...(data.image ? { image: new Blob([data.image]) } : {}),
    });
  } catch (error) {
    send(failed(error));
    return;
  }
  port.on('message', (command: DatabaseThreadCommand) => {
    if (command.kind !== 'close') return;
    const closing = command.image
      ? database.closeToImage().then(async (blob) => {
          const image = await blob.arrayBuffer();
          send({ kind: 'closed', image }, [image]);
        })
      : database.close().then(() => send({ kind: 'closed' }));
    closing.catch((error: unknown) => send(failed(error)));
  });
  send({ kind: 'started', url: database.url });
}

void main(workerData as DatabaseThreadData);
