// Every error leaves as the envelope of docs/api.md §3. Unknown errors become a generic
// 500 and are logged with their stack; nothing internal reaches the client.

import { Catch, HttpException, type ArgumentsHost, type ExceptionFilter } from '@nestjs/common';
import type { ErrorCode } from '@paygrid/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiError, translateDbError } from '../errors';
import { newId } from '../ids';
import type { Logger } from '../logging';
import { registeredRoutes } from '../openapi/registered-routes';
import type { RequestWithContext } from './context';

const STATUS_CODES: Record<number, ErrorCode> = {
  400: 'parameter_invalid',
  401: 'authentication_required',
  403: 'insufficient_scope',
  404: 'route_not_found',
  405: 'route_not_found',
  409: 'resource_busy',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
  429: 'rate_limited',
};

/** Turns anything thrown into an ApiError (plus whether it was unexpected). */
export function toApiError(exception: unknown): { error: ApiError; unexpected: boolean } {
  const translated = translateDbError(exception);
  if (translated instanceof ApiError) return { error: translated, unexpected: false };
  if (translated instanceof HttpException) {
    const code = STATUS_CODES[translated.getStatus()];
    if (code === 'route_not_found')
      return { error: new ApiError(code, 'Unrecognized request URL.'), unexpected: false };
    if (code) return { error: new ApiError(code, translated.message), unexpected: false };
  }
  const fastifyError = translated as { statusCode?: number; code?: string };
  if (fastifyError?.code === 'FST_ERR_CTP_INVALID_JSON_BODY') {
    return { error: new ApiError('invalid_json', 'The request body is not valid JSON.'), unexpected: false };
  }
  if (fastifyError?.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
    return { error: new ApiError('payload_too_large', 'The request body exceeds 1 MiB.'), unexpected: false };
  }
  if (
    fastifyError?.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE' ||
    fastifyError?.code === 'FST_ERR_CTP_INVALID_CONTENT_LENGTH'
  ) {
    return {
      error: new ApiError('unsupported_media_type', 'Request bodies must be application/json.'),
      unexpected: false,
    };
  }
  if (fastifyError?.code === 'FST_ERR_CTP_EMPTY_JSON_BODY') {
    return {
      error: new ApiError('invalid_json', 'The request body is empty but declared as JSON.'),
      unexpected: false,
    };
  }
  return { error: new ApiError('internal_error', 'An unexpected error occurred.'), unexpected: true };
}

export function requestIdOf(request: FastifyRequest & RequestWithContext): string {
  if (!request.requestId) {
    const header = request.headers['request-id'];
    request.requestId =
      typeof header === 'string' && /^req_[0-9A-Za-z]{8,64}$/.test(header) ? header : newId('req');
  }
  return request.requestId;
}

export function sendError(reply: FastifyReply, request: FastifyRequest, error: ApiError): void {
  const requestId = requestIdOf(request);
  for (const [name, value] of Object.entries(error.extra.headers ?? {})) void reply.header(name, value);
  void reply.header('request-id', requestId).status(error.status).send(error.toEnvelope(requestId));
}

@Catch()
export class ApiExceptionFilter implements ExceptionFilter {
  constructor(private readonly logger: Logger) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const request = http.getRequest<FastifyRequest & RequestWithContext>();
    const reply = http.getResponse<FastifyReply>();
    const { error, unexpected } = toApiError(exception);
    if (unexpected) {
      this.logger.error(
        { err: exception, request_id: requestIdOf(request), url: request.url },
        'unhandled error',
      );
    }
    sendError(reply, request, methodNotAllowed(request, error) ?? error);
  }
}

/**
 * A 404 for a path that the service does serve with other methods is a 405 that names them
 * (`Allow`), so a client that sent DELETE to a list URL learns what it can send instead.
 */
function methodNotAllowed(request: FastifyRequest, error: ApiError): ApiError | undefined {
  if (error.code !== 'route_not_found') return undefined;
  const path = request.url.split('?')[0];
  const allowed = new Set<string>();
  for (const route of registeredRoutes(request.server)) {
    const [method, template] = route.split(' ');
    const pattern = new RegExp(
      `^${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{\w+\}/g, '[^/]+')}$`,
    );
    if (pattern.test(path)) allowed.add(method);
  }
  if (!allowed.size || allowed.has(request.method)) return undefined;
  const allow = [...allowed].sort().join(', ');
  return new ApiError(
    'method_not_allowed',
    `${request.method} is not allowed on this URL; it takes ${allow}.`,
    undefined,
    { headers: { allow } },
  );
}
