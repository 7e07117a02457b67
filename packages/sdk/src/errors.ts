// The API's error envelope (docs/errors.md) as an exception a caller can branch on by `code`.

import type { ErrorCode, ErrorEnvelope, ErrorType } from './types.js';

/** An answer of the API that is not a success: the envelope's fields, typed. */
export class PaygridError extends Error {
  override readonly name = 'PaygridError';
  readonly status: number;
  readonly type: ErrorType;
  readonly code: ErrorCode;
  /** The request field the error is about, when there is one. */
  readonly param?: string;
  /** Quote it to the operator: it identifies the request in their logs. */
  readonly requestId: string;

  constructor(status: number, envelope: ErrorEnvelope) {
    super(envelope.error.message);
    this.status = status;
    this.type = envelope.error.type;
    this.code = envelope.error.code;
    if (envelope.error.param !== undefined) this.param = envelope.error.param;
    this.requestId = envelope.error.request_id;
  }

  /** Narrows an unknown error to a PaygridError, optionally of one code. */
  static is(error: unknown, code?: ErrorCode): error is PaygridError {
    return error instanceof PaygridError && (code === undefined || error.code === code);
  }
}

/**
 * An answer that is not the API's (a proxy's HTML page, a cut connection after the retries):
 * there is no envelope to type.
 */
export class PaygridConnectionError extends Error {
  override readonly name = 'PaygridConnectionError';
  constructor(
    message: string,
    readonly status?: number,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

export function isErrorEnvelope(body: unknown): body is ErrorEnvelope {
  const error = (body as { error?: { code?: unknown; message?: unknown } } | null)?.error;
  return typeof error?.code === 'string' && typeof error.message === 'string';
}
