// fast-check arbitraries derived from the OpenAPI document the platform serves: for every
// operation, requests that are valid-ish (built from the request schema: some optional
// fields, the required ones, values inside the bounds) or deliberately wrong (wrong types,
// unknown fields, missing required fields, huge numbers, floats for amounts, unicode, other
// tenants' ids). Nothing here knows a resource by name, so an operation added to the
// document is fuzzed without touching this file.

import fc from 'fast-check';

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

export interface Operation {
  method: string;
  /** The templated path, e.g. /v1/customers/{id}. */
  path: string;
  op: any;
  label: string;
}

export interface FuzzRequest {
  method: string;
  path: string;
  /** undefined: no body; a string: sent as is (not JSON-encoded). */
  body?: unknown;
  headers: Record<string, string>;
  /** What the generator meant to send, for the failure report. */
  kind: string;
}

/** Ids the generator can put into path templates: per parameter name, own and foreign ones. */
export interface IdPool {
  own: Record<string, string[]>;
  foreign: string[];
}

export const UNKNOWN_FIELD = 'fuzz_unknown_field';

/** Values that break a field whatever its schema says. */
export const nastyValue: fc.Arbitrary<Json> = fc.oneof(
  fc.constantFrom<Json>(
    null,
    true,
    0,
    -1,
    1.5,
    0.1,
    -0.0,
    1e21,
    2 ** 53 + 2,
    99999999999.5,
    100000000000,
    '',
    ' ',
    '1',
    '1.0',
    '99999999999999999999999',
    'NaN',
    'Infinity',
    '-0',
    '<script>alert(1)</script>',
    "'; drop table x; --",
    '\u0000',
    '\ud83d\ude00\u202e\u0301',
    'ÿ€€€',
    'txn_00000000000000000000',
    [],
    [null],
    {},
    { $gt: '' },
    { __proto__: { polluted: 'yes' } } as Json,
  ),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ minLength: 501, maxLength: 3000 }),
  fc.integer(),
  fc.double({ noNaN: true }),
  fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n }).map((n) => Number(n)),
  fc.array(fc.string({ maxLength: 5 }), { maxLength: 3 }),
);

/** A path parameter that is not an id of the caller: garbage, well-formed unknown, foreign. */
function foreignOrBrokenId(pool: IdPool): fc.Arbitrary<string> {
  return fc.oneof(
    fc.constantFrom(...(pool.foreign.length ? pool.foreign : ['x_00000000'])),
    fc.stringMatching(/^[a-z]{2,5}_[0-9A-Za-z]{8,30}$/),
    fc.constantFrom('0', '-1', '%00', '..', 'null', 'undefined', '%F0%9F%98%80', 'a'.repeat(300), '%ZZ'),
    fc.string({ unit: 'grapheme', minLength: 1, maxLength: 20 }).map(encodeURIComponent),
  );
}

export class DocumentArbitraries {
  /**
   * `ids`: ids of the caller's objects by prefix (txn, mer, ...): a body field whose pattern
   * is an id of that prefix names one of them as often as a made-up one, so valid-ish bodies
   * reach past the 404 (a refund of a real payment).
   */
  constructor(
    private readonly doc: any,
    private readonly ids: Map<string, string[]> = new Map(),
  ) {}

  resolve(node: any): any {
    let at = node;
    for (let hops = 0; at?.$ref && hops < 20; hops++) {
      at = at.$ref
        .split('/')
        .slice(1)
        .reduce((o: any, part: string) => o[part], this.doc);
    }
    return at;
  }

  /** A value the schema accepts (or nearly: formats and cross-field rules are not modelled). */
  valid(schemaNode: any, depth = 0): fc.Arbitrary<Json> {
    const schema = this.resolve(schemaNode) ?? {};
    const examples: Json[] = Array.isArray(schema.examples) ? schema.examples : [];
    const withExamples = (arb: fc.Arbitrary<Json>) =>
      examples.length ? fc.oneof(arb, fc.constantFrom(...examples)) : arb;
    if (schema.const !== undefined) return fc.constant(schema.const);
    if (schema.enum) return fc.constantFrom(...(schema.enum as Json[]));
    const variants = schema.oneOf ?? schema.anyOf;
    if (variants)
      return fc.oneof(...variants.map((v: any) => this.valid(v, depth + 1))) as fc.Arbitrary<Json>;
    const type = Array.isArray(schema.type) ? schema.type : [schema.type];
    if (type.length > 1)
      return fc.oneof(
        ...type.map((t: string) => this.valid({ ...schema, type: t }, depth)),
      ) as fc.Arbitrary<Json>;
    switch (type[0]) {
      case 'null':
        return fc.constant(null);
      case 'boolean':
        return fc.boolean();
      case 'integer':
        return withExamples(
          fc.integer({
            min: Math.max(schema.minimum ?? -1e9, Number.MIN_SAFE_INTEGER),
            max: Math.min(schema.maximum ?? 1e9, Number.MAX_SAFE_INTEGER),
          }),
        );
      case 'number':
        return withExamples(
          fc.double({ min: schema.minimum ?? -1e9, max: schema.maximum ?? 1e9, noNaN: true }),
        );
      case 'string':
        return withExamples(this.validString(schema));
      case 'array': {
        const min = schema.minItems ?? 0;
        const max = Math.min(schema.maxItems ?? 5, min + 4);
        return fc.array(depth > 4 ? fc.constant(null) : this.valid(schema.items ?? {}, depth + 1), {
          minLength: min,
          maxLength: max,
        });
      }
      case 'object':
      default:
        if (
          !schema.properties &&
          schema.additionalProperties &&
          typeof schema.additionalProperties === 'object'
        ) {
          // A map (metadata): a few keys of the allowed shape.
          return fc.dictionary(
            fc.stringMatching(/^[a-z_]{1,40}$/),
            this.valid(schema.additionalProperties, depth + 1),
            { maxKeys: Math.min(schema.maxProperties ?? 5, 5) },
          ) as fc.Arbitrary<Json>;
        }
        if (!schema.properties) return withExamples(fc.constant({}));
        return withExamples(this.validObject(schema, depth));
    }
  }

  private validString(schema: any): fc.Arbitrary<Json> {
    const minLength = schema.minLength ?? 0;
    const maxLength = Math.min(schema.maxLength ?? 40, 60);
    switch (schema.format) {
      case 'date-time':
        return fc
          .date({ min: new Date('2000-01-01'), max: new Date('2100-01-01'), noInvalidDate: true })
          .map((d) => d.toISOString());
      case 'date':
        return fc
          .date({ min: new Date('2000-01-01'), max: new Date('2100-01-01'), noInvalidDate: true })
          .map((d) => d.toISOString().slice(0, 10));
      case 'email':
        return fc.emailAddress();
      case 'uri':
      case 'url':
        return fc.webUrl();
      case 'currency':
        return fc.constantFrom('USD', 'eur', 'JPY', 'KWD', 'XXX', 'usd', 'GBP');
    }
    const known = this.ids.get(/^\^([a-z]+)_/.exec(schema.pattern ?? '')?.[1] ?? '') ?? [];
    if (schema.pattern) {
      const matching = fc.stringMatching(new RegExp(schema.pattern)).filter((s) => s.length <= 2048);
      return known.length ? fc.oneof(fc.constantFrom(...known), matching) : matching;
    }
    return fc.string({ unit: 'grapheme', minLength, maxLength: Math.max(minLength, maxLength) });
  }

  private validObject(schema: any, depth: number): fc.Arbitrary<Json> {
    const required: string[] = schema.required ?? [];
    const shape: Record<string, fc.Arbitrary<Json>> = {};
    for (const [name, property] of Object.entries<any>(schema.properties)) {
      shape[name] = depth > 4 ? fc.constant(null) : this.valid(property, depth + 1);
    }
    return fc.record(shape, { requiredKeys: required }) as fc.Arbitrary<Json>;
  }

  /** A body: valid-ish, or with one deliberate defect. */
  body(schemaNode: any): fc.Arbitrary<{ body: unknown; kind: string }> {
    const schema = this.resolve(schemaNode);
    const valid = this.valid(schema);
    const names = Object.keys(schema.properties ?? {});
    const required: string[] = schema.required ?? [];
    const variants: fc.Arbitrary<{ body: unknown; kind: string }>[] = [
      valid.map((body) => ({ body, kind: 'valid-ish body' })),
      fc.tuple(valid, fc.string({ minLength: 1, maxLength: 30 })).map(([body, name]) => ({
        body: { ...(body as object), [names.includes(name) ? UNKNOWN_FIELD : name || UNKNOWN_FIELD]: 'x' },
        kind: 'unknown field',
      })),
      fc
        .constantFrom<unknown>([], 'text', 42, null, '{"unterminated', '[1,2', 'null', '"string"', '\u0000')
        .map((body) => ({
          body: typeof body === 'string' ? body : JSON.stringify(body),
          kind: 'not an object',
        })),
    ];
    if (names.length) {
      variants.push(
        fc.tuple(valid, fc.constantFrom(...names), nastyValue).map(([body, name, value]) => ({
          body: { ...(body as object), [name]: value },
          kind: `wrong value for ${name}`,
        })),
      );
      variants.push(
        fc
          .tuple(valid, fc.constantFrom(...names), fc.array(nastyValue, { maxLength: 3 }))
          .map(([body, name, value]) => ({
            body: { ...(body as object), [name]: value },
            kind: `array for ${name}`,
          })),
      );
    }
    if (required.length) {
      variants.push(
        fc.tuple(valid, fc.constantFrom(...required)).map(([body, name]) => {
          const copy = { ...(body as Record<string, unknown>) };
          delete copy[name];
          return { body: copy, kind: `missing ${name}` };
        }),
      );
    }
    return fc.oneof(...variants);
  }

  /** Query parameters: valid-ish values of the declared ones, nasty values, unknown names. */
  query(op: Operation): fc.Arbitrary<{ query: string; kind: string }> {
    const params = (op.op.parameters ?? [])
      .map((p: any) => this.resolve(p))
      .filter((p: any) => p.in === 'query');
    if (!params.length) {
      return fc.oneof(
        fc.constant({ query: '', kind: 'no query' }),
        fc.constant({ query: `${UNKNOWN_FIELD}=1`, kind: 'unknown query parameter' }),
      );
    }
    const perParameter: fc.Arbitrary<readonly [string, Json]>[] = params.map(
      (p: any): fc.Arbitrary<readonly [string, Json]> => {
        const schema = this.resolve(p.schema);
        if (p.style === 'deepObject') {
          const keys = Object.keys(schema.properties ?? {});
          return fc
            .tuple(
              fc.constantFrom(...keys, 'eq', ''),
              fc.oneof(this.valid(schema.properties?.[keys[0]] ?? {}), nastyValue),
            )
            .map(([k, v]) => [`${p.name}[${k}]`, v] as const);
        }
        return fc
          .tuple(fc.constant(p.name as string), fc.oneof(this.valid(schema), nastyValue))
          .map((t) => t);
      },
    );
    const entry = fc.oneof(
      ...perParameter,
      nastyValue.map((v): readonly [string, Json] => [UNKNOWN_FIELD, v]),
    );
    return fc.array(entry, { maxLength: 4 }).map((entries) => ({
      query: entries
        .map(
          ([k, v]) =>
            `${encodeURIComponent(k)}=${encodeURIComponent(typeof v === 'string' ? v : JSON.stringify(v))}`,
        )
        .join('&'),
      kind: `query ${entries.map(([k]) => k).join(',') || '(none)'}`,
    }));
  }

  /** One request to the operation. */
  request(op: Operation, pool: IdPool): fc.Arbitrary<FuzzRequest> {
    const names = op.path.match(/\{(\w+)\}/g)?.map((n) => n.slice(1, -1)) ?? [];
    const pathArb = fc
      .tuple(
        ...names.map((name) => {
          const own = pool.own[`${op.path}:${name}`] ?? [];
          return own.length
            ? fc.oneof(
                { weight: 3, arbitrary: fc.constantFrom(...own) },
                { weight: 1, arbitrary: foreignOrBrokenId(pool) },
              )
            : foreignOrBrokenId(pool);
        }),
      )
      .map((values) => names.reduce((path, name, i) => path.replace(`{${name}}`, values[i]), op.path));
    const schema = op.op.requestBody?.content?.['application/json']?.schema;
    const bodyArb = schema
      ? this.body(schema)
      : fc.oneof(
          { weight: 4, arbitrary: fc.constant({ body: undefined as unknown, kind: 'no body' }) },
          {
            weight: op.method === 'post' ? 1 : 0,
            arbitrary: fc.constant({ body: { [UNKNOWN_FIELD]: 1 } as unknown, kind: 'unexpected body' }),
          },
        );
    const idempotency =
      op.method === 'post'
        ? fc.option(
            fc.oneof(
              fc.uuid(),
              fc.string({ minLength: 256, maxLength: 300 }),
              fc.constantFrom('', ' ', '\u00e9t\u00e9', 'k'.repeat(255)),
            ),
            { freq: 3 },
          )
        : fc.constant(null);
    return fc.tuple(pathArb, this.query(op), bodyArb, idempotency).map(([path, q, b, key]) => {
      const headers: Record<string, string> = {};
      // Header values must be Latin-1 for fetch; others cannot be sent by any HTTP client.
      if (key !== null && /^[\u0020-\u00ff]*$/.test(key)) headers['idempotency-key'] = key;
      return {
        method: op.method.toUpperCase(),
        path: q.query ? `${path}?${q.query}` : path,
        body: b.body,
        headers,
        kind: [b.kind, q.kind, key !== null ? 'idempotency-key' : ''].filter(Boolean).join('; '),
      };
    });
  }
}
