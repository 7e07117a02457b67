// The operator's onboarding decisions (docs/api.md §2 and §5): approve, reject, restrict.
// Merchants belong to the payments service; this forwards the decision there and relays its
// answer (status and body, errors included) unchanged.

import { Body, Controller, HttpCode, Inject, Param, Post, Req, Res, UseGuards } from '@nestjs/common';
import { Public, requestIdOf } from '@paygrid/platform';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { OperatorGuard } from './admin.guard';
import { MerchantDecisionBodyDto } from './admin.dto';
import { OperatorForwarder } from './operator-forwarder';

type Decision = 'approve' | 'reject' | 'restrict';

@Controller('admin/v1/merchants')
@Public({ bypassGateway: true })
@UseGuards(OperatorGuard)
export class MerchantDecisionsController {
  constructor(@Inject(OperatorForwarder) private readonly forwarder: OperatorForwarder) {}

  @Post(':id/approve')
  @HttpCode(200)
  approve(
    @Param('id') id: string,
    @Body() body: MerchantDecisionBodyDto,
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
  ) {
    return this.decide('approve', id, body, request, reply);
  }

  @Post(':id/reject')
  @HttpCode(200)
  reject(
    @Param('id') id: string,
    @Body() body: MerchantDecisionBodyDto,
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
  ) {
    return this.decide('reject', id, body, request, reply);
  }

  @Post(':id/restrict')
  @HttpCode(200)
  restrict(
    @Param('id') id: string,
    @Body() body: MerchantDecisionBodyDto,
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
  ) {
    return this.decide('restrict', id, body, request, reply);
  }

  private async decide(
    decision: Decision,
    id: string,
    body: MerchantDecisionBodyDto,
    request: FastifyRequest,
    reply: FastifyReply,
  ): Promise<void> {
    const response = await this.forwarder.post(
      'payments',
      `/internal/merchants/${encodeURIComponent(id)}/decision`,
      { decision, ...(body.reason !== undefined ? { reason: body.reason } : {}) },
      requestIdOf(request),
    );
    const contentType = response.headers['content-type'];
    if (contentType !== undefined) void reply.header('content-type', contentType);
    await reply.status(response.status).send(response.body);
  }
}
