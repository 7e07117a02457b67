// The operator's API (`/admin/v1`) is authenticated by the operator token alone.

import { Inject, Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { ApiError } from '@paygrid/platform';
import { timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';

export const OPERATOR_TOKEN = Symbol('OPERATOR_TOKEN');

@Injectable()
export class OperatorGuard implements CanActivate {
  constructor(@Inject(OPERATOR_TOKEN) private readonly token: string) {}

  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    const header = request.headers.authorization;
    const match = typeof header === 'string' ? /^Bearer (.+)$/.exec(header) : null;
    if (!match)
      throw new ApiError(
        'authentication_required',
        'The admin API needs Authorization: Bearer <OPERATOR_TOKEN>.',
      );
    const given = Buffer.from(match[1]);
    const expected = Buffer.from(this.token);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
      throw new ApiError('invalid_api_key', 'Invalid operator token.');
    }
    return true;
  }
}
