// Event envelope, topics and the public event-type catalogue (docs/api.md §7).

import type { Grouping } from './groupings';

export const TOPICS = {
  paymentsEvents: 'payments.events.v1',
  invoicingEvents: 'invoicing.events.v1',
  webhooksEvents: 'webhooks.events.v1',
  paymentsCommands: 'payments.commands.v1',
} as const;
export type Topic = (typeof TOPICS)[keyof typeof TOPICS];

/** Every topic that carries public events (the webhooks service consumes them all). */
export const EVENT_TOPICS: readonly Topic[] = [
  TOPICS.paymentsEvents,
  TOPICS.invoicingEvents,
  TOPICS.webhooksEvents,
];

export const PAYMENTS_EVENT_TYPES = [
  'payment_link.created',
  'payment_link.updated',
  'payment_link.completed',
  'payment_link.expired',
  'payment.succeeded',
  'payment.failed',
  'refund.created',
  'refund.succeeded',
  'refund.failed',
  'dispute.created',
  'dispute.updated',
  'dispute.closed',
  'mandate.created',
  'mandate.canceled',
  'mandate.failed',
  'merchant.onboarding.updated',
] as const;

export const INVOICING_EVENT_TYPES = [
  'invoice.created',
  'invoice.finalized',
  'invoice.sent',
  'invoice.paid',
  'invoice.payment_failed',
  'invoice.voided',
  'invoice.marked_uncollectible',
  'invoice.overdue',
  'subscription.created',
  'subscription.updated',
  'subscription.renewed',
  'subscription.past_due',
  'subscription.paused',
  'subscription.resumed',
  'subscription.canceled',
  'subscription.trial_will_end',
  'estimate.created',
  'estimate.sent',
  'estimate.accepted',
  'estimate.declined',
  'estimate.expired',
  'estimate.invoiced',
  'customer.created',
  'customer.updated',
  'customer.deleted',
  'merchant.onboarding.updated',
] as const;

/** Events about the webhook system itself, sent to every grouping. */
export const PLATFORM_EVENT_TYPES = ['webhook_endpoint.disabled'] as const;

export type PaymentsEventType = (typeof PAYMENTS_EVENT_TYPES)[number];
export type InvoicingEventType = (typeof INVOICING_EVENT_TYPES)[number];
export type EventType = PaymentsEventType | InvoicingEventType | (typeof PLATFORM_EVENT_TYPES)[number];

export function eventTypesFor(groupings: readonly Grouping[]): EventType[] {
  const types = new Set<EventType>(PLATFORM_EVENT_TYPES);
  if (groupings.includes('payments')) PAYMENTS_EVENT_TYPES.forEach((t) => types.add(t));
  if (groupings.includes('invoicing')) INVOICING_EVENT_TYPES.forEach((t) => types.add(t));
  return [...types].sort();
}

/** The public event object, exactly as stored in the event log and delivered to webhooks. */
export interface EventEnvelope<T = Record<string, unknown>> {
  id: string;
  object: 'event';
  type: EventType;
  created_at: string;
  livemode: boolean;
  account: string;
  merchant?: string;
  data: { object: T; previous_attributes?: Record<string, unknown> };
}

/** Internal commands between services (not public; never delivered to webhooks). */
export interface CommandEnvelope<T = Record<string, unknown>> {
  id: string;
  type: string;
  created_at: string;
  livemode: boolean;
  account: string;
  data: T;
}
