// JSON Schema (2020-12, the dialect of OpenAPI 3.1) as plain objects, and the small helpers
// the response schemas are written with. Kept dependency-free so every package can use them.

/** A JSON Schema object; loosely typed on purpose (it is data, validated by Ajv and Spectral). */
export interface JsonSchema {
  $ref?: string;
  type?: string | string[];
  description?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema;
  enum?: readonly unknown[];
  const?: unknown;
  examples?: unknown[];
  [keyword: string]: unknown;
}

/** Where the OpenAPI document keeps named schemas. */
export const SCHEMA_REF_PREFIX = '#/components/schemas/';

export const schemaRef = (name: string): JsonSchema => ({ $ref: `${SCHEMA_REF_PREFIX}${name}` });

/** An object whose properties are all required and that admits no others. */
export function strictObject(properties: Record<string, JsonSchema>, description?: string): JsonSchema {
  return {
    type: 'object',
    ...(description ? { description } : {}),
    properties,
    required: Object.keys(properties),
    additionalProperties: false,
  };
}

/** The same schema, also allowing null (OpenAPI 3.1 has no `nullable`). */
export function nullable(schema: JsonSchema): JsonSchema {
  const types = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : [];
  return {
    ...schema,
    type: [...types, 'null'],
    ...(schema.enum ? { enum: [...schema.enum, null] } : {}),
  };
}

export const timestamp = (description: string): JsonSchema => ({
  type: 'string',
  format: 'date-time',
  description,
  examples: ['2026-01-15T12:00:00.000Z'],
});

/** A prefixed object id (`mer_4fQ...`), as `newId` makes them. */
export const idOf = (prefix: string, description: string): JsonSchema => ({
  type: 'string',
  pattern: `^${prefix}_[0-9A-Za-z]{8,64}$`,
  description,
  examples: [`${prefix}_4fQk2nT8bW1xZc9LmP0aRs7e`],
});

/** metadata: string -> string, at most 50 keys, key <= 40 chars, value <= 500 chars. */
export const MetadataSchema: JsonSchema = {
  type: 'object',
  description: 'Your own key-value pairs: at most 50 keys of up to 40 characters, string values up to 500.',
  maxProperties: 50,
  propertyNames: { minLength: 1, maxLength: 40 },
  additionalProperties: { type: 'string', maxLength: 500 },
  examples: [{ order_id: '6735' }],
};

/** The list envelope of docs/api.md §4. */
export function listOf(item: string, url: string): JsonSchema {
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
