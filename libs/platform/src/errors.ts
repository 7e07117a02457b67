// ApiError carries a catalogue code; the exception filter turns it into the envelope.
// Driver errors are translated here, in one place, so handlers never see them.

import { ERROR_CATALOGUE, type ErrorCode, type ErrorEnvelope } from '@paygrid/contracts';

export class ApiError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly param?: string,
    readonly extra: { decline_code?: string; headers?: Record<string, string> } = {},
  ) {
    super(message);
    this.status = ERROR_CATALOGUE[code].status;
  }

  toEnvelope(requestId: string): ErrorEnvelope {
    return {
      error: {
        type: ERROR_CATALOGUE[this.code].type,
        code: this.code,
        message: this.message,
        ...(this.param !== undefined ? { param: this.param } : {}),
        ...(this.extra.decline_code !== undefined ? { decline_code: this.extra.decline_code } : {}),
        request_id: requestId,
      },
    };
  }
}

export const notFound = (what: string, id: string, param = 'id'): ApiError =>
  new ApiError('resource_missing', `No such ${what}: '${id}'`, param);

/** Postgres SQLSTATE codes the code base reacts to. */
export const PG = {
  uniqueViolation: '23505',
  foreignKeyViolation: '23503',
  checkViolation: '23514',
  serializationFailure: '40001',
  deadlockDetected: '40P01',
  lockNotAvailable: '55P03',
  /** Text the database cannot hold: U+0000 in a text parameter ... */
  characterNotInRepertoire: '22021',
  /** ... or in JSON stored as jsonb. */
  untranslatableCharacter: '22P05',
} as const;

export function pgCode(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const direct = (error as { code?: unknown }).code;
  if (typeof direct === 'string') return direct;
  const driverError = (error as { driverError?: { code?: unknown } }).driverError;
  return typeof driverError?.code === 'string' ? driverError.code : undefined;
}

export function pgConstraint(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const e = error as { constraint?: unknown; driverError?: { constraint?: unknown } };
  const c = e.constraint ?? e.driverError?.constraint;
  return typeof c === 'string' ? c : undefined;
}

/** True for errors a transaction should simply be retried after. */
export function isRetryableTransactionError(error: unknown): boolean {
  const code = pgCode(error);
  return code === PG.serializationFailure || code === PG.deadlockDetected;
}

/**
 * Maps driver errors that a client can cause to catalogue errors; everything else is
 * returned unchanged (and becomes a logged 500).
 */
export function translateDbError(error: unknown): unknown {
  if (error instanceof ApiError) return error;
  const code = pgCode(error);
  if (code === PG.lockNotAvailable || isRetryableTransactionError(error)) {
    return new ApiError('resource_busy', 'The object is being changed by another request; retry shortly.');
  }
  if (code === PG.characterNotInRepertoire || code === PG.untranslatableCharacter) {
    return new ApiError(
      'parameter_invalid',
      'A parameter contains a character that cannot be stored (U+0000).',
    );
  }
  if (code === PG.uniqueViolation) {
    return new ApiError('resource_conflict', 'An object with these unique values already exists.');
  }
  return error;
}
