// kafkajs 2.2.4 is patched (patches/kafkajs+2.2.4.patch, applied by `npm install`'s
// postinstall): unpatched, a broker connection's request queue with nothing pending scheduled
// a timer at `throttledUntil - now`, a negative delay that Node runs after 1 ms, and that timer
// scheduled the next: each idle payments, invoicing and webhooks process spent 42-56 ms of CPU a
// second in it (bench/README.md finding 26; kafkajs issues #1556, #1704). These tests fail on
// the unpatched file, and check that the patch keeps what the timer is for: a request queued
// while the client is throttled is sent when the throttle ends.

// The queue is internal to kafkajs; its file is the one the patch changes.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const RequestQueue = require('kafkajs/src/network/requestQueue');

const silent = { debug() {}, info() {}, warn() {}, error() {} };

function queue() {
  return new RequestQueue({
    maxInFlightRequests: null,
    requestTimeout: 30_000,
    enforceRequestTimeout: false,
    clientId: 'test',
    broker: 'localhost:9092',
    logger: silent,
  });
}

function request(correlationId: number, sent: number[], answered: number[] = []) {
  return {
    entry: {
      correlationId,
      apiKey: 0,
      apiName: 'Produce',
      apiVersion: 0,
      resolve: () => answered.push(correlationId),
      reject: () => undefined,
    },
    expectResponse: true,
    sendRequest: () => sent.push(correlationId),
  };
}

describe('kafkajs request queue (patched)', () => {
  it('schedules no timer once a response leaves nothing pending', () => {
    const q = queue();
    const sent: number[] = [];
    const answered: number[] = [];
    q.push(request(1, sent, answered));
    expect(sent).toEqual([1]);
    // A response arrives: the queue checks its pending requests, of which there are none.
    q.fulfillRequest({ correlationId: 1, payload: Buffer.alloc(0), size: 0 });
    expect(answered).toEqual([1]);
    expect(q.pending).toHaveLength(0);
    expect(q.throttleCheckTimeoutId).toBeNull();
    q.destroy();
  });

  it('runs no 1 ms timer loop while idle', async () => {
    const q = queue();
    const spy = jest.spyOn(q, 'checkPendingRequests');
    q.checkPendingRequests();
    await new Promise((resolve) => setTimeout(resolve, 50));
    // Unpatched, the first call scheduled a check every millisecond: dozens in 50 ms.
    expect(spy).toHaveBeenCalledTimes(1);
    q.destroy();
  });

  it('sends a request queued under a throttle once the throttle ends', async () => {
    const q = queue();
    const sent: number[] = [];
    const start = Date.now();
    q.maybeThrottle(40);
    q.push(request(7, sent));
    expect(sent).toEqual([]);
    expect(q.throttleCheckTimeoutId).not.toBeNull();
    await new Promise((resolve) => setTimeout(resolve, 120));
    expect(sent).toEqual([7]);
    expect(Date.now() - start).toBeGreaterThanOrEqual(40);
    q.destroy();
  });
});
