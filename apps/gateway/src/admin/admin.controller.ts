// The operator's admin API (docs/api.md §2): accounts and their keys. Merchant onboarding
// decisions are in merchant-decisions.controller.ts (they are the payments service's data).

import { Body, Controller, Get, HttpCode, Inject, Param, Post, Query, Req, UseGuards } from '@nestjs/common';
import { iso, isoOrNull, ListQuery, Public, requestIdOf } from '@paygrid/platform';
import type { FastifyRequest } from 'fastify';
import { AccountsService, type AccountRow, type KeyRow } from '../accounts/accounts.service';
import { OperatorGuard } from './admin.guard';
import { AccountListQuery, CreateAccountDto, CreateKeyDto, RollKeyDto, UpdateAccountDto } from './admin.dto';
import { LiveProcessorCoverage, liveProcessorOf } from './live-processors';

export function serializeAccount(row: AccountRow) {
  return {
    id: row.id,
    object: 'account',
    name: row.name,
    groupings: row.groupings,
    status: row.status,
    rate_limit_per_second: row.rate_limit_per_second,
    metadata: row.metadata,
    created_at: iso(row.created_at),
    updated_at: iso(row.updated_at),
  };
}

export function serializeKey(row: KeyRow & { secret?: string }) {
  return {
    id: row.id,
    object: 'api_key',
    account: row.account_id,
    livemode: row.livemode,
    kind: row.kind,
    scopes: row.scopes,
    name: row.name,
    redacted: `${row.prefix}_...${row.last4}`,
    last4: row.last4,
    ...(row.secret ? { secret: row.secret } : {}),
    expires_at: isoOrNull(row.expires_at),
    revoked_at: isoOrNull(row.revoked_at),
    rolled_to: row.rolled_to,
    last_used_at: isoOrNull(row.last_used_at),
    created_at: iso(row.created_at),
    updated_at: iso(row.updated_at),
  };
}

@Controller('admin/v1')
@Public({ bypassGateway: true })
@UseGuards(OperatorGuard)
export class AdminController {
  constructor(
    @Inject(AccountsService) private readonly accounts: AccountsService,
    @Inject(LiveProcessorCoverage) private readonly coverage: LiveProcessorCoverage,
  ) {}

  @Post('accounts')
  @HttpCode(200)
  async createAccount(@Body() body: CreateAccountDto) {
    return serializeAccount(await this.accounts.createAccount(body));
  }

  /** Each account says whether its live payments go to a processor (`live_processor`). */
  @Get('accounts')
  async listAccounts(@Query() query: AccountListQuery, @Req() request: FastifyRequest) {
    const { live_processor: filter, ...list } = query;
    const connected = filter
      ? await this.coverage.connectedAccountsOrFail(requestIdOf(request))
      : await this.coverage.connectedAccounts(requestIdOf(request));
    const ids = connected ? [...connected] : [];
    const page = await this.accounts.listAccounts(
      list,
      filter === 'connected' ? { in: ids } : filter === 'none' ? { not_in: ids } : undefined,
    );
    return {
      object: page.object,
      data: page.data.map((row) => ({
        ...serializeAccount(row),
        live_processor: liveProcessorOf(row.id, connected),
      })),
      has_more: page.has_more,
      url: page.url,
    };
  }

  @Get('accounts/:id')
  async getAccount(@Param('id') id: string, @Req() request: FastifyRequest) {
    return this.withLiveProcessor(await this.accounts.getAccount(id), request);
  }

  @Post('accounts/:id')
  @HttpCode(200)
  async updateAccount(
    @Param('id') id: string,
    @Body() body: UpdateAccountDto,
    @Req() request: FastifyRequest,
  ) {
    return this.withLiveProcessor(await this.accounts.updateAccount(id, body), request);
  }

  @Post('accounts/:id/suspend')
  @HttpCode(200)
  async suspend(@Param('id') id: string, @Req() request: FastifyRequest) {
    return this.withLiveProcessor(await this.accounts.setAccountStatus(id, 'suspended'), request);
  }

  @Post('accounts/:id/reactivate')
  @HttpCode(200)
  async reactivate(@Param('id') id: string, @Req() request: FastifyRequest) {
    return this.withLiveProcessor(await this.accounts.setAccountStatus(id, 'active'), request);
  }

  @Post('accounts/:id/keys')
  @HttpCode(200)
  async createKey(@Param('id') id: string, @Body() body: CreateKeyDto) {
    const key = await this.accounts.createKey({
      account: id,
      livemode: body.mode === 'live',
      kind: body.kind,
      scopes: body.scopes,
      name: body.name,
      expires_at: body.expires_at,
    });
    return serializeKey(key);
  }

  @Get('accounts/:id/keys')
  async listKeys(@Param('id') id: string, @Query() query: ListQuery) {
    const page = await this.accounts.listKeys(id, query);
    return { object: page.object, data: page.data.map(serializeKey), has_more: page.has_more, url: page.url };
  }

  @Get('keys/:id')
  async getKey(@Param('id') id: string) {
    return serializeKey(await this.accounts.getKey(id));
  }

  @Post('keys/:id/roll')
  @HttpCode(200)
  async roll(@Param('id') id: string, @Body() body: RollKeyDto) {
    return serializeKey(await this.accounts.rollKey(id, body.grace_period_seconds ?? 0));
  }

  @Post('keys/:id/revoke')
  @HttpCode(200)
  async revoke(@Param('id') id: string) {
    return serializeKey(await this.accounts.revokeKey(id));
  }

  /** An account as every account route answers it: with `live_processor` (the list's shape). */
  private async withLiveProcessor(account: Parameters<typeof serializeAccount>[0], request: FastifyRequest) {
    const connected = await this.coverage.connectedAccounts(requestIdOf(request));
    return { ...serializeAccount(account), live_processor: liveProcessorOf(account.id, connected) };
  }
}
