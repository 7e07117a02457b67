// One webhook POST (the delivery worker's attempt, worker.ts): to the checked and pinned
// address only, without following redirects, within 15 s, keeping the first 1 KiB of the
// answer unless the target is private, over kept-alive connections (one set per target
// policy).

import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import { EXCERPT_BYTES, excerptOf } from './delivered';
import { checkLiteralHost, guardedLookup, isPrivateAddress, type TargetPolicy } from './ssrf';

export const DELIVERY_TIMEOUT_MS = 15_000;

export interface AttemptResult {
  statusCode?: number;
  latencyMs: number;
  excerpt?: string;
  error?: string;
}

/** An idle kept-alive connection is closed after this long: below the 5 s Node servers keep one. */
export const IDLE_CONNECTION_MS = 4_000;

/** Kept-alive connections for deliveries under one target policy (http and https). */
export interface DeliveryAgents {
  http: http.Agent;
  https: https.Agent;
}

/**
 * Connections kept open between deliveries, so a busy endpoint is not a TCP (and TLS)
 * handshake per event, nor a socket in TIME_WAIT per event (a few hundred deliveries a second
 * to one receiver would run out of ephemeral ports within a minute). A connection is only
 * ever opened through post()'s checked lookup; one set of agents per target policy (live,
 * sandbox), so a connection a sandbox delivery opened to an allowed private address is never
 * used by a live one. No per-host cap: the worker's in-flight limits bound the sockets.
 */
export function deliveryAgents(): DeliveryAgents {
  const options = { keepAlive: true, timeout: IDLE_CONNECTION_MS, scheduling: 'lifo' as const };
  return { http: new http.Agent(options), https: new https.Agent(options) };
}

/**
 * One POST: pinned, validated address; no redirects; 15 s; the first 1 KiB of the answer. To
 * a private address (a sandbox endpoint on loopback or the operator's list) the attempt
 * records only the status: no excerpt of the answer and no connection error text, which
 * would let a sandbox key read internal services or map their hosts and ports.
 *
 * With `agents`, over a kept-alive connection when one is free (else a new one, checked like
 * any). A kept connection the endpoint closed just as it was reused fails with ECONNRESET
 * before any answer: the POST is then sent once more on a new connection (Node's advice for
 * `reusedSocket`), which at worst delivers the event twice, as at-least-once delivery allows.
 */
export function post(
  target: string,
  headers: Record<string, string>,
  body: string,
  policyOrAllowPrivate: TargetPolicy | boolean,
  agents?: DeliveryAgents,
): Promise<AttemptResult> {
  const policy: TargetPolicy =
    typeof policyOrAllowPrivate === 'boolean' ? { allowPrivate: policyOrAllowPrivate } : policyOrAllowPrivate;
  const started = Date.now();
  let privateTarget = false;
  const done = (r: Omit<AttemptResult, 'latencyMs'>): AttemptResult =>
    Object.assign(
      {},
      privateTarget
        ? {
            statusCode: r.statusCode,
            ...(r.error ? { error: 'the request to the private address failed (details are not kept)' } : {}),
          }
        : r,
      { latencyMs: Date.now() - started },
    );
  let url: URL;
  try {
    url = new URL(target);
    checkLiteralHost(url, policy);
    const literal = url.hostname.replace(/^\[|\]$/g, '');
    if (isIP(literal) && isPrivateAddress(literal)) privateTarget = true;
  } catch (error) {
    return Promise.resolve(done({ error: (error as Error).message }));
  }
  const secure = url.protocol === 'https:';
  const send = (agent: http.Agent | false): Promise<AttemptResult> =>
    new Promise((resolve) => {
      const request = (secure ? https : http).request(
        url,
        {
          method: 'POST',
          // Object.assign, not a leading spread: on Node 20 (V8 11.3) every member added after `{ ...x }` takes a slow path, ~1 us each (bench/README.md finding 56).
          headers: Object.assign({}, headers, {
            'content-type': 'application/json',
            'content-length': Buffer.byteLength(body),
          }),
          lookup: guardedLookup(policy, (address) => {
            if (isPrivateAddress(address)) privateTarget = true;
          }),
          agent,
          timeout: DELIVERY_TIMEOUT_MS,
        },
        (response) => {
          const chunks: Buffer[] = [];
          let size = 0;
          response.on('data', (chunk: Buffer) => {
            if (size < EXCERPT_BYTES) chunks.push(chunk);
            size += chunk.length;
          });
          response.on('end', () =>
            resolve(
              done({
                statusCode: response.statusCode,
                excerpt: excerptOf(chunks),
              }),
            ),
          );
          response.on('error', (err) =>
            resolve(done({ statusCode: response.statusCode, error: err.message })),
          );
        },
      );
      // A kept connection was checked when it opened, and no lookup runs again for it: the
      // address it is connected to says whether the target is private.
      request.on('socket', (socket) => {
        if (socket.remoteAddress && isPrivateAddress(socket.remoteAddress)) privateTarget = true;
      });
      const deadline = setTimeout(
        () => request.destroy(new Error('timed out after 15 s')),
        DELIVERY_TIMEOUT_MS,
      );
      request.on('timeout', () => request.destroy(new Error('timed out after 15 s')));
      request.on('error', (err: NodeJS.ErrnoException) => {
        if (agent && request.reusedSocket && err.code === 'ECONNRESET') resolve(send(false));
        else resolve(done({ error: err.message }));
      });
      request.on('close', () => clearTimeout(deadline));
      request.end(body);
    });
  return send(agents ? (secure ? agents.https : agents.http) : false);
}
