// HTTP only: validate, call the service, serialise.

import { Body, Controller, Get, Header, HttpCode, Inject, Param, Post, Query } from '@nestjs/common';
import type { AuthenticatedContext } from '@paygrid/contracts';
import {
  ApiError,
  Caller,
  Operation,
  OwnIdempotency,
  RequireScope,
  type Tenant,
  tenantOf,
  jsonPage,
} from '@paygrid/platform';
import { PayByCard, type CardCharge } from '../card-payments/pay-by-card';
import { CustomerDirectory } from '../customers/customer-directory';
import { ListTransactionsQuery, TestPaymentDto } from './transactions.dto';
import { serializeTransaction, transactionJson } from './transaction';
import { TransactionsService } from './transactions.service';

/** A sandbox test card (any expiry and CVC pass), with "save card" as an on-demand mandate. */
function testPayment(tenant: Tenant, accountName: string | undefined, body: TestPaymentDto): CardCharge {
  return {
    tenant,
    charge: {
      amount: BigInt(body.amount),
      currency: body.currency,
      ...(body.customer ? { customer: body.customer } : {}),
      account_name: accountName,
    },
    card: { number: body.card_number, exp_month: 12, exp_year: 2099, cvc: '123' },
    ...(body.save_card
      ? { mandate: { customer: body.customer ?? null, payer: { name: null, email: null } } }
      : {}),
  };
}

@Controller('v1/transactions')
export class TransactionsController {
  constructor(
    @Inject(TransactionsService) private readonly transactions: TransactionsService,
    @Inject(PayByCard) private readonly payByCard: PayByCard,
    @Inject(CustomerDirectory) private readonly customers: CustomerDirectory,
  ) {}

  @Get()
  @RequireScope('transactions:read')
  @Operation({
    summary: 'List transactions',
    description:
      'Payments and refunds, newest first. Filters: `merchant`, `type`, `status`, `payment_link`, `currency`, `amount[gt|gte|lt|lte]`, `created[...]`.',
    response: 'TransactionList',
  })
  @Header('content-type', 'application/json; charset=utf-8')
  async list(@Caller() caller: AuthenticatedContext, @Query() query: ListTransactionsQuery) {
    return jsonPage(await this.transactions.list(tenantOf(caller), query), transactionJson);
  }

  @Get(':id')
  @RequireScope('transactions:read')
  @Operation({
    summary: 'Retrieve a transaction',
    description: 'One money movement, with `amount_refunded` and `refundable_amount` for payments.',
    response: 'Transaction',
  })
  async get(@Caller() caller: AuthenticatedContext, @Param('id') id: string) {
    return serializeTransaction(await this.transactions.get(tenantOf(caller), id));
  }

  /**
   * Test helper (like Stripe's test helpers): charges a sandbox test card, so tests and
   * integrators can make payments before the hosted checkout exists. Test mode only: a live
   * key gets 404, as if the route did not exist. It calls the connector, so it runs outside
   * the request-wide idempotency transaction (no Idempotency-Key support).
   */
  @Post('test-helpers/payments')
  @HttpCode(200)
  @RequireScope('transactions:write')
  @OwnIdempotency()
  @Operation({
    summary: 'Make a test payment (test mode only)',
    description:
      'Charges one of the sandbox test cards (docs/api.md §5) for the amount given and answers the resulting `payment` transaction, succeeded or failed. With `save_card: true` a succeeded payment also stores the card as an on-demand mandate (`mandate` on the transaction; `mandate.created`), optionally for `customer`, which must be a customer of the account and mode (404 `resource_missing` otherwise; one created a moment ago is waited on up to 5 s, docs/api.md Part 2). Live keys get 404. Idempotency-Key is not honoured here.',
    response: 'Transaction',
    operationId: 'transactions.testPayment',
  })
  async testPayment(@Caller() caller: AuthenticatedContext, @Body() body: TestPaymentDto) {
    if (caller.livemode) throw new ApiError('route_not_found', 'No such route.');
    if (body.customer) await this.customers.requireUsable(tenantOf(caller), body.customer);
    return serializeTransaction(
      await this.payByCard.charge(testPayment(tenantOf(caller), caller.account_name, body)),
    );
  }
}
