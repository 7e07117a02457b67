// The transport under the generated client: an Idempotency-Key on every POST (the caller's if
// given), and retries of 429, 503 and network failures with that same key, so a retried
// payment is never made twice (docs/api.md §4). Waits honour Retry-After.

import { randomUUID } from 'node:crypto';

export interface RetryOptions {
  /** Retries after the first attempt (default 2). */
  maxRetries: number;
  /** Backoff without Retry-After: base * 2^attempt, with full jitter (default 500 ms). */
  baseDelayMs: number;
  /** No wait is longer, Retry-After included (default 20 s). */
  maxDelayMs: number;
  sleep: (ms: number) => Promise<void>;
}

export const DEFAULT_RETRY: RetryOptions = {
  maxRetries: 2,
  baseDelayMs: 500,
  maxDelayMs: 20_000,
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};

const RETRIED_STATUSES = new Set([429, 503]);

/** Retry-After in seconds or as an HTTP date, in ms; undefined when absent or unreadable. */
export function retryAfterMs(header: string | null, now = Date.now()): number | undefined {
  if (!header) return undefined;
  if (/^\d+$/.test(header.trim())) return Number(header.trim()) * 1000;
  const at = Date.parse(header);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

function backoff(attempt: number, options: RetryOptions, header: string | null): number {
  const told = retryAfterMs(header);
  const wait = told ?? Math.random() * options.baseDelayMs * 2 ** attempt;
  return Math.min(wait, options.maxDelayMs);
}

/** A fetch that adds the key and retries; `inner` does the requests. */
export function retryingFetch(
  inner: typeof fetch,
  options: RetryOptions,
): (input: Request) => Promise<Response> {
  return async (input) => {
    const headers = new Headers(input.headers);
    if (input.method === 'POST' && !headers.has('idempotency-key'))
      headers.set('idempotency-key', randomUUID());
    const request = new Request(input, { headers });
    for (let attempt = 0; ; attempt++) {
      let response: Response;
      try {
        response = await inner(request.clone());
      } catch (error) {
        // Aborted by the caller: not a network failure, never retried.
        if (request.signal.aborted || attempt >= options.maxRetries) throw error;
        await options.sleep(backoff(attempt, options, null));
        continue;
      }
      if (!RETRIED_STATUSES.has(response.status) || attempt >= options.maxRetries) return response;
      await response.body?.cancel();
      await options.sleep(backoff(attempt, options, response.headers.get('retry-after')));
    }
  };
}
