// HTTP only: POST /v1/customers/:id/portal-sessions (docs/api.md §6, customer portal).

import { Body, Controller, HttpCode, Inject, Param, Post } from '@nestjs/common';
import type { AuthenticatedContext } from '@paygrid/contracts';
import { Caller, Operation, RequestTx, RequireScope, type Tx } from '@paygrid/platform';
import { CreatePortalSessionDto } from './portal-sessions.dto';
import { PortalSessions } from './portal-sessions';

@Controller('v1/customers')
export class PortalSessionsController {
  constructor(@Inject(PortalSessions) private readonly sessions: PortalSessions) {}

  @Post(':id/portal-sessions')
  @HttpCode(200)
  @RequireScope('customers:write')
  @Operation({
    summary: 'Create a customer portal session',
    operationId: 'customers.createPortalSession',
    description:
      "A signed link (`url`) to the customer portal, valid until `expires_at` (an hour unless `expires_in` says otherwise): the customer sees its open and paid invoices (PDF, pay), its subscriptions (cancel at period end and undo it, where the business profile's `portal_subscription_cancel` allows) and its saved cards (replace, remove). Nothing is stored; send the customer to `url`. An archived customer is 409 `invalid_state_transition`.",
    response: 'PortalSession',
    errors: ['invalid_state_transition'],
  })
  async create(
    @Caller() caller: AuthenticatedContext,
    @Param('id') id: string,
    @Body() body: CreatePortalSessionDto,
    @RequestTx() tx: Tx | undefined,
  ) {
    return this.sessions.create({ account: caller.account, livemode: caller.livemode }, id, body, tx);
  }
}
