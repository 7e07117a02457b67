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
import { CreateMerchantDto, UpdateMerchantDto } from './merchants.dto';
import { MerchantsService, serializeMerchant } from './merchants.service';

@Controller('v1/merchants')
export class MerchantsController {
  constructor(@Inject(MerchantsService) private readonly merchants: MerchantsService) {}

  @Post()
  @HttpCode(200)
  @RequireScope('merchants:write')
  @Operation({
    summary: 'Create a merchant',
    description:
      'Onboards a business. Once every requirement is in, onboarding moves to `in_review`; the sandbox then decides at once (an `email` of `reject@...` is rejected), live mode waits for the operator.',
    response: 'Merchant',
  })
  async create(
    @Caller() caller: AuthenticatedContext,
    @Body() body: CreateMerchantDto,
    @RequestTx() tx: Tx | undefined,
  ) {
    return serializeMerchant(await this.merchants.create(tenantOf(caller), body, tx));
  }

  @Get()
  @RequireScope('merchants:read')
  @Operation({ summary: 'List merchants', description: 'Newest first.', response: 'MerchantList' })
  async list(@Caller() caller: AuthenticatedContext, @Query() query: ListQuery) {
    const page = await this.merchants.list(tenantOf(caller), query);
    return listOf(page, serializeMerchant);
  }

  @Get(':id')
  @RequireScope('merchants:read')
  @Operation({
    summary: 'Retrieve a merchant',
    description: 'The merchant with its onboarding status, the requirements still due and its capabilities.',
    response: 'Merchant',
  })
  async get(@Caller() caller: AuthenticatedContext, @Param('id') id: string) {
    return serializeMerchant(await this.merchants.get(tenantOf(caller), id));
  }

  @Post(':id')
  @HttpCode(200)
  @RequireScope('merchants:write')
  @Operation({
    summary: 'Update a merchant',
    description:
      'Changes the details given; `metadata` is merged key by key. Completing the requirements moves onboarding on.',
    response: 'Merchant',
  })
  async update(
    @Caller() caller: AuthenticatedContext,
    @Param('id') id: string,
    @Body() body: UpdateMerchantDto,
    @RequestTx() tx: Tx | undefined,
  ) {
    return serializeMerchant(await this.merchants.update(tenantOf(caller), id, body, tx));
  }
}
