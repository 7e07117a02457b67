// The schemas of the public API's objects, each defined once. The OpenAPI document takes
// them from here, and tests validate real responses against them.

import { AccountSchema } from './account.schema';
import {
  BillingHistorySchema,
  CustomerListSchema,
  CustomerSchema,
  PortalSessionSchema,
} from './customer.schema';
import { DisputeListSchema, DisputeSchema } from './dispute.schema';
import { ErrorEnvelopeSchema } from './error.schema';
import { EstimateListSchema, EstimateSchema } from './estimate.schema';
import { EventListSchema, EventSchema, eventSchemas, previousAttributesSchemas } from './event.schema';
import { DeletedInvoiceSchema, InvoiceListSchema, InvoiceSchema } from './invoice.schema';
import { MetadataSchema, type JsonSchema } from './json-schema';
import { MandateListSchema, MandateSchema } from './mandate.schema';
import { MerchantListSchema, MerchantSchema } from './merchant.schema';
import { PaymentLinkListSchema, PaymentLinkSchema } from './payment-link.schema';
import { ProcessorConnectionListSchema, ProcessorConnectionSchema } from './processor-connection.schema';
import { RequestLogListSchema, RequestLogSchema } from './request-log.schema';
import { SubscriptionListSchema, SubscriptionPreviewSchema, SubscriptionSchema } from './subscription.schema';
import { TestClockListSchema, TestClockSchema } from './test-clock.schema';
import {
  RefundListSchema,
  RefundSchema,
  TransactionListSchema,
  TransactionSchema,
} from './transaction.schema';
import {
  DeletedWebhookEndpointSchema,
  WebhookDeliveryListSchema,
  WebhookDeliverySchema,
  WebhookEndpointListSchema,
  WebhookEndpointSchema,
} from './webhook.schema';

export * from './error.schema';
export { SUBSCRIPTION_STATUSES } from './subscription.schema';
export { TAX_CATEGORIES, TAX_ID_TYPES } from './document-parts';
export { eventSchemaName } from './event.schema';
export { SCHEMA_REF_PREFIX, schemaRef, type FromContract, type JsonSchema } from './json-schema';

// The type of each response object on the wire, derived from its schema above (ADR 0014): a
// serializer annotated with one fails `tsc` when it adds, drops or mistypes a field.
export type { Account } from './account.schema';
export type { BillingHistoryItem, Customer, PortalSession } from './customer.schema';
export type { Dispute } from './dispute.schema';
export type { Estimate } from './estimate.schema';
export type { DeletedInvoice, Invoice } from './invoice.schema';
export type { Mandate } from './mandate.schema';
export type { Merchant } from './merchant.schema';
export type { PaymentLink } from './payment-link.schema';
export type { ProcessorConnection } from './processor-connection.schema';
export type { RequestLog } from './request-log.schema';
export type { Subscription, SubscriptionPreview } from './subscription.schema';
export type { TestClock } from './test-clock.schema';
export type { Refund, Transaction } from './transaction.schema';
export type { DeletedWebhookEndpoint, WebhookDelivery, WebhookEndpoint } from './webhook.schema';

const OBJECT_SCHEMAS = {
  ErrorEnvelope: ErrorEnvelopeSchema,
  Metadata: MetadataSchema,
  Mandate: MandateSchema,
  MandateList: MandateListSchema,
  Merchant: MerchantSchema,
  MerchantList: MerchantListSchema,
  PaymentLink: PaymentLinkSchema,
  PaymentLinkList: PaymentLinkListSchema,
  ProcessorConnection: ProcessorConnectionSchema,
  ProcessorConnectionList: ProcessorConnectionListSchema,
  Transaction: TransactionSchema,
  TransactionList: TransactionListSchema,
  Refund: RefundSchema,
  RefundList: RefundListSchema,
  Dispute: DisputeSchema,
  DisputeList: DisputeListSchema,
  Event: EventSchema,
  EventList: EventListSchema,
  RequestLog: RequestLogSchema,
  RequestLogList: RequestLogListSchema,
  WebhookEndpoint: WebhookEndpointSchema,
  WebhookEndpointList: WebhookEndpointListSchema,
  DeletedWebhookEndpoint: DeletedWebhookEndpointSchema,
  WebhookDelivery: WebhookDeliverySchema,
  WebhookDeliveryList: WebhookDeliveryListSchema,
  Customer: CustomerSchema,
  CustomerList: CustomerListSchema,
  BillingHistory: BillingHistorySchema,
  PortalSession: PortalSessionSchema,
  Subscription: SubscriptionSchema,
  SubscriptionList: SubscriptionListSchema,
  SubscriptionPreview: SubscriptionPreviewSchema,
  TestClock: TestClockSchema,
  TestClockList: TestClockListSchema,
  Invoice: InvoiceSchema,
  InvoiceList: InvoiceListSchema,
  DeletedInvoice: DeletedInvoiceSchema,
  Estimate: EstimateSchema,
  EstimateList: EstimateListSchema,
  Account: AccountSchema,
} as const satisfies Record<string, JsonSchema>;

export const API_SCHEMAS = {
  ...OBJECT_SCHEMAS,
  ...eventSchemas(),
  ...previousAttributesSchemas(OBJECT_SCHEMAS),
} as Record<keyof typeof OBJECT_SCHEMAS, JsonSchema> & Record<string, JsonSchema>;

export type ApiSchemaName = keyof typeof OBJECT_SCHEMAS;
