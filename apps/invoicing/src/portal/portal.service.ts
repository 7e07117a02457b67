// What the customer portal (docs/adr/0013) shows and changes for one customer: its finalized
// invoices, its subscriptions (cancel at period end where the account allows it, and undo
// that), and its saved cards as the payments service's mandate events described them
// (invoicing.customer_cards, kept by the payments feed). Card changes themselves happen in
// the payments service's hosted form (CARD_UPDATE_TOKEN_PURPOSE); this service only links
// there. Subscription changes go through SubscriptionsService, so the merchant receives the
// same `subscription.updated` as from the API.

import { ApiError, type Database, type Tenant } from '@paygrid/platform';
import type { AccountProfileService } from '../account/account.service';
import { profileOf } from '../account/account-profile';
import type { CustomerRow } from '../customers/customers.service';
import type { InvoiceRow } from '../invoices/invoice.serializer';
import type { SubscriptionRow } from '../subscriptions/subscription.model';
import type { SubscriptionsService } from '../subscriptions/subscriptions.service';
import type { UpdateSubscriptionDto } from '../subscriptions/subscriptions.dto';

export interface CustomerCardRow {
  mandate_id: string;
  customer_id: string;
  status: 'active' | 'canceled' | 'failed';
  brand: string;
  last4: string;
  exp_month: number;
  exp_year: number;
  recurring: boolean;
}

export interface PortalData {
  customer: CustomerRow;
  invoices: InvoiceRow[];
  subscriptions: SubscriptionRow[];
  cards: CustomerCardRow[];
  /** Whether the account lets customers cancel at period end here (business profile). */
  cancelAllowed: boolean;
}

export type PortalAction = 'cancel' | 'resume';
export type PortalActionResult =
  { kind: 'done'; subscription: SubscriptionRow } | { kind: 'repeated' } | { kind: 'not_allowed' };

/** The portal lists this many of the newest invoices, subscriptions and cards (bounded work per page). */
const LIST_LIMIT = 50;

export class PortalService {
  constructor(
    private readonly db: Database,
    private readonly subscriptions: SubscriptionsService,
    private readonly profiles: AccountProfileService,
  ) {}

  async load(tenant: Tenant, customerId: string): Promise<PortalData | null> {
    const [customer] = await this.db.query<CustomerRow>(
      `select * from invoicing.customers where id = $1 and account_id = $2 and livemode = $3`,
      [customerId, tenant.account, tenant.livemode],
    );
    if (!customer || customer.deleted_at) return null;
    const args = [customerId, tenant.account, tenant.livemode];
    const [invoices, subscriptions, cards, profile] = await Promise.all([
      this.db.query<InvoiceRow>(
        `select * from invoicing.invoices
          where customer_id = $1 and account_id = $2 and livemode = $3 and status in ('open', 'paid', 'uncollectible')
          order by finalized_at desc nulls last, id desc limit ${LIST_LIMIT}`,
        args,
      ),
      this.db.query<SubscriptionRow>(
        `select * from invoicing.subscriptions
          where customer_id = $1 and account_id = $2 and livemode = $3
            and status not in ('canceled', 'incomplete_expired')
          order by created_at desc, id desc limit ${LIST_LIMIT}`,
        args,
      ),
      this.db.query<CustomerCardRow>(
        `select * from invoicing.customer_cards
          where customer_id = $1 and account_id = $2 and livemode = $3 and status = 'active'
          order by updated_at desc, mandate_id limit ${LIST_LIMIT}`,
        args,
      ),
      this.profiles.get(tenant.account),
    ]);
    return {
      customer,
      invoices,
      subscriptions,
      cards,
      cancelAllowed: profileOf(profile).portal_subscription_cancel === true,
    };
  }

  /** The customer's languages (none for an unknown customer). */
  async localesOf(tenant: Tenant, customerId: string): Promise<string[]> {
    const [row] = await this.db.query<{ preferred_locales: string[] }>(
      `select preferred_locales from invoicing.customers where id = $1 and account_id = $2 and livemode = $3`,
      [customerId, tenant.account, tenant.livemode],
    );
    return row?.preferred_locales ?? [];
  }

  /**
   * Cancel at period end, or undo it. `formTokenHash` makes the form single-use: a second
   * post of the same form changes nothing and answers `repeated`.
   */
  async act(
    tenant: Tenant,
    customerId: string,
    subscriptionId: string,
    action: PortalAction,
    formTokenHash: string,
    now: Date,
  ): Promise<PortalActionResult> {
    const data = await this.load(tenant, customerId);
    const subscription = data?.subscriptions.find((s) => s.id === subscriptionId);
    if (!data || !subscription || !data.cancelAllowed) return { kind: 'not_allowed' };
    const [fresh] = await this.db.query<{ token_hash: string }>(
      `insert into invoicing.portal_form_tokens (token_hash, customer_id, used_at) values ($1, $2, $3)
       on conflict (token_hash) do nothing returning token_hash`,
      [formTokenHash, customerId, now],
    );
    if (!fresh) return { kind: 'repeated' };
    try {
      const updated =
        action === 'cancel'
          ? await this.subscriptions.cancel(tenant, subscription.id, 'period_end')
          : await this.subscriptions.update(tenant, subscription.id, {
              cancel_at_period_end: false,
            } as UpdateSubscriptionDto);
      return { kind: 'done', subscription: updated };
    } catch (error) {
      // A state the subscription cannot leave (it ended meanwhile): nothing changed.
      if (error instanceof ApiError) return { kind: 'not_allowed' };
      throw error;
    }
  }
}
