// What the admin suite's case modules share: the platform and account that
// tests/integration/admin.test.ts starts once, and the merchant details the cases onboard.

import type { Platform, TestAccount } from '../../support/platform';

/** Filled in the test file's beforeAll; the cases read it when they run, not when registered. */
export interface AdminContext {
  platform: Platform;
  account: TestAccount;
}

export const MERCHANT = {
  business_name: 'Acme Ltd',
  email: 'ops@acme.test',
  country: 'GB',
  default_currency: 'GBP',
  business_type: 'company',
};
