// Merchants and their onboarding. Every status change emits merchant.onboarding.updated
// (with previous_attributes) through the outbox, in the same transaction as the change.

import { TOPICS, type Merchant } from '@paygrid/contracts';
import {
  ApiError,
  type Clock,
  type Database,
  emitEvent,
  findOwned,
  isoOrNull,
  type ListQuery,
  lockOwned,
  newId,
  paginateOwned,
  type Tx,
  type Tenant,
  iso,
} from '@paygrid/platform';
import { canTransition, requirementsDue, sandboxDecision, type OnboardingStatus } from './onboarding';
import type { MerchantDetailsDto } from './merchants.dto';

export interface MerchantRow {
  id: string;
  account_id: string;
  livemode: boolean;
  is_default: boolean;
  business_name: string | null;
  email: string | null;
  country: string | null;
  default_currency: string | null;
  business_type: Merchant['business_type'];
  website: string | null;
  onboarding_status: OnboardingStatus;
  submitted_at: Date | null;
  decided_at: Date | null;
  decision_reason: string | null;
  metadata: Record<string, string>;
  created_at: Date;
  updated_at: Date;
}

export function serializeMerchant(m: MerchantRow): Merchant {
  const due = requirementsDue(m);
  const capability =
    m.onboarding_status === 'active'
      ? 'active'
      : m.onboarding_status === 'in_review' || m.onboarding_status === 'pending'
        ? 'pending'
        : 'inactive';
  return {
    id: m.id,
    object: 'merchant',
    livemode: m.livemode,
    is_default: m.is_default,
    business_name: m.business_name,
    email: m.email,
    country: m.country,
    default_currency: m.default_currency,
    business_type: m.business_type,
    website: m.website,
    onboarding: {
      status: m.onboarding_status,
      requirements_due: due,
      submitted_at: isoOrNull(m.submitted_at),
      decided_at: isoOrNull(m.decided_at),
      reason: m.decision_reason,
    },
    capabilities: { card_payments: capability, payouts: capability },
    metadata: m.metadata,
    created_at: iso(m.created_at),
    updated_at: iso(m.updated_at),
  };
}

const DETAIL_FIELDS = [
  'business_name',
  'email',
  'country',
  'default_currency',
  'business_type',
  'website',
] as const;

export class MerchantsService {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
  ) {}

  /** `tx`: the idempotent request's transaction (docs/adr/0015). */
  async create(tenant: Tenant, details: MerchantDetailsDto, tx?: Tx): Promise<MerchantRow> {
    return this.db.transaction(
      async (tx) => {
        const now = this.clock.now();
        const values = DETAIL_FIELDS.map((f) => details[f] ?? null);
        const [row] = await tx.query<MerchantRow>(
          `insert into payments.merchants (id, account_id, livemode, ${DETAIL_FIELDS.join(', ')}, metadata, created_at, updated_at)
         values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $11) returning *`,
          [newId('mer'), tenant.account, tenant.livemode, ...values, details.metadata ?? {}, now],
        );
        return this.advance(tx, row, now);
      },
      { in: tx },
    );
  }

  async update(tenant: Tenant, id: string, details: MerchantDetailsDto, tx?: Tx): Promise<MerchantRow> {
    return this.db.transaction(
      async (tx) => {
        const current = await this.lock(tx, tenant, id);
        const now = this.clock.now();
        const sets: string[] = [];
        const params: unknown[] = [current.id];
        for (const field of DETAIL_FIELDS) {
          if (details[field] !== undefined) {
            params.push(details[field]);
            sets.push(`${field} = $${params.length}`);
          }
        }
        if (details.metadata !== undefined) {
          params.push(details.metadata);
          sets.push(`metadata = metadata || $${params.length}::jsonb`);
        }
        if (!sets.length) return current;
        params.push(now);
        const [row] = await tx.query<MerchantRow>(
          `update payments.merchants set ${sets.join(', ')}, updated_at = $${params.length} where id = $1 returning *`,
          params,
        );
        return this.advance(tx, row, now);
      },
      { in: tx },
    );
  }

  async get(tenant: Tenant, id: string): Promise<MerchantRow> {
    return findOwned<MerchantRow>(this.db, 'payments.merchants', tenant, id, 'merchant');
  }

  list(tenant: Tenant, query: ListQuery) {
    return paginateOwned<MerchantRow>(this.db, tenant, {
      table: 'payments.merchants',
      list: query,
      url: '/v1/merchants',
    });
  }

  private async lock(tx: Tx, tenant: Tenant, id: string): Promise<MerchantRow> {
    return lockOwned<MerchantRow>(tx, 'payments.merchants', tenant, id, 'merchant');
  }

  /**
   * Moves onboarding forward once every requirement is in: to in_review, and in the
   * sandbox straight on to the decision. Each step emits its own event.
   */
  private async advance(tx: Tx, row: MerchantRow, now: Date): Promise<MerchantRow> {
    let current = row;
    if (current.onboarding_status === 'pending' && requirementsDue(current).length === 0) {
      current = await this.transition(tx, current, 'in_review', now, null);
    }
    if (current.onboarding_status === 'in_review' && !current.livemode) {
      const decision = sandboxDecision(current.email);
      current = await this.transition(tx, current, decision.status, now, decision.reason);
    }
    return current;
  }

  async transition(
    tx: Tx,
    row: MerchantRow,
    to: OnboardingStatus,
    now: Date,
    reason: string | null,
  ): Promise<MerchantRow> {
    if (!canTransition(row.onboarding_status, to)) {
      throw new ApiError(
        'invalid_state_transition',
        `A merchant in ${row.onboarding_status} cannot move to ${to}.`,
      );
    }
    const [updated] = await tx.query<MerchantRow>(
      `update payments.merchants set onboarding_status = $2, updated_at = $3,
         submitted_at = case when $2 = 'in_review' then $3 else submitted_at end,
         decided_at = case when $2 in ('active', 'rejected', 'restricted') then $3 else decided_at end,
         decision_reason = $4
       where id = $1 returning *`,
      [row.id, to, now, reason],
    );
    await emitEvent(tx, TOPICS.paymentsEvents, {
      type: 'merchant.onboarding.updated',
      account: row.account_id,
      livemode: row.livemode,
      merchant: row.id,
      object: serializeMerchant(updated),
      previous_attributes: { onboarding: { status: row.onboarding_status } },
      at: now,
    });
    return updated;
  }
}
