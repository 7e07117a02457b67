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
  'payment.requires_action',
  'refund.created',
  'refund.succeeded',
  'refund.failed',
  'dispute.created',
  'dispute.updated',
  'dispute.closed',
  'mandate.created',
  'mandate.updated',
  'mandate.canceled',
  'mandate.failed',
  'merchant.onboarding.updated',
  'account.updated',
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
  'account.updated',
] as const;

/** Events about the webhook system itself, sent to every grouping. */
export const PLATFORM_EVENT_TYPES = ['webhook_endpoint.disabled'] as const;

/**
 * Sent only to one endpoint by `POST /v1/webhooks/:id/test`: never in the event log, never
 * subscribed to, but delivered and signed like the others, so it is part of the contract.
 */
export const DELIVERY_ONLY_EVENT_TYPES = ['webhook_endpoint.test'] as const;

export type PaymentsEventType = (typeof PAYMENTS_EVENT_TYPES)[number];
export type InvoicingEventType = (typeof INVOICING_EVENT_TYPES)[number];
export type EventType =
  | PaymentsEventType
  | InvoicingEventType
  | (typeof PLATFORM_EVENT_TYPES)[number]
  | (typeof DELIVERY_ONLY_EVENT_TYPES)[number];

/** Every event type a webhook endpoint can receive, sorted: the `type` enum of the contract. */
export const PUBLIC_EVENT_TYPES: readonly EventType[] = [
  ...new Set<EventType>([
    ...PAYMENTS_EVENT_TYPES,
    ...INVOICING_EVENT_TYPES,
    ...PLATFORM_EVENT_TYPES,
    ...DELIVERY_ONLY_EVENT_TYPES,
  ]),
].sort();

/**
 * The object each event type carries in `data.object` (a schema of docs/api.md), and whether
 * its emitters may add `previous_attributes`. A `Record` over the union, so a type added to
 * the catalogue without its payload fails `tsc`.
 */
export const EVENT_OBJECTS: Record<EventType, { object: string; previous: boolean }> = {
  'payment_link.created': { object: 'PaymentLink', previous: false },
  'payment_link.updated': { object: 'PaymentLink', previous: true },
  'payment_link.completed': { object: 'PaymentLink', previous: true },
  'payment_link.expired': { object: 'PaymentLink', previous: true },
  'payment.succeeded': { object: 'Transaction', previous: false },
  'payment.failed': { object: 'Transaction', previous: false },
  // 3-D Secure: the transaction waits for the payer (status requires_action).
  'payment.requires_action': { object: 'Transaction', previous: false },
  'dispute.created': { object: 'Dispute', previous: false },
  'dispute.updated': { object: 'Dispute', previous: false },
  'dispute.closed': { object: 'Dispute', previous: false },
  'refund.created': { object: 'Refund', previous: false },
  'refund.succeeded': { object: 'Refund', previous: false },
  'refund.failed': { object: 'Refund', previous: false },
  'mandate.created': { object: 'Mandate', previous: false },
  // The payer replaced the card (customer portal): previous_attributes.payment_method.
  'mandate.updated': { object: 'Mandate', previous: true },
  'mandate.canceled': { object: 'Mandate', previous: true },
  'mandate.failed': { object: 'Mandate', previous: true },
  'merchant.onboarding.updated': { object: 'Merchant', previous: true },
  'invoice.created': { object: 'Invoice', previous: false },
  'invoice.finalized': { object: 'Invoice', previous: false },
  'invoice.sent': { object: 'Invoice', previous: false },
  'invoice.paid': { object: 'Invoice', previous: false },
  'invoice.payment_failed': { object: 'Invoice', previous: false },
  'invoice.voided': { object: 'Invoice', previous: false },
  'invoice.marked_uncollectible': { object: 'Invoice', previous: false },
  'invoice.overdue': { object: 'Invoice', previous: false },
  'subscription.created': { object: 'Subscription', previous: false },
  // The billing engine's status changes (`eventForStatus`) carry `{ status }`, renewals the
  // previous period, updates what changed.
  'subscription.updated': { object: 'Subscription', previous: true },
  'subscription.renewed': { object: 'Subscription', previous: true },
  'subscription.past_due': { object: 'Subscription', previous: true },
  'subscription.paused': { object: 'Subscription', previous: true },
  'subscription.resumed': { object: 'Subscription', previous: true },
  'subscription.canceled': { object: 'Subscription', previous: true },
  'subscription.trial_will_end': { object: 'Subscription', previous: false },
  'estimate.created': { object: 'Estimate', previous: false },
  'estimate.sent': { object: 'Estimate', previous: false },
  'estimate.accepted': { object: 'Estimate', previous: false },
  'estimate.declined': { object: 'Estimate', previous: false },
  'estimate.expired': { object: 'Estimate', previous: false },
  'estimate.invoiced': { object: 'Estimate', previous: false },
  'customer.created': { object: 'Customer', previous: false },
  'customer.updated': { object: 'Customer', previous: true },
  'customer.deleted': { object: 'Customer', previous: false },
  // The business profile: every change names the fields that changed (ADR 0011).
  'account.updated': { object: 'Account', previous: true },
  'webhook_endpoint.disabled': { object: 'WebhookEndpoint', previous: false },
  'webhook_endpoint.test': { object: 'WebhookEndpoint', previous: false },
};

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
