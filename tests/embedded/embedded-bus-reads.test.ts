// What the embedded bus asks of the embedded database per message (bench/README.md finding 53):
// a reader keeps its position in memory (it is the position's only writer) and reads the log
// again after a batch only when something was published meanwhile, so a message costs each
// group one read of the log and one position write, not five statements. And nothing of the
// at-least-once guarantee goes: every message is handled once per group, in order, messages
// published while a handler runs are not left waiting for the fallback poll, and a restarted
// bus resumes after the last stored position.

import {
  createLogger,
  Database,
  EmbeddedBus,
  startEmbeddedDatabase,
  type ConsumedMessage,
} from '@paygrid/platform';
import { eventually } from '../support/platform';

const logger = createLogger('test', 'silent');
const TOPIC = 'reads.v1';

let database: Awaited<ReturnType<typeof startEmbeddedDatabase>>;

beforeAll(async () => {
  database = await startEmbeddedDatabase('memory://');
});

afterAll(async () => {
  await database?.close();
});

/** The statements the bus sends (its own Database: publish, reads, positions), by their first words. */
function recordStatements(): { statements: string[]; restore: () => void } {
  const statements: string[] = [];
  const original = Database.prototype.query;
  const spy = jest.spyOn(Database.prototype, 'query').mockImplementation(function (
    this: Database,
    ...args: Parameters<Database['query']>
  ) {
    if (this.schema === 'bus') statements.push(args[0].trim().split(/\s+/).slice(0, 2).join(' '));
    return original.apply(this, args) as ReturnType<Database['query']>;
  });
  return { statements, restore: () => spy.mockRestore() };
}

it('reads the log once and writes the position once per message and group, each message once and in order', async () => {
  const bus = new EmbeddedBus(database.url, logger);
  const seen: Record<string, string[]> = { a: [], b: [] };
  await bus.connect();
  try {
    for (const group of ['a', 'b']) {
      await bus.subscribe({
        groupId: `reads-${group}`,
        topics: [TOPIC],
        handler: async (message: ConsumedMessage) => void seen[group].push(message.value),
      });
    }
    // Both readers have read the empty log and wait.
    await new Promise((r) => setTimeout(r, 200));
    const { statements, restore } = recordStatements();
    const started = Date.now();
    let elapsed = 0;
    try {
      for (let i = 0; i < 10; i++) {
        await bus.publish(TOPIC, [{ key: 'k', value: `m${i}` }]);
        await eventually(async () => (seen.a.length > i && seen.b.length > i ? true : undefined), 5_000);
        // Let each reader settle (write its position, wait) before the next message.
        await new Promise((r) => setTimeout(r, 50));
      }
      // The last position writes may come after the settle on a loaded machine: wait for
      // them, then a little more for any statement that should not be there.
      const positionWrites = () => statements.filter((s) => s.startsWith('update bus.positions')).length;
      await eventually(async () => (positionWrites() >= 20 ? true : undefined), 5_000);
      await new Promise((r) => setTimeout(r, 100));
      elapsed = Date.now() - started;
    } finally {
      restore();
    }
    const expected = Array.from({ length: 10 }, (_, i) => `m${i}`);
    expect(seen).toEqual({ a: expected, b: expected });
    const count = (start: string) => statements.filter((s) => s.startsWith(start)).length;
    expect(count('insert into')).toBe(10);
    // Per message and group: one read of the log and one position write, and no position
    // read. An idle reader also reads once a second (the fallback poll): at most that more.
    const polls = 2 * Math.ceil(elapsed / 1_000);
    expect(count('select id,')).toBeGreaterThanOrEqual(20);
    expect(count('select id,')).toBeLessThanOrEqual(20 + polls);
    expect(count('update bus.positions')).toBe(20);
    expect(count('select position')).toBe(0);
  } finally {
    await bus.close();
  }
});

it('reads again at once when a message was published while a handler ran, and resumes after the stored position', async () => {
  const bus = new EmbeddedBus(database.url, logger);
  const seen: string[] = [];
  let release: () => void = () => undefined;
  const held = new Promise<void>((r) => (release = r));
  await bus.connect();
  try {
    await bus.subscribe({
      groupId: 'reads-held',
      topics: [TOPIC],
      handler: async (message: ConsumedMessage) => {
        seen.push(message.value);
        if (message.value === 'first') await held;
      },
    });
    await bus.publish(TOPIC, [{ key: 'k', value: 'first' }]);
    await eventually(async () => (seen.includes('first') ? true : undefined), 5_000);
    // Published while the handler of `first` runs: well before the one-second fallback poll.
    await bus.publish(TOPIC, [{ key: 'k', value: 'second' }]);
    const started = Date.now();
    release();
    await eventually(async () => (seen.includes('second') ? true : undefined), 5_000);
    expect(Date.now() - started).toBeLessThan(500);
  } finally {
    await bus.close();
  }
  // Another bus, as after a restart: the group goes on after what it stored.
  const again = new EmbeddedBus(database.url, logger);
  const after: string[] = [];
  await again.connect();
  try {
    await again.publish(TOPIC, [{ key: 'k', value: 'third' }]);
    await again.subscribe({
      groupId: 'reads-held',
      topics: [TOPIC],
      handler: async (message: ConsumedMessage) => void after.push(message.value),
    });
    await eventually(async () => (after.includes('third') ? true : undefined), 5_000);
    // Messages 'first' and 'second' (and those of the first test) are not handled again.
    expect(after.filter((v) => v !== 'third').filter((v) => ['first', 'second'].includes(v))).toEqual([]);
  } finally {
    await again.close();
  }
});
