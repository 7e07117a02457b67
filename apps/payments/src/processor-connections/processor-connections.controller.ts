// HTTP only: validate, call the service, serialise (docs/api.md Part 2, processor connections).

import { Body, Controller, Get, HttpCode, Inject, Param, Post, Query } from '@nestjs/common';
import type { AuthenticatedContext } from '@paygrid/contracts';
import {
  Caller,
  ListQuery,
  Operation,
  OwnIdempotency,
  RequestTx,
  RequireScope,
  tenantOf,
  type Tx,
  listOf,
} from '@paygrid/platform';
import { CreateProcessorConnectionDto, UpdateProcessorConnectionDto } from './processor-connections.dto';
import { ProcessorConnectionsService, serializeProcessorConnection } from './processor-connections.service';

@Controller('v1/processor-connections')
export class ProcessorConnectionsController {
  constructor(
    @Inject(ProcessorConnectionsService) private readonly connections: ProcessorConnectionsService,
  ) {}

  @Post()
  @HttpCode(200)
  @RequireScope('processor_connections:write')
  @Operation({
    summary: 'Connect a payment processor',
    description:
      "Stores the processor's credentials for the key's mode, sealed at rest and never returned (only `credentials.secret_key_last4`). The new connection is the one in use: a previous connection of the mode that is not disabled is disabled in the same step. Live payments of the account go to the active live connection. Nothing is sent to the processor: `POST /v1/processor-connections/{id}/verify` checks the credentials.",
    response: 'ProcessorConnection',
    errors: ['processor_secrets_unavailable'],
  })
  async create(
    @Caller() caller: AuthenticatedContext,
    @Body() body: CreateProcessorConnectionDto,
    @RequestTx() tx: Tx | undefined,
  ) {
    return serializeProcessorConnection(await this.connections.create(tenantOf(caller), body, tx));
  }

  @Get()
  @RequireScope('processor_connections:read')
  @Operation({
    summary: 'List processor connections',
    description: 'Newest first.',
    response: 'ProcessorConnectionList',
  })
  async list(@Caller() caller: AuthenticatedContext, @Query() query: ListQuery) {
    const page = await this.connections.list(tenantOf(caller), query);
    return listOf(page, serializeProcessorConnection);
  }

  @Get(':id')
  @RequireScope('processor_connections:read')
  @Operation({
    summary: 'Retrieve a processor connection',
    description:
      "The connection without its credentials: the key's last 4, the processor's account id once verified.",
    response: 'ProcessorConnection',
  })
  async get(@Caller() caller: AuthenticatedContext, @Param('id') id: string) {
    return serializeProcessorConnection(await this.connections.get(tenantOf(caller), id));
  }

  @Post(':id')
  @HttpCode(200)
  @RequireScope('processor_connections:write')
  @Operation({
    summary: 'Update a processor connection',
    description:
      'Changes the description, or rotates the credentials in place (sealed again; the verification starts again as `unverified`, and a `failing` connection is `active` again). A disabled connection cannot take new credentials (409 `invalid_state_transition`).',
    response: 'ProcessorConnection',
    errors: ['invalid_state_transition', 'processor_secrets_unavailable'],
  })
  async update(
    @Caller() caller: AuthenticatedContext,
    @Param('id') id: string,
    @Body() body: UpdateProcessorConnectionDto,
    @RequestTx() tx: Tx | undefined,
  ) {
    return serializeProcessorConnection(await this.connections.update(tenantOf(caller), id, body, tx));
  }

  @Post(':id/disable')
  @HttpCode(200)
  @RequireScope('processor_connections:write')
  @Operation({
    summary: 'Disable a processor connection',
    description:
      'From now on no payment goes to it; live payments of the account are refused (409 `processor_not_configured`) until another connection is created. Disabling a disabled connection answers it unchanged.',
    response: 'ProcessorConnection',
  })
  async disable(
    @Caller() caller: AuthenticatedContext,
    @Param('id') id: string,
    @RequestTx() tx: Tx | undefined,
  ) {
    return serializeProcessorConnection(await this.connections.disable(tenantOf(caller), id, tx));
  }

  @Post(':id/verify')
  @HttpCode(200)
  @RequireScope('processor_connections:write')
  // Calls the processor: never inside the request-wide transaction (docs/style.md rule 5). A
  // verification is a check, repeated as often as asked; there is no write to replay.
  @OwnIdempotency()
  @Operation({
    summary: 'Verify a processor connection',
    description:
      "Calls the processor with the stored credentials (Stripe: `GET /v1/account`) and records the answer in `verification`: `succeeded` with the processor's account id in `processor_account`, or `failed` with why. A refused key is an answer, not an error.",
    response: 'ProcessorConnection',
  })
  async verify(@Caller() caller: AuthenticatedContext, @Param('id') id: string) {
    return serializeProcessorConnection(await this.connections.verify(tenantOf(caller), id));
  }
}
