// How InboxTransport turns the handlers Nest registers (addHandler, as for @EventPattern) into
// inbox subscriptions: one per consumer, each message routed by topic and event type. The
// bus and the inbox transaction themselves are exercised in tests/{embedded,distributed}/
// inbox-transport.test.ts.

import { throwError } from 'rxjs';
import type { ConsumedMessage } from '../bus/bus';
import type { Tx } from '../db/database';
import type { Envelope, InboxConsumer, InboxDelivery, InboxRouter } from '../outbox/consumer';
import {
  InboxContext,
  inboxPattern,
  inboxPatterns,
  InboxTransport,
  OWN_TRANSACTIONS,
  PROJECTION,
} from './inbox-transport';

type Route = {
  consumer: string;
  topics: readonly string[];
  router: InboxRouter<Envelope>;
  options?: { fetchWindowMs?: number };
};

function transportWith(register: (t: InboxTransport) => void): {
  transport: InboxTransport;
  routes: Route[];
} {
  const routes: Route[] = [];
  const inbox = {
    route: async (
      consumer: string,
      topics: readonly string[],
      router: InboxRouter<Envelope>,
      options?: { fetchWindowMs?: number },
    ) => {
      routes.push({ consumer, topics, router, options });
    },
  } as unknown as InboxConsumer;
  const transport = new InboxTransport(inbox);
  register(transport);
  return { transport, routes };
}

function listen(transport: InboxTransport): Promise<void> {
  return new Promise((resolve, reject) =>
    transport.listen((error) => (error ? reject(error as Error) : resolve())),
  );
}

const message = (topic: string): ConsumedMessage => ({
  topic,
  partition: 0,
  offset: '0',
  key: 'acct_1',
  value: '',
});
const envelope = (type: string): Envelope => ({ id: 'evt_1', type, account: 'acct_1', livemode: false });
const tx = { schema: 's' } as Tx;

describe('InboxTransport', () => {
  it('subscribes each consumer once, to the topics of its patterns', async () => {
    const { transport, routes } = transportWith((t) => {
      for (const p of inboxPatterns('webhooks.event-log', ['a.events.v1', 'b.events.v1'])) {
        t.addHandler(p, async () => undefined, true);
      }
      t.addHandler(
        inboxPattern('payments.directory', 'b.events.v1', 'customer.created'),
        async () => undefined,
        true,
      );
      t.addHandler(
        inboxPattern('payments.directory', 'b.events.v1', 'customer.deleted'),
        async () => undefined,
        true,
      );
    });
    await listen(transport);
    expect(routes.map((r) => [r.consumer, r.topics])).toEqual([
      ['webhooks.event-log', ['a.events.v1', 'b.events.v1']],
      ['payments.directory', ['b.events.v1']],
    ]);
  });

  it('runs a handler in the inbox transaction, with the message, consumer and tx as its context', async () => {
    const seen: unknown[] = [];
    const { transport, routes } = transportWith((t) =>
      t.addHandler(
        inboxPattern('c', 'a.events.v1'),
        async (data: Envelope, ctx: InboxContext) => {
          seen.push(data.id, ctx.consumer, ctx.message.topic, ctx.tx);
        },
        true,
      ),
    );
    await listen(transport);
    const delivery = routes[0].router(envelope('thing.happened'), message('a.events.v1')) as InboxDelivery;
    expect('inTransaction' in delivery).toBe(true);
    if ('inTransaction' in delivery) await delivery.inTransaction(tx);
    expect(seen).toEqual(['evt_1', 'c', 'a.events.v1', tx]);
  });

  it('routes per-event patterns by type and acknowledges other types without a delivery', async () => {
    const { transport, routes } = transportWith((t) =>
      t.addHandler(inboxPattern('c', 'a.events.v1', 'account.updated'), async () => undefined, true),
    );
    await listen(transport);
    expect(routes[0].router(envelope('account.updated'), message('a.events.v1'))).toBeDefined();
    expect(routes[0].router(envelope('customer.created'), message('a.events.v1'))).toBeUndefined();
  });

  it('settles with the error of a failing handler (an Observable error too), so the bus retries it', async () => {
    const { transport, routes } = transportWith((t) =>
      t.addHandler(inboxPattern('c', 'a.events.v1'), async () => throwError(() => new Error('down')), true),
    );
    await listen(transport);
    const delivery = routes[0].router(envelope('x'), message('a.events.v1')) as {
      inTransaction: (tx: Tx) => Promise<void>;
    };
    await expect(delivery.inTransaction(tx)).rejects.toThrow('down');
  });

  it("passes a consumer's fetch window to its subscription, and none to the others", async () => {
    const { transport, routes } = transportWith((t) => {
      t.addHandler(
        inboxPattern('projection', 'b.events.v1', 'customer.created'),
        async () => undefined,
        true,
        PROJECTION,
      );
      t.addHandler(
        inboxPattern('projection', 'b.events.v1', 'customer.deleted'),
        async () => undefined,
        true,
        PROJECTION,
      );
      t.addHandler(inboxPattern('log', 'b.events.v1'), async () => undefined, true);
    });
    await listen(transport);
    expect(routes.map((r) => [r.consumer, r.options])).toEqual([
      ['projection', { fetchWindowMs: 200 }],
      ['log', {}],
    ]);
  });

  it('gives an OWN_TRANSACTIONS handler no transaction', async () => {
    let context: InboxContext | undefined;
    const { transport, routes } = transportWith((t) =>
      t.addHandler(
        inboxPattern('payments.commands', 'payments.commands.v1'),
        async (_data: Envelope, ctx: InboxContext) => {
          context = ctx;
        },
        true,
        OWN_TRANSACTIONS,
      ),
    );
    await listen(transport);
    const delivery = routes[0].router(envelope('payment.charge_mandate'), message('payments.commands.v1'));
    expect(delivery && 'ownTransactions' in delivery).toBe(true);
    if (delivery && 'ownTransactions' in delivery) await delivery.ownTransactions();
    expect(context?.consumer).toBe('payments.commands');
    expect(() => context?.tx).toThrow('OWN_TRANSACTIONS');
  });

  it.each([
    [
      'a plain string pattern',
      (t: InboxTransport) => t.addHandler('a.events.v1', async () => undefined, true),
      /not an inbox pattern/,
    ],
    [
      'a pattern with unknown fields',
      (t: InboxTransport) =>
        t.addHandler({ consumer: 'c', topic: 't', group: 'g' }, async () => undefined, true),
      /not an inbox pattern/,
    ],
    [
      'a @MessagePattern',
      (t: InboxTransport) => t.addHandler(inboxPattern('c', 't'), async () => undefined, false),
      /never replies/,
    ],
    [
      'a topic handled both whole and per event by one consumer',
      (t: InboxTransport) => {
        t.addHandler(inboxPattern('c', 't'), async () => undefined, true);
        t.addHandler(inboxPattern('c', 't', 'x.y'), async () => undefined, true);
      },
      /keep one/,
    ],
    [
      'two fetch windows for one consumer',
      (t: InboxTransport) => {
        t.addHandler(inboxPattern('c', 't', 'x.a'), async () => undefined, true, PROJECTION);
        t.addHandler(inboxPattern('c', 't', 'x.b'), async () => undefined, true);
      },
      /different fetch windows/,
    ],
  ])('refuses to start with %s', async (_name, register, error) => {
    const { transport, routes } = transportWith(register);
    await expect(listen(transport)).rejects.toThrow(error);
    expect(routes).toEqual([]);
  });
});
