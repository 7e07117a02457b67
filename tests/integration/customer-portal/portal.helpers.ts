// What the customer portal suite's case modules share: the platform, account and SMTP sink
// that tests/integration/customer-portal.test.ts starts once, and the merchant's API calls.

import type { Platform, TestAccount } from '../../support/platform';
import type { SmtpSink } from '../../support/smtp-sink';

/** Filled in the test file's beforeAll; the cases read it when they run, not when registered. */
export interface PortalContext {
  platform: Platform;
  account: TestAccount;
  smtp: SmtpSink;
}

/** `api(method, path, body)`: a call with the account's test key. */
export const merchantApi = (ctx: () => PortalContext) => (method: string, path: string, body?: unknown) =>
  ctx().platform.api(ctx().account.testKey, method, path, body);
