// Stripe's official mock server for the Stripe connector's suites. The binary comes from
// STRIPE_MOCK_BIN (infra-up.sh exports it) or is built into the tools cache the way infra-up
// builds it (infra/stripe-mock.sh). Each suite starts its own instance per fixture set on a
// port the system picks, because stripe-mock answers from fixtures, not state: one instance
// gives one PaymentIntent outcome (infra/stripe-mock-fixtures.mjs).

import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { createServer, request as httpRequest, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..');

export type StripeMockOutcome = 'bundled' | 'succeeded' | 'requires_action' | 'declined';

export interface StripeMock {
  /** http://127.0.0.1:<port>, for STRIPE_API_BASE. */
  url: string;
  stop(): Promise<void>;
}

let installed: { bin: string; fixtures: string } | undefined;

function install(): { bin: string; fixtures: string } {
  if (installed) return installed;
  if (process.env.STRIPE_MOCK_BIN && process.env.STRIPE_MOCK_FIXTURES) {
    installed = { bin: process.env.STRIPE_MOCK_BIN, fixtures: process.env.STRIPE_MOCK_FIXTURES };
    return installed;
  }
  const out = execFileSync('bash', [join(ROOT, 'infra', 'stripe-mock.sh'), 'install'], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const value = (name: string) => {
    const line = out.split('\n').find((l) => l.startsWith(`${name}=`));
    if (!line) throw new Error(`infra/stripe-mock.sh printed no ${name}`);
    return line.slice(name.length + 1);
  };
  installed = { bin: value('STRIPE_MOCK_BIN'), fixtures: value('STRIPE_MOCK_FIXTURES') };
  return installed;
}

/** Starts stripe-mock on a free port with the fixtures of `outcome`. */
export async function startStripeMock(outcome: StripeMockOutcome = 'bundled'): Promise<StripeMock> {
  const { bin, fixtures } = install();
  const args = ['-http-addr', '127.0.0.1:', '-https-addr', '127.0.0.1:'];
  if (outcome !== 'bundled') args.push('-fixtures', join(fixtures, `${outcome}.json`));
  const child: ChildProcess = spawn(bin, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  const url = await new Promise<string>((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => reject(new Error(`stripe-mock did not start:\n${output}`)), 20_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /Listening for HTTP at address: (\S+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(`http://${match[1]}`);
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`stripe-mock exited (${code}):\n${output}`));
    });
  });
  // Keep reading its request log so the pipe never fills.
  child.stdout?.resume();
  child.stderr?.resume();
  return {
    url,
    async stop() {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  /** The status the client got (after any injected failure). */
  status: number;
}

export interface RecordingProxy {
  url: string;
  requests: RecordedRequest[];
  /**
   * Answer the next `times` requests whose path starts with `path` with `status` and Stripe's
   * error object `error` (not forwarded): a 5xx api_error, a 402 card_error, a 400 ...
   */
  failNext(path: string, status: number, error: Record<string, string>, times?: number): void;
  /**
   * Forward the next `times` `method` requests whose path starts with `path` to stripe-mock
   * (which validates them) and change its JSON answer with `patch`: the state stripe-mock does
   * not keep (it answers from fixtures), such as a PaymentIntent canceled by the request.
   */
  patchNext(method: string, path: string, patch: (body: any) => unknown, times?: number): void;
  stop(): Promise<void>;
}

/**
 * A tiny HTTP proxy in front of stripe-mock that records what the connector sends (method,
 * path, headers such as Idempotency-Key, form body) and can answer some requests with a
 * failure instead of forwarding them, to see what the SDK retries and with which key.
 */
export async function startRecordingProxy(target: string): Promise<RecordingProxy> {
  const upstream = new URL(target);
  const requests: RecordedRequest[] = [];
  const failures: { path: string; status: number; error: Record<string, string>; times: number }[] = [];
  const patches: { method: string; path: string; patch: (body: any) => unknown; times: number }[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const record: RecordedRequest = {
        method: req.method ?? '',
        path: req.url ?? '',
        headers: req.headers,
        body: body.toString(),
        status: 0,
      };
      requests.push(record);
      const failure = failures.find((f) => f.times > 0 && record.path.startsWith(f.path));
      if (failure) {
        failure.times--;
        record.status = failure.status;
        res.writeHead(failure.status, { 'content-type': 'application/json', 'request-id': 'req_injected' });
        res.end(JSON.stringify({ error: failure.error }));
        return;
      }
      const patch = patches.find(
        (p) => p.times > 0 && p.method === record.method && record.path.startsWith(p.path),
      );
      if (patch) patch.times--;
      const forward = httpRequest(
        {
          host: upstream.hostname,
          port: upstream.port,
          method: req.method,
          path: req.url,
          headers: { ...req.headers, host: upstream.host },
        },
        (answer) => {
          record.status = answer.statusCode ?? 0;
          if (!patch || record.status !== 200) {
            res.writeHead(answer.statusCode ?? 502, answer.headers);
            answer.pipe(res);
            return;
          }
          const parts: Buffer[] = [];
          answer.on('data', (c: Buffer) => parts.push(c));
          answer.on('end', () => {
            const changed = JSON.stringify(patch.patch(JSON.parse(Buffer.concat(parts).toString())));
            const headers = { ...answer.headers, 'content-length': String(Buffer.byteLength(changed)) };
            delete headers['transfer-encoding'];
            res.writeHead(200, headers);
            res.end(changed);
          });
        },
      );
      forward.on('error', () => {
        record.status = 502;
        res.writeHead(502).end();
      });
      forward.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    failNext(path, status, error, times = 1) {
      failures.push({ path, status, error, times });
    },
    patchNext(method, path, patch, times = 1) {
      patches.push({ method, path, patch, times });
    },
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The Stripe client settings of STRIPE_API_BASE for a URL like http://127.0.0.1:1234. */
export function apiBaseOf(url: string): { host: string; port: number; protocol: 'http' } {
  const parsed = new URL(url);
  return { host: parsed.hostname, port: Number(parsed.port), protocol: 'http' };
}
