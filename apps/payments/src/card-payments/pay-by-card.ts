// Paying by card, the one use case behind the three places a card is typed in: the hosted
// checkout of a payment link (/pay/<link>), an invoice's card form (/pay/invoices/<token>)
// and the test helper (POST /v1/transactions/test-helpers/payments). It owns:
//   - the form-token claim: a hosted form's single-use CSRF token is claimed in the charge's
//     tx1, with the pending payment (form-token.ts), so a double click or a re-posted form
//     pays once;
//   - the charge, through the intent saga (TransactionsService.chargeCard);
//   - the mandate on success: a card to keep (a recurring link, "save this card") is stored
//     at the processor and its mandate created in the transaction that records the payment;
//   - 3-D Secure: a hosted form's charge carries a sealed return URL, so a processor asking
//     for authentication answers requires_action and the form redirects the payer (the
//     payment stays requires_action until the return settles it: settle-authentication.ts).
//     A charge that keeps the card (a mandate) does too: its mandate terms are kept on the
//     payment (`mandate_terms`), and the mandate is created in the transaction that records
//     the payment succeeded, whenever that is (mandateOfLatePayment); never for a failure;
//   - the replay: a token already used answers the first submission's outcome.
// The controllers only read the form, call pay() and render the result.

import type { Tenant, Tx } from '@paygrid/platform';
import {
  CARD_INCOMPLETE,
  CHECK_CARD_AGAIN,
  awaitFirstSubmission,
  chargeRefusing,
  isRefused,
  type ChargeRefused,
} from '../card-form/card-form';
import { summarizeCard } from '../connectors/cards';
import type { CardDetails } from '../connectors/connector';
import type { Interval } from '../mandates/cycle';
import type { MandatesService, NewMandate } from '../mandates/mandates.service';
import type { StoredMandateTerms, TransactionRow } from '../transactions/transaction';
import type {
  ChargeCardInput,
  ChargeCardOptions,
  OnChargeSucceeded,
  TransactionsService,
} from '../transactions/transactions.service';
import type { IntentClaim } from '../intents/intents.sql';
import type { AuthenticationReturns } from './authentication-return';
import type { FormClaim, FormRefusal, FormToken } from './form-token';

/** A form token that did not let the charge go on (used, or a refusal): tx1 rolls back. */
class ClaimRefused extends Error {
  constructor(readonly claim: FormClaim) {
    super(`form token not claimed (${claim.kind})`);
  }
}

/** The mandate to create with the payment; the card's summary, credential and currency come from the charge. */
export type MandateTerms = Omit<NewMandate, 'merchant' | 'payment_method' | 'credential' | 'currency'>;

/** A card payment made through the API (the test helper): no form, the API's errors. */
export interface CardCharge {
  tenant: Tenant;
  charge: Omit<ChargeCardInput, 'card'>;
  /** Never stored or logged. */
  card: CardDetails;
  /** Keep the card: the mandate is created with the payment when it succeeds. */
  mandate?: MandateTerms;
}

/** A card payment posted in a hosted form, with the form's single-use token. */
export interface CardPayment<R extends FormRefusal> extends Omit<CardCharge, 'card'> {
  /** As posted; undefined when a field is missing or malformed. */
  card: CardDetails | undefined;
  form: FormToken<R>;
  /** Where a payment settled after authentication sends the payer (the invoice's return_url). */
  returnTo?: string;
}

/** What the payer is answered; every refusal happens before any money moves. */
export type CardPaymentResult<R extends FormRefusal> =
  | { kind: 'charged'; transaction: TransactionRow }
  | { kind: 'invalid'; message: string }
  | { kind: 'in_progress' }
  | { kind: 'merchant_not_active' }
  | { kind: 'processor_not_configured' }
  | R;

export class PayByCard {
  constructor(
    private readonly transactions: TransactionsService,
    private readonly mandates: MandatesService,
    private readonly returns?: AuthenticationReturns,
  ) {}

  /**
   * A hosted form's payment: claim its token in the charge's tx1, charge, complete the token;
   * or replay. The claim commits with the pending payment, or is rolled back with it when the
   * charge is refused before the processor call: no token to give back in either case.
   */
  async pay<R extends FormRefusal>(payment: CardPayment<R>): Promise<CardPaymentResult<R>> {
    const { form, card } = payment;
    if (!card) return this.withoutCard(payment);
    const { complete } = form;
    const { returns } = this;
    const returnUrl = returns ? (id: string) => returns.url(id, payment.returnTo) : undefined;
    // The claim's decision, read from tx1's statement that writes the intent: a refusal throws,
    // and tx1 rolls back with nothing written.
    const claimIn = (): IntentClaim<void> => {
      const claim = form.claimIn();
      // Object.assign, not a leading spread: Node 20's slow path (docs/style.md, finding 56).
      return Object.assign({}, claim, {
        decide: (decision: Record<string, unknown>) => {
          const decided = claim.decide(decision);
          // Unpayable: the statement refused the payment for its merchant, which chargeCard
          // answers next (409 merchant_not_active, 404), with the token left unclaimed.
          if (decided.kind !== 'claimed' && decided.kind !== 'unpayable') throw new ClaimRefused(decided);
        },
      });
    };
    let outcome: TransactionRow | ChargeRefused;
    try {
      outcome = await chargeRefusing(() =>
        this.charge(
          Object.assign({}, payment, { card }),
          complete.when === 'with_outcome'
            ? {
                withSuccess: complete.withSuccess,
                onRecorded: (tx, row, along) => complete.run(tx, row, along),
              }
            : {},
          returnUrl,
          claimIn,
        ),
      );
    } catch (error) {
      if (!(error instanceof ClaimRefused)) throw error;
      const claim = error.claim as FormClaim<R>;
      if (claim.kind === 'used') return this.replay(payment.tenant, form);
      return claim as Exclude<FormClaim<R>, { kind: 'claimed' | 'used' | 'unpayable' }>;
    }
    if (isRefused(outcome)) {
      return outcome.refused === 'invalid'
        ? { kind: 'invalid', message: outcome.message }
        : { kind: outcome.refused };
    }
    if (complete.when === 'after_outcome') await complete.run(outcome);
    return { kind: 'charged', transaction: outcome };
  }

  /** A form posted without a usable card: a used token still answers its first submission. */
  private async withoutCard<R extends FormRefusal>(payment: CardPayment<R>): Promise<CardPaymentResult<R>> {
    const claim = await payment.form.claim();
    if (claim.kind === 'used') return this.replay(payment.tenant, payment.form);
    // Unpayable does not occur here (a claim alone has no merchant to check); nothing to release then.
    if (claim.kind !== 'claimed' && claim.kind !== 'unpayable') return claim;
    await payment.form.release();
    return { kind: 'invalid', message: CARD_INCOMPLETE };
  }

  /**
   * The charge alone, for the API (the test helper) and for pay(): its errors are the API's
   * (400 parameter_invalid, 409 merchant_not_active | processor_not_configured).
   */
  charge(
    payment: CardCharge,
    recorded: Pick<ChargeCardOptions, 'withSuccess' | 'onRecorded'> = {},
    returnUrl?: ChargeCardOptions['returnUrl'],
    inIntent?: ChargeCardOptions['inIntent'],
  ): Promise<TransactionRow> {
    const { card, mandate: terms } = payment;
    const onSucceeded: OnChargeSucceeded | undefined = terms
      ? (tx, row, credential) =>
          this.mandates.createWithPayment(
            tx,
            row,
            Object.assign({}, terms, {
              merchant: row.merchant_id,
              payment_method: summarizeCard(card),
              credential: credential ?? '',
              currency: payment.charge.currency,
            }),
          )
      : undefined;
    const options: ChargeCardOptions = Object.assign(
      {},
      recorded,
      { inIntent },
      returnUrl ? { returnUrl } : {},
      onSucceeded ? { storeCredential: true, onSucceeded } : {},
    );
    // With a return URL the payment may succeed after this request: its mandate's terms go
    // with it (never the card: the summary is the row's payment_method).
    const keep = terms && returnUrl ? { mandate_terms: storedTerms(terms) } : {};
    // Object.assign, not a leading spread: Node 20's slow path (docs/style.md, finding 56).
    return this.transactions.chargeCard(
      payment.tenant,
      Object.assign({}, payment.charge, { card }, keep),
      options,
    );
  }

  /** A token already used (double click): wait for the first submission, answer its outcome. */
  private async replay(tenant: Tenant, form: FormToken<FormRefusal>): Promise<CardPaymentResult<never>> {
    const first = await awaitFirstSubmission(() => form.submission());
    if (first.kind === 'released') return { kind: 'invalid', message: CHECK_CARD_AGAIN };
    if (first.kind === 'pending') return { kind: 'in_progress' };
    return { kind: 'charged', transaction: await this.transactions.get(tenant, first.transactionId) };
  }
}

// A payment that keeps a card and waits on 3-D Secure is rare: these two keep their spreads.
/* eslint-disable no-restricted-syntax */

/** MandateTerms as kept on a payment waiting on 3-D Secure (JSON: the amount as a string). */
export function storedTerms(terms: MandateTerms): StoredMandateTerms {
  const { recurring, ...rest } = terms;
  return recurring ? { ...rest, recurring: { ...recurring, amount: recurring.amount.toString() } } : rest;
}

/**
 * The mandate of a card-keeping payment that succeeded after its request (the payer's return
 * from 3-D Secure, a processor webhook, recovery), in the transaction that records it. Without
 * a credential (a processor that did not say which card it kept) the payment stands and no
 * mandate is made: a mandate must be able to charge.
 */
export async function mandateOfLatePayment(
  mandates: Pick<MandatesService, 'createWithPayment'>,
  tx: Tx,
  row: TransactionRow,
  credential: string | undefined,
): Promise<TransactionRow> {
  const terms = row.mandate_terms;
  if (!terms || !credential || !row.payment_method) return row;
  const { recurring, ...rest } = terms;
  return mandates.createWithPayment(tx, row, {
    ...rest,
    ...(recurring
      ? {
          recurring: {
            amount: BigInt(recurring.amount),
            interval: recurring.interval as Interval,
            interval_count: recurring.interval_count,
          },
        }
      : {}),
    merchant: row.merchant_id,
    payment_method: row.payment_method,
    credential,
    currency: row.currency,
  });
}
/* eslint-enable no-restricted-syntax */
