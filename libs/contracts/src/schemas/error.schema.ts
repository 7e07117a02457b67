// The error envelope of docs/api.md §3 as a JSON Schema, from the one catalogue, and the
// names under which the OpenAPI document keeps one response per error status.

import { ERROR_CATALOGUE, ERROR_CODES } from '../errors';
import type { JsonSchema } from './json-schema';

const ERROR_TYPES = [...new Set(Object.values(ERROR_CATALOGUE).map((spec) => spec.type))];

export const ErrorEnvelopeSchema: JsonSchema = {
  type: 'object',
  description: 'Every error answer: one envelope, one closed catalogue of codes (docs/errors.md).',
  required: ['error'],
  additionalProperties: false,
  properties: {
    error: {
      type: 'object',
      required: ['type', 'code', 'message', 'request_id'],
      additionalProperties: false,
      properties: {
        type: { type: 'string', enum: ERROR_TYPES },
        code: { type: 'string', enum: ERROR_CODES },
        message: { type: 'string', description: 'For humans; may change. Match on `code`.' },
        param: { type: 'string', description: 'The parameter at fault, nested ones as `created[gt]`.' },
        decline_code: { type: 'string', description: "The processor's reason, on payment errors." },
        request_id: { type: 'string', pattern: '^req_[0-9A-Za-z]{8,64}$' },
      },
    },
  },
  examples: [
    {
      error: {
        type: 'invalid_request_error',
        code: 'parameter_unknown',
        message: 'Received unknown parameter: nickname',
        param: 'nickname',
        request_id: 'req_4fQk2nT8bW1xZc9LmP0aRs7e',
      },
    },
  ],
};

/** The component name of the shared response for each error status. */
export const ERROR_RESPONSE_NAMES: Readonly<Record<number, string>> = {
  400: 'BadRequest',
  401: 'Unauthorized',
  402: 'PaymentFailed',
  403: 'Forbidden',
  404: 'NotFound',
  405: 'MethodNotAllowed',
  409: 'Conflict',
  413: 'PayloadTooLarge',
  415: 'UnsupportedMediaType',
  422: 'UnprocessableContent',
  429: 'TooManyRequests',
  500: 'InternalError',
  503: 'ServiceUnavailable',
  504: 'GatewayTimeout',
};

export const errorResponseRef = (status: number): { $ref: string } => {
  const name = ERROR_RESPONSE_NAMES[status];
  if (!name) throw new Error(`no shared error response for HTTP ${status}`);
  return { $ref: `#/components/responses/${name}` };
};

/** Codes of the catalogue answered with `status`, in catalogue order. */
export const errorCodesFor = (status: number): string[] =>
  ERROR_CODES.filter((code) => ERROR_CATALOGUE[code].status === status);
