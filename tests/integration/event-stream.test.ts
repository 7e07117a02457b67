// GET /v1/events/stream through the gateway, in both run modes (the embedded gateway relays
// an in-process injection as a stream, the distributed one an HTTP upstream): events arrive
// as they are recorded, each once and in the log's order; a client that reconnects with
// Last-Event-ID gets exactly the events it missed; types filter; errors are the envelope;
// another account's events never appear; a client leaving ends the service's stream.

import { Paygrid, PaygridError, sseFrames, type Event } from '@paygrid/sdk';
import { allEvents } from '../support/events';
import { eventually, usePlatform } from '../support/platform';
import { expectEnvelope } from '../support/http-assertions';

const suite = usePlatform({}, ['payments']);
const sdk = () => new Paygrid(suite.account.testKey, { baseUrl: suite.platform.url });

async function createLink(amount: number) {
  return sdk().POST('/v1/payment-links', { body: { currency: 'EUR', amount } });
}

/** Reads the stream until `count` events arrived (or fails after the suite's time limit). */
async function collect(
  options: Parameters<Paygrid['streamEvents']>[0],
  count: number,
  during?: () => Promise<void>,
) {
  const controller = new AbortController();
  const events: Event[] = [];
  let connected!: () => void;
  const open = new Promise<void>((resolve) => (connected = resolve));
  const reading = (async () => {
    for await (const event of sdk().streamEvents({
      ...options,
      signal: controller.signal,
      onConnect: () => connected(),
    })) {
      events.push(event);
      if (events.length >= count) controller.abort();
    }
  })();
  await open;
  await during?.();
  await reading;
  return events;
}

describe('GET /v1/events/stream', () => {
  it('streams new events as they are recorded, each once, in log order, with SSE ids', async () => {
    const created: string[] = [];
    const events = await collect({ types: ['payment_link.created'] }, 3, async () => {
      for (const amount of [100, 200, 300]) created.push((await createLink(amount)).id);
    });
    expect(events.map((e) => e.type)).toEqual(Array(3).fill('payment_link.created'));
    expect(events.map((e) => (e.type === 'payment_link.created' ? e.data.object.id : ''))).toEqual(created);
  });

  it('shows a test event sent to one endpoint, which the event log (/v1/events) leaves out', async () => {
    const api = (method: string, path: string) =>
      suite.platform.api(suite.account.testKey, method, path, method === 'POST' ? {} : undefined);
    const endpoint = await suite.platform.api(suite.account.testKey, 'POST', '/v1/webhooks', {
      url: 'https://paygrid-test.invalid/hooks',
      enabled_events: ['payment_link.created'],
    });
    expect(endpoint.status).toBe(200);
    let delivery: any;
    const [event] = await collect({ types: ['webhook_endpoint.test'] }, 1, async () => {
      delivery = (await api('POST', `/v1/webhooks/${endpoint.body.id}/test`)).body;
    });
    expect(event).toMatchObject({
      type: 'webhook_endpoint.test',
      data: { object: { id: endpoint.body.id } },
    });
    expect(delivery.event).toBe(event.id);
    expect((await api('GET', `/v1/events/${event.id}`)).status).toBe(404);
    expect((await allEvents(suite.platform, suite.account.testKey)).map((e) => e.id)).not.toContain(event.id);
    await api('DELETE', `/v1/webhooks/${endpoint.body.id}`);
  });

  it('resumes after Last-Event-ID with exactly the events missed while away', async () => {
    const first = await collect(
      { types: ['payment_link.created'] },
      1,
      async () => void (await createLink(400)),
    );
    const missed: string[] = [];
    for (const amount of [500, 600, 700, 800]) missed.push((await createLink(amount)).id);
    const logged = await eventually(async () => {
      const all = (await allEvents(suite.platform, suite.account.testKey)).filter(
        (e) => e.type === 'payment_link.created',
      );
      return all.some((e) => e.data.object.id === missed[3]) ? all : undefined;
    });
    const resumed = await collect({ types: ['payment_link.created'], lastEventId: first[0].id }, 4);
    const ids = resumed.map((e) => e.id);
    expect(new Set(ids).size).toBe(4);
    expect(resumed.map((e) => (e.type === 'payment_link.created' ? e.data.object.id : ''))).toEqual(missed);
    // The same events as the log, after the one the client had.
    const after = logged.slice(logged.findIndex((e) => e.id === first[0].id) + 1).map((e) => e.id);
    expect(ids).toEqual(after);
  });

  it('frames each event as id, event and data lines through the gateway', async () => {
    const controller = new AbortController();
    const response = await fetch(`${suite.platform.url}/v1/events/stream?types=payment_link.created`, {
      headers: { authorization: `Bearer ${suite.account.testKey}`, accept: 'text/event-stream' },
      signal: controller.signal,
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(response.headers.get('request-id')).toMatch(/^req_/);
    const link = await createLink(900);
    for await (const frame of sseFrames(response.body as ReadableStream<Uint8Array>)) {
      const event = JSON.parse(frame.data);
      expect(frame).toMatchObject({ id: event.id, event: 'payment_link.created' });
      expect(event.data.object.id).toBe(link.id);
      break;
    }
    controller.abort();
  });

  it('answers errors with the envelope: no key, no scope, an unknown or foreign Last-Event-ID, a bad type', async () => {
    const api = (key: string | undefined, query = '', headers: Record<string, string> = {}) =>
      suite.platform.api(key, 'GET', `/v1/events/stream${query}`, undefined, headers);
    expectEnvelope(await api(undefined), 401, 'authentication_required');
    const restricted = await suite.platform.admin('POST', `/admin/v1/accounts/${suite.account.id}/keys`, {
      mode: 'test',
      kind: 'restricted',
      scopes: ['payment_links:read'],
    });
    expectEnvelope(await api(restricted.body.secret), 403, 'insufficient_scope');
    expectEnvelope(
      await api(suite.account.testKey, '', { 'last-event-id': 'evt_doesnotexist0000' }),
      404,
      'resource_missing',
    );
    expectEnvelope(await api(suite.account.testKey, '?types=Payment'), 400, 'parameter_invalid');
    expectEnvelope(await api(suite.account.testKey, '?since=now'), 400, 'parameter_unknown');
    const other = await suite.platform.newAccount(['payments']);
    const theirs = await new Paygrid(other.testKey, { baseUrl: suite.platform.url }).POST(
      '/v1/payment-links',
      {
        body: { currency: 'EUR', amount: 100 },
      },
    );
    const theirEvent = await eventually(async () =>
      (await allEvents(suite.platform, other.testKey)).find((e) => e.data.object.id === theirs.id),
    );
    const error = await sdk()
      .streamEvents({ lastEventId: theirEvent.id })
      .next()
      .catch((e: unknown) => e);
    expect(PaygridError.is(error, 'resource_missing')).toBe(true);
  });

  it('never shows another account’s events', async () => {
    const other = await suite.platform.newAccount(['payments']);
    const otherSdk = new Paygrid(other.testKey, { baseUrl: suite.platform.url });
    const mine: string[] = [];
    const events = await collect({}, 2, async () => {
      await otherSdk.POST('/v1/payment-links', { body: { currency: 'EUR', amount: 111 } });
      mine.push((await createLink(222)).id, (await createLink(333)).id);
    });
    expect(events.map((e) => e.account)).toEqual([suite.account.id, suite.account.id]);
    expect(events.map((e) => (e.type === 'payment_link.created' ? e.data.object.id : ''))).toEqual(mine);
  });
});
