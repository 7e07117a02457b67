import {
  BadRequestException,
  ForbiddenException,
  HttpException,
  InternalServerErrorException,
  MethodNotAllowedException,
  NotFoundException,
  UnauthorizedException,
} from '@nestjs/common';
import { ERROR_CATALOGUE, ERROR_CODES } from '@paygrid/contracts';
import {
  ApiError,
  isRetryableTransactionError,
  notFound,
  pgCode,
  pgConstraint,
  translateDbError,
} from './errors';
import { toApiError } from './http/exception-filter';

describe('ApiError', () => {
  it.each(ERROR_CODES)('takes the status of %s from the catalogue', (code) => {
    const error = new ApiError(code, 'msg');
    expect(error.status).toBe(ERROR_CATALOGUE[code].status);
    expect(error).toBeInstanceOf(Error);
    expect(error.message).toBe('msg');
  });

  it('has the documented statuses for a few codes', () => {
    expect(new ApiError('parameter_invalid', 'x').status).toBe(400);
    expect(new ApiError('invalid_api_key', 'x').status).toBe(401);
    expect(new ApiError('card_declined', 'x').status).toBe(402);
    expect(new ApiError('resource_missing', 'x').status).toBe(404);
    expect(new ApiError('resource_busy', 'x').status).toBe(409);
    expect(new ApiError('rate_limited', 'x').status).toBe(429);
    expect(new ApiError('internal_error', 'x').status).toBe(500);
  });

  it('builds the envelope without param when it is undefined', () => {
    const envelope = new ApiError('invalid_json', 'The request body is not valid JSON.').toEnvelope(
      'req_abcdefgh12',
    );
    expect(envelope).toEqual({
      error: {
        type: 'invalid_request_error',
        code: 'invalid_json',
        message: 'The request body is not valid JSON.',
        request_id: 'req_abcdefgh12',
      },
    });
    expect(Object.keys(envelope.error)).not.toContain('param');
    expect(Object.keys(envelope.error)).not.toContain('decline_code');
  });

  it('includes param when given', () => {
    const envelope = new ApiError(
      'parameter_missing',
      'Missing required param: amount.',
      'amount',
    ).toEnvelope('req_1');
    expect(envelope).toEqual({
      error: {
        type: 'invalid_request_error',
        code: 'parameter_missing',
        message: 'Missing required param: amount.',
        param: 'amount',
        request_id: 'req_1',
      },
    });
  });

  it('includes decline_code for payment errors, but never the extra headers', () => {
    const error = new ApiError('card_declined', 'The card was declined.', undefined, {
      decline_code: 'do_not_honor',
      headers: { 'retry-after': '1' },
    });
    expect(error.toEnvelope('req_2')).toEqual({
      error: {
        type: 'payment_error',
        code: 'card_declined',
        message: 'The card was declined.',
        decline_code: 'do_not_honor',
        request_id: 'req_2',
      },
    });
  });

  it('notFound names the object and the id parameter', () => {
    const error = notFound('customer', 'cus_12345678');
    expect(error.code).toBe('resource_missing');
    expect(error.status).toBe(404);
    expect(error.param).toBe('id');
    expect(error.message).toBe("No such customer: 'cus_12345678'");
    expect(notFound('customer', 'cus_1', 'customer').param).toBe('customer');
  });
});

describe('pgCode / pgConstraint', () => {
  it('reads the SQLSTATE directly or from driverError', () => {
    expect(pgCode({ code: '23505' })).toBe('23505');
    expect(pgCode({ driverError: { code: '40001' } })).toBe('40001');
    expect(pgCode(new Error('x'))).toBeUndefined();
    expect(pgCode(null)).toBeUndefined();
    expect(pgCode('23505')).toBeUndefined();
    expect(pgConstraint({ constraint: 'customers_email_key' })).toBe('customers_email_key');
    expect(pgConstraint({ driverError: { constraint: 'c2' } })).toBe('c2');
    expect(pgConstraint({})).toBeUndefined();
  });

  it('only serialization failures and deadlocks are retryable', () => {
    expect(isRetryableTransactionError({ code: '40001' })).toBe(true);
    expect(isRetryableTransactionError({ driverError: { code: '40P01' } })).toBe(true);
    expect(isRetryableTransactionError({ code: '55P03' })).toBe(false);
    expect(isRetryableTransactionError({ code: '23505' })).toBe(false);
  });
});

describe('translateDbError', () => {
  function pgError(code: string): Error & { code: string } {
    return Object.assign(new Error(`duplicate key value violates unique constraint (secret detail)`), {
      code,
    });
  }

  it('maps a unique violation (23505) to resource_conflict', () => {
    const translated = translateDbError(pgError('23505'));
    expect(translated).toBeInstanceOf(ApiError);
    expect((translated as ApiError).code).toBe('resource_conflict');
    expect((translated as ApiError).status).toBe(409);
    expect((translated as ApiError).message).not.toContain('secret detail');
  });

  it.each(['40001', '40P01', '55P03'])('maps %s to resource_busy', (code) => {
    const translated = translateDbError(pgError(code));
    expect(translated).toBeInstanceOf(ApiError);
    expect((translated as ApiError).code).toBe('resource_busy');
    expect((translated as ApiError).status).toBe(409);
  });

  it.each([
    ['23505', 'resource_conflict'],
    ['40001', 'resource_busy'],
    ['40P01', 'resource_busy'],
    ['55P03', 'resource_busy'],
  ])('maps %s nested as driverError.code (TypeORM QueryFailedError) to %s', (code, expected) => {
    const queryFailed = Object.assign(new Error('query failed'), { driverError: { code } });
    const translated = translateDbError(queryFailed);
    expect(translated).toBeInstanceOf(ApiError);
    expect((translated as ApiError).code).toBe(expected);
  });

  it('returns other errors unchanged (same object)', () => {
    for (const error of [
      pgError('23503'),
      pgError('23514'),
      pgError('42P01'),
      Object.assign(new Error('x'), { driverError: { code: '42601' } }),
      new Error('plain'),
      new TypeError('boom'),
    ]) {
      expect(translateDbError(error)).toBe(error);
    }
    expect(translateDbError('a string')).toBe('a string');
    expect(translateDbError(null)).toBeNull();
    expect(translateDbError(undefined)).toBeUndefined();
  });

  it('passes an ApiError through untouched', () => {
    const error = new ApiError('card_declined', 'declined');
    expect(translateDbError(error)).toBe(error);
  });
});

describe('toApiError', () => {
  it('maps a Nest NotFoundException to route_not_found', () => {
    const { error, unexpected } = toApiError(new NotFoundException('Cannot GET /v1/nope'));
    expect(error.code).toBe('route_not_found');
    expect(error.status).toBe(404);
    expect(error.message).toBe('Unrecognized request URL.');
    expect(unexpected).toBe(false);
  });

  it('maps a 405 to route_not_found as well', () => {
    expect(toApiError(new MethodNotAllowedException()).error.code).toBe('route_not_found');
  });

  it('maps other known HTTP statuses to their catalogue code', () => {
    expect(toApiError(new BadRequestException('bad')).error.code).toBe('parameter_invalid');
    expect(toApiError(new UnauthorizedException()).error.code).toBe('authentication_required');
    expect(toApiError(new ForbiddenException()).error.code).toBe('insufficient_scope');
    expect(toApiError(new HttpException('slow down', 429)).error.code).toBe('rate_limited');
    expect(toApiError(new HttpException('too big', 413)).error.code).toBe('payload_too_large');
  });

  it('maps an arbitrary Error to internal_error without leaking its message', () => {
    const original = new Error('connect ECONNREFUSED 10.0.0.5:5432 password=hunter2');
    const { error, unexpected } = toApiError(original);
    expect(error.code).toBe('internal_error');
    expect(error.status).toBe(500);
    expect(unexpected).toBe(true);
    expect(error.message).toBe('An unexpected error occurred.');
    const body = JSON.stringify(error.toEnvelope('req_x'));
    expect(body).not.toContain('hunter2');
    expect(body).not.toContain('ECONNREFUSED');
    expect(body).not.toContain('10.0.0.5');
  });

  it('does not leak the message of a 5xx HttpException either', () => {
    const { error, unexpected } = toApiError(new InternalServerErrorException('stack: at db.ts:42 secret'));
    expect(error.code).toBe('internal_error');
    expect(unexpected).toBe(true);
    expect(error.message).not.toContain('secret');
  });

  it('maps non-Error throwables to internal_error', () => {
    for (const thrown of ['boom', 42, null, undefined, { some: 'object' }]) {
      const { error, unexpected } = toApiError(thrown);
      expect(error.code).toBe('internal_error');
      expect(unexpected).toBe(true);
    }
  });

  it('passes an ApiError through and translates database errors', () => {
    const apiError = new ApiError('card_declined', 'declined', undefined, {
      decline_code: 'generic_decline',
    });
    expect(toApiError(apiError)).toEqual({ error: apiError, unexpected: false });
    const conflict = toApiError(Object.assign(new Error('dup'), { code: '23505' }));
    expect(conflict.error.code).toBe('resource_conflict');
    expect(conflict.unexpected).toBe(false);
    const busy = toApiError(Object.assign(new Error('q'), { driverError: { code: '40P01' } }));
    expect(busy.error.code).toBe('resource_busy');
  });

  it('maps Fastify body errors', () => {
    const fst = (code: string) => Object.assign(new Error('fastify says no'), { code });
    expect(toApiError(fst('FST_ERR_CTP_INVALID_JSON_BODY')).error.code).toBe('invalid_json');
    expect(toApiError(fst('FST_ERR_CTP_EMPTY_JSON_BODY')).error.code).toBe('invalid_json');
    expect(toApiError(fst('FST_ERR_CTP_BODY_TOO_LARGE')).error.code).toBe('payload_too_large');
    expect(toApiError(fst('FST_ERR_CTP_INVALID_MEDIA_TYPE')).error.code).toBe('unsupported_media_type');
    expect(toApiError(fst('FST_ERR_CTP_INVALID_CONTENT_LENGTH')).error.code).toBe('unsupported_media_type');
    for (const code of ['FST_ERR_CTP_INVALID_JSON_BODY', 'FST_ERR_CTP_BODY_TOO_LARGE']) {
      expect(toApiError(fst(code)).unexpected).toBe(false);
      expect(toApiError(fst(code)).error.message).not.toContain('fastify says no');
    }
  });
});
