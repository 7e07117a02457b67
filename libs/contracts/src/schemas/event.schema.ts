// The event object (docs/api.md §7), exactly as the event log stores and serves it: one schema
// per event type (its `data.object` is the object as of the event, as its own endpoint returns
// it; `previous_attributes` where the type has them), and `Event`, their union discriminated
// on `type`. The OpenAPI document's `webhooks` section and the SDK's types come from here.

import { EVENT_OBJECTS, PUBLIC_EVENT_TYPES, type EventType } from '../events';
import { idOf, listOf, schemaRef, strictObject, timestamp, type JsonSchema } from './json-schema';

/** `payment_link.created` -> `PaymentLinkCreatedEvent`: the component name of a type's schema. */
export function eventSchemaName(type: EventType): string {
  const words = type.split(/[._]/).map((word) => word.charAt(0).toUpperCase() + word.slice(1));
  return `${words.join('')}Event`;
}

/** `PaymentLink` -> `PaymentLinkPreviousAttributes`. */
const previousName = (object: string) => `${object}PreviousAttributes`;

/**
 * The same schema with nothing required, at any depth: `previous_attributes` holds only the
 * attributes that changed (`{ onboarding: { status } }` of a merchant), each as it was.
 */
/**
 * `previous_attributes.metadata` holds the previous value of each key that changed, and null for
 * a key the change added (Stripe's convention; customers.service.ts writes it so), which the
 * object's own Metadata (string values) does not allow.
 */
const PREVIOUS_METADATA: JsonSchema = {
  type: 'object',
  description: 'The previous value of each metadata key that changed; null for a key the change added.',
  additionalProperties: { type: ['string', 'null'] },
};

export function deepPartial(schema: JsonSchema): JsonSchema {
  // Array elements too: a subscription's previous `items` carry only the fields that changed.
  if (schema.type === 'array' && schema.items && typeof schema.items === 'object')
    return { ...schema, items: deepPartial(schema.items as JsonSchema) };
  if (!schema.properties) return schema;
  const { required: _required, ...rest } = schema;
  return {
    ...rest,
    properties: Object.fromEntries(
      Object.entries(schema.properties).map(([name, property]) => [
        name,
        name === 'metadata' ? PREVIOUS_METADATA : deepPartial(property),
      ]),
    ),
  };
}

function eventOf(type: EventType): JsonSchema {
  const { object, previous } = EVENT_OBJECTS[type];
  const event = strictObject(
    {
      id: idOf('evt', 'Unique identifier; also the `webhook-id` of its deliveries.'),
      object: { type: 'string', const: 'event' },
      type: { type: 'string', const: type },
      created_at: timestamp('When it happened.'),
      livemode: { type: 'boolean' },
      account: idOf('acct', 'The account the event belongs to.'),
      merchant: idOf('mer', 'The merchant concerned, for payments events.'),
      data: {
        type: 'object',
        required: ['object'],
        additionalProperties: false,
        properties: {
          object: {
            ...schemaRef(object),
            description: `The ${object} after the change, as its own endpoint returns it.`,
          },
          ...(previous
            ? {
                previous_attributes: {
                  ...schemaRef(previousName(object)),
                  description: 'The attributes that changed, as they were before the change.',
                },
              }
            : {}),
        },
      },
    },
    `\`${type}\` (docs/api.md §7).`,
  );
  return { ...event, required: (event.required ?? []).filter((name) => name !== 'merchant') };
}

/** `PaymentLinkCreatedEvent`, ... one per public event type. */
export function eventSchemas(): Record<string, JsonSchema> {
  return Object.fromEntries(PUBLIC_EVENT_TYPES.map((type) => [eventSchemaName(type), eventOf(type)]));
}

/** `PaymentLinkPreviousAttributes`, ... one per object whose events carry them. */
export function previousAttributesSchemas(objects: Record<string, JsonSchema>): Record<string, JsonSchema> {
  const names = new Set(
    Object.values(EVENT_OBJECTS)
      .filter((entry) => entry.previous)
      .map((entry) => entry.object),
  );
  return Object.fromEntries(
    [...names].map((name) => {
      const source = objects[name];
      if (!source) throw new Error(`No schema for the event object ${name}.`);
      return [
        previousName(name),
        { ...deepPartial(source), description: `Attributes of a ${name} before a change.` },
      ];
    }),
  );
}

export const EventSchema: JsonSchema = {
  description:
    'Something that happened in the account; delivered to webhook endpoints and kept for 30 days. One schema per `type`.',
  oneOf: PUBLIC_EVENT_TYPES.map((type) => schemaRef(eventSchemaName(type))),
  // With the mapping: without it OpenAPI takes the schema names as the values of `type`.
  discriminator: {
    propertyName: 'type',
    mapping: Object.fromEntries(
      PUBLIC_EVENT_TYPES.map((type) => [type, schemaRef(eventSchemaName(type)).$ref]),
    ),
  },
};

export const EventListSchema = listOf('Event', '/v1/events');
