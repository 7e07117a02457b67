// HTTP only: validate, call the service, serialise.

import { Controller, Get, HttpCode, Inject, Param, Post, Query } from '@nestjs/common';
import type { AuthenticatedContext } from '@paygrid/contracts';
import { Caller, ListQuery, Operation, RequireScope, tenantOf } from '@paygrid/platform';
import { MandatesService, serializeMandate } from './mandates.service';

@Controller('v1/mandates')
export class MandatesController {
  constructor(@Inject(MandatesService) private readonly mandates: MandatesService) {}

  @Get()
  @RequireScope('mandates:read')
  @Operation({
    summary: 'List mandates',
    description:
      'Newest first. A mandate is a card the payer allowed to be charged again: `recurring` (created by the checkout of a recurring payment link, charged every cycle) or `on_demand` (saved while paying an invoice, charged per invoice).',
    response: 'MandateList',
  })
  async list(@Caller() caller: AuthenticatedContext, @Query() query: ListQuery) {
    const page = await this.mandates.list(tenantOf(caller), query);
    return {
      object: page.object,
      data: page.rows.map(serializeMandate),
      has_more: page.has_more,
      url: page.url,
    };
  }

  @Get(':id')
  @RequireScope('mandates:read')
  @Operation({
    summary: 'Retrieve a mandate',
    description: 'The mandate, its card (brand, last4, expiry), schedule and `next_charge_at`.',
    response: 'Mandate',
  })
  async get(@Caller() caller: AuthenticatedContext, @Param('id') id: string) {
    return serializeMandate(await this.mandates.get(tenantOf(caller), id));
  }

  @Post(':id/cancel')
  @HttpCode(200)
  @RequireScope('mandates:write')
  @Operation({
    summary: 'Cancel a mandate',
    description:
      'Stops every future charge (`mandate.canceled`). Canceling a canceled mandate answers it unchanged; a `failed` mandate cannot be canceled (409 `invalid_state_transition`).',
    response: 'Mandate',
    errors: ['invalid_state_transition'],
  })
  async cancel(@Caller() caller: AuthenticatedContext, @Param('id') id: string) {
    return serializeMandate(await this.mandates.cancel(tenantOf(caller), id));
  }
}
