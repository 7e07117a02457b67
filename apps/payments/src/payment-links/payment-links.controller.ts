// HTTP only: validate, call the service, serialise.

import { Body, Controller, Get, HttpCode, Inject, Param, Post, Query } from '@nestjs/common';
import type { AuthenticatedContext } from '@paygrid/contracts';
import {
  Caller,
  ListQuery,
  Operation,
  RequestTx,
  RequireScope,
  tenantOf,
  type Tx,
  listOf,
} from '@paygrid/platform';
import { CreatePaymentLinkDto, UpdatePaymentLinkDto } from './payment-links.dto';
import { PaymentLinksService } from './payment-links.service';

@Controller('v1/payment-links')
export class PaymentLinksController {
  constructor(@Inject(PaymentLinksService) private readonly links: PaymentLinksService) {}

  @Post()
  @HttpCode(200)
  @RequireScope('payment_links:write')
  @Operation({
    summary: 'Create a payment link',
    description:
      'A shareable `url` of a hosted checkout page. Give `amount` + `currency`, or `line_items` (at most 20) + `currency`: the server computes `amount_total`. One-time links complete after their first payment unless `max_completions` says otherwise.',
    response: 'PaymentLink',
    errors: ['resource_missing'],
  })
  async create(
    @Caller() caller: AuthenticatedContext,
    @Body() body: CreatePaymentLinkDto,
    @RequestTx() tx: Tx | undefined,
  ) {
    return this.links.serialize(await this.links.create(tenantOf(caller), body, caller.account_name, tx));
  }

  @Get()
  @RequireScope('payment_links:read')
  @Operation({ summary: 'List payment links', description: 'Newest first.', response: 'PaymentLinkList' })
  async list(@Caller() caller: AuthenticatedContext, @Query() query: ListQuery) {
    const page = await this.links.list(tenantOf(caller), query);
    return listOf(page, (row) => this.links.serialize(row));
  }

  @Get(':id')
  @RequireScope('payment_links:read')
  @Operation({
    summary: 'Retrieve a payment link',
    description: 'The link, its status and how many payments completed it so far.',
    response: 'PaymentLink',
  })
  async get(@Caller() caller: AuthenticatedContext, @Param('id') id: string) {
    return this.links.serialize(await this.links.get(tenantOf(caller), id));
  }

  @Post(':id')
  @HttpCode(200)
  @RequireScope('payment_links:write')
  @Operation({
    summary: 'Update a payment link',
    description:
      'Changes `description` (and merges `metadata` key by key). `active: false` deactivates the link; `active: true` reactivates it, unless it is completed or expired (409 `invalid_state_transition`).',
    response: 'PaymentLink',
    errors: ['invalid_state_transition'],
  })
  async update(
    @Caller() caller: AuthenticatedContext,
    @Param('id') id: string,
    @Body() body: UpdatePaymentLinkDto,
    @RequestTx() tx: Tx | undefined,
  ) {
    return this.links.serialize(await this.links.update(tenantOf(caller), id, body, tx));
  }
}
