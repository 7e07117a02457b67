// HTTP only: validate, call the service, serialise.

import {
  Body,
  Controller,
  Delete,
  Get,
  Header,
  HttpCode,
  Inject,
  Param,
  Post,
  Query,
  Res,
} from '@nestjs/common';
import type { AuthenticatedContext } from '@paygrid/contracts';
import {
  Caller,
  Operation,
  RequestTx,
  RequireScope,
  sendPdf,
  sendXml,
  tenantOf,
  type Tx,
  jsonPage,
} from '@paygrid/platform';
import type { FastifyReply } from 'fastify';
import { invoicePdfFilename } from './invoice.serializer';
import {
  CreateInvoiceDto,
  InvoicePdfQuery,
  ListInvoicesQuery,
  PayInvoiceDto,
  UpdateInvoiceDto,
} from './invoices.dto';
import { InvoicesService } from './invoices.service';

const STATES =
  'States: `draft` -> `open` (finalize) -> `paid` | `void` | `uncollectible`; `uncollectible` -> `paid` | `void`. An action the state does not allow is 409 `invalid_state_transition`.';

@Controller('v1/invoices')
export class InvoicesController {
  constructor(@Inject(InvoicesService) private readonly invoices: InvoicesService) {}

  @Post()
  @HttpCode(200)
  @RequireScope('invoices:write')
  @Operation({
    summary: 'Create (and send) an invoice',
    description:
      "Creates the invoice and, unless `send: false`, finalizes it (gapless `number`, seller and customer snapshots, `due_date`) and collects it in the same transaction: `send_invoice` e-mails the customer a link to the hosted page with the PDF; `charge_automatically` charges the customer's `default_mandate` through the payments service (or e-mails the page when there is none). Totals are computed by the server: discount before tax, tax per line in basis points rounded half-even. `currency` defaults to the customer's. Sending needs a customer e-mail address (else 400 `parameter_invalid`, `param: customer`, and nothing is created). Use an `Idempotency-Key`: the whole call is one transaction.",
    response: 'Invoice',
  })
  async create(
    @Caller() caller: AuthenticatedContext,
    @Body() body: CreateInvoiceDto,
    @RequestTx() tx: Tx | undefined,
  ) {
    return this.invoices.serialize(
      await this.invoices.create(tenantOf(caller), caller.account_name, body, tx),
    );
  }

  @Get()
  @RequireScope('invoices:read')
  @Operation({
    summary: 'List invoices',
    description:
      'Newest first. Filters: `status`, `customer`, `subscription`, `created[...]`, `due_date[...]`. Readable with the payments grouping too.',
    response: 'InvoiceList',
  })
  @Header('content-type', 'application/json; charset=utf-8')
  async list(@Caller() caller: AuthenticatedContext, @Query() query: ListInvoicesQuery) {
    return jsonPage(await this.invoices.list(tenantOf(caller), query), (row) => this.invoices.json(row));
  }

  @Get(':id')
  @RequireScope('invoices:read')
  @Operation({
    summary: 'Retrieve an invoice',
    description: 'Readable with the payments grouping too.',
    response: 'Invoice',
  })
  async get(@Caller() caller: AuthenticatedContext, @Param('id') id: string) {
    return this.invoices.serialize(await this.invoices.get(tenantOf(caller), id));
  }

  @Get(':id/pdf')
  @RequireScope('invoices:read')
  @Operation({
    summary: 'Download an invoice as PDF',
    description:
      "The invoice document (`application/pdf`): the seller's logo, seller and customer, number, dates, lines, tax, totals, amount due and the payment link. A draft renders without a number. The same document is at the public `pdf_url` and attached to the e-mail. `format=facturx`: the finalized invoice as a Factur-X / ZUGFeRD PDF/A-3b (profile EN 16931) with its CII XML embedded as `factur-x.xml`; a draft or an invoice missing what EN 16931 requires is 409 `invoice_incomplete`, as for `/ubl`.",
    response: 'Invoice',
    produces: 'application/pdf',
    operationId: 'invoices.pdf',
    errors: ['invoice_incomplete'],
  })
  async pdf(
    @Caller() caller: AuthenticatedContext,
    @Param('id') id: string,
    @Query() query: InvoicePdfQuery,
    @Res() reply: FastifyReply,
  ) {
    const row = await this.invoices.get(tenantOf(caller), id);
    const pdf = query.format === 'facturx' ? this.invoices.facturX(row) : this.invoices.pdf(row);
    return sendPdf(reply, invoicePdfFilename(row), await pdf);
  }

  @Get(':id/ubl')
  @RequireScope('invoices:read')
  @Operation({
    summary: 'Download an invoice as UBL (EN 16931)',
    description:
      "The finalized invoice as a UBL 2.1 Invoice (`application/xml`) in the PEPPOL BIS Billing 3.0 shape, conformant to EN 16931: the seller and customer as the invoice keeps them (the business profile's VAT number, addresses, e-mail addresses as electronic addresses), one VAT breakdown per category and rate (the lines' `tax_category`: S, Z, E, AE, K, G, with their exemption reasons; an intra-community supply is delivered on the issue date to the customer's country), the discount as a document allowance per category and rate. A draft, or an invoice whose seller or customer lacks what EN 16931 requires (country, electronic address, the seller's VAT number for taxed lines), is 409 `invoice_incomplete` naming what is missing.",
    response: 'Invoice',
    produces: 'application/xml',
    operationId: 'invoices.ubl',
    errors: ['invoice_incomplete'],
  })
  async ubl(@Caller() caller: AuthenticatedContext, @Param('id') id: string, @Res() reply: FastifyReply) {
    const row = await this.invoices.get(tenantOf(caller), id);
    return sendXml(reply, `${invoicePdfFilename(row).replace(/\.pdf$/, '')}.xml`, this.invoices.ubl(row));
  }

  @Post(':id')
  @HttpCode(200)
  @RequireScope('invoices:write')
  @Operation({
    summary: 'Update a draft invoice',
    description:
      'Changes the fields given; `lines` are replaced as a whole, `discount: null` removes the discount, `metadata` is merged. Totals are recomputed. Only drafts: otherwise 409 `invalid_state_transition`.',
    response: 'Invoice',
    errors: ['invalid_state_transition'],
  })
  async update(
    @Caller() caller: AuthenticatedContext,
    @Param('id') id: string,
    @Body() body: UpdateInvoiceDto,
    @RequestTx() tx: Tx | undefined,
  ) {
    return this.invoices.serialize(await this.invoices.update(tenantOf(caller), id, body, tx));
  }

  @Delete(':id')
  @RequireScope('invoices:write')
  @Operation({
    summary: 'Delete a draft invoice',
    description: 'Only drafts (they have no number); a finalized invoice is voided instead. ' + STATES,
    response: 'DeletedInvoice',
    errors: ['invalid_state_transition'],
  })
  async remove(@Caller() caller: AuthenticatedContext, @Param('id') id: string) {
    return this.invoices.remove(tenantOf(caller), id);
  }

  @Post(':id/finalize')
  @HttpCode(200)
  @RequireScope('invoices:write')
  @Operation({
    summary: 'Finalize a draft invoice',
    description:
      'draft -> open: assigns the next gapless `number` of the account and mode, snapshots seller and customer, sets `due_date` (send_invoice: `days_until_due`, default 30). Sends nothing. A zero invoice becomes `paid`. ' +
      STATES,
    response: 'Invoice',
    errors: ['invalid_state_transition'],
  })
  async finalize(
    @Caller() caller: AuthenticatedContext,
    @Param('id') id: string,
    @RequestTx() tx: Tx | undefined,
  ) {
    return this.invoices.serialize(
      await this.invoices.finalize(tenantOf(caller), id, caller.account_name, tx),
    );
  }

  @Post(':id/send')
  @HttpCode(200)
  @RequireScope('invoices:write')
  @Operation({
    summary: 'Send an invoice',
    description:
      'E-mails the customer a link to the hosted invoice page with the PDF attached (a draft is finalized first). Each call is one e-mail, sent after commit and never twice. ' +
      STATES,
    response: 'Invoice',
    errors: ['invalid_state_transition'],
  })
  async send(
    @Caller() caller: AuthenticatedContext,
    @Param('id') id: string,
    @RequestTx() tx: Tx | undefined,
  ) {
    return this.invoices.serialize(await this.invoices.send(tenantOf(caller), id, caller.account_name, tx));
  }

  @Post(':id/pay')
  @HttpCode(200)
  @RequireScope('invoices:write')
  @Operation({
    summary: 'Pay an invoice',
    description:
      "`paid_out_of_band: true` marks it paid now. Otherwise charges the customer's `default_mandate` through the payments service: the answer is the invoice still `open`; it becomes `paid` (invoice.paid) or stays open with `last_payment_error` (invoice.payment_failed) when the payment's outcome arrives. While a charge is pending another is 409 `invalid_state_transition`; a customer without a mandate is 400 `parameter_invalid` (`param: customer`). " +
      STATES,
    response: 'Invoice',
    errors: ['invalid_state_transition'],
  })
  async pay(
    @Caller() caller: AuthenticatedContext,
    @Param('id') id: string,
    @Body() body: PayInvoiceDto,
    @RequestTx() tx: Tx | undefined,
  ) {
    return this.invoices.serialize(await this.invoices.pay(tenantOf(caller), id, body, tx));
  }

  @Post(':id/void')
  @HttpCode(200)
  @RequireScope('invoices:write')
  @Operation({
    summary: 'Void an invoice',
    description: 'open or uncollectible -> void; the number stays used. ' + STATES,
    response: 'Invoice',
    errors: ['invalid_state_transition'],
  })
  async void(
    @Caller() caller: AuthenticatedContext,
    @Param('id') id: string,
    @RequestTx() tx: Tx | undefined,
  ) {
    return this.invoices.serialize(await this.invoices.void(tenantOf(caller), id, tx));
  }

  @Post(':id/mark-uncollectible')
  @HttpCode(200)
  @RequireScope('invoices:write')
  @Operation({
    summary: 'Mark an invoice uncollectible',
    description: 'open -> uncollectible; it can still be paid or voided. ' + STATES,
    response: 'Invoice',
    errors: ['invalid_state_transition'],
    operationId: 'invoices.markUncollectible',
  })
  async markUncollectible(
    @Caller() caller: AuthenticatedContext,
    @Param('id') id: string,
    @RequestTx() tx: Tx | undefined,
  ) {
    return this.invoices.serialize(await this.invoices.markUncollectible(tenantOf(caller), id, tx));
  }
}
