// The embedded bus's tables come from a migration (bus.migrations), not from DDL run on every
// connect; an embedded database made before that migration (tables already there, no
// bus.migrations) upgrades in place and keeps its unread messages and stored positions.

import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { createLogger, EmbeddedBus, startEmbeddedDatabase, type ConsumedMessage } from '@paygrid/platform';
import { eventually } from '../support/platform';

const logger = createLogger('test', 'silent');

async function sql<T>(url: string, text: string): Promise<T[]> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(text)).rows as T[];
  } finally {
    await client.end();
  }
}

it('creates the log tables through its migration, once', async () => {
  const database = await startEmbeddedDatabase('memory://');
  try {
    for (let start = 0; start < 2; start++) {
      const bus = new EmbeddedBus(database.url, logger);
      await bus.connect();
      await bus.close();
    }
    const ran = await sql<{ name: string }>(database.url, 'select name from bus.migrations');
    expect(ran.map((row) => row.name)).toEqual(['EmbeddedBusTables1700000000010']);
  } finally {
    await database.close();
  }
});

it('upgrades a database whose bus tables were made by the old connect, keeping its log', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'paygrid-bus-'));
  try {
    let database = await startEmbeddedDatabase(join(dir, 'pg'));
    // What EmbeddedBus.connect() ran before the migration, and a message nobody has read yet.
    await sql(
      database.url,
      `create schema bus;
       create table bus.messages (id bigserial primary key, topic text not null, key text not null,
         value text not null, created_at timestamptz not null default now());
       create index messages_topic_id on bus.messages (topic, id);
       create table bus.positions (group_id text not null, topic text not null,
         position bigint not null default 0, primary key (group_id, topic));
       insert into bus.messages (topic, key, value) values ('t.v1', 'k', 'before the upgrade');
       insert into bus.positions (group_id, topic, position) values ('g', 't.v1', 0);`,
    );
    await database.close();

    database = await startEmbeddedDatabase(join(dir, 'pg'));
    const bus = new EmbeddedBus(database.url, logger);
    const seen: string[] = [];
    try {
      await bus.connect();
      await bus.subscribe({
        groupId: 'g',
        topics: ['t.v1'],
        handler: async (message: ConsumedMessage) => void seen.push(message.value),
      });
      const after = `after ${randomBytes(4).toString('hex')}`;
      await bus.publish('t.v1', [{ key: 'k', value: after }]);
      await eventually(async () => (seen.length >= 2 ? seen : undefined));
      expect(seen).toEqual(['before the upgrade', after]);
    } finally {
      await bus.close();
    }
    const ran = await sql<{ name: string }>(database.url, 'select name from bus.migrations');
    expect(ran.map((row) => row.name)).toEqual(['EmbeddedBusTables1700000000010']);
    await database.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
