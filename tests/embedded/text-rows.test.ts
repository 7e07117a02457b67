// Text-row queries on the embedded database (PGlite through its pg-protocol server), whose
// statements are never named (tests/support/text-rows-cases.ts).

import { Database } from '../../libs/platform/src/db/database';
import { startEmbeddedDatabase, type EmbeddedDatabase } from '../../libs/platform/src/db/pglite-server';
import { textRowCases } from '../support/text-rows-cases';

let server: EmbeddedDatabase;
let db: Database;

beforeAll(async () => {
  server = await startEmbeddedDatabase('memory://');
  db = await Database.connect({ url: server.url, schema: 'text_rows', migrations: [] });
}, 60_000);

afterAll(async () => {
  await db?.close();
  await server?.close();
});

textRowCases(() => db);
