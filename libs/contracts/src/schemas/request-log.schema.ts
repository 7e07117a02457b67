// One API request of the account as the gateway recorded it, for `paygrid logs tail` and the
// request log endpoints (docs/api.md, "Request log"): what was asked and how it went, never
// what was sent (no query string, no body, no key, no card data).

import { listOf, strictObject, type FromContract } from './json-schema';

export const RequestLogSchema = strictObject(
  {
    object: { type: 'string', const: 'request_log' },
    id: {
      type: 'string',
      pattern: '^req_[0-9A-Za-z]{8,64}$',
      description: 'The request id (the `Request-Id` header of its answer).',
      examples: ['req_4fQk2nT8bW1xZc9LmP0aRs7e'],
    },
    method: { type: 'string', enum: ['GET', 'HEAD', 'POST', 'DELETE'] },
    path: {
      type: 'string',
      description: 'The path, without its query string.',
      examples: ['/v1/payment-links'],
    },
    status: { type: 'integer', minimum: 100, maximum: 599, description: 'The HTTP status of the answer.' },
    duration_ms: {
      type: 'integer',
      minimum: 0,
      description: 'Milliseconds from the request reaching the gateway to its answer leaving it.',
    },
    created_at: {
      type: 'string',
      format: 'date-time',
      description: 'When the answer left the gateway.',
      examples: ['2026-01-15T12:00:00.000Z'],
    },
  },
  'An API request of the account, kept for 24 hours.',
);

export const RequestLogListSchema = listOf('RequestLog', '/v1/request-logs');

/** The type of a request log entry on the wire, derived from its schema. */
export type RequestLog = FromContract<typeof RequestLogSchema>;
