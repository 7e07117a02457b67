// HTTP only: validate, call the service.

import { Body, Controller, Delete, Get, HttpCode, Inject, Param, Post, Query } from '@nestjs/common';
import type { AuthenticatedContext } from '@paygrid/contracts';
import { Caller, ListQuery, Operation, RequestTx, RequireScope, tenantOf, type Tx } from '@paygrid/platform';
import { CreateWebhookEndpointDto, UpdateWebhookEndpointDto } from './endpoints.dto';
import { EndpointsService } from './endpoints.service';

@Controller('v1/webhooks')
export class EndpointsController {
  constructor(@Inject(EndpointsService) private readonly endpoints: EndpointsService) {}

  @Post()
  @HttpCode(200)
  @RequireScope('webhooks:write')
  @Operation({
    summary: 'Create a webhook endpoint',
    description:
      'Registers a URL for the given event types (of the account\'s groupings, or `["*"]`). Live endpoints must be `https` and resolve only to public addresses. The answer carries the signing `secret`, shown only here and on rotation.',
    response: 'WebhookEndpoint',
  })
  create(
    @Caller() caller: AuthenticatedContext,
    @Body() body: CreateWebhookEndpointDto,
    @RequestTx() tx: Tx | undefined,
  ) {
    return this.endpoints.create(tenantOf(caller), caller.groupings, body, tx);
  }

  @Get()
  @RequireScope('webhooks:read')
  @Operation({
    summary: 'List webhook endpoints',
    description: 'Newest first.',
    response: 'WebhookEndpointList',
  })
  list(@Caller() caller: AuthenticatedContext, @Query() query: ListQuery) {
    return this.endpoints.list(tenantOf(caller), query);
  }

  @Post(':id/rotate-secret')
  @HttpCode(200)
  @RequireScope('webhooks:write')
  @Operation({
    summary: "Rotate a webhook endpoint's secret",
    description:
      'Returns the new `secret`. For 24 hours deliveries carry two signatures, one with each secret.',
    response: 'WebhookEndpoint',
  })
  rotate(@Caller() caller: AuthenticatedContext, @Param('id') id: string, @RequestTx() tx: Tx | undefined) {
    return this.endpoints.rotateSecret(tenantOf(caller), id, tx);
  }

  @Get(':id/deliveries')
  @RequireScope('webhooks:read')
  @Operation({
    summary: "List a webhook endpoint's deliveries",
    description: 'Newest first, each with every attempt (time, status, latency, first 1 KiB of the answer).',
    response: 'WebhookDeliveryList',
  })
  deliveries(@Caller() caller: AuthenticatedContext, @Param('id') id: string, @Query() query: ListQuery) {
    return this.endpoints.deliveries(tenantOf(caller), id, query);
  }

  @Post(':id/deliveries/:delivery_id/retry')
  @HttpCode(200)
  @RequireScope('webhooks:write')
  @Operation({
    summary: 'Retry a delivery',
    description: 'Makes the delivery due now, even if it failed for good.',
    response: 'WebhookDelivery',
  })
  retry(
    @Caller() caller: AuthenticatedContext,
    @Param('id') id: string,
    @Param('delivery_id') deliveryId: string,
    @RequestTx() tx: Tx | undefined,
  ) {
    return this.endpoints.retry(tenantOf(caller), id, deliveryId, tx);
  }

  @Post(':id/test')
  @HttpCode(200)
  @RequireScope('webhooks:write')
  @Operation({
    summary: 'Send a test event',
    description: 'Queues a `webhook_endpoint.test` event to the endpoint and returns its delivery.',
    response: 'WebhookDelivery',
  })
  test(@Caller() caller: AuthenticatedContext, @Param('id') id: string, @RequestTx() tx: Tx | undefined) {
    return this.endpoints.test(tenantOf(caller), id, tx);
  }

  /** Test mode only: a live key gets 404, as if the route did not exist. */
  @Post(':id/test-helpers/disable')
  @HttpCode(200)
  @RequireScope('webhooks:write')
  @Operation({
    summary: 'Disable a sandbox endpoint as failing (test mode only)',
    description:
      'Disables an enabled test-mode endpoint now, as the delivery worker disables one after 5 days in which every delivery to it failed: `status: disabled`, `disabled_reason` set, and the `webhook_endpoint.disabled` event. `POST /v1/webhooks/:id` with `disabled: false` enables it again. An endpoint that is not enabled is 409 `invalid_state_transition`. Live keys get 404 `resource_missing`.',
    response: 'WebhookEndpoint',
    errors: ['invalid_state_transition'],
  })
  disableSandbox(
    @Caller() caller: AuthenticatedContext,
    @Param('id') id: string,
    @RequestTx() tx: Tx | undefined,
  ) {
    return this.endpoints.disableAsFailing(tenantOf(caller), id, tx);
  }

  @Get(':id')
  @RequireScope('webhooks:read')
  @Operation({
    summary: 'Retrieve a webhook endpoint',
    description: 'The endpoint without its secret.',
    response: 'WebhookEndpoint',
  })
  get(@Caller() caller: AuthenticatedContext, @Param('id') id: string) {
    return this.endpoints.get(tenantOf(caller), id);
  }

  @Post(':id')
  @HttpCode(200)
  @RequireScope('webhooks:write')
  @Operation({
    summary: 'Update a webhook endpoint',
    description:
      'Changes the URL, event types or description; `disabled: true|false` disables or enables it.',
    response: 'WebhookEndpoint',
  })
  update(
    @Caller() caller: AuthenticatedContext,
    @Param('id') id: string,
    @Body() body: UpdateWebhookEndpointDto,
    @RequestTx() tx: Tx | undefined,
  ) {
    return this.endpoints.update(tenantOf(caller), caller.groupings, id, body, tx);
  }

  @Delete(':id')
  @HttpCode(200)
  @RequireScope('webhooks:write')
  @Operation({
    summary: 'Delete a webhook endpoint',
    description: 'Stops every delivery to it, including pending retries.',
    response: 'DeletedWebhookEndpoint',
  })
  remove(@Caller() caller: AuthenticatedContext, @Param('id') id: string) {
    return this.endpoints.remove(tenantOf(caller), id);
  }
}
