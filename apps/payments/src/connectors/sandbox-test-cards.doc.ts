// The sandbox's test cards as the reader of /docs sees them: generated from the connector's
// own table (SANDBOX_TEST_CARDS), so a card added there is documented without anyone
// remembering to. The payments fragment carries the list on the test-helper payment's
// `card_number` (`x-test-cards`), and the gateway's /docs renders it as a table.

import { SANDBOX_TEST_CARDS } from './sandbox.connector';

type TestCard = (typeof SANDBOX_TEST_CARDS)[string];

export interface TestCardDoc {
  number: string;
  outcome: TestCard['outcome'];
  /** What a charge with it does, in a sentence. */
  behaviour: string;
}

const OUTCOMES: Record<TestCard['outcome'], string> = {
  succeeded: 'The charge succeeds.',
  requires_action:
    'The charge asks for 3-D Secure: the payer is sent to the sandbox challenge page, where they approve (the payment succeeds) or fail it.',
  card_declined: 'Declined: `card_declined`.',
  insufficient_funds: 'Declined: `insufficient_funds`.',
  expired_card: 'Declined: `expired_card`.',
  incorrect_cvc: 'Declined: `incorrect_cvc`.',
  authentication_required: 'Declined: `authentication_required` (3-D Secure was not completed).',
  processing_error: 'Fails with `processing_error` (a processor-side error; a retry may succeed).',
};

/** What each optional field of a card adds to its outcome; a field missing here is a test failure. */
export const TEST_CARD_FLAGS: Record<string, (value: unknown) => string> = {
  laterChargesFail: () =>
    'Saved as a mandate, its later off-session charges (subscription renewals, mandate charges) are declined.',
  refundsFail: () =>
    'Every refund of the charge is declined by the processor: `refund.created`, then `refund.failed` (`failure_reason` says why), and the refunded amount is refundable again.',
  refundsPending: () =>
    'A refund of the charge is accepted `pending` (`refund.created`; the amount stays reserved) and succeeds when the processor is next asked about it, within five minutes: `refund.succeeded`.',
  disputed: () =>
    'The cardholder disputes it at once (as fraudulent): `dispute.created`, the amount held from the balance and from refunds; `POST /v1/disputes/:id/test-helpers/update` moves the dispute on.',
};

const grouped = (number: string) => number.replace(/(\d{4})(?=\d)/g, '$1 ');

export function sandboxTestCardDocs(): TestCardDoc[] {
  return Object.entries(SANDBOX_TEST_CARDS).map(([number, card]) => {
    const extra = Object.entries(card)
      .filter(([key]) => key !== 'outcome')
      .map(([key, value]) => TEST_CARD_FLAGS[key]?.(value) ?? `(${key})`);
    return {
      number: grouped(number),
      outcome: card.outcome,
      behaviour: [OUTCOMES[card.outcome], ...extra].join(' '),
    };
  });
}
