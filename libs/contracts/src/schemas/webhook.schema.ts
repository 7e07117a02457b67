// Webhook endpoints and their deliveries (docs/api.md §7).

import {
  idOf,
  listOf,
  nullable,
  schemaRef,
  strictObject,
  timestamp,
  withoutRequired,
  type FromContract,
} from './json-schema';

const endpoint = strictObject(
  {
    id: idOf('we', 'Unique identifier.'),
    object: { type: 'string', const: 'webhook_endpoint' },
    livemode: { type: 'boolean' },
    url: { type: 'string', format: 'uri', description: 'Where events are POSTed.' },
    description: nullable({ type: 'string', maxLength: 500 }),
    enabled_events: {
      type: 'array',
      items: { type: 'string' },
      description: 'The event types delivered, or `["*"]` for every type of the account\'s groupings.',
      examples: [['merchant.onboarding.updated']],
    },
    status: { type: 'string', enum: ['enabled', 'disabled'] },
    disabled_reason: nullable({ type: 'string', description: 'Why the endpoint was disabled.' }),
    secret: {
      type: 'string',
      pattern: '^whsec_[A-Za-z0-9+/=]+$',
      description: 'The signing secret; returned only when the endpoint is created or its secret rotated.',
    },
    metadata: schemaRef('Metadata'),
    created_at: timestamp('Creation time.'),
    updated_at: timestamp('Last change.'),
  },
  'Where and which events are delivered, signed with the Standard Webhooks scheme.',
);

export const WebhookEndpointSchema = {
  ...endpoint,
  required: withoutRequired(endpoint, 'secret'),
};

export const WebhookEndpointListSchema = listOf('WebhookEndpoint', '/v1/webhooks');

export const DeletedWebhookEndpointSchema = strictObject(
  {
    id: idOf('we', 'The deleted endpoint.'),
    object: { type: 'string', const: 'webhook_endpoint' },
    deleted: { type: 'boolean', const: true },
  },
  'A deleted webhook endpoint.',
);

const attempt = strictObject(
  {
    attempted_at: timestamp('When the request was sent.'),
    status_code: nullable({ type: 'integer', description: 'The HTTP status answered, if any.' }),
    latency_ms: { type: 'integer', minimum: 0 },
    response_excerpt: nullable({ type: 'string', description: 'The first 1 KiB of the response body.' }),
    error: nullable({
      type: 'string',
      description: 'Why no answer was received (time-out, refused target, ...).',
    }),
  },
  'One HTTP attempt of a delivery.',
);

export const WebhookDeliverySchema = strictObject(
  {
    id: idOf('del', 'Unique identifier.'),
    object: { type: 'string', const: 'webhook_delivery' },
    livemode: { type: 'boolean' },
    endpoint: idOf('we', 'The endpoint delivered to.'),
    event: idOf('evt', 'The event delivered; also the `webhook-id` header.'),
    event_type: { type: 'string' },
    status: { type: 'string', enum: ['pending', 'succeeded', 'failed'] },
    attempt_count: { type: 'integer', minimum: 0 },
    next_attempt_at: nullable(timestamp('When the next attempt is due, while pending.')),
    last_attempt_at: nullable(timestamp('When the last attempt was made.')),
    attempts: { type: 'array', items: attempt, description: 'Every attempt, oldest first.' },
    created_at: timestamp('Creation time.'),
  },
  'The delivery of one event to one endpoint, with every attempt.',
);

export const WebhookDeliveryListSchema = strictObject(
  {
    object: { type: 'string', const: 'list' },
    data: { type: 'array', items: schemaRef('WebhookDelivery'), description: 'Newest first.' },
    has_more: { type: 'boolean', description: 'Whether another page follows this one.' },
    url: {
      type: 'string',
      pattern: '^/v1/webhooks/we_[0-9A-Za-z]{8,64}/deliveries$',
      description: 'The list endpoint.',
    },
  },
  'A page of WebhookDelivery objects.',
);

/** The type of the webhook endpoint on the wire, derived from its schema: what `serializeEndpoint` returns. */
export type WebhookEndpoint = FromContract<typeof WebhookEndpointSchema>;

/** The type of a deleted webhook endpoint on the wire, derived from its schema. */
export type DeletedWebhookEndpoint = FromContract<typeof DeletedWebhookEndpointSchema>;

/** The type of a webhook delivery on the wire, derived from its schema. */
export type WebhookDelivery = FromContract<typeof WebhookDeliverySchema>;
