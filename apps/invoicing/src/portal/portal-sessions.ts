// Creating a portal session: the customer must be the caller's (another account's id is 404)
// and not archived; the answer is the signed link (portal-token.ts), Stripe's billing portal
// session the model.

import { ApiError, type Clock, type Tenant, type Tx } from '@paygrid/platform';
import type { CustomersService } from '../customers/customers.service';
import { PORTAL_SESSION_TTL_S, portalLink } from './portal-token';
import type { CreatePortalSessionDto } from './portal-sessions.dto';
import type { PortalSession } from '@paygrid/contracts';

export interface PortalSettings {
  secret: string;
  publicBaseUrl: string;
  clock: Clock;
}

export class PortalSessions {
  constructor(
    private readonly customers: CustomersService,
    private readonly settings: PortalSettings,
  ) {}

  /** `tx`: the idempotent request's transaction (docs/adr/0015), for the customer's read. */
  async create(
    tenant: Tenant,
    customerId: string,
    body: CreatePortalSessionDto,
    tx?: Tx,
  ): Promise<PortalSession> {
    const customer = await this.customers.get(tenant, customerId, tx);
    if (customer.deleted_at) {
      throw new ApiError(
        'invalid_state_transition',
        `Customer '${customerId}' is archived and has no portal.`,
      );
    }
    const now = this.settings.clock.now();
    const link = portalLink(
      this.settings.secret,
      this.settings.publicBaseUrl,
      {
        account: tenant.account,
        livemode: tenant.livemode,
        customer: customer.id,
        return_url: body.return_url ?? null,
        locale: body.locale ?? null,
      },
      now,
      body.expires_in ?? PORTAL_SESSION_TTL_S,
    );
    return {
      id: link.payload.session,
      object: 'portal_session' as const,
      livemode: tenant.livemode,
      customer: customer.id,
      url: link.url,
      return_url: link.payload.return_url,
      locale: link.payload.locale,
      expires_at: link.expires_at.toISOString(),
      created_at: now.toISOString(),
    };
  }
}
