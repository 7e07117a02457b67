// HTTP only: validate, call the service, serialise.

import { Body, Controller, Delete, Get, HttpCode, Inject, Param, Post, Query } from '@nestjs/common';
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
import { CreateCustomerDto, ListCustomersQuery, UpdateCustomerDto } from './customers.dto';
import { CustomersService, serializeCustomer } from './customers.service';

@Controller('v1/customers')
export class CustomersController {
  constructor(@Inject(CustomersService) private readonly customers: CustomersService) {}

  @Post()
  @HttpCode(200)
  @RequireScope('customers:write')
  @Operation({
    summary: 'Create a customer',
    description:
      "Someone you bill. `currency` (any case in, uppercase out) is the currency the customer is billed in. `external_id`, your own id for the customer, is unique among the account's customers of this mode that are not archived: a second one is 409 `resource_conflict` with `param: external_id`.",
    response: 'Customer',
    errors: ['resource_conflict'],
  })
  async create(
    @Caller() caller: AuthenticatedContext,
    @Body() body: CreateCustomerDto,
    @RequestTx() tx: Tx | undefined,
  ) {
    return serializeCustomer(await this.customers.create(tenantOf(caller), body, tx));
  }

  @Get()
  @RequireScope('customers:read')
  @Operation({
    summary: 'List customers',
    description:
      'Newest first. Filters: `email` (exact, case-insensitive), `external_id`, `created[...]`. Archived customers are left out unless `include_archived=true`.',
    response: 'CustomerList',
  })
  async list(@Caller() caller: AuthenticatedContext, @Query() query: ListCustomersQuery) {
    const page = await this.customers.list(tenantOf(caller), query);
    return listOf(page, (row) => serializeCustomer(row));
  }

  @Get(':id')
  @RequireScope('customers:read')
  @Operation({
    summary: 'Retrieve a customer',
    description:
      "The customer (archived ones too, marked `deleted`) with its `billing_summary`, in the customer's `currency`: `total_invoiced` and `invoice_count` over its finalized invoices that are not void, `balance_due` the `amount_due` of its open invoices, `total_paid` its succeeded payments (refunds not deducted).",
    response: 'Customer',
  })
  async get(@Caller() caller: AuthenticatedContext, @Param('id') id: string) {
    const customer = await this.customers.get(tenantOf(caller), id);
    return serializeCustomer(customer, await this.customers.billingSummary(customer));
  }

  @Post(':id')
  @HttpCode(200)
  @RequireScope('customers:write')
  @Operation({
    summary: 'Update a customer',
    description:
      'Changes the details given (`null` is refused: a detail cannot be blanked); `address` is replaced as a whole, `metadata` is merged key by key. `customer.updated` carries the previous values of what changed. An archived customer cannot be updated: 409 `invalid_state_transition`.',
    response: 'Customer',
    errors: ['resource_conflict', 'invalid_state_transition'],
  })
  async update(
    @Caller() caller: AuthenticatedContext,
    @Param('id') id: string,
    @Body() body: UpdateCustomerDto,
    @RequestTx() tx: Tx | undefined,
  ) {
    return serializeCustomer(await this.customers.update(tenantOf(caller), id, body, tx));
  }

  @Delete(':id')
  @RequireScope('customers:write')
  @Operation({
    summary: 'Archive a customer',
    description:
      'Archives (soft-deletes) the customer and answers it with `deleted: true`. It stays readable by id (its billing history too) and in lists with `include_archived=true`, can no longer be updated, and frees its `external_id`. Archiving again changes nothing.',
    response: 'Customer',
  })
  async archive(@Caller() caller: AuthenticatedContext, @Param('id') id: string) {
    return serializeCustomer(await this.customers.archive(tenantOf(caller), id));
  }

  @Get(':id/billing-history')
  @RequireScope('customers:read')
  @Operation({
    summary: "List a customer's billing history",
    description:
      "One chronological feed of the customer's finalized invoices (dated by finalization, with their current status and `total`), its payments and the refunds of those payments (as learned from the payments service, with their latest status), newest first by `occurred_at`. `created[...]` filters on `occurred_at`.",
    response: 'BillingHistory',
    operationId: 'customers.billingHistory',
  })
  async billingHistory(
    @Caller() caller: AuthenticatedContext,
    @Param('id') id: string,
    @Query() query: ListQuery,
  ) {
    return this.customers.billingHistory(tenantOf(caller), id, query);
  }
}
