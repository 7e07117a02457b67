// HTTP only: validate, call the service, serialise.

import { Body, Controller, Get, HttpCode, Inject, Param, Post, Query } from '@nestjs/common';
import type { AuthenticatedContext } from '@paygrid/contracts';
import { Caller, Operation, RequestTx, RequireScope, tenantOf, type Tx, listOf } from '@paygrid/platform';
import {
  CancelSubscriptionDto,
  CreateSubscriptionDto,
  ListSubscriptionsQuery,
  UpdateSubscriptionDto,
} from './subscriptions.dto';
import { SubscriptionsService } from './subscriptions.service';
import { serializeSubscription } from './subscription.model';

@Controller('v1/subscriptions')
export class SubscriptionsController {
  constructor(@Inject(SubscriptionsService) private readonly subscriptions: SubscriptionsService) {}

  @Post()
  @HttpCode(200)
  @RequireScope('subscriptions:write')
  @Operation({
    summary: 'Create a subscription',
    description:
      'Bills `customer` every period for `items`. Every item has the same `currency`, `interval` and `interval_count` (one billing cycle per subscription, as Stripe). Periods are computed from `billing_cycle_anchor` (default: the trial end, else now) with month-end clamping in `time_zone` (default UTC). With `trial_end` or `trial_period_days` it starts `trialing` (no invoice during the trial; `subscription.trial_will_end` three days before the end); a trial ending inside a period bills the rest of that period pro rata. Without a trial the first invoice is created, finalized and collected at once: `charge_automatically` starts `incomplete` until it is paid, `send_invoice` starts `active`. A customer on a test clock puts the subscription on that clock.',
    response: 'Subscription',
    errors: ['invalid_state_transition'],
  })
  async create(
    @Caller() caller: AuthenticatedContext,
    @Body() body: CreateSubscriptionDto,
    @RequestTx() tx: Tx | undefined,
  ) {
    return serializeSubscription(
      await this.subscriptions.create(tenantOf(caller), body, caller.account_name, tx),
    );
  }

  @Get()
  @RequireScope('subscriptions:read')
  @Operation({
    summary: 'List subscriptions',
    description:
      'Newest first. Filters: `status`, `customer`, `test_clock`, `created[...]`, `current_period_end[...]`.',
    response: 'SubscriptionList',
  })
  async list(@Caller() caller: AuthenticatedContext, @Query() query: ListSubscriptionsQuery) {
    const page = await this.subscriptions.list(tenantOf(caller), query);
    return listOf(page, serializeSubscription);
  }

  @Get(':id')
  @RequireScope('subscriptions:read')
  @Operation({
    summary: 'Retrieve a subscription',
    description: 'The subscription.',
    response: 'Subscription',
  })
  async get(@Caller() caller: AuthenticatedContext, @Param('id') id: string) {
    return serializeSubscription(await this.subscriptions.get(tenantOf(caller), id));
  }

  @Post(':id')
  @HttpCode(200)
  @RequireScope('subscriptions:write')
  @Operation({
    summary: 'Update a subscription',
    description:
      'Replaces `items` (same currency and cycle) and/or changes settings. A price or quantity change inside a billed period is prorated by seconds as of `proration_date` (default now): `create_prorations` (default) adds the credit for unused time and the charge for the remaining time to the next invoice, `always_invoice` invoices them now, `none` does not prorate. Credits never become negative lines: they are deducted as a discount, the rest carried in `pending_credit`. `POST /:id/preview` with the same body shows exactly what this bills.',
    response: 'Subscription',
    errors: ['invalid_state_transition'],
  })
  async update(
    @Caller() caller: AuthenticatedContext,
    @Param('id') id: string,
    @Body() body: UpdateSubscriptionDto,
    @RequestTx() tx: Tx | undefined,
  ) {
    return serializeSubscription(await this.subscriptions.update(tenantOf(caller), id, body, tx));
  }

  @Post(':id/preview')
  @HttpCode(200)
  @RequireScope('subscriptions:read')
  @Operation({
    summary: 'Preview a subscription change',
    description:
      "The same body as `POST /v1/subscriptions/:id`, nothing written: the proration lines, the invoice `always_invoice` would create now, and the next renewal invoice. An empty body previews the upcoming invoice. Pass the answer's `proration_date` to the change to bill exactly this.",
    response: 'SubscriptionPreview',
    operationId: 'subscriptions.preview',
  })
  async preview(
    @Caller() caller: AuthenticatedContext,
    @Param('id') id: string,
    @Body() body: UpdateSubscriptionDto,
    @RequestTx() tx: Tx | undefined,
  ) {
    return this.subscriptions.preview(tenantOf(caller), id, body, tx);
  }

  @Post(':id/cancel')
  @HttpCode(200)
  @RequireScope('subscriptions:write')
  @Operation({
    summary: 'Cancel a subscription',
    description:
      '`at: now` (default) cancels at once (`subscription.canceled`; nothing is refunded or invoiced); `at: period_end` sets `cancel_at_period_end` and the engine cancels it when the current period (or trial) ends.',
    response: 'Subscription',
    errors: ['invalid_state_transition'],
  })
  async cancel(
    @Caller() caller: AuthenticatedContext,
    @Param('id') id: string,
    @Body() body: CancelSubscriptionDto,
    @RequestTx() tx: Tx | undefined,
  ) {
    return serializeSubscription(await this.subscriptions.cancel(tenantOf(caller), id, body.at ?? 'now', tx));
  }

  @Post(':id/pause')
  @HttpCode(200)
  @RequireScope('subscriptions:write')
  @Operation({
    summary: 'Pause a subscription',
    description: 'active -> paused (`subscription.paused`): periods keep passing but are not invoiced.',
    response: 'Subscription',
    errors: ['invalid_state_transition'],
  })
  async pause(
    @Caller() caller: AuthenticatedContext,
    @Param('id') id: string,
    @RequestTx() tx: Tx | undefined,
  ) {
    return serializeSubscription(await this.subscriptions.pause(tenantOf(caller), id, tx));
  }

  @Post(':id/resume')
  @HttpCode(200)
  @RequireScope('subscriptions:write')
  @Operation({
    summary: 'Resume a subscription',
    description: 'paused -> active (`subscription.resumed`): billing starts again at the next period start.',
    response: 'Subscription',
    errors: ['invalid_state_transition'],
  })
  async resume(
    @Caller() caller: AuthenticatedContext,
    @Param('id') id: string,
    @RequestTx() tx: Tx | undefined,
  ) {
    return serializeSubscription(await this.subscriptions.resume(tenantOf(caller), id, tx));
  }
}
