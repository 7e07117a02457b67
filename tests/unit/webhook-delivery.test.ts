// The delivery POST against a local server: the connection-time SSRF check (a name is
// resolved once in the socket's lookup and refused when it resolves to a private address)
// and the attempt's result.

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { excerptOf } from '../../apps/webhooks/src/delivery/delivered';
import { post } from '../../apps/webhooks/src/delivery/post';

let server: Server;
let port: number;
const bodies: string[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      bodies.push(Buffer.concat(chunks).toString('utf8'));
      res.writeHead(req.url === '/moved' ? 301 : 200, { location: 'http://10.0.0.1/' }).end('x'.repeat(3000));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

describe('post', () => {
  it('refuses, at connection time, a name that resolves to loopback when private targets are not allowed', async () => {
    const result = await post(`https://localhost:${port}/`, {}, '{}', false);
    expect(result.statusCode).toBeUndefined();
    expect(result.error).toMatch(/loopback/);
  });

  it('refuses private IP literals and plain http when private targets are not allowed', async () => {
    expect((await post(`https://127.0.0.1:${port}/`, {}, '{}', false)).error).toMatch(/loopback/);
    expect((await post(`http://93.184.215.14/`, {}, '{}', false)).error).toMatch(/https/);
  });

  it('delivers through the pinned address when allowed, keeping no excerpt of a private answer', async () => {
    const result = await post(`http://localhost:${port}/`, { 'webhook-id': 'evt_1' }, '{"a":1}', true);
    expect(result.statusCode).toBe(200);
    // localhost is private: what it answered is not kept (issue 12 finding 1).
    expect(result.excerpt).toBeUndefined();
    expect(bodies).toContain('{"a":1}');
  });

  it('does not follow redirects', async () => {
    const before = bodies.length;
    const result = await post(`http://127.0.0.1:${port}/moved`, {}, '{}', true);
    expect(result.statusCode).toBe(301);
    expect(bodies.length).toBe(before + 1);
  });
});

describe('excerptOf', () => {
  it('keeps the first 1,024 bytes as text, without the NUL bytes PostgreSQL text cannot hold', () => {
    expect(excerptOf([Buffer.from('ok\0'), Buffer.from('\0done')])).toBe('okdone');
    expect(excerptOf([Buffer.alloc(3000, 'x')])).toHaveLength(1024);
  });
});
