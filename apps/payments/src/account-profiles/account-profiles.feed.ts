// The payments side of the business profile (docs/adr/0011): invoicing owns the profile and
// publishes account.updated on invoicing.events.v1; this keeps the part the checkout page
// shows in payments.account_profiles, once per event (inbox), newest version wins. Consumed by
// AccountProfilesConsumer (account-profiles.consumer.ts).

import type { EventEnvelope } from '@paygrid/contracts';
import type { Tx } from '@paygrid/platform';

export const ACCOUNT_PROFILES_CONSUMER = 'payments.account-profiles';

/** The fields of the account object (GET /v1/account) this projection keeps. */
export interface AccountObject {
  object?: string;
  version?: number;
  trading_name?: string | null;
  legal_name?: string | null;
  logo_url?: string | null;
  brand_color?: string | null;
  support_email?: string | null;
  support_phone?: string | null;
  website?: string | null;
  statement_descriptor?: string | null;
  receipts?: { payments?: boolean } | null;
  updated_at?: string | null;
}

/** One invoicing event, inside the inbox transaction; anything but account.updated is ignored. */
export async function applyAccountEvent(event: EventEnvelope<AccountObject>, tx: Tx): Promise<void> {
  if (event.type !== 'account.updated') return;
  const account = event.data.object;
  if (typeof account.version !== 'number') return;
  await tx.query(
    `insert into payments.account_profiles (account_id, version, name, logo_url, brand_color, support_email,
       support_phone, website, statement_descriptor, receipts_payments, updated_at)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $11, $10)
     on conflict (account_id) do update set version = excluded.version, name = excluded.name,
       logo_url = excluded.logo_url, brand_color = excluded.brand_color, support_email = excluded.support_email,
       support_phone = excluded.support_phone, website = excluded.website,
       statement_descriptor = excluded.statement_descriptor, receipts_payments = excluded.receipts_payments,
       updated_at = excluded.updated_at
      where account_profiles.version < excluded.version`,
    [
      event.account,
      account.version,
      account.trading_name ?? account.legal_name ?? null,
      account.logo_url ?? null,
      account.brand_color ?? null,
      account.support_email ?? null,
      account.support_phone ?? null,
      account.website ?? null,
      account.statement_descriptor ?? null,
      account.updated_at ?? event.created_at,
      // Whether payment receipts are e-mailed (the checkout's success page says so); on by default.
      account.receipts?.payments ?? true,
    ],
  );
}
