// The sandbox's test helper for a recurring mandate (POST /v1/mandates/:id/test-helpers/charge):
// its next scheduled attempt (the next cycle, or the retry of a failed one) is due now, and the
// scheduler's own code charges it (MandateCharges.chargeDue, limited to this mandate), as
// Stripe's test clocks let a subscription's renewal run without waiting for its date. So the
// failure policy of cycle.ts is reached in seconds: with a card whose later charges fail
// (4000 0000 0000 0341), the third call fails the mandate (mandate.failed). Only the attempt's
// date moves; the cycle dates stay anchored where they were (cycle.ts).

import { ApiError, type Clock, type Database, type Tenant } from '@paygrid/platform';
import type { MandateRow } from './mandate';
import type { MandateCharges } from './mandate-charges';

export async function chargeSandboxMandateNow(
  deps: { db: Database; clock: Clock; charges: Pick<MandateCharges, 'chargeDue'> },
  tenant: Tenant,
  id: string,
): Promise<MandateRow> {
  const { db, clock, charges } = deps;
  // Test mode's mandates only: a live key sees none here (404, as for an id it cannot see).
  const notFound = () => new ApiError('resource_missing', `No such mandate: '${id}'`, 'id');
  if (tenant.livemode) throw notFound();
  await db.transaction(async (tx) => {
    const [mandate] = await tx.query<MandateRow & { charging: boolean }>(
      `select m.*, exists (select 1 from payments.mandate_charges c where c.mandate_id = m.id and c.status = 'pending')
              as charging
         from payments.mandates m where m.id = $1 and m.account_id = $2 and m.livemode = false for update`,
      [id, tenant.account],
    );
    if (!mandate) throw notFound();
    if (mandate.status !== 'active' || mandate.next_charge_at === null) {
      throw new ApiError(
        'invalid_state_transition',
        mandate.status !== 'active'
          ? `A mandate that is ${mandate.status} is never charged again.`
          : 'This mandate has no schedule: an on_demand mandate is charged per invoice, not by cycles.',
      );
    }
    if (mandate.charging) {
      throw new ApiError(
        'invalid_state_transition',
        "The mandate's previous charge is still in progress; try again when it has an outcome.",
      );
    }
    await tx.query('update payments.mandates set next_charge_at = $2, updated_at = $2 where id = $1', [
      id,
      clock.now(),
    ]);
  });
  await charges.chargeDue(1, id);
  const [after] = await db.query<MandateRow>('select * from payments.mandates where id = $1', [id]);
  return after;
}
