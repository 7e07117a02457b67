// `paygrid listen --forward-to URL`: the account's events from GET /v1/events/stream,
// re-signed with a secret of this session (Standard Webhooks, as the server signs
// deliveries) and POSTed to a local URL, one line per delivery with the local answer. No
// tunnel: the CLI connects out to the server, wherever it runs.

import { randomBytes } from 'node:crypto';
import { sign, type EventType, type Paygrid } from '@paygrid/sdk';

export interface ListenOptions {
  forwardTo: string;
  events?: EventType[];
  /** Resume after this event (default: from now). */
  lastEventId?: string;
  signal?: AbortSignal;
  json: boolean;
  out: (line: string) => void;
  err: (line: string) => void;
  /** Tests: the session secret (default: a random one, printed). */
  secret?: string;
}

/** A Standard Webhooks secret: `whsec_` and 32 random bytes in base64, like an endpoint's. */
export const sessionSecret = (): string => `whsec_${randomBytes(32).toString('base64')}`;

export async function listen(paygrid: Paygrid, options: ListenOptions): Promise<number> {
  const secret = options.secret ?? sessionSecret();
  options.err(`Your webhook signing secret for this session is ${secret}`);
  let announced = false;
  for await (const event of paygrid.streamEvents({
    types: options.events,
    lastEventId: options.lastEventId,
    signal: options.signal,
    onConnect: () => {
      options.err(
        announced
          ? 'Reconnected; resuming after the last event received.'
          : `Ready: forwarding ${options.events?.join(', ') ?? 'every event'} to ${options.forwardTo} (Ctrl-C to stop).`,
      );
      announced = true;
    },
  })) {
    const body = JSON.stringify(event);
    const started = Date.now();
    let outcome: { status?: number; error?: string };
    try {
      const response = await fetch(options.forwardTo, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...sign(body, secret, event.id) },
        body,
        signal: AbortSignal.timeout(15_000),
      });
      await response.arrayBuffer();
      outcome = { status: response.status };
    } catch (error) {
      outcome = {
        error:
          error instanceof Error
            ? ((error.cause as Error | undefined)?.message ?? error.message)
            : String(error),
      };
    }
    const ms = Date.now() - started;
    options.out(
      options.json
        ? JSON.stringify({ event: event.id, type: event.type, ...outcome, ms })
        : `${new Date().toISOString()}  ${event.type.padEnd(28)} ${event.id}  -> ${outcome.status ?? `error: ${outcome.error}`} (${ms} ms)`,
    );
  }
  return 0;
}
