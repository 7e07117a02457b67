// The one closed catalogue of public error codes (docs/api.md §3). Every error the API
// answers with comes from here; docs/errors.md and the OpenAPI document are checked against it.

export type ErrorType =
  | 'invalid_request_error'
  | 'authentication_error'
  | 'payment_error'
  | 'permission_error'
  | 'idempotency_error'
  | 'rate_limit_error'
  | 'api_error';

export interface ErrorSpec {
  readonly status: number;
  readonly type: ErrorType;
  readonly description: string;
}

export const ERROR_CATALOGUE = {
  parameter_missing: {
    status: 400,
    type: 'invalid_request_error',
    description: 'A required parameter is missing.',
  },
  parameter_invalid: {
    status: 400,
    type: 'invalid_request_error',
    description: 'A parameter has an invalid value or type.',
  },
  parameter_unknown: {
    status: 400,
    type: 'invalid_request_error',
    description: 'The request contains a parameter the endpoint does not accept.',
  },
  invalid_json: {
    status: 400,
    type: 'invalid_request_error',
    description: 'The request body is not valid JSON.',
  },
  currency_unsupported: {
    status: 400,
    type: 'invalid_request_error',
    description: 'The currency is not a supported ISO 4217 code.',
  },
  test_mode_only: {
    status: 400,
    type: 'invalid_request_error',
    description: 'The operation exists in test mode only (test clocks); use a test key.',
  },
  webhook_signature_invalid: {
    status: 400,
    type: 'invalid_request_error',
    description:
      "A processor webhook whose signature does not verify with its connection's signing secret (or is older than 5 minutes), or that names no connection.",
  },
  authentication_required: {
    status: 401,
    type: 'authentication_error',
    description: 'No API key was provided, or the Authorization header is malformed.',
  },
  invalid_api_key: {
    status: 401,
    type: 'authentication_error',
    description: 'The API key is unknown, revoked or expired.',
  },
  card_declined: { status: 402, type: 'payment_error', description: 'The card was declined.' },
  insufficient_funds: { status: 402, type: 'payment_error', description: 'The card has insufficient funds.' },
  expired_card: { status: 402, type: 'payment_error', description: 'The card has expired.' },
  processing_error: {
    status: 402,
    type: 'payment_error',
    description: 'The processor could not complete the payment.',
  },
  insufficient_scope: {
    status: 403,
    type: 'permission_error',
    description: 'The API key lacks the scope the operation needs; the message names it.',
  },
  grouping_not_enabled: {
    status: 403,
    type: 'permission_error',
    description: "The endpoint belongs to a grouping the account doesn't have.",
  },
  account_suspended: {
    status: 403,
    type: 'permission_error',
    description: 'The account is suspended by the operator.',
  },
  resource_missing: {
    status: 404,
    type: 'invalid_request_error',
    description: 'No such object in this account and mode.',
  },
  route_not_found: { status: 404, type: 'invalid_request_error', description: 'No such route.' },
  method_not_allowed: {
    status: 405,
    type: 'invalid_request_error',
    description: 'The URL exists but not with this HTTP method; the Allow header lists the methods it takes.',
  },
  service_not_installed: {
    status: 404,
    type: 'invalid_request_error',
    description:
      'This installation does not include the service behind this URL (a payments-only or invoicing-only deployment).',
  },
  invalid_state_transition: {
    status: 409,
    type: 'invalid_request_error',
    description: 'The object is not in a state that allows this action.',
  },
  invoice_incomplete: {
    status: 409,
    type: 'invalid_request_error',
    description:
      'The invoice lacks details an EN 16931 e-invoice needs (a number, the seller or customer country, address or VAT number); the message names them.',
  },
  transaction_not_refundable: {
    status: 409,
    type: 'invalid_request_error',
    description: 'Only succeeded payments can be refunded.',
  },
  merchant_not_active: {
    status: 409,
    type: 'invalid_request_error',
    description: 'Live payments need a merchant whose onboarding is active.',
  },
  processor_not_configured: {
    status: 409,
    type: 'invalid_request_error',
    description:
      'Live payments need a payment processor connected to the account; until then every live charge, stored-card charge and refund is refused and nothing is recorded.',
  },
  processor_secrets_unavailable: {
    status: 409,
    type: 'invalid_request_error',
    description:
      'This installation cannot store processor credentials: the operator has not configured PROCESSOR_SECRETS_KEYS.',
  },
  idempotency_request_in_progress: {
    status: 409,
    type: 'idempotency_error',
    description: 'A request with this Idempotency-Key is still being processed.',
  },
  resource_busy: {
    status: 409,
    type: 'invalid_request_error',
    description: 'The object is being changed by another request; retry shortly.',
  },
  resource_conflict: {
    status: 409,
    type: 'invalid_request_error',
    description: 'The request conflicts with an existing object (for example a duplicate unique field).',
  },
  payload_too_large: {
    status: 413,
    type: 'invalid_request_error',
    description: 'The request body exceeds 1 MiB.',
  },
  unsupported_media_type: {
    status: 415,
    type: 'invalid_request_error',
    description: 'Request bodies must be application/json.',
  },
  refund_exceeds_remaining: {
    status: 422,
    type: 'invalid_request_error',
    description: 'The refund amount exceeds what remains refundable on the payment.',
  },
  idempotency_key_reused: {
    status: 422,
    type: 'idempotency_error',
    description: 'This Idempotency-Key was used with a different request.',
  },
  rate_limited: { status: 429, type: 'rate_limit_error', description: 'Too many requests; see Retry-After.' },
  internal_error: {
    status: 500,
    type: 'api_error',
    description: 'An unexpected error on our side; nothing internal is disclosed.',
  },
  upstream_unavailable: {
    status: 503,
    type: 'api_error',
    description: 'The service that owns this route is not reachable.',
  },
  upstream_timeout: {
    status: 504,
    type: 'api_error',
    description: 'The service that owns this route did not answer within 30 s.',
  },
} as const satisfies Record<string, ErrorSpec>;

export type ErrorCode = keyof typeof ERROR_CATALOGUE;

export const ERROR_CODES = Object.keys(ERROR_CATALOGUE) as ErrorCode[];

export function isErrorCode(value: string): value is ErrorCode {
  return Object.prototype.hasOwnProperty.call(ERROR_CATALOGUE, value);
}

/** The body of every error response. */
export interface ErrorEnvelope {
  error: {
    type: ErrorType;
    code: ErrorCode;
    message: string;
    param?: string;
    decline_code?: string;
    request_id: string;
  };
}
