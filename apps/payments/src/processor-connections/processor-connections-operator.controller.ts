// Internal routes for the operator (the gateway's admin API forwards to them with an operator
// context; an API key's context gets 403): connect a processor for an account, re-seal every
// connection under the current key, and say which accounts can take live payments.

import { Body, Controller, Get, HttpCode, Inject, Post } from '@nestjs/common';
import { OperatorOnly } from '@paygrid/platform';
import { OperatorCreateProcessorConnectionDto } from './processor-connections.dto';
import { ProcessorConnectionsService, serializeProcessorConnection } from './processor-connections.service';

@Controller('internal/processor-connections')
@OperatorOnly()
export class ProcessorConnectionsOperatorController {
  constructor(
    @Inject(ProcessorConnectionsService) private readonly connections: ProcessorConnectionsService,
  ) {}

  @Post()
  @HttpCode(200)
  async create(@Body() body: OperatorCreateProcessorConnectionDto) {
    const { account, mode, ...input } = body;
    return serializeProcessorConnection(
      await this.connections.create({ account, livemode: mode === 'live' }, input),
    );
  }

  /** The accounts with an active live connection (the gateway marks the others `none`). */
  @Get('live-accounts')
  async liveAccounts() {
    return { object: 'list', data: await this.connections.liveAccounts() };
  }

  @Post('reencrypt')
  @HttpCode(200)
  async reencrypt() {
    return { object: 'reencryption', ...(await this.connections.reencryptAll()) };
  }
}
