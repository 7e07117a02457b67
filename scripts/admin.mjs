#!/usr/bin/env node
// `npm run admin -- <command>`: the operator's command line, a thin client of the admin API
// (/admin/v1). It prints the API's JSON answer; an error answer goes to stderr and exits 1,
// a usage error exits 2. Configured by PAYGRID_URL and OPERATOR_TOKEN (or the token file the
// embedded or distributed start-up wrote under .data).

import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, URLSearchParams } from 'node:url';
import { parseArgs } from 'node:util';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');

const str = { type: 'string' };
const PAGE = { limit: str, 'starting-after': str, 'ending-before': str };
const page = (v) => ({
  limit: v.limit,
  starting_after: v['starting-after'],
  ending_before: v['ending-before'],
});

/** Every command: its arguments, flags (required ones marked) and the request it makes. */
const COMMANDS = {
  'accounts create': {
    usage: '--name NAME --groupings payments,invoicing [--metadata key=value ...]',
    options: { name: str, groupings: str, metadata: { type: 'string', multiple: true } },
    required: ['name', 'groupings'],
    request: (_, v) => [
      'POST',
      '/admin/v1/accounts',
      {
        name: v.name,
        groupings: csv(v.groupings),
        ...(v.metadata ? { metadata: metadata(v.metadata) } : {}),
      },
    ],
  },
  'accounts list': {
    usage:
      '[--status active|suspended] [--live-processor connected|none] [--limit N] [--starting-after ID] [--ending-before ID]',
    options: { status: str, 'live-processor': str, ...PAGE },
    request: (_, v) => [
      'GET',
      `/admin/v1/accounts${query({ status: v.status, live_processor: v['live-processor'], ...page(v) })}`,
    ],
  },
  'accounts get': {
    args: ['ID'],
    request: ([id]) => ['GET', `/admin/v1/accounts/${enc(id)}`],
  },
  'accounts update': {
    args: ['ID'],
    usage:
      '[--name NAME] [--groupings payments,invoicing] [--rate-limit N|default] [--metadata key=value ...]',
    options: { name: str, groupings: str, 'rate-limit': str, metadata: { type: 'string', multiple: true } },
    request: ([id], v) => {
      const body = {};
      if (v.name !== undefined) body.name = v.name;
      if (v.groupings !== undefined) body.groupings = csv(v.groupings);
      if (v['rate-limit'] !== undefined) body.rate_limit_per_second = rateLimit(v['rate-limit']);
      if (v.metadata !== undefined) body.metadata = metadata(v.metadata);
      return ['POST', `/admin/v1/accounts/${enc(id)}`, body];
    },
  },
  'accounts suspend': {
    args: ['ID'],
    request: ([id]) => ['POST', `/admin/v1/accounts/${enc(id)}/suspend`, {}],
  },
  'accounts reactivate': {
    args: ['ID'],
    request: ([id]) => ['POST', `/admin/v1/accounts/${enc(id)}/reactivate`, {}],
  },
  'keys create': {
    usage:
      '--account ID --mode test|live [--kind secret|restricted] [--scopes a:read,b:write] [--expires-at ISO] [--name NAME]',
    options: { account: str, mode: str, kind: str, scopes: str, 'expires-at': str, name: str },
    required: ['account', 'mode'],
    request: (_, v) => {
      // With a scope list and no kind, the key can only be a restricted one.
      const body = { mode: v.mode, kind: v.kind ?? (v.scopes !== undefined ? 'restricted' : 'secret') };
      if (v.scopes !== undefined) body.scopes = csv(v.scopes);
      if (v['expires-at'] !== undefined) body.expires_at = v['expires-at'];
      if (v.name !== undefined) body.name = v.name;
      return ['POST', `/admin/v1/accounts/${enc(v.account)}/keys`, body];
    },
  },
  'keys list': {
    usage: '--account ID [--limit N] [--starting-after ID] [--ending-before ID]',
    options: { account: str, ...PAGE },
    required: ['account'],
    request: (_, v) => ['GET', `/admin/v1/accounts/${enc(v.account)}/keys${query(page(v))}`],
  },
  'keys get': {
    args: ['ID'],
    request: ([id]) => ['GET', `/admin/v1/keys/${enc(id)}`],
  },
  'keys roll': {
    args: ['ID'],
    usage: '[--grace-period SECONDS]',
    options: { 'grace-period': str },
    request: ([id], v) => [
      'POST',
      `/admin/v1/keys/${enc(id)}/roll`,
      v['grace-period'] !== undefined
        ? { grace_period_seconds: integer('--grace-period', v['grace-period']) }
        : {},
    ],
  },
  'keys revoke': {
    args: ['ID'],
    request: ([id]) => ['POST', `/admin/v1/keys/${enc(id)}/revoke`, {}],
  },
  // The credentials come from the environment, never the command line (where `ps` and the
  // shell's history would keep them): PROCESSOR_SECRET_KEY, PROCESSOR_WEBHOOK_SIGNING_SECRET.
  'processor-connections create': {
    usage:
      '--account ID --mode test|live [--processor stripe] [--description TEXT]  (credentials: PROCESSOR_SECRET_KEY, PROCESSOR_WEBHOOK_SIGNING_SECRET)',
    options: { account: str, mode: str, processor: str, description: str },
    required: ['account', 'mode'],
    request: (_, v) => {
      const secretKey = process.env.PROCESSOR_SECRET_KEY;
      const signingSecret = process.env.PROCESSOR_WEBHOOK_SIGNING_SECRET;
      if (!secretKey || !signingSecret) {
        throw new UsageError(
          'set PROCESSOR_SECRET_KEY and PROCESSOR_WEBHOOK_SIGNING_SECRET in the environment',
        );
      }
      return [
        'POST',
        `/admin/v1/accounts/${enc(v.account)}/processor-connections`,
        {
          mode: v.mode,
          processor: v.processor ?? 'stripe',
          credentials: { secret_key: secretKey, webhook_signing_secret: signingSecret },
          ...(v.description !== undefined ? { description: v.description } : {}),
        },
      ];
    },
  },
  // After a new key was put first in PROCESSOR_SECRETS_KEYS (and the services restarted).
  'processor-connections reencrypt': {
    request: () => ['POST', '/admin/v1/processor-connections/reencrypt', {}],
  },
  ...Object.fromEntries(
    ['approve', 'reject', 'restrict'].map((decision) => [
      `merchants ${decision}`,
      {
        args: ['ID'],
        usage: '[--reason TEXT]',
        options: { reason: str },
        request: ([id], v) => [
          'POST',
          `/admin/v1/merchants/${enc(id)}/${decision}`,
          v.reason !== undefined ? { reason: v.reason } : {},
        ],
      },
    ]),
  ),
};

class UsageError extends Error {}

const enc = encodeURIComponent;
const csv = (value) =>
  value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

function query(params) {
  const entries = Object.entries(params).filter(([, v]) => v !== undefined);
  return entries.length ? `?${new URLSearchParams(entries).toString()}` : '';
}

function integer(flag, value) {
  if (!/^\d+$/.test(value)) throw new UsageError(`${flag} must be a whole number, got "${value}"`);
  return Number(value);
}

function rateLimit(value) {
  return value === 'default' || value === 'none' ? null : integer('--rate-limit', value);
}

function metadata(pairs) {
  return Object.fromEntries(
    pairs.map((pair) => {
      const at = pair.indexOf('=');
      if (at <= 0) throw new UsageError(`--metadata takes key=value, got "${pair}"`);
      return [pair.slice(0, at), pair.slice(at + 1)];
    }),
  );
}

function usage() {
  const lines = Object.entries(COMMANDS).map(
    ([name, spec]) => `  ${[name, ...(spec.args ?? []), spec.usage ?? ''].join(' ').trimEnd()}`,
  );
  return [
    'Usage: npm run admin -- <command> [arguments] [flags]',
    '',
    'Commands:',
    ...lines,
    '  help',
    '',
    'Environment:',
    '  PAYGRID_URL     the gateway (default http://127.0.0.1:3000)',
    '  OPERATOR_TOKEN  the admin API token (default: .data/operator-token, else .data/distributed/operator_token)',
    '',
  ].join('\n');
}

function operatorToken(env) {
  if (env.OPERATOR_TOKEN) return env.OPERATOR_TOKEN;
  const dataDir = resolve(env.DATA_DIR ?? join(ROOT, '.data'));
  for (const file of [join(dataDir, 'operator-token'), join(dataDir, 'distributed', 'operator_token')]) {
    if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  }
  return undefined;
}

/** Resolves argv into the request to make, or throws a UsageError. */
function parse(argv) {
  const name = argv.slice(0, 2).join(' ');
  const spec = COMMANDS[name];
  if (!spec) throw new UsageError(argv.length ? `Unknown command: ${name}` : 'No command given.');
  let parsed;
  try {
    parsed = parseArgs({
      args: argv.slice(2),
      options: spec.options ?? {},
      allowPositionals: true,
      strict: true,
    });
  } catch (error) {
    throw new UsageError(error.message);
  }
  const { values, positionals } = parsed;
  const args = spec.args ?? [];
  if (positionals.length !== args.length) {
    throw new UsageError(`${name} takes ${args.length ? args.join(' ') : 'no arguments'}`);
  }
  for (const flag of spec.required ?? []) {
    if (values[flag] === undefined) throw new UsageError(`${name} needs --${flag}`);
  }
  return spec.request(positionals, values);
}

async function main(argv, env) {
  if (argv.length === 1 && ['help', '--help', '-h'].includes(argv[0])) {
    process.stdout.write(usage());
    return 0;
  }
  let method, path, body;
  try {
    [method, path, body] = parse(argv);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    process.stderr.write(`${error.message}\n\n${usage()}`);
    return 2;
  }
  const token = operatorToken(env);
  if (!token) {
    process.stderr.write(
      'No operator token: set OPERATOR_TOKEN (or start Paygrid once to create .data/operator-token).\n',
    );
    return 1;
  }
  const base = (env.PAYGRID_URL ?? 'http://127.0.0.1:3000').replace(/\/+$/, '');
  const headers = { authorization: `Bearer ${token}` };
  if (body !== undefined) headers['content-type'] = 'application/json';
  let response;
  try {
    response = await fetch(`${base}${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (error) {
    process.stderr.write(`Cannot reach ${base}: ${error.cause?.message ?? error.message}\n`);
    return 1;
  }
  const text = await response.text();
  let output = text;
  try {
    output = JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    // not JSON (a proxy's error page, say): print it as it came
  }
  (response.ok ? process.stdout : process.stderr).write(`${output}\n`);
  return response.ok ? 0 : 1;
}

main(process.argv.slice(2), process.env).then(
  (code) => {
    process.exitCode = code;
  },
  (error) => {
    process.stderr.write(`${error.stack ?? error}\n`);
    process.exitCode = 1;
  },
);
