// The delivery POST under the strict (live) policy: the address connected to is checked at
// connection time, so a hostname that resolves to a private address, or starts resolving to
// one after registration (DNS rebinding), is never reached; redirects are never followed.
// Real sockets on 127.0.0.1; only the resolver is replaced where a test needs a name to
// resolve to a chosen address. Kept-alive connections: reused, still private when their
// address is, and a reused one cut before its answer is sent again on a new one.

import dns from 'node:dns';
import { createServer as createHttpServer, type Server } from 'node:http';
import { createServer as createTcpServer, type AddressInfo } from 'node:net';
import { deliveryAgents, post, type DeliveryAgents } from './post';
import { checkTarget, TargetRefused } from './ssrf';

const STRICT = false; // allowPrivate = false: what every live delivery uses

/** A TCP server that counts the connections it accepts (and answers nothing). */
async function connectionCounter(): Promise<{
  port: number;
  count: () => number;
  close: () => Promise<void>;
}> {
  let connections = 0;
  const server = createTcpServer((socket) => {
    connections++;
    socket.destroy();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    port: (server.address() as AddressInfo).port,
    count: () => connections,
    close: () => new Promise((r) => server.close(() => r())),
  };
}

/** Makes dns.lookup answer `address` for `name` (other names resolve normally). */
function resolveName(name: string, address: () => string) {
  const real = dns.lookup;
  return jest.spyOn(dns, 'lookup').mockImplementation(((host: string, options: any, callback: any) => {
    const cb = typeof options === 'function' ? options : callback;
    const opts = typeof options === 'function' ? {} : options;
    if (host !== name) return (real as any)(host, options, callback);
    const a = address();
    const family = a.includes(':') ? 6 : 4;
    if (opts?.all) return process.nextTick(() => cb(null, [{ address: a, family }]));
    return process.nextTick(() => cb(null, a, family));
  }) as any);
}

afterEach(() => jest.restoreAllMocks());

describe('post() under the live policy', () => {
  it.each(['127.0.0.1', '10.0.0.1', '169.254.169.254', '::1', '::ffff:10.1.2.3'])(
    'refuses, at connection time, a hostname that resolves to %s and never connects',
    async (address) => {
      const counter = await connectionCounter();
      // Loopback answers are redirected to the counter's port, so a connection would be seen.
      resolveName('hooks.customer.example', () => address);
      try {
        const result = await post(`https://hooks.customer.example:${counter.port}/hook`, {}, '{}', STRICT);
        expect(result.statusCode).toBeUndefined();
        expect(result.error).toMatch(/hooks\.customer\.example resolves to a .+ address/);
        expect(counter.count()).toBe(0);
      } finally {
        await counter.close();
      }
    },
  );

  it('refuses at registration a hostname that resolves to a private address', async () => {
    resolveName('internal.customer.example', () => '10.20.30.40');
    await expect(
      checkTarget(new URL('https://internal.customer.example/hook'), { allowPrivate: false }),
    ).rejects.toBeInstanceOf(TargetRefused);
  });

  it('pins the checked address: a name that rebinds to loopback after registration is refused', async () => {
    const counter = await connectionCounter();
    let answers = 0;
    // First answer public (the registration check passes), every later one loopback.
    resolveName('rebind.customer.example', () => (answers++ === 0 ? '93.184.215.14' : '127.0.0.1'));
    try {
      await expect(
        checkTarget(new URL('https://rebind.customer.example/hook'), { allowPrivate: false }),
      ).resolves.toBeUndefined();
      const result = await post(`https://rebind.customer.example:${counter.port}/hook`, {}, '{}', STRICT);
      expect(result.error).toMatch(/resolves to a loopback address/);
      expect(counter.count()).toBe(0);
    } finally {
      await counter.close();
    }
  });

  it.each([
    'http://127.0.0.1:9/hook',
    'https://[::1]:9/hook',
    'https://169.254.169.254/x',
    'https://10.0.0.1/x',
  ])('refuses the literal %s without connecting', async (url) => {
    const result = await post(url, {}, '{}', STRICT);
    expect(result.statusCode).toBeUndefined();
    expect(result.error).toMatch(/url must be https|url points to a/);
  });
});

describe('post() and redirects', () => {
  let inside: Server;
  let insideHits = 0;
  let redirector: Server;
  let redirectorUrl: string;

  beforeAll(async () => {
    // "inside" stands for a private service the redirect points at.
    inside = createHttpServer((_req, res) => {
      insideHits++;
      res.end('secret');
    });
    await new Promise<void>((r) => inside.listen(0, '127.0.0.1', r));
    const insidePort = (inside.address() as AddressInfo).port;
    redirector = createHttpServer((req, res) => {
      req.resume();
      const to =
        req.url === '/metadata'
          ? 'http://169.254.169.254/latest/meta-data'
          : `http://127.0.0.1:${insidePort}/`;
      res.writeHead(307, { location: to }).end();
    });
    await new Promise<void>((r) => redirector.listen(0, '127.0.0.1', r));
    redirectorUrl = `http://127.0.0.1:${(redirector.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    await new Promise((r) => inside.close(r));
    await new Promise((r) => redirector.close(r));
  });

  it.each(['/inside', '/metadata'])('does not follow a redirect to a private address (%s)', async (path) => {
    // The first hop is local, so this runs with private targets allowed (a sandbox setup);
    // the redirect is still a failed attempt and the target behind it is never requested.
    const result = await post(`${redirectorUrl}${path}`, {}, '{}', true);
    expect(result.statusCode).toBe(307);
    expect(insideHits).toBe(0);
  });
});

describe('post() over kept-alive connections', () => {
  let server: Server;
  let port: number;
  let connections: number;
  /** Requests seen per connection; with `resetSecond`, a connection's second request is cut. */
  let resetSecond: boolean;
  const agents: DeliveryAgents[] = [];
  const freshAgents = () => {
    const made = deliveryAgents();
    agents.push(made);
    return made;
  };

  beforeAll(async () => {
    server = createHttpServer((req, res) => {
      const socket = req.socket as typeof req.socket & { seen?: number };
      socket.seen = (socket.seen ?? 0) + 1;
      req.resume();
      req.on('end', () => {
        // Closed with no answer, as an endpoint closing an idle connection just as it is reused.
        if (resetSecond && socket.seen === 2) socket.destroy();
        else res.end('internal answer');
      });
    });
    server.on('connection', () => connections++);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    port = (server.address() as AddressInfo).port;
  });

  beforeEach(() => {
    connections = 0;
    resetSecond = false;
  });

  afterAll(async () => {
    for (const made of agents) {
      made.http.destroy();
      made.https.destroy();
    }
    await new Promise((r) => server.close(r));
  });

  it('sends consecutive deliveries over one connection', async () => {
    const kept = freshAgents();
    for (let i = 0; i < 5; i++) {
      const result = await post(`http://127.0.0.1:${port}/hook`, {}, '{}', true, kept);
      expect(result.statusCode).toBe(200);
    }
    expect(connections).toBe(1);
  });

  it('keeps no excerpt of a private answer on a reused connection, where no lookup runs', async () => {
    // By name, so only the lookup of the first connection learns that the address is private.
    const kept = freshAgents();
    const first = await post(`http://localhost:${port}/hook`, {}, '{}', true, kept);
    const second = await post(`http://localhost:${port}/hook`, {}, '{}', true, kept);
    expect(connections).toBe(1);
    for (const result of [first, second]) {
      expect(result.statusCode).toBe(200);
      expect(result.excerpt).toBeUndefined();
    }
  });

  it('sends again on a new connection when a reused one is closed without an answer', async () => {
    resetSecond = true;
    const kept = freshAgents();
    expect((await post(`http://127.0.0.1:${port}/hook`, {}, '{}', true, kept)).statusCode).toBe(200);
    const again = await post(`http://127.0.0.1:${port}/hook`, {}, '{}', true, kept);
    expect(again).toMatchObject({ statusCode: 200 });
    expect(connections).toBe(2);
  });

  it('does not send again when a new connection is closed without an answer', async () => {
    const cut = createHttpServer((req) => req.socket.destroy());
    await new Promise<void>((r) => cut.listen(0, '127.0.0.1', r));
    let requests = 0;
    cut.on('request', () => requests++);
    try {
      const url = `http://127.0.0.1:${(cut.address() as AddressInfo).port}/hook`;
      const result = await post(url, {}, '{}', true, freshAgents());
      expect(result.statusCode).toBeUndefined();
      expect(result.error).toBeDefined();
      expect(requests).toBe(1);
    } finally {
      await new Promise((r) => cut.close(r));
    }
  });
});
