// The account's events as the API lists them (/v1/events), for suites that check what was emitted.

import { eventually, type Platform } from './platform';

/** Every event of the account and mode of `key`, oldest first (all pages of /v1/events). */
export async function allEvents(platform: Platform, key: string): Promise<any[]> {
  const all: any[] = [];
  let after: string | undefined;
  for (;;) {
    const page = await platform.api(
      key,
      'GET',
      `/v1/events?limit=100${after ? `&starting_after=${after}` : ''}`,
    );
    if (page.status !== 200) throw new Error(`GET /v1/events: ${page.status} ${JSON.stringify(page.body)}`);
    all.push(...page.body.data);
    if (!page.body.has_more) return all.reverse();
    after = page.body.data[page.body.data.length - 1].id;
  }
}

/**
 * Waits until /v1/events shows the `type` event about the object `id` (among the latest 100 of
 * that type; the outbox relay is asynchronous) and answers it.
 */
export function eventAbout(platform: Platform, key: string, type: string, id: string, timeoutMs?: number) {
  return eventually(async () => {
    const events = await platform.api(key, 'GET', `/v1/events?type=${type}&limit=100`);
    expect(events.status).toBe(200);
    return events.body.data.find((e: any) => e.data.object.id === id);
  }, timeoutMs);
}
