// The mail retry schedule and the permanent-failure rule of the mail worker.

import { MAIL_RETRY_DELAYS_MS, nextMailAttemptAt } from '../../apps/invoicing/src/mail/mail.worker';
import { isPermanentSmtpError } from '../../apps/invoicing/src/mail/mail.transport';
import { formatRate } from '../../apps/invoicing/src/documents/format-rate';

const now = new Date('2026-01-01T00:00:00Z');

it('waits longer after each failure, within +-10 %, then gives up', () => {
  let previous = 0;
  MAIL_RETRY_DELAYS_MS.forEach((delay, i) => {
    expect(delay).toBeGreaterThan(previous);
    previous = delay;
    const low = nextMailAttemptAt(i + 1, now, () => 0);
    const high = nextMailAttemptAt(i + 1, now, () => 1);
    expect(low?.getTime()).toBe(now.getTime() + Math.round(delay * 0.9));
    expect(high?.getTime()).toBe(now.getTime() + Math.round(delay * 1.1));
  });
  expect(nextMailAttemptAt(MAIL_RETRY_DELAYS_MS.length + 1, now)).toBeUndefined();
});

it('treats SMTP 5xx as permanent and everything else as worth a retry', () => {
  expect(isPermanentSmtpError(Object.assign(new Error('no such user'), { responseCode: 550 }))).toBe(true);
  expect(isPermanentSmtpError(Object.assign(new Error('try later'), { responseCode: 451 }))).toBe(false);
  expect(isPermanentSmtpError(new Error('ECONNREFUSED'))).toBe(false);
  expect(isPermanentSmtpError(undefined)).toBe(false);
});

it('formats basis points as percentages without floats', () => {
  expect(formatRate(2000)).toBe('20%');
  expect(formatRate(825)).toBe('8.25%');
  expect(formatRate(1)).toBe('0.01%');
  expect(formatRate(10n)).toBe('0.1%');
  expect(formatRate(0)).toBe('0%');
  expect(formatRate(10_000)).toBe('100%');
});
