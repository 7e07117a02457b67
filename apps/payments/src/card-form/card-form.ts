// What the two card forms of this service share (the hosted checkout /pay/<link> and an
// invoice's card form /pay/invoices/<token>): reading the posted card, the refusal pages of a
// stale form, the charge with its client errors turned into pages, the wait for a first
// submission after a double click, and the words of a declined payment. The card number and
// CVC live only in the request's memory: never logged, stored or echoed back into a form.

import { ApiError, CATALOGUES, formField, localizedPaymentMessage, type Messages } from '@paygrid/platform';
import type { CardDetails } from '../connectors/connector';
import type { TransactionRow } from '../transactions/transaction';
import { messagePage, renderMessage } from './card-form.page';

/**
 * The purpose every card form's CSRF token (a platform form token) is signed for; the subject
 * tells the forms apart: a payment link id, or `invoice:<hash of the invoice token>`.
 */
export const CARD_FORM_TOKEN_PURPOSE = 'paygrid-checkout';

/** The 400 message of a form whose card fields are missing or malformed. */
export const CARD_INCOMPLETE = CATALOGUES.en['pay.card_incomplete'];

/** The form shown again after a double click whose first submission was refused before charging. */
export const CHECK_CARD_AGAIN = CATALOGUES.en['pay.check_card_again'];

/** The card fields as posted, or undefined when one is missing or malformed (two-digit years are 20xx). */
export function parseCard(form: Record<string, unknown>): CardDetails | undefined {
  const number = formField(form, 'card_number');
  const month = Number(formField(form, 'exp_month'));
  const year = Number(formField(form, 'exp_year'));
  const cvc = formField(form, 'cvc');
  if (
    !/^[\d -]{12,23}$/.test(number) ||
    !Number.isInteger(month) ||
    !Number.isInteger(year) ||
    !/^\d{3,4}$/.test(cvc)
  ) {
    return undefined;
  }
  return { number, exp_month: month, exp_year: year < 100 ? year + 2000 : year, cvc };
}

/** The 403 page of a form token that is forged, for another form, or too old. */
export const formExpiredPage = (m: Messages) => messagePage(m, 'pay.form_expired');

/** A form error in the payer's language (libs/platform i18n: our messages are translated). */
export const localizedError = localizedPaymentMessage;

/** What the payer reads when a charge did not succeed (the form is shown again with it, 402). */
export const notCompletedMessage = (transaction: TransactionRow, m: Messages) =>
  transaction.status === 'failed'
    ? m.t('pay.not_completed', {
        reason: localizedError(
          transaction.failure_message ?? CATALOGUES.en['decline.card_declined'],
          m,
          transaction.failure_code ?? 'card_declined',
        ),
      })
    : m.t('pay.not_confirmed');

/** Which form's words a refusal page uses (the checkout speaks of a merchant, an invoice of a seller). */
export type RefusalWords = 'checkout' | 'invoice';

/** The 409 page of a payment that cannot be made now; nothing was charged. */
export function notPayablePage(
  kind: 'in_progress' | 'processor_not_configured' | 'merchant_not_active',
  words: RefusalWords,
  m: Messages,
): string {
  if (kind === 'processor_not_configured') return paymentsNotAvailablePage(m);
  const title = kind === 'merchant_not_active' ? 'pay.merchant_not_active' : 'pay.in_progress';
  return renderMessage(m.t(`${title}.title`), m.t(`${title}.${words}`), m.locale);
}

/** A charge the request refused before any money moved. */
export type ChargeRefused =
  | { refused: 'invalid'; message: string }
  | { refused: 'merchant_not_active' }
  | { refused: 'processor_not_configured' };

/** The page of a live payment refused because the account has no processor connected yet. */
export const paymentsNotAvailablePage = (m: Messages) => messagePage(m, 'pay.not_available');

/**
 * Runs the charge; a card the processor refuses as invalid (400) or a merchant or account that
 * cannot take payments (409) becomes a refusal the caller shows as a page. Anything else
 * propagates. Nothing to give back: the form's token is claimed in the charge's tx1, which a
 * refusal before the processor call rolls back, and a payment left pending by a call with no
 * answer (upstream_unavailable) keeps its token spent, so a re-post cannot charge again.
 */
export async function chargeRefusing(
  charge: () => Promise<TransactionRow>,
): Promise<TransactionRow | ChargeRefused> {
  try {
    return await charge();
  } catch (error) {
    if (error instanceof ApiError && error.code === 'parameter_invalid') {
      return { refused: 'invalid', message: error.message };
    }
    if (error instanceof ApiError && error.code === 'merchant_not_active')
      return { refused: 'merchant_not_active' };
    if (error instanceof ApiError && error.code === 'processor_not_configured')
      return { refused: 'processor_not_configured' };
    throw error;
  }
}

export const isRefused = (outcome: TransactionRow | ChargeRefused): outcome is ChargeRefused =>
  'refused' in outcome;

/** How long a double click waits for the first submission's outcome (200 x 100 ms). */
const REPLAY_ATTEMPTS = 200;
const REPLAY_INTERVAL_MS = 100;

export type FirstSubmission =
  { kind: 'released' } | { kind: 'done'; transactionId: string } | { kind: 'pending' };

/**
 * A form token already used (double click): waits until the first submission with it has a
 * transaction. `released` when that submission gave its token back (its card was refused
 * before charging); `pending` when it is still running after the wait.
 */
export async function awaitFirstSubmission(
  lookup: () => Promise<{ transaction_id: string | null } | undefined>,
): Promise<FirstSubmission> {
  for (let attempt = 0; attempt < REPLAY_ATTEMPTS; attempt++) {
    const submission = await lookup();
    if (!submission) return { kind: 'released' };
    if (submission.transaction_id) return { kind: 'done', transactionId: submission.transaction_id };
    await new Promise((resolve) => setTimeout(resolve, REPLAY_INTERVAL_MS));
  }
  return { kind: 'pending' };
}
