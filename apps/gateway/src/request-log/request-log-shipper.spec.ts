import { createLogger, Metrics } from '@paygrid/platform';
import type { RequestLogNote } from '@paygrid/contracts';
import { RequestLogShipper } from './request-log-shipper';

const note = (n: number): RequestLogNote => ({
  account: 'acct_0123456789',
  livemode: false,
  request_id: `req_${String(n).padStart(10, '0')}`,
  method: 'GET',
  path: '/v1/merchants',
  status: 200,
  duration_ms: 1,
  created_at: new Date(0).toISOString(),
});

/** A forwarder whose POSTs wait until released, recording each batch's size. */
function forwarder() {
  const batches: number[] = [];
  const waiting: Array<() => void> = [];
  return {
    batches,
    release: () => waiting.splice(0).forEach((go) => go()),
    post: (_service: string, _path: string, body: unknown) => {
      batches.push((body as { entries: unknown[] }).entries.length);
      return new Promise<{ status: number }>((resolve) => waiting.push(() => resolve({ status: 204 })));
    },
  };
}

const shipper = (f: ReturnType<typeof forwarder>, batch = 500) =>
  new RequestLogShipper(f as never, createLogger('test', 'silent'), new Metrics(), {
    flushMs: 3_600_000,
    batch,
    maxBuffered: 1_000,
  });

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('RequestLogShipper', () => {
  it('sends what was buffered when the flush began; notes taken during it wait for the next flush', async () => {
    const f = forwarder();
    const s = shipper(f);
    for (let i = 0; i < 3; i++) s.note(note(i));
    const first = s.flush();
    for (let i = 3; i < 8; i++) s.note(note(i));
    f.release();
    await settle();
    f.release();
    await first;
    expect(f.batches).toEqual([3]);
    const second = s.flush();
    f.release();
    await second;
    expect(f.batches).toEqual([3, 5]);
    await s.close();
  });

  it('sends a full batch at once, without waiting for the timer, unless a flush is running', async () => {
    const f = forwarder();
    const s = shipper(f, 2);
    s.note(note(0));
    expect(f.batches).toEqual([]);
    s.note(note(1));
    expect(f.batches).toEqual([2]);
    // The flush is still running: these wait for the next one.
    for (let i = 2; i < 5; i++) s.note(note(i));
    expect(f.batches).toEqual([2]);
    f.release();
    await settle();
    await settle();
    // The next full batch starts the next flush, which sends what is buffered, two at a time.
    s.note(note(5));
    expect(f.batches).toEqual([2, 2]);
    for (let round = 0; round < 3; round++) {
      f.release();
      await settle();
    }
    expect(f.batches).toEqual([2, 2, 2]);
    await s.close();
  });

  it('splits a flush into batches of at most `batch` notes, and close() sends everything left', async () => {
    const f = forwarder();
    const s = shipper(f, 2);
    // Noted with a flush running (the first full batch started it), so none starts another.
    s.note(note(-2));
    s.note(note(-1));
    for (let i = 0; i < 5; i++) s.note(note(i));
    f.release();
    await settle();
    await settle();
    f.batches.length = 0;
    const flushed = s.flush();
    for (let round = 0; round < 3; round++) {
      f.release();
      await settle();
    }
    await flushed;
    expect(f.batches).toEqual([2, 2, 1]);
    s.note(note(5));
    const closed = s.close();
    s.note(note(6));
    for (let round = 0; round < 3; round++) {
      f.release();
      await settle();
    }
    await closed;
    expect(f.batches.reduce((a, b) => a + b, 0)).toBe(7);
  });
});
