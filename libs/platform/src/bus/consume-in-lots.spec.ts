import {
  consumeInLots,
  MAX_BATCH_MESSAGES,
  type BatchOutcome,
  type ConsumedMessage,
  type LotConsumer,
} from './bus';

const messages = (count: number): ConsumedMessage[] =>
  Array.from({ length: count }, (_, i) => ({
    topic: 't',
    partition: 0,
    offset: String(i),
    key: `k${i % 3}`,
    value: `m${i}`,
  }));

const silent = { warn: () => undefined, error: () => undefined };

/** A run that records each call: lots, single attempts, what was reported handled and pauses. */
function recorder(overrides: Partial<LotConsumer> = {}) {
  const calls: string[] = [];
  const lots: LotConsumer = {
    handler: async (m) => {
      calls.push(`one ${m.offset}`);
    },
    batchHandler: async (lot): Promise<BatchOutcome> => {
      calls.push(`lot ${lot[0].offset}-${lot[lot.length - 1].offset}`);
      return { handled: lot.length };
    },
    running: () => true,
    handled: (m) => calls.push(`handled ${m.offset}`),
    pause: async () => {
      calls.push('pause');
    },
    log: silent,
    ...overrides,
  };
  return { calls, lots };
}

/** A recorder whose consuming stops once one of `steps` calls the `stop` it is given. */
function stopping(steps: (stop: () => void) => Partial<LotConsumer>) {
  let running = true;
  return recorder(
    Object.assign(
      { running: () => running },
      steps(() => {
        running = false;
      }),
    ),
  );
}

describe('consumeInLots', () => {
  beforeEach(() => jest.useFakeTimers({ advanceTimers: true }));
  afterEach(() => jest.useRealTimers());

  it('hands MAX_BATCH_MESSAGES at a time to the batch handler and reports each lot handled', async () => {
    const { calls, lots } = recorder();
    expect(await consumeInLots(messages(MAX_BATCH_MESSAGES + 2), lots)).toBe(true);
    expect(calls).toEqual([
      `lot 0-${MAX_BATCH_MESSAGES - 1}`,
      `handled ${MAX_BATCH_MESSAGES - 1}`,
      'pause',
      `lot ${MAX_BATCH_MESSAGES}-${MAX_BATCH_MESSAGES + 1}`,
      `handled ${MAX_BATCH_MESSAGES + 1}`,
      'pause',
    ]);
  });

  it('sends a lone message, and every message without a batch handler, through the handler', async () => {
    const alone = recorder();
    await consumeInLots(messages(1), alone.lots);
    expect(alone.calls).toEqual(['one 0', 'handled 0', 'pause']);
    const single = recorder({ batchHandler: undefined });
    await consumeInLots(messages(2), single.lots);
    expect(single.calls).toEqual(['one 0', 'handled 0', 'pause', 'one 1', 'handled 1', 'pause']);
  });

  it('retries the message a lot stopped at in place, its failure in the lot counting as the first attempt', async () => {
    const attempts: number[] = [];
    const logged: unknown[] = [];
    let failures = 1; // one more failure through the handler, then success
    const { calls, lots } = recorder({
      batchHandler: async (lot) => ({
        handled: lot.findIndex((m) => m.offset === '2'),
        error: new Error('in the lot'),
      }),
      handler: async (m) => {
        attempts.push(Number(m.offset));
        if (failures-- > 0) throw new Error('again');
        calls.push(`one ${m.offset}`);
      },
      log: { warn: () => undefined, error: (fields: unknown) => logged.push(fields) },
    });
    const done = consumeInLots(messages(3), lots);
    await jest.runAllTimersAsync();
    expect(await done).toBe(true);
    expect(attempts).toEqual([2, 2]); // the lot's failure was attempt 0: two calls, not three
    expect(logged).toMatchObject([
      { attempt: 0, offset: '2' },
      { attempt: 1, offset: '2' },
    ]);
    // A pause (Kafka: heartbeat) after each failed attempt, then one after the lot.
    expect(calls).toEqual(['handled 1', 'pause', 'pause', 'one 2', 'handled 2', 'pause']);
  });

  it('handles the messages of a lot that threw one at a time', async () => {
    const { calls, lots } = recorder({
      batchHandler: async () => {
        throw new Error('commit failed');
      },
    });
    expect(await consumeInLots(messages(2), lots)).toBe(true);
    expect(calls).toEqual(['one 0', 'handled 0', 'pause', 'one 1', 'handled 1', 'pause']);
  });

  it('stops when consuming stops: before a lot, after a lot that threw, and between attempts', async () => {
    const first = stopping((stop) => ({
      batchHandler: async (lot) => {
        stop();
        return { handled: lot.length };
      },
    }));
    expect(await consumeInLots(messages(MAX_BATCH_MESSAGES + 1), first.lots)).toBe(false);
    expect(first.calls).toEqual([`handled ${MAX_BATCH_MESSAGES - 1}`, 'pause']);

    const threw = stopping((stop) => ({
      batchHandler: async () => {
        stop();
        throw new Error('closing');
      },
    }));
    expect(await consumeInLots(messages(2), threw.lots)).toBe(false);
    expect(threw.calls).toEqual([]);

    const failing = stopping((stop) => ({
      handler: async () => {
        stop();
        throw new Error('down');
      },
    }));
    expect(await consumeInLots(messages(1), failing.lots)).toBe(false);
    expect(failing.calls).toEqual([]); // never reported handled
  });
});
