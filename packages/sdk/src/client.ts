// One client per API key: the generated, typed `GET`/`POST`/`DELETE` of every operation
// (openapi-fetch over src/generated/openapi.ts), answers unwrapped to their data, errors
// thrown as PaygridError, cursor pagination as an async iterator, and helpers for the
// common resources.

import createClient, {
  type Client,
  type ClientPathsWithMethod,
  type MaybeOptionalInit,
  type MethodResponse,
} from 'openapi-fetch';
import { isErrorEnvelope, PaygridConnectionError, PaygridError } from './errors.js';
import { DEFAULT_RETRY, retryingFetch, type RetryOptions } from './retry.js';
import type { ListItem, ListPath, ListQuery, paths } from './types.js';
import { resources, type Resources } from './resources.js';
import { streamEvents, streamRequestLogs, type StreamOptions } from './stream.js';
import type { Event, Schemas } from './types.js';
import { webhooks } from './webhooks.js';

export interface PaygridOptions {
  /** The installation's URL, e.g. `https://pay.example.com` (default `http://localhost:3000`). */
  baseUrl?: string;
  /** Retries of 429, 503 and network failures, with the same Idempotency-Key (default 2). */
  maxRetries?: number;
  /** Per-attempt time limit in ms (default 60 s). */
  timeoutMs?: number;
  /** The fetch to use (default the global one). */
  fetch?: typeof fetch;
  /** Tests: how to wait between retries. */
  retry?: Partial<Omit<RetryOptions, 'maxRetries'>>;
}

type Raw = Client<paths>;
/** The second argument, optional exactly when the operation has no required parameter or body. */
type InitArgs<Init> = undefined extends Init ? [init?: Init] : [init: Init];
/**
 * A typed call of every operation of one method, answering the data (errors are thrown). The
 * init is not a generic of its own (as in openapi-fetch): a concrete parameter type keeps
 * TypeScript's excess-property check, so a misspelt body field fails `tsc`.
 */
export type Call<M extends 'get' | 'post' | 'delete'> = <P extends ClientPathsWithMethod<Raw, M>>(
  url: P,
  ...init: InitArgs<MaybeOptionalInit<paths[P], M>>
) => Promise<MethodResponse<Raw, M, P>>;

/** What openapi-fetch answers: data or error, and the response. */
interface FetchResult {
  data?: unknown;
  error?: unknown;
  response: Response;
}

async function unwrap<T>(call: Promise<FetchResult>): Promise<T> {
  const { data, error, response } = await call;
  if (response.ok) return data as T;
  if (isErrorEnvelope(error)) throw new PaygridError(response.status, error);
  throw new PaygridConnectionError(
    `HTTP ${response.status} without the API's error envelope`,
    response.status,
  );
}

export class Paygrid {
  /** The generated client, for the full answer (`{ data, error, response }`) of any operation. */
  readonly raw: Raw;
  readonly webhooks = webhooks;
  /** The installation's URL, without a trailing slash. */
  readonly baseUrl: string;
  /** Whether the key is a test (sandbox) key. */
  readonly sandbox: boolean;
  private readonly key: string;
  private readonly inner: typeof fetch;
  readonly paymentLinks: Resources['paymentLinks'];
  readonly transactions: Resources['transactions'];
  readonly refunds: Resources['refunds'];
  readonly customers: Resources['customers'];
  readonly invoices: Resources['invoices'];
  readonly subscriptions: Resources['subscriptions'];
  readonly events: Resources['events'];
  readonly webhookEndpoints: Resources['webhookEndpoints'];

  constructor(key: string, options: PaygridOptions = {}) {
    if (!/^(sk|rk)_(test|live)_/.test(key))
      throw new TypeError('Paygrid: the key must be an sk_ or rk_ key.');
    const inner = options.fetch ?? globalThis.fetch;
    this.key = key;
    this.inner = inner;
    this.sandbox = /^(sk|rk)_test_/.test(key);
    this.baseUrl = (options.baseUrl ?? 'http://localhost:3000').replace(/\/+$/, '');
    const timeoutMs = options.timeoutMs ?? 60_000;
    const timed: typeof fetch = (input, init) =>
      inner(input, {
        ...init,
        signal: AbortSignal.any([AbortSignal.timeout(timeoutMs), (input as Request).signal]),
      });
    this.raw = createClient<paths>({
      baseUrl: this.baseUrl,
      headers: { authorization: `Bearer ${key}` },
      fetch: retryingFetch(timed, {
        ...DEFAULT_RETRY,
        ...options.retry,
        maxRetries: options.maxRetries ?? DEFAULT_RETRY.maxRetries,
      }),
    });
    const helpers = resources(this);
    this.paymentLinks = helpers.paymentLinks;
    this.transactions = helpers.transactions;
    this.refunds = helpers.refunds;
    this.customers = helpers.customers;
    this.invoices = helpers.invoices;
    this.subscriptions = helpers.subscriptions;
    this.events = helpers.events;
    this.webhookEndpoints = helpers.webhookEndpoints;
  }

  /** `GET /v1/...` with `{ params: { path, query } }`: the typed answer, or a thrown PaygridError. */
  readonly GET: Call<'get'> = (url, ...init) =>
    unwrap(this.raw.GET(url as never, ...(init as [never])) as Promise<FetchResult>);
  /** `POST /v1/...` with `{ body, params }`; an Idempotency-Key is added unless `headers` has one. */
  readonly POST: Call<'post'> = (url, ...init) =>
    unwrap(this.raw.POST(url as never, ...(init as [never])) as Promise<FetchResult>);
  readonly DELETE: Call<'delete'> = (url, ...init) =>
    unwrap(this.raw.DELETE(url as never, ...(init as [never])) as Promise<FetchResult>);

  /**
   * Any operation by a path known only at run time (the CLI's `get|post|delete`): untyped,
   * otherwise as `GET`/`POST`/`DELETE` (Idempotency-Key, retries, PaygridError).
   */
  request(
    method: 'GET' | 'POST' | 'DELETE',
    path: string,
    init: { query?: Record<string, unknown>; body?: unknown; headers?: Record<string, string> } = {},
  ): Promise<unknown> {
    return unwrap(
      this.raw.request(
        method.toLowerCase() as 'get',
        path as never,
        {
          params: { query: init.query },
          ...(init.body !== undefined ? { body: init.body } : {}),
          ...(init.headers ? { headers: init.headers } : {}),
        } as never,
      ) as Promise<FetchResult>,
    );
  }

  /**
   * The account's events as they happen (GET /v1/events/stream), typed, each once, in log
   * order; reconnects by itself with Last-Event-ID. Ends when `signal` aborts.
   */
  streamEvents(options: StreamOptions = {}): AsyncGenerator<Event> {
    return streamEvents({ baseUrl: this.baseUrl, key: this.key, fetch: this.inner }, options);
  }

  /**
   * The account's API requests as they are answered (GET /v1/request-logs/stream, scope
   * `request_logs:read`), reconnecting by itself; `paygrid logs tail` prints them.
   */
  streamRequestLogs(options: Omit<StreamOptions, 'types'> = {}): AsyncGenerator<Schemas['RequestLog']> {
    return streamRequestLogs({ baseUrl: this.baseUrl, key: this.key, fetch: this.inner }, options);
  }

  /**
   * Every object of a list, page after page (`starting_after` the last id), newest first:
   * `for await (const link of paygrid.list('/v1/payment-links', { limit: 100 }))`.
   */
  async *list<P extends ListPath>(
    path: P,
    query?: ListQuery<P>,
  ): AsyncGenerator<ListItem<P>, void, undefined> {
    let after: string | undefined;
    for (;;) {
      const page = (await unwrap(
        this.raw.GET(
          path as never,
          {
            params: { query: { ...query, ...(after ? { starting_after: after } : {}) } },
          } as never,
        ) as Promise<FetchResult>,
      )) as { data: (ListItem<P> & { id: string })[]; has_more: boolean };
      for (const item of page.data) yield item as Awaited<ListItem<P>>;
      const last = page.data.at(-1);
      if (!page.has_more || !last) return;
      after = last.id;
    }
  }
}
