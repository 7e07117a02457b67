// The steady mixed load of the chaos run, counted per phase: payments through the hosted
// checkout, refunds (several at once on one payment), POSTs replayed with their
// Idempotency-Key (twice at once, then again), customers, payment links, invoices, reads.
// tests/chaos/faults.chaos.ts owns the platform, the phases and when the load stops.

import { randomUUID } from 'node:crypto';
import type { DistributedPlatform, TestAccount } from '../../support/platform';

const REQUEST_TIMEOUT_MS = 20_000;

export interface PhaseStats {
  name: string;
  requests: number;
  ok: number;
  /** 4xx the load expects (a refund beyond what remains, a key still in progress, a declined card). */
  refused: number;
  /** 5xx and no answer: what the fault costs clients. */
  errors: number;
  ms: number;
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
export const pick = <T>(items: T[]): T => items[Math.floor(Math.random() * items.length)];

/** What the load reads from the run as it goes; the getters answer the current values. */
export interface LoadContext {
  platform: () => DistributedPlatform;
  account: () => TestAccount;
  /** The phase the requests are counted in. */
  phase: () => PhaseStats;
  /** True once the run stops the load: workers and keyed retries end. */
  stopping: () => boolean;
  /** Every Idempotency-Key sent, for the invariant that each made at most one object. */
  idempotencyKeys: string[];
}

interface Answer {
  status: number;
  body: any;
  text: string;
}

export function chaosLoad(ctx: LoadContext) {
  const { idempotencyKeys } = ctx;

  /** One request, counted in the current phase. `expected` 4xx codes count as refused, not errors. */
  async function call(
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
    form?: URLSearchParams,
  ): Promise<Answer> {
    const counted = ctx.phase();
    counted.requests++;
    try {
      const response = await fetch(`${ctx.platform().url}${path}`, {
        method,
        redirect: 'manual',
        headers: {
          ...(path.startsWith('/v1/') ? { authorization: `Bearer ${ctx.account().testKey}` } : {}),
          ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
          ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
          ...headers,
        },
        body: form ?? (body !== undefined ? JSON.stringify(body) : undefined),
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      });
      const text = await response.text();
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch {
        parsed = undefined;
      }
      if (response.status >= 500) counted.errors++;
      else if (response.status >= 400) counted.refused++;
      else counted.ok++;
      return { status: response.status, body: parsed, text };
    } catch (error) {
      counted.errors++;
      return { status: 0, body: undefined, text: String(error) };
    }
  }

  /** A keyed POST retried like a careful client: same key, same body, until a final answer. */
  async function keyed(path: string, body: Record<string, unknown>, key: string): Promise<Answer> {
    let answer: Answer = { status: 0, body: undefined, text: '' };
    for (let attempt = 0; attempt < 20 && !ctx.stopping(); attempt++) {
      answer = await call('POST', path, body, { 'idempotency-key': key });
      if (answer.status !== 0 && answer.status < 500 && answer.status !== 409) return answer;
      await sleep(250 + attempt * 250);
    }
    return answer;
  }

  /**
   * A payer's checkout: a new one-time link (the merchant's API call), its hosted page, and the
   * form posted, one time in five twice at once with the same token (a double click).
   */
  async function checkoutPayment(): Promise<void> {
    const link = await call('POST', '/v1/payment-links', {
      amount: 500 + Math.floor(Math.random() * 100_000),
      currency: pick(['USD', 'EUR', 'JPY', 'KWD']),
      description: 'chaos checkout',
    });
    if (link.status !== 200) return;
    const page = await call('GET', `/pay/${link.body.id}`);
    const token = /name="csrf_token" value="([^"]+)"/.exec(page.text)?.[1];
    if (!token) return;
    const form = new URLSearchParams({
      csrf_token: token,
      card_number: Math.random() < 0.85 ? '4242 4242 4242 4242' : '4000 0000 0000 0002',
      exp_month: '12',
      exp_year: '2030',
      cvc: '123',
    });
    const submissions = Math.random() < 0.2 ? 2 : 1;
    await Promise.all(
      Array.from({ length: submissions }, () => call('POST', `/pay/${link.body.id}`, undefined, {}, form)),
    );
  }

  async function refunds(): Promise<void> {
    const list = await call('GET', '/v1/transactions?type=payment&status=succeeded&limit=20');
    const payments = (list.body?.data ?? []).filter((t: any) => t.refundable_amount > 0);
    if (!payments.length) return;
    const payment: { id: string; refundable_amount: number } = pick(payments);
    // Three at once, together worth more than what remains: some must be refused.
    const requests = [0, 1, 2].map(() => {
      const key = `chaos-${randomUUID()}`;
      idempotencyKeys.push(key);
      const body = {
        transaction: payment.id,
        amount: Math.max(1, Math.floor((payment.refundable_amount * (0.3 + Math.random() * 0.5)) | 0)),
        metadata: { chaos_idem: key },
      };
      return { key, body };
    });
    await Promise.all(requests.map((r) => keyed('/v1/refunds', r.body, r.key)));
    // A replay of the first with its key: answered from the record, never applied again.
    await keyed('/v1/refunds', requests[0].body, requests[0].key);
  }

  async function idempotentCreates(): Promise<void> {
    for (const [path, make] of [
      ['/v1/customers', (key: string) => ({ name: `Chaos ${key.slice(-6)}`, metadata: { chaos_idem: key } })],
      [
        '/v1/payment-links',
        (key: string) => ({
          amount: 700,
          currency: 'EUR',
          description: 'chaos',
          metadata: { chaos_idem: key },
        }),
      ],
    ] as const) {
      const key = `chaos-${randomUUID()}`;
      idempotencyKeys.push(key);
      const body = make(key);
      // Twice at once, then once more: one object.
      await Promise.all([keyed(path, body, key), keyed(path, body, key)]);
      await keyed(path, body, key);
    }
  }

  /** One customer per worker run, made on first need (invoices need an e-mail address to be sent). */
  let invoiceCustomer: Promise<string | undefined> | undefined;

  /**
   * Invoices, for the gapless-number invariant under faults: a keyed create-and-send (twice at
   * once with one key, then again), and a draft finalized by two requests at once.
   */
  async function invoices(): Promise<void> {
    invoiceCustomer ??= call('POST', '/v1/customers', {
      name: 'Chaos invoices',
      email: 'ap@chaos.test',
      currency: 'EUR',
    }).then((c) => (c.status === 200 ? (c.body.id as string) : undefined));
    const customer = await invoiceCustomer;
    if (!customer) {
      invoiceCustomer = undefined;
      return;
    }
    const lines = [
      {
        description: 'Chaos work',
        quantity: 1 + Math.floor(Math.random() * 5),
        unit_amount: 1_250,
        tax_rate_bps: 2000,
      },
    ];
    const key = `chaos-${randomUUID()}`;
    idempotencyKeys.push(key);
    const body = { customer, lines, metadata: { chaos_idem: key } };
    await Promise.all([keyed('/v1/invoices', body, key), keyed('/v1/invoices', body, key)]);
    await keyed('/v1/invoices', body, key);
    const draft = await call('POST', '/v1/invoices', { customer, lines, send: false });
    if (draft.status !== 200) return;
    await Promise.all([0, 1].map(() => call('POST', `/v1/invoices/${draft.body.id}/finalize`)));
  }

  async function reads(): Promise<void> {
    await call('GET', '/v1/events?limit=5');
    await call('GET', '/v1/refunds?limit=5');
  }

  async function worker(): Promise<void> {
    const steps = [checkoutPayment, checkoutPayment, refunds, idempotentCreates, invoices, reads];
    while (!ctx.stopping()) {
      await pick(steps)();
      await sleep(20);
    }
  }

  return { worker };
}
