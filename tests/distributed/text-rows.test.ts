// Text-row queries on PostgreSQL, as the services run it: named prepared statements and a
// pipelining connection (tests/support/text-rows-cases.ts).

import { randomBytes } from 'node:crypto';
import { Database } from '@paygrid/platform';
import { textRowCases } from '../support/text-rows-cases';

let db: Database;

beforeAll(async () => {
  db = await Database.connect({
    url: process.env.DATABASE_URL as string,
    schema: `text_rows_${randomBytes(4).toString('hex')}`,
    migrations: [],
    poolSize: 1,
    preparedStatements: true,
    pipeline: true,
  });
});

afterAll(async () => {
  await db?.close();
});

textRowCases(() => db);
