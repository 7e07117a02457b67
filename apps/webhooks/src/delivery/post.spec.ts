// The delivery POST under the strict (live) policy: the address connected to is checked at
// connection time, so a hostname that resolves to a private address, or starts resolving to
// one after registration (DNS rebinding), is never reached; redirects are never followed.
// Real sockets on 127.0.0.1; only the resolver is replaced where a test needs a name to
// resolve to a chosen address.

import dns from 'node:dns';
import { createServer as createHttpServer, type Server } from 'node:http';
import { createServer as createTcpServer, type AddressInfo } from 'node:net';
import { post } from './worker';
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
