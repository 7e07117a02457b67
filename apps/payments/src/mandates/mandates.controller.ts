// HTTP only: validate, call the service, serialise.

import { Controller, Get, HttpCode, Inject, Param, Post, Query } from '@nestjs/common';
import type { AuthenticatedContext } from '@paygrid/contracts';
import {
  Caller,
  ListQuery,
  Operation,
  OwnIdempotency,
  RequestTx,
  RequireScope,
  tenantOf,
  type Tx,
  listOf,
} from '@paygrid/platform';
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
    return listOf(page, serializeMandate);
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
  async cancel(
    @Caller() caller: AuthenticatedContext,
    @Param('id') id: string,
    @RequestTx() tx: Tx | undefined,
  ) {
    return serializeMandate(await this.mandates.cancel(tenantOf(caller), id, tx));
  }

  /**
   * Test mode only: a live key gets 404, as if the route did not exist. It calls the connector,
   * so it runs outside the request-wide idempotency transaction (each attempt is charged once
   * anyway: the attempt row is unique per mandate, cycle and attempt).
   */
  @Post(':id/test-helpers/charge')
  @HttpCode(200)
  @RequireScope('mandates:write')
  @OwnIdempotency()
  @Operation({
    summary: "Run a sandbox mandate's next charge now (test mode only)",
    description:
      "Makes a recurring mandate's next scheduled attempt (its next cycle, or the retry of a failed one) due now and runs it through the scheduler's own charge: `payment.succeeded` or `payment.failed`, and the mandate's schedule moves on as on the attempt's date. With card 4000 0000 0000 0341 (later charges declined) the third call fails the mandate: `mandate.failed`. Answers the mandate afterwards. A mandate that is not active or has no schedule (`on_demand`), or whose previous charge is still in progress, is 409 `invalid_state_transition`. Live keys get 404 `resource_missing`.",
    response: 'Mandate',
    errors: ['invalid_state_transition'],
  })
  async chargeSandbox(@Caller() caller: AuthenticatedContext, @Param('id') id: string) {
    return serializeMandate(await this.mandates.chargeSandboxNow(tenantOf(caller), id));
  }
}
