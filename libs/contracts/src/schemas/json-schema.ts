// JSON Schema (2020-12, the dialect of OpenAPI 3.1) as plain objects, and the small helpers
// the response schemas are written with. The helpers keep the literal type of what they build
// (`const` type parameters), so `FromContract<typeof XSchema>` (json-schema-to-ts) derives the
// TypeScript type of the object from the very data the OpenAPI document and Ajv use
// (docs/adr/0014-the-contract-schema-is-the-source.md).

import type { FromSchema, JSONSchema } from 'json-schema-to-ts';

/** A JSON Schema object; loosely typed on purpose (it is data, validated by Ajv and Spectral). */
export interface JsonSchema {
  $ref?: string;
  type?: string | readonly string[];
  description?: string;
  properties?: Record<string, JsonSchema>;
  required?: readonly string[];
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema;
  enum?: readonly unknown[];
  const?: unknown;
  examples?: readonly unknown[];
  [keyword: string]: unknown;
}

/** Where the OpenAPI document keeps named schemas. */
export const SCHEMA_REF_PREFIX = '#/components/schemas/';

export const schemaRef = <const Name extends string>(name: Name) => ({
  $ref: `${SCHEMA_REF_PREFIX}${name}` as `${typeof SCHEMA_REF_PREFIX}${Name}`,
});

/** An object whose properties are all required and that admits no others. */
export function strictObject<const Properties extends Readonly<Record<string, JsonSchema>>>(
  properties: Properties,
  description?: string,
): {
  readonly type: 'object';
  readonly description?: string;
  readonly properties: Properties;
  readonly required: readonly (keyof Properties & string)[];
  readonly additionalProperties: false;
} {
  return {
    type: 'object',
    ...(description ? { description } : {}),
    properties,
    required: Object.keys(properties) as (keyof Properties & string)[],
    additionalProperties: false,
  };
}

/** An object's `required` without `names`: properties the object carries only sometimes. */
export function withoutRequired<const Required extends string, const Omitted extends Required>(
  schema: { readonly required: readonly Required[] },
  ...names: Omitted[]
): Exclude<Required, Omitted>[] {
  return schema.required.filter((name) => !(names as string[]).includes(name)) as Exclude<
    Required,
    Omitted
  >[];
}

type TypesOf<Schema> = Schema extends { readonly type: infer T }
  ? T extends readonly string[]
    ? T
    : readonly [T]
  : readonly [];

/** What `nullable` makes of a schema: its types and enum (if any), each with null added. */
export type Nullable<Schema extends JsonSchema> = Omit<Schema, 'type' | 'enum'> & {
  readonly type: readonly [...TypesOf<Schema>, 'null'];
} & (Schema extends { readonly enum: infer Values extends readonly unknown[] }
    ? { readonly enum: readonly [...Values, null] }
    : unknown);

/** The same schema, also allowing null (OpenAPI 3.1 has no `nullable`). */
export function nullable<const Schema extends JsonSchema>(schema: Schema): Nullable<Schema> {
  const types = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : [];
  return {
    ...schema,
    type: [...types, 'null'],
    ...(schema.enum ? { enum: [...schema.enum, null] } : {}),
  } as unknown as Nullable<Schema>;
}

export const timestamp = (description: string) =>
  ({
    type: 'string',
    format: 'date-time',
    description,
    examples: ['2026-01-15T12:00:00.000Z'],
  }) as const;

/** A prefixed object id (`mer_4fQ...`), as `newId` makes them. */
export const idOf = (prefix: string, description: string) =>
  ({
    type: 'string',
    pattern: `^${prefix}_[0-9A-Za-z]{8,64}$`,
    description,
    examples: [`${prefix}_4fQk2nT8bW1xZc9LmP0aRs7e`],
  }) as const;

/** metadata: string -> string, at most 50 keys, key <= 40 chars, value <= 500 chars. */
export const MetadataSchema = {
  type: 'object',
  description: 'Your own key-value pairs: at most 50 keys of up to 40 characters, string values up to 500.',
  maxProperties: 50,
  propertyNames: { minLength: 1, maxLength: 40 },
  additionalProperties: { type: 'string', maxLength: 500 },
  examples: [{ order_id: '6735' }],
} as const satisfies JsonSchema;

/**
 * The TypeScript type of a response object, derived from its schema: what a serializer must
 * return. `$ref`s resolve against the named schemas (`#/components/schemas/Metadata`).
 */
export type FromContract<Schema extends JSONSchema> = FromSchema<
  Schema & { readonly components: { readonly schemas: { readonly Metadata: typeof MetadataSchema } } }
>;

/** The list envelope of docs/api.md §4. */
export function listOf<const Item extends string, const Url extends string>(item: Item, url: Url) {
  return strictObject(
    {
      object: { type: 'string', const: 'list' },
      data: { type: 'array', items: schemaRef(item), description: 'Newest first.' },
      has_more: { type: 'boolean', description: 'Whether another page follows this one.' },
      url: { type: 'string', const: url, description: 'The list endpoint.' },
    },
    `A page of ${item} objects.`,
  );
}
