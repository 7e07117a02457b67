// The typed commands: `paygrid <resource> <action> [id] [--field value ...]`, e.g.
// `paygrid payment-links create --amount 1000 --currency eur` or `paygrid customers list`.
// Each resource names its collection path (checked by tsc against the SDK's `paths`, so a
// route the document does not have fails the build) and the actions it takes; the fields are
// the API's own (kebab-case accepted), checked by the server, which rejects unknown ones.

import type { paths } from '@paygrid/sdk';
import { parseData, UsageError } from './args';

type Collection = keyof paths & `/v1/${string}`;
interface Resource {
  path: Collection;
  /** Collection actions beyond list and get (`create`), object actions (`POST {id}/<action>`). */
  create?: boolean;
  update?: boolean;
  del?: boolean;
  actions?: readonly string[];
  /** The columns of `list` (the first is always the id). */
  columns: readonly string[];
}

export const RESOURCES: Record<string, Resource> = {
  'payment-links': {
    path: '/v1/payment-links',
    create: true,
    update: true,
    columns: ['status', 'amount', 'currency', 'url'],
  },
  customers: {
    path: '/v1/customers',
    create: true,
    update: true,
    del: true,
    columns: ['name', 'email', 'currency'],
  },
  transactions: { path: '/v1/transactions', columns: ['status', 'amount', 'currency', 'created_at'] },
  refunds: { path: '/v1/refunds', create: true, columns: ['status', 'amount', 'currency', 'transaction'] },
  invoices: {
    path: '/v1/invoices',
    create: true,
    update: true,
    actions: ['finalize', 'send', 'pay', 'void', 'mark-uncollectible'],
    columns: ['number', 'status', 'total', 'currency', 'customer'],
  },
  subscriptions: {
    path: '/v1/subscriptions',
    create: true,
    update: true,
    actions: ['cancel', 'pause', 'resume'],
    columns: ['status', 'customer', 'current_period_end'],
  },
  estimates: {
    path: '/v1/estimates',
    create: true,
    update: true,
    actions: ['send', 'accept', 'decline', 'convert'],
    columns: ['kind', 'status', 'total', 'currency'],
  },
  mandates: { path: '/v1/mandates', actions: ['cancel'], columns: ['status', 'customer'] },
  events: { path: '/v1/events', columns: ['type', 'created_at'] },
  webhooks: { path: '/v1/webhooks', create: true, del: true, columns: ['url', 'status'] },
  'test-clocks': {
    path: '/v1/test-clocks',
    create: true,
    del: true,
    actions: ['advance'],
    columns: ['status', 'frozen_time'],
  },
};

export interface ResourceCall {
  method: 'GET' | 'POST' | 'DELETE';
  path: string;
  query?: Record<string, unknown>;
  body?: Record<string, unknown>;
  /** For `list`: the resource's columns. */
  columns?: readonly string[];
}

/** `--max-completions 1 --metadata[order] 7 --send` into `-d` pairs (a flag alone is true). */
export function fieldsOf(args: readonly string[]): Record<string, unknown> {
  const pairs: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (!arg.startsWith('--')) throw new UsageError(`unexpected "${arg}": fields are --name value`);
    const [flag, inline] = arg.slice(2).split(/=(.*)/s, 2);
    const name = flag.replace(/-/g, '_');
    if (inline !== undefined) pairs.push(`${name}=${inline}`);
    else if (args[i + 1] === undefined || args[i + 1].startsWith('--')) pairs.push(`${name}=true`);
    else pairs.push(`${name}=${args[++i]}`);
  }
  return parseData(pairs);
}

const USAGE_OF = (name: string, r: Resource) =>
  `${name}: list|get <id>${r.create ? '|create' : ''}${r.update ? '|update <id>' : ''}${r.del ? '|delete <id>' : ''}${
    r.actions?.length ? `|${r.actions.join('|')} <id>` : ''
  }`;

/** The API call of `paygrid <resource> <action> ...` (positionals, then the fields' flags). */
export function resourceCall(name: string, args: readonly string[]): ResourceCall {
  const resource = RESOURCES[name];
  const [action, ...rest] = args;
  const hasId = rest.length > 0 && !rest[0].startsWith('--');
  const id = hasId ? rest[0] : undefined;
  const fields = fieldsOf(hasId ? rest.slice(1) : rest);
  if (id !== undefined && !/^[A-Za-z0-9_]{1,100}$/.test(id)) throw new UsageError(`${id} is not an id`);
  const needId = () => {
    if (!id) throw new UsageError(`${name} ${action} takes the object's id`);
    return `${resource.path}/${id}`;
  };
  const noId = () => {
    if (id) throw new UsageError(`${name} ${action} takes no id`);
  };
  switch (action) {
    case 'list':
      noId();
      return {
        method: 'GET',
        path: resource.path,
        query: { limit: 10, ...fields },
        columns: resource.columns,
      };
    case 'get':
      return { method: 'GET', path: needId(), query: fields };
    case 'create':
      if (!resource.create) break;
      noId();
      return { method: 'POST', path: resource.path, body: fields };
    case 'update':
      if (!resource.update) break;
      return { method: 'POST', path: needId(), body: fields };
    case 'delete':
      if (!resource.del) break;
      return { method: 'DELETE', path: needId() };
    default:
      if (action && resource.actions?.includes(action))
        return { method: 'POST', path: `${needId()}/${action}`, body: fields };
  }
  throw new UsageError(
    `${action ? `"${action}" is not an action of ${name}` : 'no action'}; ${USAGE_OF(name, resource)}`,
  );
}

export const RESOURCES_USAGE = Object.entries(RESOURCES)
  .map(([name, r]) => `  ${USAGE_OF(name, r)}`)
  .join('\n');
