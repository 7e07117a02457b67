// The operator's processor connections (docs/api.md Part 2): connect a processor for an account
// in either mode, and re-seal every connection's credentials under the current key after a
// key rotation. Connections belong to the payments service; this forwards there and relays
// its answer (status and body, errors included) unchanged.

import { Body, Controller, HttpCode, Inject, Param, Post, Req, Res, UseGuards } from '@nestjs/common';
import { Public, requestIdOf } from '@paygrid/platform';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AccountsService } from '../accounts/accounts.service';
import type { UpstreamResponse } from '../routing/upstream';
import { OperatorGuard } from './admin.guard';
import { AdminProcessorConnectionDto } from './admin.dto';
import { OperatorForwarder } from './operator-forwarder';

@Controller('admin/v1')
@Public({ bypassGateway: true })
@UseGuards(OperatorGuard)
export class ProcessorConnectionsAdminController {
  constructor(
    @Inject(OperatorForwarder) private readonly forwarder: OperatorForwarder,
    @Inject(AccountsService) private readonly accounts: AccountsService,
  ) {}

  @Post('accounts/:id/processor-connections')
  @HttpCode(200)
  async create(
    @Param('id') id: string,
    @Body() body: AdminProcessorConnectionDto,
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const account = await this.accounts.getAccount(id);
    const response = await this.forwarder.post(
      'payments',
      '/internal/processor-connections',
      { ...body, account: account.id },
      requestIdOf(request),
    );
    await relay(response, reply);
  }

  @Post('processor-connections/reencrypt')
  @HttpCode(200)
  async reencrypt(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    const response = await this.forwarder.post(
      'payments',
      '/internal/processor-connections/reencrypt',
      {},
      requestIdOf(request),
    );
    await relay(response, reply);
  }
}

async function relay(response: UpstreamResponse, reply: FastifyReply): Promise<void> {
  const contentType = response.headers['content-type'];
  if (contentType !== undefined) void reply.header('content-type', contentType);
  await reply.status(response.status).send(response.body);
}
