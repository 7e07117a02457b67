// HTTP only: validate, call the service, serialise (docs/api.md Part 2, disputes). Disputes are
// read-only here: the processor opens and closes them (processor-events/); in test mode a
// helper moves the sandbox's own (card 0259) the way a processor would.

import { Body, Controller, Get, HttpCode, Inject, Param, Post, Query } from '@nestjs/common';
import type { AuthenticatedContext } from '@paygrid/contracts';
import {
  Caller,
  notFound,
  Operation,
  RequestTx,
  RequireScope,
  tenantOf,
  type Tx,
  listOf,
} from '@paygrid/platform';
import { serializeDispute } from './dispute';
import { ListDisputesQuery, UpdateSandboxDisputeDto } from './disputes.dto';
import { DisputesService } from './disputes.service';

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
    return listOf(page, serializeDispute);
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

  /** Test mode only: a live key gets 404, as if the route did not exist. */
  @Post(':id/test-helpers/update')
  @HttpCode(200)
  @RequireScope('disputes:write')
  @Operation({
    summary: 'Move a sandbox dispute (test mode only)',
    description:
      "Moves a dispute the sandbox opened (card 4000 0000 0000 0259) to `under_review`, `won` or `lost`, as a processor's webhook would: `dispute.updated` or `dispute.closed`, and a won dispute's amount back in the merchant's balance. A processor's dispute, or a move the states refuse, is 409 `invalid_state_transition`. Live keys get 404 `resource_missing`.",
    response: 'Dispute',
    errors: ['invalid_state_transition'],
  })
  async updateSandbox(
    @Caller() caller: AuthenticatedContext,
    @Param('id') id: string,
    @Body() body: UpdateSandboxDisputeDto,
    @RequestTx() tx: Tx | undefined,
  ) {
    // A live key sees no sandbox dispute (they are test mode's): 404, as for any id it cannot see.
    if (caller.livemode) throw notFound('dispute', id);
    return serializeDispute(await this.disputes.updateSandbox(tenantOf(caller), id, body.status, tx));
  }
}
