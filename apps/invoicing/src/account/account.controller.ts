// HTTP only: the account's business profile (docs/api.md §5) and its public logo and brand
// stylesheet, which every hosted page of every service links to (docs/adr/0011).

import { Body, Controller, Delete, Get, HttpCode, Inject, Param, Post, Res } from '@nestjs/common';
import type { AuthenticatedContext } from '@paygrid/contracts';
import {
  brandCss,
  Caller,
  notFound,
  Operation,
  OperatorOnly,
  Public,
  RequestTx,
  RequireScope,
  sendStylesheet,
  tenantOf,
  type Tx,
} from '@paygrid/platform';
import type { FastifyReply } from 'fastify';
import { UpdateAccountDto, UploadLogoDto } from './account.dto';
import { AccountProfileService } from './account.service';

@Controller('v1/account')
export class AccountController {
  constructor(@Inject(AccountProfileService) private readonly profiles: AccountProfileService) {}

  @Get()
  @RequireScope('account:read')
  @Operation({
    summary: 'Retrieve the business profile',
    description:
      "The seller's identity that invoices, quotes, the checkout page, PDFs and e-mails show. One per account, the same in both modes; every field is null until set.",
    response: 'Account',
  })
  async get(@Caller() caller: AuthenticatedContext) {
    return this.profiles.serialize(caller.account, await this.profiles.get(caller.account));
  }

  @Post()
  @HttpCode(200)
  @RequireScope('account:write')
  @Operation({
    summary: 'Update the business profile',
    description:
      'Replaces the fields given (`null` clears one; `address` and `tax_ids` are replaced as a whole). Tax ids are checked against the format of their type (an `eu_vat` against its country prefix). A change emits `account.updated` with the previous values; finalized invoices keep the seller they were finalized with.',
    response: 'Account',
  })
  async update(
    @Caller() caller: AuthenticatedContext,
    @Body() body: UpdateAccountDto,
    @RequestTx() tx: Tx | undefined,
  ) {
    const row = await this.profiles.update(tenantOf(caller), caller.account_name, body, tx);
    return this.profiles.serialize(caller.account, row);
  }

  @Post('logo')
  @HttpCode(200)
  @RequireScope('account:write')
  @Operation({
    summary: 'Upload the logo',
    description:
      'The logo, base64-encoded in `file`: a PNG or JPEG (told by its first bytes) of at most 512 KiB. It is served at `logo_url`, a public URL that changes with the image.',
    response: 'Account',
    operationId: 'account.uploadLogo',
  })
  async uploadLogo(
    @Caller() caller: AuthenticatedContext,
    @Body() body: UploadLogoDto,
    @RequestTx() tx: Tx | undefined,
  ) {
    const row = await this.profiles.setLogo(tenantOf(caller), caller.account_name, body.file, tx);
    return this.profiles.serialize(caller.account, row);
  }

  @Delete('logo')
  @RequireScope('account:write')
  @Operation({
    summary: 'Remove the logo',
    description: 'The pages and documents show the name alone again.',
    response: 'Account',
    operationId: 'account.deleteLogo',
  })
  async deleteLogo(@Caller() caller: AuthenticatedContext) {
    const row = await this.profiles.deleteLogo(tenantOf(caller), caller.account_name);
    return this.profiles.serialize(caller.account, row);
  }
}

/** Public, like the pages that show them: the logo (immutable at its URL) and the brand colour. */
@Controller('i')
export class AccountBrandingController {
  constructor(@Inject(AccountProfileService) private readonly profiles: AccountProfileService) {}

  @Get('logos/:account/:digest')
  @Public()
  async logo(@Param('account') account: string, @Param('digest') digest: string, @Res() reply: FastifyReply) {
    const logo = await this.profiles.logo(account, digest);
    if (!logo) throw notFound('logo', digest);
    return reply
      .status(200)
      .header('content-type', logo.type)
      .header('cache-control', 'public, max-age=31536000, immutable')
      .header('x-content-type-options', 'nosniff')
      .header('content-security-policy', "default-src 'none'")
      .send(logo.bytes);
  }

  /** The colour is the address (`/i/brand/0a7c59.css`): nothing to look up, nothing revealed. */
  @Get('brand/:file')
  @Public()
  brand(@Param('file') file: string, @Res() reply: FastifyReply) {
    const color = /^([0-9a-f]{6})\.css$/.exec(file)?.[1];
    if (!color) throw notFound('stylesheet', file);
    return sendStylesheet(reply, brandCss(`#${color}`));
  }
}

/**
 * The operator's side (docs/api.md §2): only the gateway's admin API reaches it, with an
 * operator context; an API key's context gets 403. The change is emitted in test mode.
 */
@Controller('internal/accounts')
@OperatorOnly()
export class AccountProfileOperatorController {
  constructor(@Inject(AccountProfileService) private readonly profiles: AccountProfileService) {}

  @Get(':id/profile')
  async get(@Param('id') id: string) {
    return this.profiles.serialize(id, await this.profiles.get(id));
  }

  @Post(':id/profile')
  @HttpCode(200)
  async update(@Param('id') id: string, @Body() body: UpdateAccountDto) {
    return this.profiles.serialize(
      id,
      await this.profiles.update({ account: id, livemode: false }, null, body),
    );
  }
}
