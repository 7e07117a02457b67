// Contract fuzz: property-based requests to EVERY operation of the served OpenAPI document
// (valid-ish and deliberately broken bodies, queries, path ids and Idempotency-Keys; ids of
// another account), asserting for each answer:
//   - never a 5xx;
//   - the status is one the operation documents;
//   - a 2xx body validates against the documented response schema (Ajv 2020-12);
//   - an error is the envelope with a catalogued code, and its request_id is the header's.
// Seed-reproducible: FUZZ_SEED (printed), FUZZ_RUNS per operation (default 60). Runs against
// the embedded platform (project `contract`) or the distributed one (`contract-distributed`).

import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import fc from 'fast-check';
import { ERROR_CODES } from '@paygrid/contracts';
import { startPlatform, type Platform } from '../support/platform';
import { DocumentArbitraries, type FuzzRequest, type IdPool, type Operation } from './openapi-arbitraries';

const SEED = Number(process.env.FUZZ_SEED ?? 20261122);
const RUNS = Number(process.env.FUZZ_RUNS ?? 60);
const DOC_ID = 'https://paygrid.invalid/v1/openapi.json';
const ANSWER_WITHIN_MS = 15_000;
const progress = (line: string) => process.env.FUZZ_VERBOSE && process.stderr.write(`fuzz: ${line}\n`);

let platform: Platform;
let doc: any;
let operations: Operation[];
let arbitraries: DocumentArbitraries;
let ajv: Ajv2020;
const pool: IdPool = { own: {}, foreign: [] };
const keys: string[] = [];
let nextKey = 0;

const validators = new Map<string, ReturnType<Ajv2020['compile']>>();
function problems(ref: string, value: unknown): string[] {
  let check = validators.get(ref);
  if (!check) {
    check = ajv.compile({ $ref: `${DOC_ID}${ref}` });
    validators.set(ref, check);
  }
  return check(value) ? [] : (check.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message}`);
}

async function send(request: FuzzRequest, key = keys[nextKey++ % keys.length]) {
  const headers: Record<string, string> = { authorization: `Bearer ${key}`, ...request.headers };
  let body: string | undefined;
  if (request.body !== undefined) {
    headers['content-type'] = 'application/json';
    body = typeof request.body === 'string' ? request.body : JSON.stringify(request.body);
  }
  let response: Response;
  let text: string;
  try {
    response = await fetch(`${platform.url}${request.path}`, {
      method: request.method,
      headers,
      body,
      signal: AbortSignal.timeout(ANSWER_WITHIN_MS),
    });
    text = await response.text();
  } catch (error) {
    // No answer at all (a hung handler, a reset connection) is as bad as a 5xx.
    return { status: 599, body: `no answer: ${String(error)}`, requestId: null };
  }
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // not JSON: the checks below report it
  }
  return { status: response.status, body: parsed as any, requestId: response.headers.get('request-id') };
}

/** Why an answer breaks the contract; empty when it keeps it. */
function violations(op: Operation, answer: Awaited<ReturnType<typeof send>>): string[] {
  const found: string[] = [];
  if (answer.status >= 500)
    found.push(answer.status === 599 ? String(answer.body) : `5xx (${answer.status})`);
  const documented = op.op.responses[String(answer.status)] ?? op.op.responses.default;
  if (!documented) found.push(`status ${answer.status} is not documented for ${op.label}`);
  const response = documented ? arbitraries.resolve(documented) : undefined;
  const schemaRef: string | undefined = response?.content?.['application/json']?.schema?.$ref;
  if (answer.status < 400) {
    if (schemaRef) found.push(...problems(schemaRef, answer.body).map((p) => `response schema: ${p}`));
  } else {
    found.push(...problems('#/components/schemas/ErrorEnvelope', answer.body).map((p) => `envelope: ${p}`));
    const code = answer.body?.error?.code;
    if (!ERROR_CODES.includes(code)) found.push(`code ${JSON.stringify(code)} is not catalogued`);
    if (answer.body?.error?.request_id !== answer.requestId) found.push('request_id differs from Request-Id');
  }
  return found;
}

/** Creates an object of every creatable resource (example bodies) in the key's account. */
async function seedObjects(key: string): Promise<Map<string, string>> {
  const byPrefix = new Map<string, string>();
  const creates = operations.filter((o) => o.method === 'post' && !o.path.includes('{'));
  const substitute = (value: unknown): unknown => {
    if (typeof value === 'string') {
      const prefix = /^([a-z]+)_/.exec(value)?.[1];
      return prefix && byPrefix.has(prefix) ? byPrefix.get(prefix) : value;
    }
    if (Array.isArray(value)) return value.map(substitute);
    if (value && typeof value === 'object')
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, substitute(v)]));
    return value;
  };
  // Two passes: an example that names another resource's object (a refund's transaction)
  // succeeds once that object exists.
  for (let pass = 0; pass < 2; pass++) {
    for (const op of creates) {
      const schema = arbitraries.resolve(op.op.requestBody?.content?.['application/json']?.schema);
      const example = substitute(schema?.examples?.[0] ?? {});
      const created = await send(
        { method: 'POST', path: op.path, body: example, headers: {}, kind: 'seed' },
        key,
      );
      progress(`seed ${op.label} -> ${created.status}`);
      const prefix = /^([a-z]+)_/.exec(created.body?.id ?? '')?.[1];
      if (created.status === 200 && prefix && !byPrefix.has(prefix)) byPrefix.set(prefix, created.body.id);
    }
  }
  return byPrefix;
}

/** For each templated path parameter, the ids of `key`'s account that fit it. */
async function idsForPaths(key: string, byPrefix: Map<string, string>): Promise<Record<string, string[]>> {
  const out: Record<string, string[]> = {};
  for (const op of operations) {
    for (const [, name] of op.path.matchAll(/\{(\w+)\}/g)) {
      const slot = `${op.path}:${name}`;
      if (out[slot]) continue;
      const collection = op.path.slice(0, op.path.indexOf(`/{${name}}`));
      let ids: string[] = [];
      if (name === 'id') {
        const list = await send(
          { method: 'GET', path: `${collection}?limit=5`, headers: {}, kind: 'seed' },
          key,
        );
        ids = (list.body?.data ?? []).map((o: any) => o.id);
      } else {
        // A nested id (a webhook delivery): the sub-collection listed under the parent.
        const parentId = out[`${op.path}:id`]?.[0];
        const sub = op.path.slice(0, op.path.indexOf(`/{${name}}`)).replace('{id}', parentId ?? 'x');
        const list = await send({ method: 'GET', path: sub, headers: {}, kind: 'seed' }, key);
        ids = (list.body?.data ?? []).map((o: any) => o.id);
        if (parentId) out[slot] = ids;
        continue;
      }
      out[slot] = ids.length
        ? ids
        : [...byPrefix.values()].filter((id) => collection.includes(id.split('_')[0]));
    }
  }
  return out;
}

beforeAll(async () => {
  platform = await startPlatform();
  doc = (await platform.api(undefined, 'GET', '/v1/openapi.json')).body;
  ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addSchema({ $id: DOC_ID, components: { schemas: doc.components.schemas } });
  arbitraries = new DocumentArbitraries(doc);
  operations = Object.entries(doc.paths).flatMap(([path, item]: [string, any]) =>
    Object.entries(item)
      // An event stream never ends, so it cannot be answered within ANSWER_WITHIN_MS: its
      // bad input and errors are tested by tests/integration/event-stream.test.ts.
      .filter(
        ([, op]: [string, any]) =>
          !Object.values(op.responses).some((r: any) => r.content?.['text/event-stream']),
      )
      .map(([method, op]) => ({
        method,
        path,
        op,
        label: `${method.toUpperCase()} ${path}`,
      })),
  );

  const own = await platform.newAccount(['payments', 'invoicing']);
  const other = await platform.newAccount(['payments', 'invoicing']);
  for (const account of [own, other]) {
    // The suite sends many requests per second; the rate limiter is not what it tests.
    const raised = await platform.admin('POST', `/admin/v1/accounts/${account.id}`, {
      rate_limit_per_second: 100_000,
    });
    expect(raised.status).toBe(200);
  }
  keys.push(own.testKey);
  const otherObjects = await seedObjects(other.testKey);
  const ownObjects = await seedObjects(own.testKey);
  // Nested ids (webhook deliveries): an action without parameters under each own object
  // (POST .../{id}/test) creates one.
  for (const op of operations.filter((o) => o.method === 'post' && /\/\{id\}\/test$/.test(o.path))) {
    const collection = op.path.slice(0, op.path.indexOf('/{id}'));
    const list = await send({ method: 'GET', path: collection, headers: {}, kind: 'seed' }, own.testKey);
    for (const object of list.body?.data ?? []) {
      await send(
        { method: 'POST', path: op.path.replace('{id}', object.id), headers: {}, kind: 'seed' },
        own.testKey,
      );
    }
  }
  pool.own = await idsForPaths(own.testKey, ownObjects);
  // Body fields that name objects (a refund's transaction) get the caller's own ids too.
  const byPrefix = new Map<string, string[]>();
  for (const id of new Set(Object.values(pool.own).flat())) {
    const prefix = id.split('_')[0];
    byPrefix.set(prefix, [...(byPrefix.get(prefix) ?? []), id]);
  }
  arbitraries = new DocumentArbitraries(doc, byPrefix);
  pool.foreign = [
    ...otherObjects.values(),
    ...(await idsForPaths(other.testKey, otherObjects).then((m) => Object.values(m).flat())),
  ];
  // The live key of the same account: its objects are "another mode" for the test key.
  pool.foreign.push(...[...(await seedObjects(own.liveKey)).values()]);
  expect(Object.values(pool.own).flat().length).toBeGreaterThan(0);
  expect(pool.foreign.length).toBeGreaterThan(0);
}, 120_000);

afterAll(async () => {
  // A platform wedged by a finding must not hide the report behind a hanging stop.
  await Promise.race([platform?.stop(), new Promise((resolve) => setTimeout(resolve, 30_000).unref())]);
});

it(`keeps the contract for every operation (seed ${SEED}, ${RUNS} runs each)`, async () => {
  const failures: string[] = [];
  const reported = new Set<string>();
  const summary: string[] = [];
  // Deletions last: an endpoint deleted early would leave its sub-resources nothing to fuzz but 404s.
  const order = [...operations.entries()].sort(
    ([, a], [, b]) => Number(a.method === 'delete') - Number(b.method === 'delete'),
  );
  for (const [index, op] of order) {
    const statuses = new Map<number, number>();
    progress(`fuzzing ${op.label}`);
    const result = await fc.check(
      fc.asyncProperty(arbitraries.request(op, pool), async (request) => {
        const answer = await send(request);
        statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
        const found = violations(op, answer);
        if (found.length) {
          const report = `${op.label}: ${found.join('; ')}\n  request: ${request.method} ${request.path} (${request.kind})\n  headers: ${JSON.stringify(request.headers)}\n  body: ${JSON.stringify(request.body)?.slice(0, 500)}\n  answer: ${answer.status} ${JSON.stringify(answer.body).slice(0, 500)}`;
          // Printed at once: a server that hangs could keep the summary from ever printing.
          if (!reported.has(op.label)) process.stderr.write(`fuzz violation: ${report}\n`);
          reported.add(op.label);
          throw new Error(
            `${found.join('; ')}\n  request: ${request.method} ${request.path} (${request.kind})\n  headers: ${JSON.stringify(request.headers)}\n  body: ${JSON.stringify(request.body)?.slice(0, 500)}\n  answer: ${answer.status} ${JSON.stringify(answer.body).slice(0, 500)}`,
          );
        }
      }),
      // Each operation its own seed derived from the run's, so one operation's runs do not
      // shift when another operation is added.
      { seed: SEED + index, numRuns: RUNS, interruptAfterTimeLimit: 60_000, markInterruptAsFailure: false },
    );
    summary.push(
      `${op.label.padEnd(56)} ${String(result.numRuns).padStart(4)} runs  ${[...statuses]
        .sort(([a], [b]) => a - b)
        .map(([s, n]) => `${s}x${n}`)
        .join(' ')}`,
    );
    if (result.failed) {
      failures.push(
        `${op.label} (seed ${result.seed}, path ${result.counterexamplePath}):\n  ${String(
          (result.errorInstance as Error)?.message ?? result.errorInstance,
        )}`,
      );
    }
  }
  console.log(`contract fuzz, seed ${SEED}, ${operations.length} operations:\n${summary.join('\n')}`);
  expect(failures).toEqual([]);
  expect(operations.length).toBeGreaterThan(0);
}, 600_000);
