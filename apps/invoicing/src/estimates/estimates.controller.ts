// HTTP only: validate, call the service, serialise.

import { Body, Controller, Get, HttpCode, Inject, Param, Post, Query, Res } from '@nestjs/common';
import type { AuthenticatedContext } from '@paygrid/contracts';
import {
  Caller,
  Operation,
  RequestTx,
  RequireScope,
  sendPdf,
  tenantOf,
  type Tx,
  listOf,
} from '@paygrid/platform';
import type { FastifyReply } from 'fastify';
import {
  ConvertEstimateDto,
  CreateEstimateDto,
  ListEstimatesQuery,
  UpdateEstimateDto,
} from './estimates.dto';
import { estimatePdfFilename, EstimatesService } from './estimates.service';

const STATES =
  'States: `draft` -> `sent` -> `accepted` -> `invoiced`; `sent` -> `declined` | `expired`; `draft` | `sent` -> `canceled`. An action the state does not allow is 409 `invalid_state_transition`.';

@Controller('v1/estimates')
export class EstimatesController {
  constructor(@Inject(EstimatesService) private readonly estimates: EstimatesService) {}

  @Post()
  @HttpCode(200)
  @RequireScope('estimates:write')
  @Operation({
    summary: 'Create an estimate or quote',
    description:
      "A draft estimate (`kind: estimate`, default) or quote (`kind: quote`) for a customer. Lines, discount and totals work as on invoices (discount before tax, tax per line in basis points rounded half-even), computed by the server. `currency` defaults to the customer's. `expires_at` (optional, in the future): a sent estimate not accepted by then becomes `expired`. Emits `estimate.created`. " +
      STATES,
    response: 'Estimate',
  })
  async create(
    @Caller() caller: AuthenticatedContext,
    @Body() body: CreateEstimateDto,
    @RequestTx() tx: Tx | undefined,
  ) {
    return this.estimates.serialize(
      await this.estimates.create(tenantOf(caller), caller.account_name, body, tx),
    );
  }

  @Get()
  @RequireScope('estimates:read')
  @Operation({
    summary: 'List estimates and quotes',
    description: 'Newest first. Filters: `status`, `customer`, `kind`, `created[...]`.',
    response: 'EstimateList',
  })
  async list(@Caller() caller: AuthenticatedContext, @Query() query: ListEstimatesQuery) {
    const page = await this.estimates.list(tenantOf(caller), query);
    return listOf(page, (row) => this.estimates.serialize(row));
  }

  @Get(':id')
  @RequireScope('estimates:read')
  @Operation({
    summary: 'Retrieve an estimate or quote',
    description: 'With its totals, `public_url` (once sent) and `invoice` (once converted).',
    response: 'Estimate',
  })
  async get(@Caller() caller: AuthenticatedContext, @Param('id') id: string) {
    return this.estimates.serialize(await this.estimates.get(tenantOf(caller), id));
  }

  @Get(':id/pdf')
  @RequireScope('estimates:read')
  @Operation({
    summary: 'Download an estimate or quote as PDF',
    description:
      'The document (`application/pdf`) titled Estimate or Quote: seller and customer, number, dates (valid until), lines, tax, totals and, while sent, the link to the page. A draft renders without a number. The same document is on the public page and attached to the e-mail.',
    response: 'Estimate',
    produces: 'application/pdf',
    operationId: 'estimates.pdf',
  })
  async pdf(@Caller() caller: AuthenticatedContext, @Param('id') id: string, @Res() reply: FastifyReply) {
    const row = await this.estimates.get(tenantOf(caller), id);
    return sendPdf(reply, estimatePdfFilename(row), await this.estimates.pdf(row));
  }

  @Post(':id')
  @HttpCode(200)
  @RequireScope('estimates:write')
  @Operation({
    summary: 'Update a draft estimate',
    description:
      'Changes what is given: `lines` are replaced as a whole (totals recomputed), `discount: null` removes the discount, `metadata` is merged. Only drafts can change.',
    response: 'Estimate',
    errors: ['invalid_state_transition'],
  })
  async update(
    @Caller() caller: AuthenticatedContext,
    @Param('id') id: string,
    @Body() body: UpdateEstimateDto,
    @RequestTx() tx: Tx | undefined,
  ) {
    return this.estimates.serialize(await this.estimates.update(tenantOf(caller), id, body, tx));
  }

  @Post(':id/send')
  @HttpCode(200)
  @RequireScope('estimates:write')
  @Operation({
    summary: 'Send an estimate or quote',
    description:
      "draft -> sent (or sends a sent one again). The first send takes the gapless `number` of the account, mode and kind (`EST-0001`, `Q-0001`) and publishes the customer's page (`public_url`). E-mails the customer a link to the page with the PDF attached; the mail leaves after the transaction commits, once per send. Needs lines, a customer e-mail address and an `expires_at` still in the future (else 400). Emits `estimate.sent`.",
    response: 'Estimate',
    errors: ['invalid_state_transition'],
  })
  async send(
    @Caller() caller: AuthenticatedContext,
    @Param('id') id: string,
    @RequestTx() tx: Tx | undefined,
  ) {
    return this.estimates.serialize(await this.estimates.send(tenantOf(caller), id, caller.account_name, tx));
  }

  @Post(':id/accept')
  @HttpCode(200)
  @RequireScope('estimates:write')
  @Operation({
    summary: 'Record that the customer accepted',
    description:
      'sent -> accepted (`decided_via: api`); the customer can also accept on the page. A sent estimate past `expires_at` cannot be accepted. Emits `estimate.accepted`.',
    response: 'Estimate',
    errors: ['invalid_state_transition'],
  })
  async accept(
    @Caller() caller: AuthenticatedContext,
    @Param('id') id: string,
    @RequestTx() tx: Tx | undefined,
  ) {
    return this.estimates.serialize(await this.estimates.accept(tenantOf(caller), id, tx));
  }

  @Post(':id/decline')
  @HttpCode(200)
  @RequireScope('estimates:write')
  @Operation({
    summary: 'Record that the customer declined',
    description: 'sent -> declined (`decided_via: api`). Emits `estimate.declined`.',
    response: 'Estimate',
    errors: ['invalid_state_transition'],
  })
  async decline(
    @Caller() caller: AuthenticatedContext,
    @Param('id') id: string,
    @RequestTx() tx: Tx | undefined,
  ) {
    return this.estimates.serialize(await this.estimates.decline(tenantOf(caller), id, tx));
  }

  @Post(':id/cancel')
  @HttpCode(200)
  @RequireScope('estimates:write')
  @Operation({
    summary: 'Cancel an estimate',
    description:
      'draft | sent -> canceled; the page then shows it as canceled. No event (the catalogue has none).',
    response: 'Estimate',
    errors: ['invalid_state_transition'],
  })
  async cancel(
    @Caller() caller: AuthenticatedContext,
    @Param('id') id: string,
    @RequestTx() tx: Tx | undefined,
  ) {
    return this.estimates.serialize(await this.estimates.cancel(tenantOf(caller), id, tx));
  }

  @Post(':id/convert')
  @HttpCode(200)
  @RequireScope('estimates:write')
  @Operation({
    summary: 'Convert an accepted estimate into an invoice',
    description:
      'accepted -> invoiced: creates the invoice with the same customer, currency, lines and discount (its `estimate` names this one) in the same transaction, a draft by default; `send: true` also finalizes it and e-mails it to the customer. The estimate answers with `invoice` set. Emits `estimate.invoiced` (and the invoice events).',
    response: 'Estimate',
    errors: ['invalid_state_transition'],
  })
  async convert(
    @Caller() caller: AuthenticatedContext,
    @Param('id') id: string,
    @Body() body: ConvertEstimateDto,
    @RequestTx() tx: Tx | undefined,
  ) {
    return this.estimates.serialize(
      await this.estimates.convert(tenantOf(caller), id, caller.account_name, body, tx),
    );
  }
}
