// HTTP only: validate, call the service, serialise.

import { Body, Controller, Get, HttpCode, Inject, Param, Post, Query } from '@nestjs/common';
import type { AuthenticatedContext } from '@paygrid/contracts';
import { Caller, ListQuery, RequireScope } from '@paygrid/platform';
import { CreateMerchantDto, UpdateMerchantDto } from './merchants.dto';
import { MerchantsService, serializeMerchant } from './merchants.service';

const tenantOf = (caller: AuthenticatedContext) => ({ account: caller.account, livemode: caller.livemode });

@Controller('v1/merchants')
export class MerchantsController {
  constructor(@Inject(MerchantsService) private readonly merchants: MerchantsService) {}

  @Post()
  @HttpCode(200)
  @RequireScope('merchants:write')
  async create(@Caller() caller: AuthenticatedContext, @Body() body: CreateMerchantDto) {
    return serializeMerchant(await this.merchants.create(tenantOf(caller), body));
  }

  @Get()
  @RequireScope('merchants:read')
  async list(@Caller() caller: AuthenticatedContext, @Query() query: ListQuery) {
    const page = await this.merchants.list(tenantOf(caller), query);
    return {
      object: page.object,
      data: page.rows.map(serializeMerchant),
      has_more: page.has_more,
      url: page.url,
    };
  }

  @Get(':id')
  @RequireScope('merchants:read')
  async get(@Caller() caller: AuthenticatedContext, @Param('id') id: string) {
    return serializeMerchant(await this.merchants.get(tenantOf(caller), id));
  }

  @Post(':id')
  @HttpCode(200)
  @RequireScope('merchants:write')
  async update(
    @Caller() caller: AuthenticatedContext,
    @Param('id') id: string,
    @Body() body: UpdateMerchantDto,
  ) {
    return serializeMerchant(await this.merchants.update(tenantOf(caller), id, body));
  }
}
