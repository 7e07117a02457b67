// `paygrid`: the commands, as one function a test can call (`run(argv, io)` answers the exit
// code: 0 done, 1 the API answered an error, 2 a usage error, as scripts/admin.mjs).

import { homedir } from 'node:os';
import { parseArgs } from 'node:util';
import { Paygrid, PaygridConnectionError, PaygridError, type EventType } from '@paygrid/sdk';
import { parseData, UsageError } from './args';
import { configPath, readConfig, writeConfig } from './config';
import { listen } from './listen';
import { tailLogs } from './logs';
import { render, table } from './output';
import { RESOURCES, RESOURCES_USAGE, resourceCall, type ResourceCall } from './resources';
import { TRIGGERS } from './triggers';

export interface Io {
  out: (text: string) => void;
  err: (text: string) => void;
  env: Record<string, string | undefined>;
  home?: string;
  /** Stops `listen` (main.ts aborts it on Ctrl-C). */
  signal?: AbortSignal;
}

export const USAGE = `Usage: paygrid <command> [options]

  login --key KEY [--base-url URL]        store a key for the profile (default "default")
  get <path> [-d key=value ...]           GET /v1/...; -d adds query parameters
  post <path> [-d key=value ...]          POST /v1/... with a JSON body built from -d
  delete <path>                           DELETE /v1/...
  listen --forward-to URL [--events a,b]  forward the account's events, re-signed, to URL
  trigger <event type>                    cause that event in the sandbox (test keys only)
  logs tail                               the account's API requests as they are answered
  <resource> <action> [id] [--field value ...]   typed commands, e.g.
      paygrid payment-links create --amount 1000 --currency eur
      paygrid customers list --limit 5
${RESOURCES_USAGE}

Options: --profile NAME, --json (raw JSON output), --key KEY, --base-url URL,
--idempotency-key KEY (post). -d key=value: a[b]=c nests, integers are numbers,
key:=<json> takes JSON. Keys are kept in ~/.config/paygrid/config.json (mode 0600).`;

const OPTIONS = {
  profile: { type: 'string' },
  json: { type: 'boolean' },
  key: { type: 'string' },
  'base-url': { type: 'string' },
  data: { type: 'string', short: 'd', multiple: true },
  'forward-to': { type: 'string' },
  events: { type: 'string' },
  'last-event-id': { type: 'string' },
  'idempotency-key': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

export async function run(argv: readonly string[], io: Io): Promise<number> {
  try {
    return await command(argv, io);
  } catch (error) {
    if (error instanceof UsageError) {
      io.err(`paygrid: ${error.message}\n\n${USAGE}`);
      return 2;
    }
    if (error instanceof PaygridError) {
      io.err(
        `paygrid: ${error.status} ${error.code}: ${error.message}${error.param ? ` (${error.param})` : ''} [${error.requestId}]`,
      );
      return 1;
    }
    if (error instanceof PaygridConnectionError || error instanceof TypeError) {
      io.err(`paygrid: ${error.message}${error.cause instanceof Error ? `: ${error.cause.message}` : ''}`);
      return 1;
    }
    throw error;
  }
}

/** The options every command takes, taken out of a typed command's fields. */
const GLOBAL_OPTIONS = new Set(['profile', 'key', 'base-url', 'idempotency-key']);

function splitGlobalOptions(argv: readonly string[]): { global: string[]; rest: string[] } {
  const global: string[] = [];
  const rest: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const name = /^--([a-z-]+)(=|$)/.exec(argv[i]);
    if (argv[i] === '--json' || argv[i] === '-h' || argv[i] === '--help') global.push(argv[i]);
    else if (name && GLOBAL_OPTIONS.has(name[1])) {
      global.push(argv[i]);
      if (!name[2] && i + 1 < argv.length) global.push(argv[++i]);
    } else rest.push(argv[i]);
  }
  return { global, rest };
}

async function command(argv: readonly string[], io: Io): Promise<number> {
  // A typed command's fields are free (--amount, --currency, ...): only the global options
  // go through parseArgs' strict check; the server checks the fields.
  if (argv[0] && Object.hasOwn(RESOURCES, argv[0])) {
    const { global, rest } = splitGlobalOptions(argv.slice(1));
    const { values } = parseOptions(global);
    if (values.help) {
      io.out(USAGE);
      return 0;
    }
    return resourceCommand(connect(values, io), resourceCall(argv[0], rest), values, io);
  }
  const { values, positionals } = parseOptions(argv);
  const [name, ...rest] = positionals;
  if (values.help || !name || name === 'help') {
    io.out(USAGE);
    return name || values.help ? 0 : 2;
  }
  const path = configPath(io.env, io.home ?? homedir());
  const profileName = values.profile ?? io.env.PAYGRID_PROFILE ?? 'default';

  if (name === 'login') {
    const key = values.key ?? io.env.PAYGRID_KEY;
    if (!key) throw new UsageError('login needs --key KEY (or PAYGRID_KEY)');
    const baseUrl = values['base-url'] ?? io.env.PAYGRID_URL ?? 'http://localhost:3000';
    // The key is checked before it is kept: a typo is refused here, not at the next command.
    await client(key, baseUrl)
      .request('GET', '/v1/events', { query: { limit: 1 } })
      .catch((error: unknown) => {
        if (!PaygridError.is(error, 'insufficient_scope')) throw error;
      });
    const config = readConfig(path);
    config.profiles[profileName] = { key, base_url: baseUrl };
    writeConfig(path, config);
    io.out(
      `Logged in to ${baseUrl} as profile "${profileName}" (${key.slice(0, 8)}...${key.slice(-4)}), saved in ${path}`,
    );
    return 0;
  }

  const paygrid = connect(values, io);
  const json = values.json ?? false;

  if (name === 'get' || name === 'post' || name === 'delete') {
    const [target, ...extra] = rest;
    if (!target?.startsWith('/v1/') || extra.length)
      throw new UsageError(`${name} takes one path starting with /v1/`);
    const data = parseData(values.data ?? []);
    const method = name.toUpperCase() as 'GET' | 'POST' | 'DELETE';
    const answer = await paygrid.request(method, target, {
      ...(method === 'GET' ? { query: data } : {}),
      ...(method === 'POST' ? { body: data } : {}),
      ...(values['idempotency-key'] ? { headers: { 'idempotency-key': values['idempotency-key'] } } : {}),
    });
    io.out(render(answer, json));
    return 0;
  }

  if (name === 'listen') {
    const forwardTo = values['forward-to'];
    if (!forwardTo || !/^https?:\/\//.test(forwardTo))
      throw new UsageError('listen needs --forward-to http(s)://...');
    const events = values.events ? (values.events.split(',') as EventType[]) : undefined;
    const unknown = events?.filter((type) => !(type in TRIGGERS));
    if (unknown?.length) throw new UsageError(`not event types: ${unknown.join(', ')}`);
    return listen(paygrid, {
      forwardTo,
      events,
      lastEventId: values['last-event-id'],
      signal: io.signal,
      json,
      out: io.out,
      err: io.err,
    });
  }

  if (name === 'logs') {
    if (rest.length !== 1 || rest[0] !== 'tail') throw new UsageError('logs takes one subcommand: tail');
    return tailLogs(paygrid, { signal: io.signal, json, out: io.out, err: io.err });
  }

  if (name === 'trigger') {
    const [type, ...extra] = rest;
    if (!type || extra.length) throw new UsageError('trigger takes one event type');
    if (!(type in TRIGGERS)) throw new UsageError(`${type} is not an event type of the catalogue`);
    if (!paygrid.sandbox)
      throw new UsageError('trigger works with a test key only (it creates sandbox objects)');
    const recipe = TRIGGERS[type as EventType];
    if (typeof recipe !== 'function')
      throw new UsageError(`${type} cannot be triggered: ${recipe.unsupported}`);
    const object = await recipe(paygrid);
    io.out(
      json ? JSON.stringify({ triggered: type, object: object.id }) : `Triggered ${type} (${object.id}).`,
    );
    return 0;
  }

  throw new UsageError(`unknown command "${name}"`);
}

type Values = ReturnType<typeof parseOptions>['values'];

function parseOptions(argv: readonly string[]) {
  try {
    return parseArgs({ args: [...argv], options: OPTIONS, allowPositionals: true, strict: true });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

/** A client with the key of the options, the environment, or the profile (in that order). */
function connect(values: Values, io: Io): Paygrid {
  const profileName = values.profile ?? io.env.PAYGRID_PROFILE ?? 'default';
  const profile = readConfig(configPath(io.env, io.home ?? homedir())).profiles[profileName];
  const key = values.key ?? io.env.PAYGRID_KEY ?? profile?.key;
  const baseUrl = values['base-url'] ?? io.env.PAYGRID_URL ?? profile?.base_url ?? 'http://localhost:3000';
  if (!key) throw new UsageError(`no key for profile "${profileName}": run paygrid login --key KEY`);
  return client(key, baseUrl);
}

/** `paygrid <resource> <action> ...`: the call, then a table of the resource's columns or the object. */
async function resourceCommand(
  paygrid: Paygrid,
  call: ResourceCall,
  values: Values,
  io: Io,
): Promise<number> {
  const json = values.json ?? false;
  const answer = await paygrid.request(call.method, call.path, {
    ...(call.query ? { query: call.query } : {}),
    ...(call.body ? { body: call.body } : {}),
    ...(values['idempotency-key'] ? { headers: { 'idempotency-key': values['idempotency-key'] } } : {}),
  });
  const list = answer as { object?: string; data?: Record<string, unknown>[]; has_more?: boolean };
  if (!json && call.columns && list.object === 'list' && Array.isArray(list.data)) {
    io.out(table(list.data, call.columns));
    if (list.has_more) io.out(`(more: --starting-after ${String(list.data.at(-1)?.id)})`);
  } else io.out(render(answer, json));
  return 0;
}

function client(key: string, baseUrl: string): Paygrid {
  try {
    return new Paygrid(key, { baseUrl });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}
