// The gateway's part of the public OpenAPI document: what every operation shares because the
// gateway does it (authentication, Request-Id, rate limits, idempotency headers, the error
// envelope and one response per error status), plus the document's info and servers.

import {
  API_SCHEMAS,
  ERROR_CATALOGUE,
  ERROR_RESPONSE_NAMES,
  errorCodesFor,
  schemaRef,
  type JsonSchema,
} from '@paygrid/contracts';
import type { HeaderObject, ParameterObject, ReferenceObject, ResponseObject } from '@paygrid/platform';

export const SECURITY_SCHEME = 'ApiKey';

export const SECURITY_SCHEMES = {
  [SECURITY_SCHEME]: {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'API key',
    description:
      "An API key as `Authorization: Bearer <key>`: a secret key (`sk_test_...`, `sk_live_...`) carries every scope the account's groupings allow, a restricted key (`rk_test_...`, `rk_live_...`) only its own list. The key fixes the mode: test keys see sandbox data only, live keys live data only. Keys are issued by the operator.",
  },
} as const;

const headerRef = (name: string): ReferenceObject => ({ $ref: `#/components/headers/${name}` });

export const HEADERS: Record<string, HeaderObject> = {
  'Request-Id': {
    description:
      'Identifies the request (also `request_id` in error bodies); quote it when asking the operator.',
    required: true,
    schema: {
      type: 'string',
      pattern: '^req_[0-9A-Za-z]{8,64}$',
      examples: ['req_4fQk2nT8bW1xZc9LmP0aRs7e'],
    },
  },
  'Idempotent-Replayed': {
    description:
      '`true` when this answer is the stored response to an earlier request with the same `Idempotency-Key`.',
    schema: { type: 'string', enum: ['true'] },
  },
  'RateLimit-Policy': {
    description:
      'The key\'s quota (draft-ietf-httpapi-ratelimit-headers): `"default";q=<requests>;w=1`, requests per second. Sent when the key is valid.',
    schema: { type: 'string', examples: ['"default";q=25;w=1'] },
  },
  RateLimit: {
    description:
      'What is left of the quota: `"default";r=<remaining>;t=<seconds until the next request is allowed>`. Sent when the key is valid.',
    schema: { type: 'string', examples: ['"default";r=24;t=1'] },
  },
  'Retry-After': {
    description: 'Seconds to wait before retrying.',
    required: true,
    schema: { type: 'integer', minimum: 1, examples: [1] },
  },
};

export const IDEMPOTENCY_KEY_PARAMETER = 'IdempotencyKey';

export const PARAMETERS: Record<string, ParameterObject> = {
  [IDEMPOTENCY_KEY_PARAMETER]: {
    name: 'Idempotency-Key',
    in: 'header',
    required: false,
    description:
      'Makes the POST safe to retry: the same key with the same request replays the first answer (`Idempotent-Replayed: true`); with another request it is 422 `idempotency_key_reused`; while the first still runs, 409 `idempotency_request_in_progress`. Scoped to the account and mode, kept 24 hours.',
    schema: { type: 'string', minLength: 1, maxLength: 255 },
  },
};

/** Headers of every response to a request whose key was valid. */
const RATE_LIMIT_HEADERS = {
  'RateLimit-Policy': headerRef('RateLimit-Policy'),
  RateLimit: headerRef('RateLimit'),
};

/** Headers of a success answer. */
export function successHeaders(method: string): Record<string, ReferenceObject> {
  return {
    'Request-Id': headerRef('Request-Id'),
    ...RATE_LIMIT_HEADERS,
    ...(method === 'post' ? { 'Idempotent-Replayed': headerRef('Idempotent-Replayed') } : {}),
  };
}

const REASONS: Record<number, string> = {
  400: 'Bad request',
  401: 'No valid API key',
  402: 'The payment failed',
  403: 'Not allowed',
  404: 'Not found',
  409: 'Conflict',
  413: 'Body over 1 MiB',
  415: 'Body is not JSON',
  422: 'Unprocessable',
  429: 'Too many requests',
  500: 'Internal error',
  503: 'Service unavailable',
  504: 'Gateway time-out',
};

/** The shared response for an error status: the envelope, the codes it may carry, the headers. */
export function errorResponse(status: number): ResponseObject {
  const codes = errorCodesFor(status)
    .map((code) => `\`${code}\``)
    .join(', ');
  const headers: Record<string, ReferenceObject> = {
    'Request-Id': headerRef('Request-Id'),
    // 401 means no valid key, so no quota to report.
    ...(status === 401 ? {} : RATE_LIMIT_HEADERS),
    ...(status === 429 ? { 'Retry-After': headerRef('Retry-After') } : {}),
  };
  const [first] = errorCodesFor(status) as (keyof typeof ERROR_CATALOGUE)[];
  return {
    description: `${REASONS[status] ?? 'Error'}: ${codes}.`,
    headers,
    content: {
      'application/json': {
        schema: schemaRef('ErrorEnvelope'),
        ...(first
          ? {
              examples: {
                [first]: {
                  value: {
                    error: {
                      type: ERROR_CATALOGUE[first].type,
                      code: first,
                      message: ERROR_CATALOGUE[first].description,
                      request_id: 'req_4fQk2nT8bW1xZc9LmP0aRs7e',
                    },
                  },
                },
              },
            }
          : {}),
      },
    },
  };
}

/** Error responses for the statuses `paths` refer to, by their component names. */
export function errorResponsesFor(statuses: Iterable<number>): Record<string, ResponseObject> {
  const responses: Record<string, ResponseObject> = {};
  for (const status of [...statuses].sort((a, b) => a - b)) {
    const name = ERROR_RESPONSE_NAMES[status];
    if (name) responses[name] = errorResponse(status);
  }
  return responses;
}

export const ERROR_ENVELOPE: Record<string, JsonSchema> = { ErrorEnvelope: API_SCHEMAS.ErrorEnvelope };

export const API_DESCRIPTION = [
  "One REST API for payments and invoicing. JSON in and out, snake_case fields, amounts as integers in the currency's minor unit.",
  '',
  '- **Authentication**: every `/v1` request carries `Authorization: Bearer <key>`. Each operation lists the scope it needs (`x-required-scope`) and the groupings that reach it (`x-groupings`).',
  '- **Errors** come back in one envelope, `{ "error": { "type", "code", "message", "param", "request_id" } }`, with a code from one closed catalogue.',
  '- **Lists** are cursor-paginated (`limit`, `starting_after`, `ending_before`), newest first, and filter on `created[gt|gte|lt|lte]`.',
  '- **Idempotency**: every POST accepts an `Idempotency-Key` header.',
  '- **Rate limits** are per key; every answer to a valid key carries `RateLimit-Policy` and `RateLimit`, a 429 also `Retry-After`.',
  '- **Sandbox**: test keys reach sandbox data only, on the same base URL.',
].join('\n');
