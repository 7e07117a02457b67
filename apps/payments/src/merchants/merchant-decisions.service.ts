// The operator's onboarding decisions on a merchant (docs/api.md §5: live onboarding waits
// for them; active <-> restricted is the operator's alone). The operator is not tenant-scoped:
// merchant ids are globally unique, so the id alone names the merchant.

import { notFound, type Clock, type Database } from '@paygrid/platform';
import type { OnboardingStatus } from './onboarding';
import { MerchantsService, type MerchantRow } from './merchants.service';

export const OPERATOR_DECISIONS = ['approve', 'reject', 'restrict'] as const;
export type OperatorDecision = (typeof OPERATOR_DECISIONS)[number];

/**
 * The status each decision moves to. Which moves are allowed is onboarding.ts's TRANSITIONS:
 * approve from in_review or restricted, reject from in_review, restrict from active;
 * anything else is 409 invalid_state_transition.
 */
const TARGET: Record<OperatorDecision, OnboardingStatus> = {
  approve: 'active',
  reject: 'rejected',
  restrict: 'restricted',
};

export class MerchantDecisionsService {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    private readonly merchants: MerchantsService,
  ) {}

  /** Applies the decision under a row lock; the event is written in the same transaction. */
  async decide(id: string, decision: OperatorDecision, reason: string | null): Promise<MerchantRow> {
    return this.db.transaction(async (tx) => {
      const [row] = await tx.query<MerchantRow>('select * from payments.merchants where id = $1 for update', [
        id,
      ]);
      if (!row) throw notFound('merchant', id);
      return this.merchants.transition(tx, row, TARGET[decision], this.clock.now(), reason);
    });
  }
}
