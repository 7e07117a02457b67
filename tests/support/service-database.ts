// One service's database for a suite that drives its classes directly, in the mode the suite
// runs in: PGlite in memory (embedded), or a fresh PostgreSQL database of its own with
// repeated statements named, as the distributed services send them (distributed). Migrated.

import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { Database, startEmbeddedDatabase } from '@paygrid/platform';
import { testMode } from './harness';

type Migrations = Parameters<typeof Database.connect>[0]['migrations'];

export async function serviceDatabase(
  schema: string,
  migrations: Migrations,
  /** The fresh PostgreSQL database's name starts with it (distributed). */
  prefix: string,
): Promise<{ db: Database; close(): Promise<void> }> {
  if (testMode() === 'embedded') {
    const server = await startEmbeddedDatabase('memory://');
    const db = await Database.connect({ url: server.url, schema, migrations });
    await db.migrate();
    return {
      db,
      close: async () => {
        await db.close();
        await server.close();
      },
    };
  }
  const base = process.env.DATABASE_URL ?? '';
  const name = `${prefix}_${randomBytes(5).toString('hex')}`;
  const admin = new Client({ connectionString: base });
  await admin.connect();
  await admin.query(`create database ${name}`);
  const url = new URL(base);
  url.pathname = `/${name}`;
  const db = await Database.connect({ url: url.toString(), schema, migrations, preparedStatements: true });
  await db.migrate();
  return {
    db,
    close: async () => {
      await db.close();
      await admin.query(`drop database if exists ${name} with (force)`);
      await admin.end();
    },
  };
}
