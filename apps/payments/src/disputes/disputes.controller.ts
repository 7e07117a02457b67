// HTTP only: validate, call the service, serialise (docs/api.md Part 2, disputes). Disputes are
// read-only here: the processor opens and closes them (processor-events/).

import { Controller, Get, Inject, Param, Query } from '@nestjs/common';
import type { AuthenticatedContext } from '@paygrid/contracts';
import { Caller, Operation, RequireScope } from '@paygrid/platform';
import { serializeDispute } from './dispute';
import { ListDisputesQuery } from './disputes.dto';
import { DisputesService } from './disputes.service';

const tenantOf = (caller: AuthenticatedContext) => ({ account: caller.account, livemode: caller.livemode });

@Controller('v1/disputes')
export class DisputesController {
  constructor(@Inject(DisputesService) private readonly disputes: DisputesService) {}

  @Get()
  @RequireScope('disputes:read')
  @Operation({
    summary: 'List disputes',
    description: 'Newest first; filters `status`, `transaction`, `created[...]`.',
    response: 'DisputeList',
  })
  async list(@Caller() caller: AuthenticatedContext, @Query() query: ListDisputesQuery) {
    const page = await this.disputes.list(tenantOf(caller), query);
    return {
      object: page.object,
      data: page.rows.map(serializeDispute),
      has_more: page.has_more,
      url: page.url,
    };
  }

  @Get(':id')
  @RequireScope('disputes:read')
  @Operation({
    summary: 'Retrieve a dispute',
    description: 'The dispute and its state.',
    response: 'Dispute',
  })
  async get(@Caller() caller: AuthenticatedContext, @Param('id') id: string) {
    return serializeDispute(await this.disputes.get(tenantOf(caller), id));
  }
}
