import type { Logger } from './logging';
import { Periodic } from './periodic';

const logger = { error: jest.fn() } as unknown as Logger & { error: jest.Mock };
/** Lets the pass's promise chain (then/catch/finally) settle. */
const settle = async () => {
  for (let i = 0; i < 10; i++) await Promise.resolve();
};

describe('Periodic', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('runs one pass at a time: ticks during a slow pass are skipped', async () => {
    let release: () => void = () => undefined;
    let passes = 0;
    const task = new Periodic(
      'sweep',
      100,
      () => {
        passes++;
        return new Promise<void>((resolve) => (release = resolve));
      },
      logger,
    ).start();
    jest.advanceTimersByTime(350);
    expect(passes).toBe(1);
    release();
    await settle();
    jest.advanceTimersByTime(100);
    expect(passes).toBe(2);
    release();
    await task.stop();
  });

  it('logs a failed pass and runs again on the next tick; stop waits for the pass in flight', async () => {
    let calls = 0;
    let finished = false;
    const task = new Periodic(
      'sweep',
      100,
      async () => {
        calls++;
        if (calls === 1) throw new Error('boom');
        await Promise.resolve();
        finished = true;
      },
      logger,
    ).start({ immediately: true });
    await settle();
    expect(logger.error).toHaveBeenCalledWith(
      expect.objectContaining({ err: expect.any(Error) }),
      'sweep failed',
    );
    jest.advanceTimersByTime(100);
    await task.stop();
    expect(calls).toBe(2);
    expect(finished).toBe(true);
    jest.advanceTimersByTime(1000);
    expect(calls).toBe(2);
  });
});
