// The server-sent-events loop of the event stream and the request log's stream
// (apps/webhooks/src/streaming/sse-streams.ts), over a real HTTP connection: frames in order
// and in the SSE format, a wake-up read at once, the connection limit, the service's stop,
// the maximum age, and no abort listener left behind per poll. The request log's own loop
// added one listener per 500 ms poll and never removed it (a ten-minute stream piled up 1,200
// of them: Node's MaxListenersExceededWarning in the Schemathesis run's platform log).

import { once } from 'node:events';
import { createServer, get, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SseStreams, type SseOptions, type SseRead } from '../../apps/webhooks/src/streaming/sse-streams';

const OPTIONS: SseOptions = { pollMs: 2, keepaliveMs: 60_000, maxMs: 60_000, maxStreams: 2 };

interface Harness {
  streams: SseStreams;
  url: string;
  served: Promise<void>[];
  close(): Promise<void>;
}

/** A server whose every request is a stream from cursor 0 over `read`. */
async function harness(
  options: SseOptions,
  read: (cursor: number) => Promise<SseRead<number>>,
): Promise<Harness> {
  const streams = new SseStreams('test streams', options);
  const served: Promise<void>[] = [];
  const server: Server = createServer((_req, res) => {
    try {
      streams.admit();
    } catch {
      res.writeHead(503).end();
      return;
    }
    served.push(streams.serve(res, 0, read));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    streams,
    url: `http://127.0.0.1:${port}/`,
    served,
    close: async () => {
      streams.close();
      await Promise.all(served);
      server.close();
      await once(server, 'close');
    },
  };
}

/** Opens a stream and collects its text until `until` holds (or the stream ends). */
function open(url: string): Promise<{ res: IncomingMessage; text: () => string; ended: Promise<void> }> {
  return new Promise((resolve, reject) => {
    get(url, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      const ended = once(res, 'end').then(() => undefined);
      resolve({ res, text: () => text, ended });
    }).on('error', reject);
  });
}

async function until(check: () => boolean, ms = 5_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('condition not reached');
    await new Promise((r) => setTimeout(r, 5));
  }
}

it('sends frames in order in the SSE format, polls without leaving listeners behind, and ends on close', async () => {
  // Abort listeners added and not removed, on every signal (the connection's signal is the
  // stream's own).
  let pending = 0;
  const add = jest.spyOn(AbortSignal.prototype, 'addEventListener').mockImplementation(function (
    this: AbortSignal,
    ...args: Parameters<AbortSignal['addEventListener']>
  ) {
    if (args[0] === 'abort') pending++;
    return EventTarget.prototype.addEventListener.apply(this, args);
  });
  const remove = jest.spyOn(AbortSignal.prototype, 'removeEventListener').mockImplementation(function (
    this: AbortSignal,
    ...args: Parameters<AbortSignal['removeEventListener']>
  ) {
    if (args[0] === 'abort') pending--;
    return EventTarget.prototype.removeEventListener.apply(this, args);
  });
  let reads = 0;
  const h = await harness(OPTIONS, async (cursor) => {
    reads++;
    // Two frames on the first read, then quiet polls.
    if (cursor === 0) return { frames: [frame(1), frame(2)], cursor: 2, more: false };
    return { frames: [], cursor, more: false };
  });
  try {
    const stream = await open(h.url);
    expect(stream.res.headers['content-type']).toBe('text/event-stream; charset=utf-8');
    await until(() => stream.text().includes('id: 2'));
    // Far more than ten polls on one connection (Node warns at eleven listeners on a signal),
    // and one listener waiting at a time.
    await until(() => reads > 60);
    expect(pending).toBeLessThanOrEqual(1);
    expect(stream.text()).toBe(
      'retry: 1000\n\n' + 'id: 1\nevent: thing\ndata: {"n":1}\n\n' + 'id: 2\nevent: thing\ndata: {"n":2}\n\n',
    );
    expect(h.streams.size).toBe(1);
    h.streams.close();
    await stream.ended;
    await Promise.all(h.served);
    expect(h.streams.size).toBe(0);
  } finally {
    add.mockRestore();
    remove.mockRestore();
    await h.close();
  }
});

it('reads again at once while a read says there is more, and at once on a wake-up', async () => {
  const cursors: number[] = [];
  let available = 3;
  const h = await harness({ ...OPTIONS, pollMs: 60_000 }, async (cursor) => {
    cursors.push(cursor);
    const next = Math.min(cursor + 1, available);
    return {
      frames: next > cursor ? [frame(next)] : [],
      cursor: next,
      more: next < available,
    };
  });
  try {
    const stream = await open(h.url);
    await until(() => stream.text().includes('id: 3'));
    // Cursor 0 and 1 say there is more, so 1 and 2 are read at once; after 2 the next poll is
    // a minute away.
    await until(() => cursors.length === 3);
    await new Promise((r) => setTimeout(r, 50));
    expect(cursors).toEqual([0, 1, 2]);
    available = 4;
    h.streams.wake();
    await until(() => stream.text().includes('id: 4'));
    expect(cursors).toEqual([0, 1, 2, 3]);
  } finally {
    await h.close();
  }
});

it('refuses a stream over the limit, and ends a stream at its maximum age', async () => {
  const h = await harness({ ...OPTIONS, maxMs: 300 }, async (cursor) => ({
    frames: [],
    cursor,
    more: false,
  }));
  try {
    const first = await open(h.url);
    const second = await open(h.url);
    expect(h.streams.size).toBe(2);
    const third = await open(h.url);
    expect(third.res.statusCode).toBe(503);
    // Both end by themselves after maxMs; then a stream is admitted again.
    await Promise.all([first.ended, second.ended]);
    await until(() => h.streams.size === 0);
    const fourth = await open(h.url);
    expect(fourth.res.statusCode).toBe(200);
    await fourth.ended;
  } finally {
    await h.close();
  }
});

function frame(n: number) {
  return { id: String(n), event: 'thing', data: { n } };
}
