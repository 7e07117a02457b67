// The subscription object and the preview of a change (docs/api.md §6), exactly as the
// invoicing service serialises them.

import { idOf, listOf, nullable, schemaRef, strictObject, timestamp, type FromContract } from './json-schema';

/** The subscription states of docs/api.md §6 (transitions: invoicing's subscription-states.ts). */
export const SUBSCRIPTION_STATUSES = [
  'trialing',
  'active',
  'incomplete',
  'incomplete_expired',
  'past_due',
  'unpaid',
  'canceled',
  'paused',
] as const;

const currency = { type: 'string', pattern: '^[A-Z]{3}$', description: 'ISO 4217.' } as const;
const interval = { type: 'string', enum: ['day', 'week', 'month', 'year'] } as const;
const minor = (description: string) => ({ type: 'integer', description }) as const;

export const SubscriptionSchema = strictObject(
  {
    id: idOf('sub', 'Unique identifier.'),
    object: { type: 'string', const: 'subscription' },
    livemode: { type: 'boolean' },
    customer: idOf('cus', 'The customer billed.'),
    test_clock: nullable(idOf('clock', "The customer's test clock: the subscription lives at its time.")),
    status: { type: 'string', enum: [...SUBSCRIPTION_STATUSES] },
    currency,
    items: {
      type: 'array',
      items: strictObject({
        description: { type: 'string' },
        unit_amount: minor('Per unit and period, minor units.'),
        currency,
        quantity: { type: 'integer', minimum: 1 },
        interval,
        interval_count: { type: 'integer', minimum: 1 },
      }),
    },
    interval,
    interval_count: { type: 'integer', minimum: 1 },
    time_zone: { type: 'string', description: 'IANA zone the periods are computed in.' },
    billing_cycle_anchor: timestamp('Periods are computed from this instant (month-end clamped).'),
    start_date: timestamp('When the subscription was created (its clock time).'),
    trial_start: nullable(timestamp('Start of the trial.')),
    trial_end: nullable(timestamp('End of the trial.')),
    current_period_start: nullable(timestamp('Start of the period billed last (or of the trial).')),
    current_period_end: nullable(timestamp('End of that period: the next renewal.')),
    collection_method: { type: 'string', enum: ['charge_automatically', 'send_invoice'] },
    days_until_due: nullable({ type: 'integer', minimum: 0 }),
    dunning_end_state: {
      type: 'string',
      enum: ['unpaid', 'canceled'],
      description: 'What the subscription becomes when the last dunning retry fails.',
    },
    latest_invoice: nullable(idOf('inv', 'The last invoice billing created for it.')),
    pending_credit: minor('Credit (from downgrades) deducted from the next invoices, minor units.'),
    cancel_at_period_end: { type: 'boolean' },
    canceled_at: nullable(timestamp('When it was canceled.')),
    ended_at: nullable(timestamp('When it ended.')),
    paused_at: nullable(timestamp('When it was paused.')),
    next_action_at: nullable(timestamp('When the billing engine next acts on it.')),
    metadata: schemaRef('Metadata'),
    created_at: timestamp('Creation time.'),
    updated_at: timestamp('Last change.'),
  },
  'Recurring billing of a customer: one invoice per period, computed from the anchor.',
);

export const SubscriptionListSchema = listOf('Subscription', '/v1/subscriptions');

const composed = (description: string) =>
  strictObject(
    {
      lines: {
        type: 'array',
        items: strictObject({
          description: { type: 'string' },
          quantity: { type: 'integer' },
          unit_amount: { type: 'integer' },
        }),
      },
      subtotal: minor('Sum of the lines.'),
      discount: minor('Credit applied (unused time, earlier credit), at most the subtotal.'),
      total: minor('subtotal - discount.'),
      credit_left: minor('Credit carried to later invoices.'),
    },
    description,
  );

export const SubscriptionPreviewSchema = strictObject(
  {
    object: { type: 'string', const: 'subscription_preview' },
    subscription: idOf('sub', 'The subscription.'),
    currency,
    proration_behavior: { type: 'string', enum: ['create_prorations', 'none', 'always_invoice'] },
    proration_date: nullable(timestamp('The instant the change is prorated at; pass it to the change.')),
    proration_lines: {
      type: 'array',
      items: strictObject({
        description: { type: 'string' },
        amount: minor('Negative: unused time credited.'),
        period_start: timestamp('From.'),
        period_end: timestamp('To.'),
      }),
    },
    invoice_now: nullable(composed('The invoice `always_invoice` creates at once.')),
    next_invoice: {
      ...composed('The next renewal invoice.'),
      properties: {
        ...composed('').properties,
        period_start: timestamp('Start of the next period.'),
        period_end: timestamp('Its end.'),
      },
      required: [...composed('').required, 'period_start', 'period_end'] as const,
    },
  },
  'What a change to a subscription bills, computed by the same code as the change.',
);

/** The type of the subscription on the wire, derived from its schema: what `serializeSubscription` returns. */
export type Subscription = FromContract<typeof SubscriptionSchema>;

/** The type of a subscription preview on the wire, derived from its schema. */
export type SubscriptionPreview = FromContract<typeof SubscriptionPreviewSchema>;
