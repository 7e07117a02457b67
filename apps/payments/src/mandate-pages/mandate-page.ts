// What a recurring payer's mandate page reads and does (mandate-page.controller.ts renders it):
// the mandate the sealed link names, in the link's account and mode, and its cancellation
// (mandate.canceled, as POST /v1/mandates/:id/cancel). Nothing else: no card is changed here.

import { ApiError } from '@paygrid/platform';
import type { MandateRow } from '../mandates/mandate';
import type { MandatesService } from '../mandates/mandates.service';
import type { MandatePageTokenPayload } from './mandate-page-token';

export class MandatePage {
  constructor(private readonly mandates: MandatesService) {}

  /** The link's mandate, or null when it is gone (never another account's: the tenant is sealed). */
  async find(link: MandatePageTokenPayload): Promise<MandateRow | null> {
    try {
      return await this.mandates.get(tenantOf(link), link.mandate);
    } catch (error) {
      if (error instanceof ApiError && error.code === 'resource_missing') return null;
      throw error;
    }
  }

  /** Cancels the mandate if it is active; a canceled or failed one is left as it is. */
  async cancel(link: MandatePageTokenPayload): Promise<MandateRow | null> {
    const mandate = await this.find(link);
    if (mandate?.status !== 'active') return mandate;
    try {
      return await this.mandates.cancel(tenantOf(link), mandate.id);
    } catch (error) {
      // It failed (its last retry) between the read and the cancel: shown as it now is.
      if (error instanceof ApiError && error.code === 'invalid_state_transition') return this.find(link);
      throw error;
    }
  }
}

const tenantOf = (link: MandatePageTokenPayload) => ({ account: link.account, livemode: link.livemode });
