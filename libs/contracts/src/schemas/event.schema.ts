// The event object (docs/api.md §7), exactly as the event log stores and serves it.

import { INVOICING_EVENT_TYPES, PAYMENTS_EVENT_TYPES, PLATFORM_EVENT_TYPES } from '../events';
import { idOf, listOf, strictObject, timestamp, type JsonSchema } from './json-schema';

const EVENT_TYPES = [
  ...new Set<string>([...PAYMENTS_EVENT_TYPES, ...INVOICING_EVENT_TYPES, ...PLATFORM_EVENT_TYPES]),
].sort();

const event = strictObject(
  {
    id: idOf('evt', 'Unique identifier; also the `webhook-id` of its deliveries.'),
    object: { type: 'string', const: 'event' },
    type: { type: 'string', enum: EVENT_TYPES },
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
          type: 'object',
          description: 'The object after the change, as its own endpoint returns it.',
        },
        previous_attributes: {
          type: 'object',
          description: 'The changed attributes before the change (updates only).',
        },
      },
    },
  },
  'Something that happened in the account; delivered to webhook endpoints and kept for 30 days.',
);

export const EventSchema: JsonSchema = {
  ...event,
  required: (event.required ?? []).filter((name) => name !== 'merchant'),
};

export const EventListSchema = listOf('Event', '/v1/events');
