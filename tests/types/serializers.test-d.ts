// Type test (ADR 0014): each serializer's return type is the type the contract's schema derives,
// so a field added to a serializer and not to the schema (or dropped, or of another type) fails
// `tsc`. Compiled by `npm run check:types` (part of `npm run lint`); nothing here runs. Every
// `@ts-expect-error` must meet an error, so cutting the link between a serializer and its schema
// fails this file too.

import type {
  Account,
  BillingHistoryItem,
  Customer,
  Dispute,
  Estimate,
  Invoice,
  Mandate,
  Merchant,
  PaymentLink,
  PortalSession,
  ProcessorConnection,
  Refund,
  Subscription,
  TestClock,
  Transaction,
  WebhookEndpoint,
} from '@paygrid/contracts';
import type { UpdateAccountDto } from '../../apps/invoicing/src/account/account.dto';
import type { serializeAccount } from '../../apps/invoicing/src/account/account-profile';
import type { CreateCustomerDto, UpdateCustomerDto } from '../../apps/invoicing/src/customers/customers.dto';
import type { CreateEstimateDto, UpdateEstimateDto } from '../../apps/invoicing/src/estimates/estimates.dto';
import type { CreateInvoiceDto, UpdateInvoiceDto } from '../../apps/invoicing/src/invoices/invoices.dto';
import type {
  CreateSubscriptionDto,
  UpdateSubscriptionDto,
} from '../../apps/invoicing/src/subscriptions/subscriptions.dto';
import type { CreateTestClockDto } from '../../apps/invoicing/src/test-clocks/test-clocks.dto';
import type { CreateMerchantDto, UpdateMerchantDto } from '../../apps/payments/src/merchants/merchants.dto';
import type {
  CreatePaymentLinkDto,
  UpdatePaymentLinkDto,
} from '../../apps/payments/src/payment-links/payment-links.dto';
import type {
  CreateProcessorConnectionDto,
  UpdateProcessorConnectionDto,
} from '../../apps/payments/src/processor-connections/processor-connections.dto';
import type { CreateRefundDto } from '../../apps/payments/src/refunds/refunds.dto';
import type {
  CreateWebhookEndpointDto,
  UpdateWebhookEndpointDto,
} from '../../apps/webhooks/src/endpoints/endpoints.dto';
import type {
  serializeBillingHistoryItem,
  serializeCustomer,
} from '../../apps/invoicing/src/customers/customers.service';
import type { serializeEstimate } from '../../apps/invoicing/src/estimates/estimate.serializer';
import type { serializeInvoice } from '../../apps/invoicing/src/invoices/invoice.serializer';
import type { PortalSessions } from '../../apps/invoicing/src/portal/portal-sessions';
import type { serializeSubscription } from '../../apps/invoicing/src/subscriptions/subscription.model';
import type { serializeTestClock } from '../../apps/invoicing/src/test-clocks/test-clocks.service';
import type { serializeDispute } from '../../apps/payments/src/disputes/dispute';
import type { serializeMandate } from '../../apps/payments/src/mandates/mandate';
import { serializeMerchant, type MerchantRow } from '../../apps/payments/src/merchants/merchants.service';
import type { serializePaymentLink } from '../../apps/payments/src/payment-links/payment-link';
import type { serializeProcessorConnection } from '../../apps/payments/src/processor-connections/processor-connections.service';
import type { serializeRefund } from '../../apps/payments/src/refunds/refunds.service';
import type { serializeTransaction } from '../../apps/payments/src/transactions/transaction';
import type { serializeEndpoint } from '../../apps/webhooks/src/endpoints/endpoint';

/** True only when A and B are the same type (not merely assignable either way). */
type Same<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
const same = <A, B>(proof: Same<A, B>) => proof;

// 1. Every serializer returns exactly its object's contract type. Removing a serializer's
//    return annotation makes its inferred type differ, and the line fails.
same<ReturnType<typeof serializeTransaction>, Transaction>(true);
same<ReturnType<typeof serializeRefund>, Refund>(true);
same<ReturnType<typeof serializeMerchant>, Merchant>(true);
same<ReturnType<typeof serializeDispute>, Dispute>(true);
same<ReturnType<typeof serializeMandate>, Mandate>(true);
same<ReturnType<typeof serializePaymentLink>, PaymentLink>(true);
same<ReturnType<typeof serializeProcessorConnection>, ProcessorConnection>(true);
same<ReturnType<typeof serializeInvoice>, Invoice>(true);
same<ReturnType<typeof serializeEstimate>, Estimate>(true);
same<ReturnType<typeof serializeSubscription>, Subscription>(true);
same<ReturnType<typeof serializeCustomer>, Customer>(true);
same<ReturnType<typeof serializeBillingHistoryItem>, BillingHistoryItem>(true);
same<ReturnType<typeof serializeAccount>, Account>(true);
same<ReturnType<typeof serializeTestClock>, TestClock>(true);
same<ReturnType<typeof serializeEndpoint>, WebhookEndpoint>(true);
same<Awaited<ReturnType<PortalSessions['create']>>, PortalSession>(true);

// 2. And that type rejects drift, written as serializers would write it.
type SerializedMerchant = ReturnType<typeof serializeMerchant>;

export function withExtraField(row: MerchantRow): SerializedMerchant {
  // @ts-expect-error `risk_score` is not in MerchantSchema: add it there first.
  return { ...serializeMerchant(row), risk_score: 12 };
}

export function withoutRequiredField(row: MerchantRow): SerializedMerchant {
  const { website: _website, ...rest } = serializeMerchant(row);
  // @ts-expect-error `website` is required (null when unknown), never left out.
  return rest;
}

export function withWrongType(row: MerchantRow): SerializedMerchant {
  // @ts-expect-error `is_default` is a boolean on the wire.
  return { ...serializeMerchant(row), is_default: 'yes' };
}

export function withValueOutsideEnum(row: MerchantRow): SerializedMerchant {
  // @ts-expect-error `business_type` is one of the schema's enum values.
  return { ...serializeMerchant(row), business_type: 'partnership' };
}

export function withNestedExtraField(row: MerchantRow): SerializedMerchant {
  const merchant = serializeMerchant(row);
  // @ts-expect-error strictObject closes nested objects too (`additionalProperties: false`).
  return { ...merchant, capabilities: { ...merchant.capabilities, transfers: 'active' } };
}

export function withBigintAmount(amount: bigint): Transaction['amount'] {
  // @ts-expect-error money is a bigint inside and an integer number on the wire (minorToJson).
  return amount;
}

export function withMetadataNumber(row: MerchantRow): SerializedMerchant {
  // @ts-expect-error metadata values are strings (the `$ref` to Metadata resolves).
  return { ...serializeMerchant(row), metadata: { order: 6735 } };
}

// 3. Request bodies stay class-validator DTOs (ADR 0014): each field a create or update body
//    accepts is a field of the object it writes, or one named here as request-only. A field added
//    to a DTO and forgotten in the contract's schema (so never shown back) fails here.
type RequestOnly<Dto, Object> = Exclude<keyof Dto, keyof Object>;
same<RequestOnly<CreateMerchantDto | UpdateMerchantDto, Merchant>, never>(true);
same<RequestOnly<CreatePaymentLinkDto, PaymentLink>, never>(true);
/** `active: false` deactivates the link, `true` reactivates it: the object shows `status`. */
same<RequestOnly<UpdatePaymentLinkDto, PaymentLink>, 'active'>(true);
same<RequestOnly<CreateRefundDto, Refund>, never>(true);
same<RequestOnly<CreateProcessorConnectionDto | UpdateProcessorConnectionDto, ProcessorConnection>, never>(
  true,
);
same<RequestOnly<CreateCustomerDto | UpdateCustomerDto, Customer>, never>(true);
/** `send` (default true) finalizes and e-mails at once, `false` keeps a draft: the object shows `status`, `sent_at`. */
same<RequestOnly<CreateInvoiceDto, Invoice>, 'send'>(true);
same<RequestOnly<UpdateInvoiceDto, Invoice>, never>(true);
same<RequestOnly<CreateEstimateDto | UpdateEstimateDto, Estimate>, never>(true);
/** Instructions for this change (the trial's length, how to prorate), not state of the object. */
same<RequestOnly<CreateSubscriptionDto, Subscription>, 'trial_period_days' | 'proration_behavior'>(true);
same<RequestOnly<UpdateSubscriptionDto, Subscription>, 'proration_behavior' | 'proration_date'>(true);
same<RequestOnly<CreateTestClockDto, TestClock>, never>(true);
same<RequestOnly<UpdateAccountDto, Account>, never>(true);
same<RequestOnly<CreateWebhookEndpointDto | UpdateWebhookEndpointDto, WebhookEndpoint>, never>(true);
