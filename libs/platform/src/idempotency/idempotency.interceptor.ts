// Idempotency keys (docs/api.md §4). A POST with `Idempotency-Key` runs inside one
// transaction that also records the key, the request's fingerprint and the response, so the
// write and its record commit together or not at all:
//   - same key, same request, completed: the stored response is replayed with
//     `Idempotent-Replayed: true`;
//   - same key, different request (method, path or body): 422 idempotency_key_reused;
//   - same key while the first request still runs: 409 idempotency_request_in_progress
//     (a transaction-scoped advisory lock on the key tells who runs it);
//   - errors roll everything back, so nothing is stored and a retry runs afresh (5xx are
//     never replayed).
// Keys are scoped to account + mode and kept 24 hours.

import {
  Injectable,
  SetMetadata,
  type CallHandler,
  type ExecutionContext,
  type NestInterceptor,
} from '@nestjs/common';
import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { from, lastValueFrom, type Observable } from 'rxjs';
import { requestTransaction, type Database } from '../db/database';
import { ApiError } from '../errors';
import type { RequestWithContext } from '../http/context';

export const IDEMPOTENCY_RETENTION_HOURS = 24;
const MAX_KEY_LENGTH = 255;

/** JSON with object keys sorted, so `{"a":1,"b":2}` and `{"b":2,"a":1}` fingerprint alike. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object' && !(value instanceof Date)) {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

export function requestFingerprint(method: string, path: string, body: unknown): string {
  return createHash('sha256')
    .update(`${method.toUpperCase()} ${path}\n${canonicalJson(body ?? {})}`)
    .digest('hex');
}

/**
 * Marks a route that implements Idempotency-Key itself, next to its own write, or documents
 * that it does not honour it, instead of running inside the request-wide transaction: routes
 * that call a payment processor, which must never happen inside a database transaction
 * (docs/style.md rule 5), and a test clock's advance, which waits for outcomes that only its
 * own commits cause. The interceptor still checks the header's shape.
 */
export const OWN_IDEMPOTENCY = 'paygrid:own-idempotency';
export const OwnIdempotency = () => SetMetadata(OWN_IDEMPOTENCY, true);

interface StoredResponse {
  request_hash: string;
  response_status: number;
  response_body: unknown;
}

@Injectable()
export class IdempotencyInterceptor implements NestInterceptor {
  constructor(private readonly db: Database) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const http = context.switchToHttp();
    const request = http.getRequest<FastifyRequest & RequestWithContext>();
    const header = request.headers['idempotency-key'];
    if (request.method !== 'POST' || header === undefined) return next.handle();
    const caller = request.paygrid;
    if (caller?.kind !== 'api') return next.handle();
    if (typeof header !== 'string' || header.length === 0 || header.length > MAX_KEY_LENGTH) {
      throw new ApiError(
        'parameter_invalid',
        `Idempotency-Key must be 1 to ${MAX_KEY_LENGTH} characters.`,
        'Idempotency-Key',
      );
    }
    if (Reflect.getMetadata(OWN_IDEMPOTENCY, context.getHandler())) return next.handle();
    const reply = http.getResponse<FastifyReply>();
    const path = request.url.split('?')[0];
    const fingerprint = requestFingerprint(request.method, path, request.body);
    return from(
      this.run(
        { account: caller.account, livemode: caller.livemode, key: header, path, fingerprint },
        request,
        reply,
        next,
      ),
    );
  }

  private run(
    k: { account: string; livemode: boolean; key: string; path: string; fingerprint: string },
    request: RequestWithContext,
    reply: FastifyReply,
    next: CallHandler,
  ): Promise<unknown> {
    const schema = this.db.schema;
    return this.db.ownTransaction(async (tx) => {
      const [{ locked }] = await tx.query<{ locked: boolean }>(
        'select pg_try_advisory_xact_lock(hashtextextended($1, 0)) as locked',
        [`idempotency:${schema}:${k.account}:${k.livemode}:${k.key}`],
      );
      if (!locked) {
        throw new ApiError(
          'idempotency_request_in_progress',
          'A request with this Idempotency-Key is still in progress; retry shortly.',
          undefined,
          {
            headers: { 'retry-after': '1' },
          },
        );
      }
      const [stored] = await tx.query<StoredResponse>(
        `select request_hash, response_status, response_body from ${schema}.idempotency_keys
         where account_id = $1 and livemode = $2 and key = $3
           and created_at > now() - make_interval(hours => $4)`,
        [k.account, k.livemode, k.key, IDEMPOTENCY_RETENTION_HOURS],
      );
      if (stored) {
        if (stored.request_hash !== k.fingerprint) {
          throw new ApiError(
            'idempotency_key_reused',
            'This Idempotency-Key was already used with a different request (method, path or parameters); use a new key.',
            'Idempotency-Key',
          );
        }
        void reply.header('idempotent-replayed', 'true').status(stored.response_status);
        return stored.response_body;
      }
      // The handler gets the transaction through @RequestTx(); the scope only guards against
      // a statement that does not use it (Database.missedRequestTransaction).
      request.transaction = tx;
      const body = await requestTransaction
        .run({ db: this.db, tx }, () => lastValueFrom(next.handle(), { defaultValue: null }))
        .finally(() => {
          request.transaction = undefined;
        });
      await tx.query(
        `insert into ${schema}.idempotency_keys (account_id, livemode, key, request_hash, method, path, response_status, response_body)
         values ($1, $2, $3, $4, 'POST', $5, $6, $7::jsonb)
         on conflict (account_id, livemode, key) do update set request_hash = excluded.request_hash, method = excluded.method,
           path = excluded.path, response_status = excluded.response_status, response_body = excluded.response_body, created_at = now()`,
        [k.account, k.livemode, k.key, k.fingerprint, k.path, reply.statusCode, JSON.stringify(body)],
      );
      return body;
    });
  }
}

/** Deletes keys past their retention. */
export async function pruneIdempotencyKeys(db: Database): Promise<void> {
  await db.query(
    `delete from ${db.schema}.idempotency_keys where created_at < now() - make_interval(hours => $1)`,
    [IDEMPOTENCY_RETENTION_HOURS],
  );
}
