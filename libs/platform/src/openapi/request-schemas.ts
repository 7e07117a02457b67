// Request schemas from the class-validator DTOs, so a request is described by the very
// decorators that validate it. Every DTO schema forbids unknown properties
// (`additionalProperties: false`), as the validation pipe does (400 parameter_unknown).

import 'reflect-metadata';
import { SCHEMA_REF_PREFIX, schemaRef, type JsonSchema } from '@paygrid/contracts';
import { defaultMetadataStorage } from 'class-transformer/cjs/storage';
import { getMetadataStorage, IS_OPTIONAL, IS_URL, ValidationTypes } from 'class-validator';
import type { ValidationMetadata } from 'class-validator/types/metadata/ValidationMetadata';
import { targetConstructorToSchema } from 'class-validator-jsonschema';
import type { ISchemaConverters } from 'class-validator-jsonschema/build/defaultConverters';
import { getMetadataSchema } from 'class-validator-jsonschema/build/decorators';
import { DATE_LIKE_PATTERN } from '../http/pagination';

// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type -- DTO classes of any shape
export type DtoClass = Function;

/** `CreateMerchantDto` -> `CreateMerchant`. */
export const schemaNameOf = (dto: DtoClass): string => dto.name.replace(/Dto$/, '');

/** Unix seconds or an RFC 3339 timestamp, as `created[gt]` etc. accept them. */
const DATE_LIKE: JsonSchema = {
  type: 'string',
  pattern: DATE_LIKE_PATTERN,
  description: 'Unix seconds or an RFC 3339 timestamp.',
  examples: ['2026-01-01T00:00:00Z', '1767225600'],
};

/** The named DTO schemas one document needs, each class converted once. */
export class DtoSchemas {
  readonly schemas: Record<string, JsonSchema> = {};
  private readonly classes = new Map<string, DtoClass>();

  /** Registers the DTO (and the DTOs nested in it) and returns a reference to it. */
  ref(dto: DtoClass): JsonSchema {
    this.add(dto, true);
    return schemaRef(schemaNameOf(dto));
  }

  /** The DTO's schema itself (query DTOs become parameters); nested DTOs are registered. */
  inline(dto: DtoClass): JsonSchema {
    return this.convert(dto, { nullable: false });
  }

  private add(dto: DtoClass, nullable: boolean): void {
    const name = schemaNameOf(dto);
    const known = this.classes.get(name);
    if (known === dto) return;
    if (known) throw new Error(`Two request classes are both named ${name}; rename one.`);
    this.classes.set(name, dto);
    this.schemas[name] = this.convert(dto, { nullable });
  }

  /**
   * `nullable`: a body's `@IsOptional()` properties say they take `null` (the validation pipe
   * lets it through, and an update reads it as "clear this": `POST /v1/account`). Without it
   * the document called `null` invalid where the server takes it (Schemathesis ST201). Query
   * strings cannot carry a JSON null, so query DTOs (and the DTOs nested in them, such as
   * `created[lte]`) are documented as they are.
   */
  private convert(dto: DtoClass, { nullable }: { nullable: boolean }): JsonSchema {
    const nested: DtoClass[] = [];
    const converters: Record<string, JsonSchema | ((meta: ValidationMetadata) => JsonSchema)> = {
      [ValidationTypes.NESTED_VALIDATION]: (meta: ValidationMetadata) => {
        const target = meta.target as DtoClass;
        const declared = defaultMetadataStorage.findTypeMetadata(target, meta.propertyName);
        const child = (declared?.typeFunction() ??
          Reflect.getMetadata('design:type', target.prototype, meta.propertyName)) as DtoClass;
        nested.push(child);
        return schemaRef(schemaNameOf(child));
      },
      // Custom validators of libs/platform (validators.ts, pagination.ts), by name.
      isMetadata: schemaRef('Metadata'),
      isDateLike: DATE_LIKE,
      // An unknown custom validator adds no documented constraint (rather than a dangling $ref).
      [ValidationTypes.CUSTOM_VALIDATION]: {},
      [IS_URL]: { type: 'string', format: 'uri' },
    };
    const schema = targetConstructorToSchema(dto, {
      refPointerPrefix: SCHEMA_REF_PREFIX,
      classTransformerMetadataStorage: defaultMetadataStorage,
      // Our JsonSchema is the same JSON as the library's (openapi3-ts) type, only looser.
      additionalConverters: converters as unknown as ISchemaConverters,
    }) as JsonSchema;
    for (const child of nested) this.add(child, nullable);
    // `@IsObject() @ValidateNested()` and the like yield `{ $ref, type }`; the $ref says it all.
    for (const [name, property] of Object.entries(schema.properties ?? {})) {
      if (property.$ref) {
        const { $ref, description } = property;
        (schema.properties ?? {})[name] = description ? { $ref, description } : { $ref };
      }
    }
    if (nullable) {
      const optional = getMetadataStorage()
        .getTargetValidationMetadatas(dto, '', true, false)
        .filter((meta) => meta.name === IS_OPTIONAL)
        .map((meta) => meta.propertyName);
      for (const name of new Set(optional)) {
        const property = schema.properties?.[name];
        if (property) (schema.properties ?? {})[name] = orNull(property);
      }
    }
    // A DTO that only extends another resolves to its parent's schema; its own class-level
    // @JSONSchema (description, examples) still applies.
    const own = getMetadataSchema(dto.prototype as object, dto.name) as JsonSchema;
    return { ...schema, ...own, additionalProperties: false };
  }
}

/** `schema` or `null`, in the style of @paygrid/contracts' `nullable` (`type: [..., 'null']`). */
function orNull(schema: JsonSchema): JsonSchema {
  if (schema.$ref) {
    const { description, ...rest } = schema;
    return { ...(description ? { description } : {}), anyOf: [rest, { type: 'null' }] };
  }
  const withNullEnum = schema.enum ? { enum: [...schema.enum, null] } : {};
  // A hand-written alternative (`@JSONSchema({ oneOf: [...] })`, e.g. a time as unix seconds
  // or RFC 3339) takes null as one more alternative.
  if (schema.type === undefined && (schema.oneOf || schema.anyOf)) {
    const { description, ...rest } = schema;
    return { ...(description ? { description } : {}), anyOf: [rest, { type: 'null' }] };
  }
  if (schema.type === undefined) return { ...schema, ...withNullEnum };
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  return { ...schema, type: [...types, 'null'], ...withNullEnum };
}

/** Adds to a DTO's schema: `@JSONSchema({ examples: [...] })` on the class or a property. */
export { JSONSchema } from 'class-validator-jsonschema';
