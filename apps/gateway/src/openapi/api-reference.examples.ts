// The examples of /docs, generated from the document itself: a sample of any schema (its own
// `examples` first, else a value built from its type, format and pattern), and per operation
// a curl call and the same call through @paygrid/sdk. Generated, so they cannot drift from
// the contract; the browser test of /docs checks that each operation has both.

import type { JsonSchema } from '@paygrid/contracts';
import type { OperationObject, ParameterObject } from '@paygrid/platform';
import type { OpenApiDocument } from './openapi.document';

const refName = (ref: string) => ref.slice(ref.lastIndexOf('/') + 1);
/** An example of an id from its pattern (`^plink_[0-9A-Za-z]{8,64}$` -> `plink_8Xq2NfK4bT1z`). */
const idFrom = (pattern: unknown) => {
  const prefix = typeof pattern === 'string' ? /^\^([a-z]+_)/.exec(pattern)?.[1] : undefined;
  return prefix ? `${prefix}8Xq2NfK4bT1z` : undefined;
};

const STRING_FORMATS: Record<string, string> = {
  'date-time': '2026-01-15T09:30:00Z',
  date: '2026-01-15',
  uri: 'https://shop.example/return',
  email: 'jane@example.com',
  uuid: '7c1e4a52-3f0b-4d8e-9a61-2b5f0c9d4e13',
};

/** A plausible value of `schema` (`name` is the property it sits under, for a better guess). */
export function sampleOf(
  doc: OpenApiDocument,
  schema: JsonSchema | undefined,
  name = '',
  depth = 0,
): unknown {
  if (!schema || depth > 8) return null;
  if (schema.$ref) return sampleOf(doc, doc.components.schemas[refName(schema.$ref)], name, depth + 1);
  if (schema.examples?.length) return schema.examples[0];
  if (schema.const !== undefined) return schema.const;
  const nonNull = schema.enum?.filter((v) => v !== null);
  if (nonNull?.length) return nonNull[0];
  const choice = ((schema.oneOf ?? schema.anyOf) as JsonSchema[] | undefined)?.find((s) => s.type !== 'null');
  if (choice) return sampleOf(doc, choice, name, depth + 1);
  if (Array.isArray(schema.allOf))
    return Object.assign(
      {},
      ...(schema.allOf as JsonSchema[]).map((s) => sampleOf(doc, s, name, depth + 1) as object),
    );
  const type = (Array.isArray(schema.type) ? schema.type : [schema.type]).find((t) => t !== 'null');
  switch (type) {
    case 'object': {
      if (!schema.properties) return {};
      return Object.fromEntries(
        Object.entries(schema.properties).map(([key, value]) => [key, sampleOf(doc, value, key, depth + 1)]),
      );
    }
    case 'array':
      return schema.items ? [sampleOf(doc, schema.items, name, depth + 1)] : [];
    case 'integer':
    case 'number':
      if (typeof schema.minimum === 'number' && schema.minimum > 1) return schema.minimum;
      if (/amount|total|subtotal|price/.test(name)) return 2500;
      if (name === 'created' || name.endsWith('_at')) return 1768469400;
      return 1;
    case 'boolean':
      return false;
    case 'string':
      if (typeof schema.format === 'string' && STRING_FORMATS[schema.format])
        return STRING_FORMATS[schema.format];
      if (name === 'currency') return 'EUR';
      if (name === 'country') return 'FR';
      return idFrom(schema.pattern) ?? (name === 'email' ? 'jane@example.com' : name || 'string');
    default:
      return null;
  }
}

export interface OperationExamples {
  curl: string;
  sdk: string;
  /** The success answer's body, when it is JSON. */
  response?: { status: string; body: unknown };
}

const q = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;

/** curl and SDK calls of one operation, with the request body's example when it has one. */
export function examplesOf(
  doc: OpenApiDocument,
  path: string,
  method: string,
  op: OperationObject,
  parameters: ParameterObject[],
  body: JsonSchema | undefined,
): OperationExamples {
  const pathParams = parameters.filter((p) => p.in === 'path');
  const ids = Object.fromEntries(
    pathParams.map((p) => [p.name, idFrom(p.schema.pattern) ?? `${p.name}_123`]),
  );
  const concrete = path.replace(/\{(\w+)\}/g, (_, n: string) => ids[n] ?? n);
  const base = doc.servers[0]?.url ?? '';
  const payload = body ? (body.examples?.[0] ?? sampleOf(doc, body)) : undefined;
  const json = payload === undefined ? undefined : JSON.stringify(payload, null, 2);
  const upper = method.toUpperCase();
  const curl = [
    `curl${upper === 'GET' ? '' : ` -X ${upper}`} ${base}${concrete}`,
    '  -H "Authorization: Bearer $PAYGRID_KEY"',
    ...(json ? ["  -H 'content-type: application/json'", `  -d ${q(JSON.stringify(payload))}`] : []),
  ].join(' \\\n');
  const options = [
    ...(pathParams.length
      ? [`params: { path: { ${pathParams.map((p) => `${p.name}: '${ids[p.name]}'`).join(', ')} } }`]
      : []),
    ...(json ? [`body: ${json.replace(/\n/g, '\n  ')}`] : []),
  ];
  const call = `await paygrid.${upper}('${path}'${options.length ? `, {\n  ${options.join(',\n  ')},\n}` : ''});`;
  const sdk = `import { Paygrid } from '@paygrid/sdk';\n\nconst paygrid = new Paygrid(process.env.PAYGRID_KEY!, { baseUrl: '${base}' });\nconst answer = ${call}`;
  const success = Object.entries(op.responses).find(([status]) => status.startsWith('2'));
  const schema =
    success && !('$ref' in success[1]) ? success[1].content?.['application/json']?.schema : undefined;
  return {
    curl,
    sdk,
    ...(success && schema ? { response: { status: success[0], body: sampleOf(doc, schema) } } : {}),
  };
}
