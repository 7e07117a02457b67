// The command of payments.commands.v1 that charges a mandate (libs/contracts commands.ts):
// its validated form and the parser that refuses anything else.

/** The command of payments.commands.v1 (libs/contracts commands.ts), after validation. */
export interface ChargeMandateRequest {
  message_id: string;
  account: string;
  livemode: boolean;
  mandate: string;
  amount: bigint;
  currency: string;
  invoice: string;
  customer: string | null;
  reference: string;
}

export const COMMANDS_CONSUMER = 'payments.commands';

/** Validates a payments.commands.v1 message (CommandEnvelope<ChargeMandateCommand>). */
export function parseChargeMandate(raw: string): ChargeMandateRequest | { problem: string } {
  let envelope: unknown;
  try {
    envelope = JSON.parse(raw);
  } catch {
    return { problem: 'not JSON' };
  }
  return parseChargeMandateEnvelope(envelope);
}

/** The same, for an envelope the transport already parsed (MandateCommandsConsumer). */
export function parseChargeMandateEnvelope(envelope: unknown): ChargeMandateRequest | { problem: string } {
  const e = envelope as {
    id?: unknown;
    type?: unknown;
    account?: unknown;
    livemode?: unknown;
    data?: Record<string, unknown>;
  };
  if (typeof e?.id !== 'string' || typeof e.account !== 'string' || typeof e.livemode !== 'boolean') {
    return { problem: 'envelope without id, account or livemode' };
  }
  if (e.type !== 'payment.charge_mandate') return { problem: `unknown command type ${String(e.type)}` };
  const d = e.data ?? {};
  const amount = d.amount;
  if (typeof amount !== 'number' || !Number.isSafeInteger(amount) || amount < 1 || amount > 99_999_999_999) {
    return { problem: 'amount must be an integer of minor units, 1 to 99999999999' };
  }
  for (const field of ['mandate', 'currency', 'invoice', 'reference'] as const) {
    if (typeof d[field] !== 'string' || !(d[field] as string).length)
      return { problem: `${field} is missing` };
  }
  if (d.customer !== null && d.customer !== undefined && typeof d.customer !== 'string') {
    return { problem: 'customer must be a string or null' };
  }
  return {
    message_id: e.id,
    account: e.account,
    livemode: e.livemode,
    mandate: d.mandate as string,
    amount: BigInt(amount),
    currency: (d.currency as string).toUpperCase(),
    invoice: d.invoice as string,
    customer: (d.customer as string | null | undefined) ?? null,
    reference: d.reference as string,
  };
}
