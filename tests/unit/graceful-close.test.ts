// A stopping server (libs/platform/src/http/graceful-close.ts): a connection opened and never
// used, and a kept-alive one whose request is done, are closed at once; a request in flight
// is answered in full, with `connection: close`, and then its connection closes; the server
// has closed long before the keep-alive time-out. Without the tracker, Node's close() waited
// for the unused connection (the gateway's stop took 70 s after an event stream).

import { once } from 'node:events';
import { createServer, request, Agent, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { trackConnections } from '../../libs/platform/src/http/graceful-close';

async function serve(track: boolean) {
  let finish!: () => void;
  const slow = new Promise<void>((resolve) => (finish = resolve));
  const server: Server = createServer((req, res) => {
    if (req.url === '/slow') void slow.then(() => res.end('slow done'));
    else res.end('quick');
  });
  // The keep-alive time-out of Fastify's servers (and so of ours).
  server.keepAliveTimeout = 72_000;
  const close = track ? trackConnections(server) : () => undefined;
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { server, port: (server.address() as AddressInfo).port, close, finish };
}

function get(port: number, path: string, agent: Agent) {
  return new Promise<{ body: string; connection: string | undefined }>((resolve, reject) => {
    request({ host: '127.0.0.1', port, path, agent }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ body, connection: res.headers.connection }));
    })
      .on('error', reject)
      .end();
  });
}

/** Closes `server`: whether it has closed within `ms`. */
async function closesWithin(server: Server, ms: number): Promise<boolean> {
  const closed = new Promise<boolean>((resolve) => server.close(() => resolve(true)));
  const late = new Promise<boolean>((resolve) => setTimeout(() => resolve(false), ms).unref());
  return Promise.race([closed, late]);
}

it('closes unused and idle connections at once and the rest after their answer', async () => {
  const { server, port, close, finish } = await serve(true);
  const agent = new Agent({ keepAlive: true, maxSockets: 10 });
  const unused = connect(port, '127.0.0.1');
  await once(unused, 'connect');
  const unusedClosed = once(unused, 'close');
  expect((await get(port, '/quick', agent)).body).toBe('quick');
  const slow = get(port, '/slow', agent);
  await new Promise((r) => setTimeout(r, 50));

  close();
  const closed = closesWithin(server, 2_000);
  await unusedClosed;
  setTimeout(finish, 100);
  expect(await slow).toEqual({ body: 'slow done', connection: 'close' });
  expect(await closed).toBe(true);
  agent.destroy();
});

it('without it, a connection opened and never used holds the closing server', async () => {
  const { server, port } = await serve(false);
  const unused = connect(port, '127.0.0.1');
  await once(unused, 'connect');
  const closed = once(server, 'close');
  expect(await closesWithin(server, 1_000)).toBe(false);
  unused.destroy();
  await closed;
});
