// The operator's view of an account's business profile (docs/api.md §2 and §5). The profile
// belongs to the invoicing service (docs/adr/0011): this checks the account exists here,
// forwards with a signed operator context, and relays invoicing's answer (errors included).

import { Body, Controller, Get, HttpCode, Inject, Param, Post, Req, Res, UseGuards } from '@nestjs/common';
import type { ServiceName } from '@paygrid/contracts';
import { ApiError, Public, requestIdOf } from '@paygrid/platform';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AccountsService } from '../accounts/accounts.service';
import { INSTALLED_SERVICES } from '../tokens';
import type { UpstreamResponse } from '../routing/upstream';
import { OperatorGuard } from './admin.guard';
import { OperatorForwarder } from './operator-forwarder';

@Controller('admin/v1/accounts')
@Public({ bypassGateway: true })
@UseGuards(OperatorGuard)
export class AccountProfilesAdminController {
  constructor(
    @Inject(AccountsService) private readonly accounts: AccountsService,
    @Inject(OperatorForwarder) private readonly forwarder: OperatorForwarder,
    @Inject(INSTALLED_SERVICES) private readonly services: readonly ServiceName[],
  ) {}

  @Get(':id/profile')
  async get(@Param('id') id: string, @Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    const url = await this.profileUrl(id);
    await relay(reply, await this.forwarder.get('invoicing', url, requestIdOf(request)));
  }

  /** The body is invoicing's to validate (the same fields as POST /v1/account). */
  @Post(':id/profile')
  @HttpCode(200)
  async update(
    @Param('id') id: string,
    @Body() body: unknown,
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
  ) {
    const url = await this.profileUrl(id);
    await relay(reply, await this.forwarder.post('invoicing', url, body, requestIdOf(request)));
  }

  private async profileUrl(id: string): Promise<string> {
    await this.accounts.getAccount(id);
    if (!this.services.includes('invoicing')) {
      throw new ApiError(
        'service_not_installed',
        'This installation does not include the invoicing service, which keeps business profiles.',
      );
    }
    return `/internal/accounts/${encodeURIComponent(id)}/profile`;
  }
}

async function relay(reply: FastifyReply, response: UpstreamResponse): Promise<void> {
  const contentType = response.headers['content-type'];
  if (contentType !== undefined) void reply.header('content-type', contentType);
  await reply.status(response.status).send(response.body);
}
