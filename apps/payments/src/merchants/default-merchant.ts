// Every account has a default merchant per mode (docs/api.md §5: "an account has a default
// merchant (itself)"), created on first need: the first payment link, test payment, invoice
// payment or merchant list. Race-free: the insert relies on the unique partial index
// merchants_one_default (account, mode) where is_default, so two first requests at once
// create one row and both read it.
//
// Its business_name is the account's name (AuthenticatedContext.account_name). In the
// sandbox it is `active` at once, so test payments work without onboarding. In live mode it
// starts `pending` with only the name: live payments need an active merchant (409
// merchant_not_active) until its details are completed (POST /v1/merchants/:id) and the
// operator approves it, as for any other live merchant.

import { newId, type Tx, type Tenant } from '@paygrid/platform';
import type { MerchantRow } from './merchants.service';

export async function ensureDefaultMerchant(
  tx: Tx,
  tenant: Tenant,
  accountName: string | undefined,
  now: Date,
): Promise<MerchantRow> {
  const [existing] = await tx.query<MerchantRow>(
    'select * from payments.merchants where account_id = $1 and livemode = $2 and is_default',
    [tenant.account, tenant.livemode],
  );
  if (existing) return existing;
  const sandbox = !tenant.livemode;
  await tx.query(
    `insert into payments.merchants (id, account_id, livemode, is_default, business_name, onboarding_status,
       decided_at, decision_reason, created_at, updated_at)
     values ($1, $2, $3, true, $4, $5, $6, $7, $8, $8)
     on conflict (account_id, livemode) where is_default do nothing`,
    [
      newId('mer'),
      tenant.account,
      tenant.livemode,
      accountName?.trim() || null,
      sandbox ? 'active' : 'pending',
      sandbox ? now : null,
      sandbox ? 'The sandbox default merchant is active at once.' : null,
      now,
    ],
  );
  const [row] = await tx.query<MerchantRow>(
    'select * from payments.merchants where account_id = $1 and livemode = $2 and is_default',
    [tenant.account, tenant.livemode],
  );
  return row;
}
