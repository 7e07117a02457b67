// HTTP only: validate, call the service, serialise. POST /v1/refunds calls the processor, so
// it opts out of the request-wide idempotency transaction (@OwnIdempotency) and keeps the
// Idempotency-Key on the refund row itself, written in tx1 with the reservation.

import { Body, Controller, Get, Headers, HttpCode, Inject, Param, Post, Query, Res } from '@nestjs/common';
import type { AuthenticatedContext } from '@paygrid/contracts';
import {
  ApiError,
  Caller,
  ListQuery,
  Operation,
  OwnIdempotency,
  RequireScope,
  requestFingerprint,
  tenantOf,
  listOf,
} from '@paygrid/platform';
import type { FastifyReply } from 'fastify';
import { CreateRefundDto } from './refunds.dto';
import { RefundsService, serializeRefund } from './refunds.service';

@Controller('v1/refunds')
export class RefundsController {
  constructor(@Inject(RefundsService) private readonly refunds: RefundsService) {}

  @Post()
  @HttpCode(200)
  @RequireScope('refunds:write')
  @OwnIdempotency()
  @Operation({
    summary: 'Refund a payment',
    description:
      'Refunds all or part of a succeeded payment; several refunds per payment are allowed. The sum of refunds that have not failed never exceeds the payment, even under concurrent requests (422 `refund_exceeds_remaining`). The refund is also a `refund` transaction.',
    response: 'Refund',
    errors: [
      'resource_missing',
      'transaction_not_refundable',
      'refund_exceeds_remaining',
      'processor_not_configured',
    ],
  })
  async create(
    @Caller() caller: AuthenticatedContext,
    @Body() body: CreateRefundDto,
    @Headers('idempotency-key') key: string | undefined,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    if (key !== undefined && (key.length === 0 || key.length > 255)) {
      throw new ApiError(
        'parameter_invalid',
        'Idempotency-Key must be 1 to 255 characters.',
        'Idempotency-Key',
      );
    }
    const idempotency =
      key === undefined
        ? undefined
        : { key, fingerprint: requestFingerprint('POST', '/v1/refunds', { ...body }) };
    const { refund, replayed } = await this.refunds.create(tenantOf(caller), body, idempotency);
    if (replayed) void reply.header('idempotent-replayed', 'true');
    return serializeRefund(refund);
  }

  @Get()
  @RequireScope('refunds:read')
  @Operation({ summary: 'List refunds', description: 'Newest first.', response: 'RefundList' })
  async list(@Caller() caller: AuthenticatedContext, @Query() query: ListQuery) {
    const page = await this.refunds.list(tenantOf(caller), query);
    return listOf(page, serializeRefund);
  }

  @Get(':id')
  @RequireScope('refunds:read')
  @Operation({ summary: 'Retrieve a refund', description: 'The refund and its status.', response: 'Refund' })
  async get(@Caller() caller: AuthenticatedContext, @Param('id') id: string) {
    return serializeRefund(await this.refunds.get(tenantOf(caller), id));
  }
}
