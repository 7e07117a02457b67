// The built-in sandbox processor with the test cards of docs/api.md §5. It only accepts
// the published test numbers (any other number, even a valid one, is refused: real card
// data has no business in a sandbox). It keeps no state: every answer is a function of the
// card (or stored credential) and the idempotency key, so a call retried after a crash gets
// exactly the answer of the first one, as a real processor's idempotency would give.

import { createHash } from 'node:crypto';
import type {
  CardDetails,
  ChargeRequest,
  ConnectorOutcome,
  DeclineCode,
  PaymentConnector,
} from './connector';
import { digitsOnly } from './cards';

interface TestCard {
  outcome: 'succeeded' | DeclineCode;
  /** Later charges of a stored credential fail (4000 0000 0000 0341). */
  laterChargesFail?: boolean;
}

export const SANDBOX_TEST_CARDS: Readonly<Record<string, TestCard>> = {
  '4242424242424242': { outcome: 'succeeded' },
  '4000000000000002': { outcome: 'card_declined' },
  '4000000000009995': { outcome: 'insufficient_funds' },
  '4000000000000069': { outcome: 'expired_card' },
  '4000000000000119': { outcome: 'processing_error' },
  '4000000000000341': { outcome: 'succeeded', laterChargesFail: true },
};

const MESSAGES: Record<DeclineCode, string> = {
  card_declined: 'The card was declined.',
  insufficient_funds: 'The card has insufficient funds.',
  expired_card: 'The card has expired.',
  incorrect_cvc: "The card's security code is incorrect.",
  authentication_required:
    'The card issuer asked for authentication (3-D Secure), which is not supported yet.',
  processing_error: 'An error occurred while processing the card; try again.',
};

function reference(kind: string, key: string): string {
  return `sbx_${kind}_${createHash('sha256').update(key).digest('hex').slice(0, 24)}`;
}

export class SandboxConnector implements PaymentConnector {
  readonly name = 'sandbox';
  static isTestCard(number: string): boolean {
    return digitsOnly(number) in SANDBOX_TEST_CARDS;
  }

  async charge(
    request: ChargeRequest & { card: CardDetails; store_credential: boolean },
  ): Promise<ConnectorOutcome & { credential?: string }> {
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
    if (card.outcome !== 'succeeded') {
      return { status: 'failed', code: card.outcome, message: MESSAGES[card.outcome], processor_reference };
    }
    if (!request.store_credential) return { status: 'succeeded', processor_reference };
    // The credential encodes the test card's behaviour, never its number.
    return {
      status: 'succeeded',
      processor_reference,
      credential: `sbxcred_${card.laterChargesFail ? 'fails' : 'ok'}_${processor_reference.slice(7)}`,
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
        message: MESSAGES.card_declined,
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

  async refund(request: ChargeRequest & { processor_reference: string }): Promise<ConnectorOutcome> {
    return { status: 'succeeded', processor_reference: reference('re', request.idempotency_key) };
  }
}
