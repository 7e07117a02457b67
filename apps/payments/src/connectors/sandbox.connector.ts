// The built-in sandbox processor with the test cards of docs/api.md §5. It only accepts
// the published test numbers (any other number, even a valid one, is refused: real card
// data has no business in a sandbox). It keeps no state: every answer is a function of the
// card (or stored credential) and the idempotency key, so a call retried after a crash gets
// exactly the answer of the first one, as a real processor's idempotency would give.
// The 3-D Secure card (4000 0027 6000 3184) answers requires_action with a challenge page the
// platform serves itself (payments' /pay/sandbox/challenge/<reference>); the payer's decision
// there is the sandbox's only state (sandbox-challenges.ts), which `lookup` reads. Kept for a
// mandate, it authenticates on that first payment only (like Stripe's 4000 0025 0000 3155):
// the mandate's later, off-session charges succeed.

import { createHash } from 'node:crypto';
import type {
  CardDetails,
  ChargeRequest,
  ConnectorOutcome,
  DeclineCode,
  LookupOutcome,
  LookupRequest,
  PaymentConnector,
  RefundLookupRequest,
  RefundOutcome,
  RequiresAction,
} from './connector';
import { digitsOnly } from './cards';
import { ABANDONED_MESSAGE } from './connector';
import type { ChallengeDecisions } from './sandbox-challenges';

interface TestCard {
  outcome: 'succeeded' | 'requires_action' | DeclineCode;
  /** Later charges of a stored credential fail (4000 0000 0000 0341). */
  laterChargesFail?: boolean;
  /** The charge succeeds and is disputed at once (4000 0000 0000 0259, as on Stripe). */
  disputed?: boolean;
  /** The charge succeeds; every refund of it is declined by the processor (4000 0000 0000 5126). */
  refundsFail?: boolean;
  /**
   * The charge succeeds; a refund of it is accepted `pending` and succeeds when next looked
   * up (4000 0000 0000 7726, Stripe's asynchronous refund success).
   */
  refundsPending?: boolean;
}

export const SANDBOX_TEST_CARDS: Readonly<Record<string, TestCard>> = {
  '4242424242424242': { outcome: 'succeeded' },
  '4000000000000002': { outcome: 'card_declined' },
  '4000000000009995': { outcome: 'insufficient_funds' },
  '4000000000000069': { outcome: 'expired_card' },
  '4000000000000119': { outcome: 'processing_error' },
  '4000000000000341': { outcome: 'succeeded', laterChargesFail: true },
  '4000000000000259': { outcome: 'succeeded', disputed: true },
  '4000000000005126': { outcome: 'succeeded', refundsFail: true },
  '4000000000007726': { outcome: 'succeeded', refundsPending: true },
  '4000002760003184': { outcome: 'requires_action' },
};

/** The published test card a charge's stored last4 names, if any (as `lookup` finds it). */
const cardOf = (last4: string | undefined): TestCard | undefined => {
  const number = Object.keys(SANDBOX_TEST_CARDS).find((n) => n.endsWith(last4 ?? '-'));
  return number ? SANDBOX_TEST_CARDS[number] : undefined;
};

/** A refund of a charge of the card its stored last4 names: a function of the card and the key. */
function refundAnswer(key: string, last4: string | undefined): RefundOutcome {
  const processor_reference = reference('re', key);
  const card = cardOf(last4);
  if (card?.refundsFail) {
    return {
      status: 'failed',
      code: 'processing_error',
      message: "The card's issuer refused the refund (sandbox card 4000 0000 0000 5126).",
      processor_reference,
    };
  }
  if (card?.refundsPending) return { status: 'pending', processor_reference };
  return { status: 'succeeded', processor_reference };
}

/** The path of the sandbox's own 3-D Secure challenge page for one charge. */
export const sandboxChallengePath = (reference: string) => `/pay/sandbox/challenge/${reference}`;

/** The sandbox's decline messages (each in the pages' catalogue, translated: card-form.spec.ts). */
export const SANDBOX_DECLINE_MESSAGES: Record<DeclineCode, string> = {
  card_declined: 'The card was declined.',
  insufficient_funds: 'The card has insufficient funds.',
  expired_card: 'The card has expired.',
  incorrect_cvc: "The card's security code is incorrect.",
  authentication_required:
    'The card issuer asked for authentication (3-D Secure), which was not completed; nothing was charged.',
  processing_error: 'An error occurred while processing the card; try again.',
};

function reference(kind: string, key: string): string {
  return `sbx_${kind}_${createHash('sha256').update(key).digest('hex').slice(0, 24)}`;
}

export class SandboxConnector implements PaymentConnector {
  readonly name = 'sandbox';
  /** The challenge page is the platform's own ('self'). */
  readonly authenticationOrigins: readonly string[] = [];

  /** @param challenges the payers' decisions on the challenge page */
  constructor(private readonly challenges?: ChallengeDecisions) {}

  static isTestCard(number: string): boolean {
    return digitsOnly(number) in SANDBOX_TEST_CARDS;
  }

  async charge(
    request: ChargeRequest & { card: CardDetails; store_credential: boolean; return_url?: string },
  ): Promise<(ConnectorOutcome & { credential?: string }) | RequiresAction> {
    const number = digitsOnly(request.card.number);
    const card = SANDBOX_TEST_CARDS[number];
    const processor_reference = reference('ch', request.idempotency_key);
    if (!card) {
      return {
        status: 'failed',
        code: 'card_declined',
        message: 'Only the published test cards work in the sandbox.',
        processor_reference,
      };
    }
    if (card.outcome === 'requires_action') {
      // Like Stripe: without a return URL (nobody to authenticate) the charge fails. A card kept
      // for a mandate authenticates here, on-session, once; its later charges need no payer.
      if (!request.return_url || !this.challenges) {
        return this.failed('authentication_required', processor_reference);
      }
      const reference3ds = reference('3ds', request.idempotency_key);
      // A path: the challenge page is on whatever origin the payer reached the checkout by, so
      // the form's redirect stays within its CSP's form-action 'self'.
      const query = new URLSearchParams({ return_url: request.return_url });
      return {
        status: 'requires_action',
        redirect_url: `${sandboxChallengePath(reference3ds)}?${query.toString()}`,
        processor_reference: reference3ds,
      };
    }
    if (card.outcome !== 'succeeded') return this.failed(card.outcome, processor_reference);
    // The cardholder disputes it as fraudulent at once (Stripe's 0259); the sandbox charges no fee.
    const disputed = card.disputed
      ? {
          dispute: {
            reference: reference('du', request.idempotency_key),
            payment_reference: processor_reference,
            amount: request.amount,
            currency: request.currency,
            fee: 0n,
            fee_returned: 0n,
            reason: 'fraudulent',
            status: 'needs_response' as const,
            evidence_due_by: null,
          },
        }
      : {};
    if (!request.store_credential) return { status: 'succeeded', processor_reference, ...disputed };
    // The credential encodes the test card's behaviour, never its number.
    return {
      status: 'succeeded',
      processor_reference,
      ...disputed,
      credential: `sbxcred_${card.laterChargesFail ? 'fails' : 'ok'}_${processor_reference.slice(7)}`,
    };
  }

  /** The test card's behaviour, without a charge; a card asking for 3-D Secure cannot be saved here. */
  async saveCard(request: { idempotency_key: string; card: CardDetails; livemode: boolean }) {
    const card = SANDBOX_TEST_CARDS[digitsOnly(request.card.number)];
    const processor_reference = reference('seti', request.idempotency_key);
    if (!card) {
      return {
        status: 'failed' as const,
        code: 'card_declined' as const,
        message: 'Only the published test cards work in the sandbox.',
        processor_reference,
      };
    }
    if (card.outcome === 'requires_action') {
      return {
        status: 'failed' as const,
        code: 'authentication_required' as const,
        message: SANDBOX_DECLINE_MESSAGES.authentication_required,
        processor_reference,
      };
    }
    if (card.outcome !== 'succeeded') {
      return {
        status: 'failed' as const,
        code: card.outcome,
        message: SANDBOX_DECLINE_MESSAGES[card.outcome],
        processor_reference,
      };
    }
    return {
      status: 'succeeded' as const,
      processor_reference,
      credential: `sbxcred_${card.laterChargesFail ? 'fails' : 'ok'}_${processor_reference.slice(9)}`,
    };
  }

  async chargeStored(
    request: ChargeRequest & { credential: string; attempt: number },
  ): Promise<ConnectorOutcome> {
    const processor_reference = reference('ch', request.idempotency_key);
    if (request.credential.startsWith('sbxcred_fails_')) {
      return {
        status: 'failed',
        code: 'card_declined',
        message: SANDBOX_DECLINE_MESSAGES.card_declined,
        processor_reference,
      };
    }
    if (!request.credential.startsWith('sbxcred_ok_')) {
      return {
        status: 'failed',
        code: 'processing_error',
        message: 'Unknown stored credential.',
        processor_reference,
      };
    }
    return { status: 'succeeded', processor_reference };
  }

  /**
   * Succeeds, but for a charge of a card whose refunds behave otherwise (its stored last4 names
   * it among the published cards, as in `lookup`): 5126's are declined by the processor (the
   * path of any refused refund: refund.failed, the reserved amount given back), 7726's are
   * accepted `pending` (the refund waits for the processor's word).
   */
  async refund(
    request: ChargeRequest & { processor_reference: string; card_last4?: string },
  ): Promise<RefundOutcome> {
    return refundAnswer(request.idempotency_key, request.card_last4);
  }

  /**
   * The sandbox keeps no state, so a refund is found as `refund` answers it, except that a
   * pending one (7726's) has succeeded by the time it is asked about: the processor's later
   * word, which on Stripe comes as refund.updated.
   */
  async lookupRefund(request: RefundLookupRequest): Promise<RefundOutcome> {
    const answer = refundAnswer(request.idempotency_key, request.card_last4);
    return answer.status === 'pending'
      ? { status: 'succeeded', processor_reference: answer.processor_reference }
      : answer;
  }

  /**
   * A 3-D Secure charge: the payer's decision on the challenge page, if any. Any other charge
   * is answered as `charge` answered it: a function of the test card (the stored last4 names
   * it among the published cards) and the key; a card the sandbox does not know it never took.
   */
  async lookup(request: LookupRequest): Promise<LookupOutcome> {
    const ref = request.processor_reference;
    if (ref?.startsWith('sbx_3ds_')) {
      const decision = this.challenges ? await this.challenges.decision(ref) : undefined;
      if (decision === undefined) return { status: 'requires_action', processor_reference: ref };
      // The credential is kept only by a charge that asked to (a mandate's first payment); the
      // caller ignores it otherwise. It charges off-session like 4242's (no payer to ask again).
      if (decision === 'approved')
        return { status: 'succeeded', processor_reference: ref, credential: `sbxcred_ok_${ref.slice(8)}` };
      return this.failed('authentication_required', ref);
    }
    const card = cardOf(request.card_last4);
    const processor_reference = reference('ch', request.idempotency_key);
    if (!card || card.outcome === 'requires_action') return { status: 'not_found' };
    if (card.outcome !== 'succeeded') return this.failed(card.outcome, processor_reference);
    return { status: 'succeeded', processor_reference };
  }

  /**
   * The sandbox has no processor to call: cancelling closes the challenge with a `failed`
   * decision (the challenge page then refuses the payer's late approval), unless the payer's
   * own decision came first, which stands, as a real PaymentIntent that succeeded cannot be
   * canceled.
   */
  async cancelAuthentication(
    request: LookupRequest & { processor_reference: string },
  ): Promise<LookupOutcome> {
    const ref = request.processor_reference;
    if (!ref.startsWith('sbx_3ds_') || !this.challenges) return this.lookup(request);
    const decision = await this.challenges.decide(ref, 'failed');
    if (decision === 'approved') return { status: 'succeeded', processor_reference: ref };
    return {
      status: 'failed',
      code: 'authentication_required',
      message: ABANDONED_MESSAGE,
      processor_reference: ref,
    };
  }

  private failed(code: DeclineCode, processor_reference: string): ConnectorOutcome {
    return { status: 'failed', code, message: SANDBOX_DECLINE_MESSAGES[code], processor_reference };
  }
}
